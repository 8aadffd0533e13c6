// Power loss on the embedded engine (issue 15, ADR 007 addendum). The disk is modelled by what was synced: a file
// exists on the "disk after the power cut" only as it was at its last fsync, and a removal or rename reaches it at
// once. The app runs on a real data directory whose syncs also copy into that model; the power is cut (the model
// stops there, the process goes on as if the machine had died), a new app starts on the model, recovers, and must
// find every submission that was answered 200 — across a clean restart (a checkpoint) too. Uploaded files (issue 34)
// have a model of their own, as strict as a disk may be: a name exists after the cut only if its folder was synced
// after it was made, with the bytes its file had at its last sync.
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import type { FileSync } from '../storage/file-sync.ts';
import { createDiskStorage, newFileKey } from '../storage/storage.ts';
import { ownerRequests } from '../testing/owner-requests.ts';
import { createTestApp, signUpOwner, type TestApp } from '../testing/test-app.ts';
import { PDF, multipart } from '../testing/test-files.ts';
import { NO_RATE_LIMITS } from '../testing/test-population.ts';
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

/**
 * The uploads folder as a power cut leaves it, seen through the disk store's syncs: a folder's names as they were
 * at its last sync, each with the bytes its file (its inode: a rename or link keeps them) had at its last sync, or
 * none. `honourSyncs: false` is a disk that kept nothing not already there: the model can tell a missing sync.
 */
function modelFiles(options: { honourSyncs: boolean }) {
  let powered = true;
  const bytes = new Map<number, Buffer>();
  const names = new Map<string, Map<string, number>>();
  const inode = (path: string) => statSync(path, { throwIfNoEntry: false })?.ino;
  const sync: FileSync = {
    async file(path) {
      const ino = inode(path);
      if (powered && options.honourSyncs && ino !== undefined) bytes.set(ino, readFileSync(path));
    },
    async dir(path) {
      if (!powered || !options.honourSyncs) return;
      const listed = new Map<string, number>();
      for (const name of readdirSync(path)) {
        const ino = inode(join(path, name));
        if (ino !== undefined) listed.set(name, ino);
      }
      names.set(path, listed);
    },
  };
  return {
    sync,
    cut: () => {
      powered = false;
    },
    /** Writes what the disk kept of the folder `real` into `to`. */
    restore(real: string, to: string) {
      mkdirSync(to, { recursive: true });
      for (const [name, ino] of names.get(real) ?? [])
        writeFileSync(join(to, name), bytes.get(ino) ?? Buffer.alloc(0));
    },
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

async function embeddedApp(dataDir: string, disk?: Disk, fileSync?: FileSync): Promise<TestApp> {
  const t = await createTestApp({
    databaseUrl: undefined,
    dataDir,
    disk,
    fileSync,
    rateLimits: NO_RATE_LIMITS,
  });
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
  const as = ownerRequests(() => t);
  const owner = await signUpOwner(t);
  const created = await as(owner).post('/api/v1/length', { formTitle: 'Power' });
  const formId = created.json<Form>()._id;
  const added = await as(owner).post(`/api/text/${formId}`, { id: 1, name: 'Name', type: 'text' });
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

/**
 * Customers upload 20 files (each its own bytes) and get their 200s; the power is cut; a server started on what the
 * disk kept serves each acknowledged file through the link its answer gave. Returns the uploads that did not come
 * back whole.
 */
async function cutThePowerOnUploads(honourSyncs: boolean) {
  const real = await tempDir();
  const model = await tempDir();
  const disk = modelDisk(join(real, 'pgdata'), join(model, 'pgdata'), { honourWalFlush: true });
  const files = modelFiles({ honourSyncs });
  const t = await embeddedApp(real, disk.disk, files.sync);
  const acknowledged = (
    await Promise.all(
      Array.from({ length: 20 }, async (_, k) => {
        const bytes = Buffer.concat([PDF, Buffer.from(`% upload ${k}\n`)]);
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/profile',
          ...multipart(`f${k}.pdf`, bytes),
        });
        return res.statusCode === 200 ? { url: res.json<UploadResponse>().file, bytes } : null;
      }),
    )
  ).filter((upload) => upload !== null);
  disk.cut();
  files.cut();

  const after = await tempDir();
  cpSync(join(model, 'pgdata'), join(after, 'pgdata'), { recursive: true });
  files.restore(join(real, 'uploads'), join(after, 'uploads'));
  const recovered = await embeddedApp(after);
  const lost: string[] = [];
  for (const upload of acknowledged) {
    const res = await recovered.app.inject({ method: 'GET', url: upload.url });
    if (res.statusCode !== 200 || !res.rawPayload.equals(upload.bytes))
      lost.push(`${upload.url}: ${res.statusCode}`);
  }
  return { acknowledged: acknowledged.length, lost };
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

  it('keeps every uploaded file it answered 200, whole, on disk storage', async () => {
    const { acknowledged, lost } = await cutThePowerOnUploads(true);
    expect(acknowledged).toBe(20);
    expect(lost).toEqual([]);
  }, 120_000);

  it('would lose answered files without their syncs (the model can tell)', async () => {
    const { acknowledged, lost } = await cutThePowerOnUploads(false);
    expect(acknowledged).toBe(20);
    expect(lost).toHaveLength(20);
  }, 120_000);

  it('keeps a file a restore wrote, once the store has answered for it', async () => {
    const real = await tempDir();
    const after = await tempDir();
    const files = modelFiles({ honourSyncs: true });
    const storage = await createDiskStorage(real, 'unused', files.sync);
    const key = newFileKey();
    expect(await storage.put(key, Readable.from([PDF]))).toBe(PDF.length);
    files.cut();
    files.restore(join(real, 'uploads'), join(after, 'uploads'));
    expect(readFileSync(join(after, 'uploads', key))).toEqual(PDF);
  });
});
