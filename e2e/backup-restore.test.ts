// What an operator does (issue 15, docs/operations.md): `npm run backup` while the server serves, `npm run restore`
// into an empty DATA_DIR (refused the second time), a server started on the restore serving the same responses and
// file bytes; and, when a PostgreSQL server is given (`bash .ci/run`), `npm run move-to-postgres` from the embedded
// instance into an empty database, served from there.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { requestBackup } from '../src/server/features/backup/backup-socket.ts';
import { multipart, PDF } from '../src/server/testing/test-files.ts';
import { apiCall } from './support/api.ts';
import { createOwner, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const RESPONSES = 30;

/** `npm run <script> -- args` as an operator types it, with the instance's settings; its exit code and messages. */
function npmRun(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const clean = { ...process.env };
  for (const name of ['DATABASE_URL', 'TEST_DATABASE_URL', 'STORAGE_URL', 'DATA_DIR', 'NODE_ENV'])
    delete clean[name];
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: root,
      env: { ...clean, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

async function submit(
  server: RunningServer,
  owner: TestOwner,
  form: Form,
  i: number,
  withFile = i % 3 === 0,
) {
  const [name] = form.textField;
  const [file] = form.fileField;
  let fileObject = {};
  if (withFile && file) {
    const body = multipart(`scan-${i}.pdf`, PDF);
    const upload = await fetch(`${server.url}/api/profile?formId=${form._id}`, {
      method: 'POST',
      headers: body.headers,
      body: new Uint8Array(body.payload),
    });
    const u = (await upload.json()) as { _id: string; file: string; name: string };
    fileObject = { [file._id]: { deleteId: u._id, value: u.file, originalName: u.name } };
  }
  const res = await fetch(`${server.url}/api/forms/${owner.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      formStructureId: form._id,
      textObject: { [name?._id ?? '']: `Customer ${i}` },
      fileObject,
    }),
  });
  return res.status;
}

/** What the owner sees on a server: the number of responses, and the bytes of every file they can download. */
async function ownerView(server: RunningServer, owner: TestOwner, formId: string) {
  const login = await apiCall<{ token: string }>(server, '/api/v1/login', {
    body: { email: owner.email, password: owner.password },
  });
  const page = await apiCall<{ total: number; items: { _id: string }[] }>(
    server,
    `/api/formSubmissions/${formId}?limit=100`,
    { token: login.token },
  );
  const files = new Map<string, number>();
  for (const item of page.items) {
    const one = await fetch(`${server.url}/api/forms/${item._id}`, {
      headers: { authorization: `Bearer ${login.token}` },
    });
    for (const [url, id] of (await one.text()).matchAll(/\/files\/([\w-]+)[^"\\]*/g)) {
      const file = await fetch(`${server.url}${url}`);
      expect(file.status).toBe(200);
      files.set(id ?? '', Buffer.from(await file.arrayBuffer()).length);
    }
  }
  return { total: page.total, files: [...files.values()] };
}

describe('backup, restore and the move to PostgreSQL, as commands', () => {
  let work: string;
  let source: string;
  let server: RunningServer;
  let owner: TestOwner;
  let form: Form;
  let expected: Awaited<ReturnType<typeof ownerView>>;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'easyform-ops-'));
    source = join(work, 'source');
    server = await startServer({ dataDir: source });
    owner = await createOwner(server);
    form = await apiCall<Form>(server, '/api/v1/length', {
      body: { formTitle: 'Kept safe' },
      token: owner.token,
    });
    await apiCall(server, `/api/text/${form._id}`, {
      body: { id: 1, name: 'Name', type: 'text' },
      token: owner.token,
    });
    form = await apiCall<Form>(server, `/api/text/${form._id}`, {
      body: { id: 5, name: 'Scan' },
      token: owner.token,
    });
    for (let i = 0; i < RESPONSES; i += 1) expect(await submit(server, owner, form, i)).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('backs up a serving instance and restores it into an empty one, which serves the same', async () => {
    const archive = join(work, 'nightly.tar.gz');
    // Customers go on submitting while the backup runs: none is refused.
    const during = Promise.all(
      Array.from({ length: 10 }, (_, i) => submit(server, owner, form, RESPONSES + i, false)),
    );
    const backup = await npmRun('backup', [archive], { DATA_DIR: source });
    expect(backup.stderr).toMatch(
      /Backup written to .*nightly\.tar\.gz: 1 accounts, 1 forms, \d+ submissions, \d+ files/,
    );
    expect(backup.code).toBe(0);
    expect(await during).toEqual(Array(10).fill(200));
    expect((await stat(archive)).size).toBeGreaterThan(PDF.length);
    const backedUp = Number(/(\d+) submissions/.exec(backup.stderr)?.[1]);
    expect(backedUp).toBeGreaterThanOrEqual(RESPONSES);

    const target = join(work, 'restored');
    const restore = await npmRun('restore', [archive], { DATA_DIR: target });
    expect(restore.stderr).toContain(`Restored 1 accounts, 1 forms, ${backedUp} submissions`);
    expect(restore.code).toBe(0);
    const again = await npmRun('restore', [archive], { DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The target database is not empty (it holds 1 accounts');

    const restored = await startServer({ dataDir: target });
    try {
      const view = await ownerView(restored, owner, form._id);
      expect(view.total).toBe(backedUp);
      expect(view.files.length).toBe(Math.ceil(RESPONSES / 3));
      expect(view.files.every((size) => size === PDF.length)).toBe(true);
    } finally {
      await restored.stop();
    }
  }, 300_000);

  it('says in one line what is wrong with a backup file it cannot write or a restore file it cannot read', async () => {
    const nowhere = join(work, 'no-such-folder', 'x.tar.gz');
    const written = await npmRun('backup', [nowhere], { DATA_DIR: source });
    expect(written.code).toBe(1);
    expect(written.stderr.trim()).toBe(
      `Cannot write the backup to ${nowhere}: the folder ${join(work, 'no-such-folder')} does not exist`,
    );
    const empty = join(work, 'empty-target');
    const notTar = join(work, 'notes.tar.gz');
    await writeFile(notTar, 'these are my notes, not a backup\n');
    const cut = join(work, 'cut.tar.gz');
    await writeFile(cut, gzipSync(Buffer.alloc(64 * 1024, 7)).subarray(0, 200));
    for (const [file, says] of [
      [
        notTar,
        /^This backup cannot be read to its end \(.+\): it is cut short, damaged, or not an Easy Form backup\. Nothing was restored\.$|^This is not an Easy Form backup/,
      ],
      [
        cut,
        /^This backup cannot be read to its end \(.+\): it is cut short, damaged, or not an Easy Form backup\. Nothing was restored\.$/,
      ],
      [work, /^.+ is a folder: name the backup file in it$/],
    ] as const) {
      const restored = await npmRun('restore', [file], { DATA_DIR: empty });
      expect(restored.code, restored.stderr).toBe(1);
      expect(restored.stderr.trim()).toMatch(says);
      expect(restored.stderr).not.toMatch(/\n\s+at /);
    }
    // Refused before anything was made: no database was created where the restore was pointed.
    expect(existsSync(join(empty, 'pgdata'))).toBe(false);
  }, 120_000);

  it('survives a backup client that goes away halfway', async () => {
    const res = await requestBackup(source);
    expect(res?.statusCode).toBe(200);
    for await (const chunk of res!) {
      expect((chunk as Buffer).length).toBeGreaterThan(0);
      res!.destroy();
      break;
    }
    // The server goes on serving, and the next backup is whole.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const next = await npmRun('backup', [join(work, 'after-abort.tar')], { DATA_DIR: source });
    expect(next.code).toBe(0);
  }, 120_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    'moves the embedded instance into an empty PostgreSQL database, refused while its server runs',
    async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const name = `easyform_move_${Date.now().toString(36)}`;
      await admin.query(`create database ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      url.pathname = `/${name}`;
      try {
        const refused = await npmRun('move-to-postgres', [], {
          DATA_DIR: source,
          DATABASE_URL: url.toString(),
        });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('first: responses arriving during the move would be left behind');

        expected = await ownerView(server, owner, form._id);
        await server.stop();
        const moved = await npmRun('move-to-postgres', [], {
          DATA_DIR: source,
          DATABASE_URL: url.toString(),
        });
        expect(moved.stderr).toMatch(
          /Moved 1 accounts, 1 forms, \d+ submissions, \d+ files .* into PostgreSQL/,
        );
        expect(moved.code).toBe(0);

        const onPostgres = await startServer({ dataDir: source, env: { DATABASE_URL: url.toString() } });
        try {
          expect(await ownerView(onPostgres, owner, form._id)).toEqual(expected);
          expect(await submit(onPostgres, owner, form, 999)).toBe(200);
        } finally {
          await onPostgres.stop();
        }
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    300_000,
  );
});
