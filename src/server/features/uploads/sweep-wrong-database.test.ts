// Issue 34, item 3: a server started against the wrong database (a DATABASE_URL typo, a new database before the
// restore, a staging instance on the production bucket) used to delete every file of the store it found there in its
// start-up sweep. Here the real app starts on a new database beside a store another instance filled, on disk and in
// S3, and must leave every file where it is, say so in one line, and still serve.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createForm,
  createTestApp,
  signUpOwner,
  storedKeys,
  TEST_ENGINE,
  type TestApp,
} from '../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../testing/test-files.ts';
import { keptStore, logLines, type KeptStore } from './test-fixture.ts';

const TWO_HOURS = 2 * 60 * 60 * 1000;
/** A line of the start-up sweep: the one saying it is off, or (before the fix) the one counting what it deleted. */
const SWEEP_LINE = /file sweep is off|no upload names/;

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited > 20_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An instance's customers upload `count` files into the store, then the instance stops. */
async function fillStore(store: KeptStore, count: number): Promise<string[]> {
  const first = await createTestApp(store.config);
  try {
    const owner = await signUpOwner(first);
    const form = await createForm(first, owner.token, { template: 'travel' });
    for (let i = 0; i < count; i++) {
      const res = await first.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        ...(i % 2 ? multipart(`scan ${i}.pdf`, PDF) : multipart(`photo ${i}.png`, PNG)),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    return await storedKeys(first);
  } finally {
    await first.close();
  }
}

describe.each(['disk', 'S3'] as const)(`the start-up sweep (${TEST_ENGINE}, files on %s)`, (backend) => {
  let store: KeptStore;
  let second: TestApp | undefined;
  beforeEach(async () => {
    store = await keptStore(backend);
  });
  afterEach(async () => {
    await second?.close();
    second = undefined;
    await store.drop();
  });

  it('on a new database beside a used store moves and deletes no file, says why in one line, and serves', async () => {
    const files = await fillStore(store, 4);
    expect(files).toHaveLength(4);
    // Uploaded long enough ago for the sweep to consider them.
    await store.age(TWO_HOURS);

    const log = logLines();
    second = await createTestApp({ ...store.config, logLevel: 'info', logStream: log.stream });
    await second.app.ready();
    await waitFor(() => log.lines.some((line) => SWEEP_LINE.test(line)), 'the start-up sweep');

    expect(await storedKeys(second)).toEqual(files);
    const said = log.lines.filter((line) => SWEEP_LINE.test(line));
    expect(said).toHaveLength(1);
    const { level, msg } = JSON.parse(said[0] ?? '{}') as { level: number; msg: string };
    expect(level).toBe(50);
    expect(msg).toContain('the file store holds files but the database names no uploaded file');
    expect(msg).toContain('Check DATABASE_URL, DATA_DIR and STORAGE_URL');
    expect((await second.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
