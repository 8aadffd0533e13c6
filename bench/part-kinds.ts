// Part 12: a form with one question of every kind (issue 39). What its public form costs a phone before any script
// and Lighthouse's LCP for it; and its Results at 100,000 responses against 1,000, which the counters must keep flat
// whatever kinds a form holds (grids and numbers are counted value by value, as choices are).
import { launchBrowser } from '../e2e/support/browser.ts';
import type { Form } from '../src/common/forms.ts';
import type { StoredAnswer } from '../src/server/features/submissions/repository.ts';
import type { BenchRun } from './bench-run.ts';
import { benchFirstVisit, sumGzip } from './first-visit.ts';
import { runLighthouse, TARGET_LIGHTHOUSE_RUNS } from './lighthouse.ts';
import { api, signUpOwner } from './owner.ts';
import { fmt } from './report.ts';
import { seedSubmissions } from './seed.ts';
import { startBenchServer } from './server.ts';
import { kib, median, medianMs } from './stats.ts';

const LEVELS = { small: 1_000, large: 100_000 } as const;
const REPEATS = 20;
const GRID = { rows: ['Check-in', 'Room', 'Breakfast'], columns: ['Poor', 'Fair', 'Good', 'Excellent'] };

/** Name and email first (the seeder writes each row's own), then one question of every kind. */
const EVERY_KIND = {
  easyForm: 1,
  formTitle: 'Your stay with us',
  description: 'Tell us how it went: two minutes, one question of each kind.',
  color: '#FFFFFF',
  border: '#1A73E8',
  fields: [
    { kind: 'text', name: 'Full name', type: 'text', required: true },
    { kind: 'text', name: 'Email', type: 'email', required: true },
    { kind: 'text', name: 'Arrival', type: 'date', required: false },
    { kind: 'text', name: 'Anything else?', type: 'textarea', required: false },
    { kind: 'select', name: 'Room type', required: false, options: ['Single', 'Double', 'Suite'] },
    { kind: 'radio', name: 'Travelling for', required: false, options: ['Work', 'Leisure'] },
    { kind: 'check', name: 'Used', required: false, options: ['Pool', 'Gym', 'Spa'] },
    { kind: 'file', name: 'A photo of your stay', required: false },
    { kind: 'number', name: 'Nights', required: false, settings: { min: 1, max: 60, decimals: false } },
    { kind: 'rating', name: 'Your stay', required: false, settings: { max: 5, style: 'stars' } },
    {
      kind: 'scale',
      name: 'How likely are you to recommend us?',
      required: false,
      settings: { from: 0, to: 10, fromLabel: 'Not at all', toLabel: 'Very', nps: true },
    },
    {
      kind: 'statement',
      name: 'About your data',
      required: false,
      settings: { text: 'We keep it **private**.' },
    },
    { kind: 'consent', name: 'Terms', required: false, settings: { text: 'I agree to the house rules' } },
    { kind: 'time', name: 'Arrival time', required: false },
    { kind: 'url', name: 'Your website', required: false },
    { kind: 'grid', name: 'Rate each part', required: false, settings: GRID },
  ],
} as const;

/** A stored answer of each kind, as the app stores one (a file and a statement have none here). */
const ANSWERS: Record<string, StoredAnswer['value']> = {
  text: 'Customer',
  select: 'Double',
  radio: 'Leisure',
  check: ['Pool', 'Spa'],
  number: '3',
  rating: '4',
  scale: '9',
  consent: 'yes',
  time: '14:30',
  url: 'https://example.org',
  grid: { 'Check-in': 'Good', Room: 'Excellent', Breakfast: 'Fair' },
};

function storedAnswersOf(form: Form): StoredAnswer[] {
  const names = new Map(
    [...form.textField, ...form.selectField, ...form.radioField, ...form.checkField, ...form.moreField].map(
      (f) => [f._id, f.name],
    ),
  );
  return form.fieldOrder.flatMap(({ _id, kind }) => {
    const value = ANSWERS[kind];
    return value === undefined ? [] : [{ fieldId: _id, kind, name: names.get(_id) ?? '', value }];
  });
}

/**
 * `lighthouse`: whether to run Lighthouse on the form too (about 50 s): when the part is asked for by name or the run
 * is deep, so a default run stays within its 10 minutes (the branching part's Lighthouse covers a large form there).
 */
export async function measureKinds(
  { report, raw, mail, dirOf, log }: BenchRun,
  { lighthouse }: { lighthouse: boolean },
): Promise<void> {
  const dataDir = await dirOf('kinds');
  const p = 'every kind of question';
  let server = await startBenchServer({ dataDir, databaseUrl: undefined, mail });
  let form: Form;
  let owner: Awaited<ReturnType<typeof signUpOwner>>;
  try {
    owner = await signUpOwner(server.url, mail);
    form = await api<Form>(server.url, owner.token, 'POST', '/api/importForm', EVERY_KIND);
    const url = `${server.url}/customer/${form._id}/${owner.id}`;
    const browser = await launchBrowser('/usr/bin/chromium');
    let firstVisit;
    try {
      firstVisit = await benchFirstVisit(browser, url);
    } finally {
      await browser.close();
    }
    const before = sumGzip(firstVisit.beforeScript);
    report.check(
      p,
      `public form (${form.fieldOrder.length} questions): HTML + CSS before any JavaScript, gzip`,
      before / 1024,
      kib(before),
      { max: 20 },
    );
    const runs = lighthouse ? await runLighthouse(url, TARGET_LIGHTHOUSE_RUNS) : [];
    const lcps = runs.map((r) => r.lcpMs);
    if (lighthouse)
      report.check(
        p,
        `Lighthouse LCP ms (mobile; median of ${runs.length}, range)`,
        median(lcps),
        `${fmt(median(lcps), 0)} (${fmt(Math.min(...lcps), 0)}–${fmt(Math.max(...lcps), 0)})`,
        { max: 1000 },
      );
    else log('  Lighthouse left out of a default run: `npm run bench -- kinds` or `--deep` runs it');
    raw.kinds = { beforeScriptGzip: before, lighthouse: runs };
  } finally {
    await server.stop();
  }

  // Results at 1,000 and then 100,000 responses: seeded with SQL while no server holds the embedded database.
  const answers = storedAnswersOf(form);
  const times: Record<keyof typeof LEVELS, number> = { small: NaN, large: NaN };
  let seeded = 0;
  for (const level of ['small', 'large'] as const) {
    const seconds = await seedSubmissions({
      databaseUrl: undefined,
      dataDir,
      form,
      from: seeded,
      to: LEVELS[level],
      answers,
    });
    log(`  seeded ${LEVELS[level]} responses in ${fmt(seconds / 1000, 1)} s`);
    seeded = LEVELS[level];
    server = await startBenchServer({ dataDir, databaseUrl: undefined, mail });
    try {
      const get = () =>
        api<{ responses: number }>(server.url, owner.token, 'GET', `/api/formResults/${form._id}`);
      const first = await get();
      if (first.responses !== seeded) throw new Error(`Results count ${first.responses}, not ${seeded}`);
      times[level] = await medianMs(get, REPEATS);
    } finally {
      await server.stop();
    }
  }
  report.add(
    p,
    'Results ms at 1,000 / 100,000 responses (median)',
    `${fmt(times.small, 1)} / ${fmt(times.large, 1)}`,
  );
  report.check(
    p,
    'Results at 100,000 ÷ at 1,000',
    times.large / times.small,
    fmt(times.large / times.small, 2),
    {
      max: 1.5,
    },
  );
  (raw.kinds as Record<string, unknown>).results = times;
}
