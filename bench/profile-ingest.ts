// Profiles the submission route under the bench's load: `node --import tsx bench/profile-ingest.ts [dir] [--webhook]`.
// Starts the server with --cpu-prof, runs one autocannon round and prints self time by package and function.
// --webhook gives the form one webhook to a receiver on 127.0.0.1 (bench/receiver.ts), as the ingest bench's "on" form.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMailCapture } from '../src/server/testing/mail-capture.ts';
import { autocannon } from './load.ts';
import { api, createForm, signUpOwner, submissionBody } from './owner.ts';
import { summarise } from './profile-summary.ts';
import { startReceiver } from './receiver.ts';
import { startBenchServer } from './server.ts';

const args = process.argv.slice(2);
const withWebhook = args.includes('--webhook');
const dir = args.find((a) => !a.startsWith('--')) ?? (await mkdtemp(join(tmpdir(), 'easyform-profile-')));
const databaseUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const mail = await startMailCapture();
const receiver = await startReceiver();
const server = await startBenchServer({
  dataDir: join(dir, 'data'),
  databaseUrl,
  mail,
  nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
});
try {
  const owner = await signUpOwner(server.url, mail);
  const form = await createForm(server.url, owner);
  if (withWebhook)
    await api(server.url, owner.token, 'POST', `/api/formWebhooks/${form._id}`, { url: receiver.url });
  const bodyFile = join(dir, 'submission.json');
  await writeFile(bodyFile, JSON.stringify(submissionBody(form)));
  const post = ['-m', 'POST', '-H', 'content-type=application/json', '-i', bodyFile];
  const r = await autocannon(`${server.url}/api/forms/${owner.id}`, post);
  console.log(`${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}`);
  if (withWebhook) console.log(`${receiver.received()} webhook deliveries received by the end of the load`);
} finally {
  await server.stop();
  await receiver.close();
  await mail.close();
}
const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
console.log(`${join(dir, file)}\n${summarise(JSON.parse(await readFile(join(dir, file), 'utf8')), 25)}`);
