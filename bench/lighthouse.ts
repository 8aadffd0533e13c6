// Part 8: Lighthouse itself (issue 13), with Debian's Chromium, its mobile form factor and default simulated slow-4G
// throttling, on the public form of a 10-question form with a file question, and on the landing page.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Form } from '#common/forms.ts';
import { api, TEN_QUESTIONS, type BenchOwner } from './owner.ts';
import { DEEP } from './stats.ts';

/**
 * Runs on the yardstick pages, which hold no target (the landing page, the bare React page): three in a deep run, one
 * by default, which keeps the default bench within ten minutes (three each took it to 609 s).
 */
export const LIGHTHOUSE_RUNS = DEEP ? 3 : 1;
/**
 * Runs on the page the targets are on: at three, its LCP median moved by ±15 % from run to run with the same code.
 * Nine in a deep run (`--deep`), five by default (each run takes about 12 s).
 */
export const TARGET_LIGHTHOUSE_RUNS = DEEP ? 9 : 5;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** The bench form with its last question a file upload: the public form issue 13 measures. */
export const WITH_FILE_QUESTION = {
  ...TEN_QUESTIONS,
  fields: [
    ...TEN_QUESTIONS.fields.slice(0, 9),
    { kind: 'file', name: 'ID proof (photo or PDF)', required: false },
  ],
};

export const createFormWithFile = (url: string, owner: BenchOwner) =>
  api<Form>(url, owner.token, 'POST', '/api/importForm', WITH_FILE_QUESTION);

export type LighthouseRun = {
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** Audits that count in a category and did not pass, e.g. "seo: meta-description". */
  failing: string[];
};

/** Lighthouse's default run (mobile, simulated throttling) of `url`, `runs` times, each in a fresh Chromium. */
export async function runLighthouse(url: string, runs = LIGHTHOUSE_RUNS): Promise<LighthouseRun[]> {
  const results: LighthouseRun[] = [];
  for (let i = 0; i < runs; i += 1) {
    const chrome = await chromeLauncher.launch({
      chromePath: '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      // LIGHTHOUSE_REPORT_DIR=… keeps each run's whole report, to see why an audit failed.
      const keep = process.env.LIGHTHOUSE_REPORT_DIR;
      if (keep)
        await writeFile(
          join(keep, `${new URL(url).pathname.split('/')[1] || 'landing'}-${i}.json`),
          JSON.stringify(lhr),
        );
      if (lhr.runtimeError)
        throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const failing: string[] = [];
      for (const name of CATEGORIES) {
        for (const ref of lhr.categories[name]?.auditRefs ?? []) {
          const a = lhr.audits[ref.id];
          if (ref.weight > 0 && a && a.score !== null && a.score < 1) failing.push(`${name}: ${ref.id}`);
        }
      }
      results.push({
        scores: Object.fromEntries(
          CATEGORIES.map((c) => [c, lhr.categories[c]?.score ?? NaN]),
        ) as LighthouseRun['scores'],
        lcpMs: audit('largest-contentful-paint'),
        fcpMs: audit('first-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        failing,
      });
    } finally {
      chrome.kill();
    }
  }
  return results;
}
