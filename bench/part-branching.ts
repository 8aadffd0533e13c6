// Part 11: the public form of a large branching form (10 pages, 50 questions): what its first page costs a phone
// before any script, whether the script before the first touch stays the small entry, Lighthouse's LCP, and Next
// without JavaScript under 10 connections.
import type { Browser } from 'playwright-core';
import { launchBrowser, PHONE } from '../e2e/support/browser.ts';
import type { Form } from '../src/common/forms.ts';
import type { FormItem } from '../src/common/logic/items.ts';
import { gzipSize } from './baseline-page.ts';
import type { BenchRun } from './bench-run.ts';
import { benchFirstVisit, sumGzip } from './first-visit.ts';
import { runLighthouse, TARGET_LIGHTHOUSE_RUNS } from './lighthouse.ts';
import { autocannon, CONNECTIONS } from './load.ts';
import { api, createForm, signUpOwner, type BenchOwner } from './owner.ts';
import { fmt } from './report.ts';
import { startBenchServer } from './server.ts';
import { kib, median } from './stats.ts';

const PAGES = 10;
const PER_PAGE = 5;

/**
 * Page 1 asks who is coming and which track; each later page is shown only for one track (or for those who ticked an
 * extra), and half of its questions only for some answers on earlier pages: 10 pages, 50 questions, 27 conditions.
 */
function branchingItems(): FormItem[] {
  const choice = (value: string, i: number) => ({ _id: `o${i}`, value });
  const options = ['Yes', 'No', 'Maybe'].map(choice);
  const items: FormItem[] = [];
  for (let p = 0; p < PAGES; p++) {
    const track = p % 2 === 0 ? 'Workshops' : 'Talks';
    items.push({
      kind: 'page',
      _id: `p${p}`,
      title: p === 0 ? 'About you' : `${track}, part ${p}`,
      ...(p === 0
        ? {}
        : p % 3 === 0
          ? { condition: { question: 'q0_4', op: 'includes', value: 'Dinner' } }
          : { condition: { question: 'q0_1', op: 'is', value: track } }),
    });
    for (let i = 0; i < PER_PAGE; i++) {
      const _id = `q${p}_${i}`;
      const asked =
        p > 0 && i % 2 === 1 ? { condition: { question: 'q0_2', op: 'isNot', value: 'No' } as const } : {};
      if (p === 0 && i === 1)
        items.push({
          kind: 'radio',
          _id,
          name: 'Your track',
          required: true,
          options: ['Workshops', 'Talks'].map(choice),
        });
      else if (p === 0 && i === 4)
        items.push({
          kind: 'check',
          _id,
          name: 'Extras',
          required: false,
          options: ['Dinner', 'Tour'].map(choice),
        });
      else if (i % 3 === 2)
        items.push({
          kind: 'radio',
          _id,
          name: `Question ${p + 1}.${i + 1}: join in?`,
          required: p === 0,
          options,
          ...asked,
        });
      else if (i % 3 === 1)
        items.push({
          kind: 'select',
          _id,
          name: `Question ${p + 1}.${i + 1}: how many?`,
          required: false,
          options,
          ...asked,
        });
      else
        items.push({
          kind: 'text',
          _id,
          name: p === 0 && i === 0 ? 'Full name' : `Question ${p + 1}.${i + 1}: your words`,
          type: p === 0 ? 'text' : 'textarea',
          required: p === 0,
          ...asked,
        });
    }
  }
  return items;
}

async function branchingForm(url: string, owner: BenchOwner): Promise<Form> {
  const blank = await api<Form>(url, owner.token, 'POST', '/api/v1/length', {
    formTitle: 'Conference sign-up',
  });
  return api<Form>(url, owner.token, 'PUT', `/api/v1/form/${blank._id}/items`, {
    items: branchingItems(),
    version: blank.version,
  });
}

/** The scripts a phone loads for `url` before any touch, gzip -9 each, as the page's first visit. */
async function scriptsBeforeTouch(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true });
  try {
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('response', (r) => r.request().resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(url, { waitUntil: 'networkidle' });
    const sizes = await Promise.all(
      scripts.map(async (s) => gzipSize(new Uint8Array(await (await fetch(s)).arrayBuffer()))),
    );
    return sizes.reduce((a, b) => a + b, 0);
  } finally {
    await context.close();
  }
}

/** A multipart body of the first page's answers, as its form posts them without JavaScript. */
function firstPageBody(form: Form, boundary: string): string {
  const id = (name: string) => form.items.find((i) => 'name' in i && i.name.startsWith(name))?._id ?? '';
  const fields: [string, string][] = [
    ['token', 'benchtoken-next-0001'],
    [id('Full name'), 'Asha Rao'],
    [id('Your track'), 'Workshops'],
    [id('Question 1.3'), 'Yes'],
    [id('Question 1.4'), 'Hello'],
    [id('Extras'), 'Dinner'],
    ['website', ''],
  ];
  // An empty preamble first, so the load generator does not read a body starting with "--" as an option.
  return (
    '\r\n' +
    fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
    `--${boundary}--\r\n`
  );
}

export async function measureBranching({ report, raw, mail, dirOf }: BenchRun): Promise<void> {
  // BENCH_PROFILE=<dir> runs the server with a CPU profile written there, to see where Next's time goes.
  const profile = process.env.BENCH_PROFILE;
  const server = await startBenchServer({
    dataDir: await dirOf('branching'),
    databaseUrl: undefined,
    mail,
    ...(profile ? { nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profile}`] } : {}),
  });
  const browser = await launchBrowser('/usr/bin/chromium');
  const p = 'branching form (10 pages, 50 questions)';
  try {
    const owner = await signUpOwner(server.url, mail);
    const form = await branchingForm(server.url, owner);
    const onePage = await createForm(server.url, owner);
    const link = (f: Form) => `${server.url}/customer/${f._id}/${owner.id}`;
    const url = link(form);

    const first = await benchFirstVisit(browser, url);
    const before = sumGzip(first.beforeScript);
    report.check(
      p,
      `HTML + CSS before any JavaScript, gzip (${first.beforeScript.length} file(s))`,
      before / 1024,
      kib(before),
      { max: 20 },
    );
    const [branching, plain] = [
      await scriptsBeforeTouch(browser, url),
      await scriptsBeforeTouch(browser, link(onePage)),
    ];
    report.check(
      p,
      'script before the first touch, gzip (the one-page form’s in brackets)',
      branching - plain,
      `${kib(branching)} (${kib(plain)})`,
      { max: 0 },
    );

    const runs = await runLighthouse(url, TARGET_LIGHTHOUSE_RUNS);
    const lcps = runs.map((r) => r.lcpMs);
    report.check(
      p,
      `Lighthouse mobile LCP ms (median of ${runs.length}, range)`,
      median(lcps),
      `${fmt(median(lcps), 0)} (${fmt(Math.min(...lcps), 0)}–${fmt(Math.max(...lcps), 0)})`,
      { max: 1000 },
    );

    // Next without JavaScript: the first page posted, a draft of its answers stored, 303 to the next page.
    const firstPage = form.items[0]?._id ?? '';
    const boundary = 'benchboundary7MA4YWxkTrZu0gW';
    const body = firstPageBody(form, boundary);
    const nextUrl = `${url}?go=next&page=${encodeURIComponent(firstPage)}`;
    const type = `multipart/form-data; boundary=${boundary}`;
    const once = await fetch(nextUrl, {
      method: 'POST',
      headers: { 'content-type': type },
      body,
      redirect: 'manual',
    });
    if (once.status !== 303)
      throw new Error(`Next answered ${once.status}: ${(await once.text()).slice(0, 300)}`);
    const load = await autocannon(nextUrl, ['-m', 'POST', '-H', `content-type=${type}`, '-b', body]);
    raw.branchingNext = load;
    report.check(
      p,
      `Next without JavaScript at ${CONNECTIONS} connections, p99 ms (req/s, p50 in brackets)`,
      load.p99,
      `${fmt(load.p99, 0)} (${fmt(load.reqPerSec, 0)} req/s, p50 ${fmt(load.p50, 0)})`,
      { max: 50 },
    );
    // autocannon counts the 303s as non-2xx: every answer is one, and none is an error.
    report.add(p, 'Next answers that were not 303 or failed', String(load.errors));
  } finally {
    await browser.close();
    await server.stop();
  }
}
