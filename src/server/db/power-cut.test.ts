// Power loss on the embedded engine (issue 15, ADR 007 addendum). The disk is modelled by what was synced: a file
// exists on the "disk after the power cut" only as it was at its last fsync, and a removal or rename reaches it at
// once. The app runs on a real data directory whose syncs also copy into that model; the power is cut (the model
// stops there, the process goes on as if the machine had died), a new app starts on the model, recovers, and must
// find every submission that was answered 200 — across a clean restart (a checkpoint) too.
import { copyFileSync, cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import { createTestApp, signUpOwner, type TestApp } from '../test-app.ts';
import { NO_RATE_LIMITS } from '../test-population.ts';
import type { Disk } from './durable-dir.ts';

const isSegment = (path: string) => /pg_wal\/[0-9A-F]{24}$/.test(path);

/** The disk as a power cut leaves it: what was synced, and nothing after `cut()`. */
function modelDisk(
  real: string,
  model: string,
  options: { honourWalFlush: boolean; cutWhenWalRecycled?: boolean },
) {
  let powered = true;
  let cutInCheckpoint = false;
  const at = (path: string) => join(model, relative(real, path));
  const keep = (path: string) => {
    if (!powered || !existsSync(path)) return;
    mkdirSync(dirname(at(path)), { recursive: true });
    copyFileSync(path, at(path));
  };
  const disk: Disk = {
    syncFile: (path) => keep(path),
    syncFileAsync: async (path) => {
      if (options.honourWalFlush) keep(path);
    },
    syncDir: (path) => {
      if (powered) mkdirSync(at(path), { recursive: true });
    },
    removed: (path) => {
      if (!powered) return;
      rmSync(at(path), { recursive: true, force: true });
      if (options.cutWhenWalRecycled && isSegment(path)) cutInCheckpoint = !(powered = false);
    },
    renamed: (from, to) => {
      if (!powered) return;
      if (existsSync(at(from))) {
        mkdirSync(dirname(at(to)), { recursive: true });
        renameSync(at(from), at(to));
      }
      // The checkpoint has just let go of an old WAL segment: the power fails right there.
      if (options.cutWhenWalRecycled && isSegment(from)) cutInCheckpoint = !(powered = false);
    },
  };
  return {
    disk,
    cut: () => {
      powered = false;
    },
    cutInCheckpoint: () => cutInCheckpoint,
  };
}

const open: TestApp[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'easyform-power-'));
  dirs.push(dir);
  return dir;
}

async function embeddedApp(dataDir: string, disk?: Disk): Promise<TestApp> {
  const t = await createTestApp({ databaseUrl: undefined, dataDir, disk, rateLimits: NO_RATE_LIMITS });
  open.push(t);
  return t;
}

/** Customers submit `count` responses, 25 at a time; the ids of those answered 200. */
async function submitMany(t: TestApp, ownerId: string, form: Form, count: number, tag: string) {
  const name = fieldsOf(form)[0]?._id ?? '';
  const acknowledged: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - start) }, (_, k) =>
        t.app.inject({
          method: 'POST',
          url: `/api/forms/${ownerId}`,
          payload: { formStructureId: form._id, textObject: { [name]: `${tag} ${start + k}` } },
        }),
      ),
    );
    for (const res of batch) if (res.statusCode === 200) acknowledged.push(res.json<{ _id: string }>()._id);
  }
  return acknowledged;
}

/** Runs the two phases on the real directory and returns what a server started after the power cut finds. */
async function cutThePower(honourWalFlush: boolean, cutWhenWalRecycled = false) {
  const real = await tempDir();
  const model = await tempDir();
  const disk = modelDisk(join(real, 'pgdata'), join(model, 'pgdata'), { honourWalFlush, cutWhenWalRecycled });

  // Phase 1: an owner, a form, 100 responses, then a clean stop (a checkpoint recycles the WAL).
  let t = await embeddedApp(real, disk.disk);
  const owner = await signUpOwner(t);
  const auth = { authorization: `Bearer ${owner.token}` };
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/length',
    headers: auth,
    payload: { formTitle: 'Power' },
  });
  const formId = created.json<Form>()._id;
  const added = await t.app.inject({
    method: 'POST',
    url: `/api/text/${formId}`,
    headers: auth,
    payload: { id: 1, name: 'Name', type: 'text' },
  });
  const form = added.json<Form>();
  const acknowledged = await submitMany(t, owner.id, form, 100, 'before the restart');
  // A new WAL segment, so the stop's checkpoint lets go of the old one (recycles or removes it).
  await t.app.db.query('select pg_switch_wal()');
  await t.close();
  open.splice(open.indexOf(t), 1);
  if (disk.cutInCheckpoint()) return recover(model, acknowledged, true);

  // Phase 2: started again on the same directory; 200 more responses, and the power goes.
  t = await embeddedApp(real, disk.disk);
  acknowledged.push(...(await submitMany(t, owner.id, form, 200, 'before the cut')));
  disk.cut();
  return recover(model, acknowledged, false);
}

/** The machine comes back with what the disk kept: a server starts on it and looks for every answered submission. */
async function recover(model: string, acknowledged: string[], cutInCheckpoint: boolean) {
  const after = await tempDir();
  cpSync(join(model, 'pgdata'), join(after, 'pgdata'), { recursive: true });
  const recovered = await embeddedApp(after);
  const rows = await recovered.app.db.query<{ id: string }>('select id::text from submissions');
  const found = new Set(rows.map((r) => r.id));
  return { acknowledged, missing: acknowledged.filter((id) => !found.has(id)), cutInCheckpoint };
}

describe('the embedded engine after a power cut', () => {
  it('keeps every submission it answered 200, across a clean restart', async () => {
    const { acknowledged, missing } = await cutThePower(true);
    expect(acknowledged).toHaveLength(300);
    expect(missing).toEqual([]);
  }, 120_000);

  it('keeps them when the power fails in the middle of a checkpoint', async () => {
    const { acknowledged, missing, cutInCheckpoint } = await cutThePower(true, true);
    expect(cutInCheckpoint).toBe(true);
    expect(acknowledged).toHaveLength(100);
    expect(missing).toEqual([]);
  }, 120_000);

  it('would lose answered submissions without the WAL flush (the model can tell)', async () => {
    const { acknowledged, missing } = await cutThePower(false).catch((error: Error) => ({
      acknowledged: [],
      missing: [error.message],
    }));
    // Either the server does not even start on what is left, or answered submissions are gone.
    expect(acknowledged.length === 0 || missing.length > 0).toBe(true);
  }, 120_000);
});
