// Issue 14's proof: two app processes on one PostgreSQL, files in S3-compatible storage (s3rver), one SMTP capture,
// driven alternately. Runs where PostgreSQL is (`.ci/run` and `npm run test:pg` set TEST_DATABASE_URL).
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '../src/common/forms.ts';
import { startMailCapture, type MailCapture } from '../src/server/testing/mail-capture.ts';
import { startS3TestServer, type S3TestServer } from '../src/server/testing/s3-test-server.ts';
import { throwawayDatabase } from '../src/server/testing/throwaway-database.ts';
import { createOwner, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

const postgres = process.env.TEST_DATABASE_URL;
if (!postgres)
  console.warn('e2e/scale-out.test.ts SKIPPED: it needs PostgreSQL (TEST_DATABASE_URL, set by .ci/run)');

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]);

let database: { url: string; drop(): Promise<void> };
let s3: S3TestServer;
let mail: MailCapture;
let a: RunningServer;
let b: RunningServer;
let owner: TestOwner;
let form: Form;

const createDatabase = () => throwawayDatabase(postgres ?? '', 'easyform_scale');

async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function ownerCall<T>(server: RunningServer, path: string, body?: object): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const fieldId = (name: string) => fieldsOf(form).find((f) => f.name === name)?._id ?? name;

function submit(server: RunningServer, name: string, key: string, fileObject: object = {}) {
  return fetch(`${server.url}/api/forms/${owner.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({
      formStructureId: form._id,
      textObject: { [fieldId('Name')]: name },
      selectedValues: {},
      fileObject,
    }),
  });
}

describe.skipIf(!postgres)('two app processes on one PostgreSQL with files in S3-compatible storage', () => {
  beforeAll(async () => {
    database = await createDatabase();
    s3 = await startS3TestServer();
    mail = await startMailCapture();
    const env = {
      DATABASE_URL: database.url,
      STORAGE_URL: s3.storageUrl('scale-out'),
      // Four guesses at one account; submissions from this one address unbounded, for the load below.
      RATE_LIMITS: JSON.stringify({
        loginPerEmail: { max: 4, windowMs: 600_000 },
        submissionsPerIp: { max: 1_000_000, windowMs: 60_000 },
      }),
    };
    // Started together: the migrations run once, under their advisory lock.
    [a, b] = await Promise.all([startServer({ env, mail }), startServer({ env, mail })]);
    owner = await createOwner(a);
    const created = await ownerCall<Form>(a, '/api/v1/length', { formTitle: 'Two processes' });
    await ownerCall<Form>(b, `/api/text/${created._id}`, { id: 1, name: 'Name', type: 'text' });
    form = await ownerCall<Form>(a, `/api/text/${created._id}`, { id: 5, name: 'Scan' });
  }, 300_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await mail?.close();
    await s3?.close();
    await database?.drop();
  });

  it('counts a login rate limit across both processes', async () => {
    const statuses: number[] = [];
    const email = `someone.${Date.now()}@example.com`;
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${(i % 2 ? b : a).url}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong guess ${i}` }),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    // Four guesses in all, two on each process, then both refuse: not four on each.
    expect(statuses.slice(0, 4)).not.toContain(429);
    expect(statuses.slice(4)).toEqual([429, 429]);
  });

  it('takes an upload through one, a submission claiming it through the other, and serves the file through either', async () => {
    const body = new FormData();
    body.append('file', new Blob([PDF], { type: 'application/pdf' }), 'scan.pdf');
    const uploaded = await fetch(`${a.url}/api/profile?formId=${form._id}`, { method: 'POST', body });
    expect(uploaded.status).toBe(200);
    const file = (await uploaded.json()) as { _id: string; file: string };
    const stored = await submit(b, 'With a file', randomUUID(), {
      [fieldId('Scan')]: { deleteId: file._id, originalName: 'scan.pdf' },
    });
    expect(stored.status, await stored.clone().text()).toBe(200);
    const { _id } = (await stored.json()) as { _id: string };
    const submission = JSON.stringify(await ownerCall<unknown>(a, `/api/forms/${_id}`));
    const url = /\/files\/[^"]+/.exec(submission)?.[0];
    expect(url).toBeDefined();
    for (const server of [a, b]) {
      const download = await fetch(`${server.url}${url}`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
    }
  });

  it('delivers each of 200 queued mails exactly once between them', async () => {
    const tag = `fanout${Date.now()}`;
    const addresses = Array.from({ length: 200 }, (_, i) => `${tag}.${i}@example.com`);
    // Queued as a feature's transaction queues them; both processes' senders find them on their next poll.
    await sql(
      `insert into mail_outbox (to_address, subject, text_body)
       select unnest($1::text[]), 'One of 200', 'hello'`,
      [addresses],
    );
    const received = () => mail.mails.flatMap((m) => m.to).filter((to) => to.startsWith(tag));
    const deadline = Date.now() + 60_000;
    while (received().length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    // A little longer, for a second copy that would come late.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(received().sort()).toEqual([...addresses].sort());
    const [sent] = await sql<{ n: string }>(
      `select count(*) as n from mail_outbox where to_address like $1 and sent_at is not null`,
      [`${tag}%`],
    );
    expect(Number(sent?.n)).toBe(200);
  });

  it('loses no acknowledged submission and duplicates none when one process is killed (kill -9) under load', async () => {
    const logical = Array.from({ length: 300 }, (_, i) => ({ name: `load ${i}`, key: randomUUID() }));
    const acknowledged = new Set<string>();
    const refused: string[] = [];
    let killed = false;
    let next = 0;
    // Eight customers, alternating between the processes; a failed request is sent again to the survivor with the
    // same Idempotency-Key, as the customer page does.
    const customer = async () => {
      while (next < logical.length) {
        const job = logical[next++]!;
        const first = next % 2 === 0 && !killed ? a : b;
        for (const server of [first, b, b, b]) {
          const response = await submit(server, job.name, job.key).catch(() => null);
          if (response?.status === 200) {
            acknowledged.add(job.name);
            break;
          }
          refused.push(response ? `${response.status} ${await response.text()}` : 'no answer');
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, customer));
    while (next < 100) await new Promise((r) => setTimeout(r, 20));
    killed = true;
    expect(await a.signal('SIGKILL')).toBeNull();
    await load;
    expect(acknowledged.size, refused.slice(0, 5).join('\n')).toBe(logical.length);
    // Name is the form's first question: each stored submission's first answer.
    const rows = await sql<{ name: string; n: string }>(
      `select answers -> 0 ->> 'value' as name, count(*) as n from submissions
        where form_id = $1 and answers -> 0 ->> 'value' like 'load %' group by 1`,
      [form._id],
    );
    expect(rows.length).toBe(logical.length);
    expect(rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
  });
});

describe.skipIf(!postgres)('WORKERS=2: one primary, two server processes on one port', () => {
  it('replaces a worker killed while serving, even twice in a row, and on SIGTERM logs each one stopping and exits 0', async () => {
    const database = await createDatabase();
    // The primary's lines about its workers are at the info level, which the journeys' servers leave out by default.
    const server = await startServer({
      env: { DATABASE_URL: database.url, WORKERS: '2', LOG_LEVEL: 'info' },
    });
    /** The workers the primary has said are serving, once there are `count` of them. */
    const servingPids = async (count: number) => {
      for (let i = 0; i < 300; i++) {
        const pids = [...server.output().matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));
        if (pids.length >= count) return pids;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`fewer than ${count} workers served:\n${server.output()}`);
    };
    try {
      const [first] = await servingPids(2);
      process.kill(first ?? 0, 'SIGKILL');
      const replacement = (await servingPids(3))[2];
      // Killed again within seconds of its start: a worker that had served, so it is replaced, not a failed start.
      process.kill(replacement ?? 0, 'SIGKILL');
      await servingPids(4);
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      expect(server.output().match(/exited \(signal SIGKILL\); starting another/g)).toHaveLength(2);
      expect(server.output()).not.toMatch(/stopping/);

      expect(await server.signal('SIGTERM')).toBe(0);
      expect(server.output().match(/worker \d+ stopped/g)).toHaveLength(2);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);

  it('answers a scrape of /metrics for both workers at once: counts never go back between scrapes', async () => {
    const database = await createDatabase();
    const token = 'a-metrics-token-of-32-characters';
    const server = await startServer({
      env: { DATABASE_URL: database.url, WORKERS: '2', METRICS_TOKEN: token, LOG_LEVEL: 'info' },
    });
    /** A GET on a connection of its own: the primary hands new connections to the workers in turn. */
    const get = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.get(`${server.url}${path}`, { agent: false, headers }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
      });
    // A route only this test asks for.
    const asked = 24;
    const counted = async () => {
      const { status, body } = await get('/metrics', { authorization: `Bearer ${token}` });
      expect(status, body).toBe(200);
      const lines = body.matchAll(
        /^easyform_http_requests_total\{[^}]*route="\/robots\.txt"[^}]*\} (\d+)$/gm,
      );
      return [...lines].reduce((sum, line) => sum + Number(line[1]), 0);
    };
    try {
      for (let i = 0; i < 100 && (server.output().match(/worker \d+ serving/g) ?? []).length < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < asked; i++) expect((await get('/robots.txt')).status).toBe(200);
      for (let scrape = 0; scrape < 4; scrape++) expect(await counted()).toBe(asked);
    } finally {
      await server.stop();
      await database.drop();
    }
  }, 120_000);
});
