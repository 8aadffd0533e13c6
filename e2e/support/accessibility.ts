// The accessibility check every screenshot of a journey makes: axe-core against WCAG 2.1 A and AA, run in the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's browser script, read once per run. */
let axeSource: string | undefined;
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  // Only what fails is reported: axe then skips describing every node that passes.
  resultTypes: ['violations'],
};

/**
 * Fails with a readable list when axe finds WCAG 2.1 A/AA violations on the page as it is now. axe runs in the page
 * itself, put there once per document: a screen checked at several widths, or an app that changes screens without
 * loading a new document, pays its 0.6 s of parsing once (docs/decisions/034-fast-ci.md).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axeSource);
  }
  const violations = await page.evaluate(
    async (options) =>
      (
        await (
          window as unknown as { axe: { run(context: Document, o: RunOptions): Promise<AxeResults> } }
        ).axe.run(document, options)
      ).violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
      })),
    AXE_OPTIONS,
  );
  if (violations.length === 0) return;
  const lines = violations.map(
    (v) =>
      `- ${v.id} (${v.impact ?? 'unknown'}): ${v.help}\n    ${v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join('; ') ?? ''}`)
        .join('\n    ')}`,
  );
  const message = `Accessibility violations on ${label}:\n${lines.join('\n')}`;
  if (process.env.A11Y_REPORT_ONLY) console.warn(message);
  else throw new Error(message);
}
