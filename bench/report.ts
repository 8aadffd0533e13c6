// Turns measurements into rows: each figure with its target and PASS or FAIL, printed as one table.

export type Row = {
  part: string;
  figure: string;
  value: string;
  target: string;
  /** null: reported for context, no target. */
  pass: boolean | null;
  /** The bench part that measured it (`npm run bench -- <part>` runs one), whatever rows it names. */
  step?: string;
};

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];
  /** The part being measured: every row added meanwhile is its. */
  step: string | undefined;

  add(part: string, figure: string, value: string, target = '', pass: boolean | null = null): void {
    this.rows.push({ part, figure, value, target, pass, step: this.step });
  }

  /** A figure with a target: `value <= max` (or `>= min`) decides PASS. */
  check(
    part: string,
    figure: string,
    value: number,
    shown: string,
    limit: { max?: number; min?: number },
  ): void {
    const ok =
      Number.isFinite(value) &&
      (limit.max === undefined || value <= limit.max) &&
      (limit.min === undefined || value >= limit.min);
    const target = limit.max !== undefined ? `≤ ${limit.max}` : `≥ ${limit.min}`;
    this.add(part, figure, shown, target, ok);
  }

  note(line: string): void {
    this.notes.push(line);
  }

  table(): string {
    const verdict = (r: Row) => (r.pass === null ? '' : r.pass ? 'PASS' : 'FAIL');
    const head = ['part', 'figure', 'value', 'target', ''];
    const cells = this.rows.map((r) => [r.part, r.figure, r.value, r.target, verdict(r)]);
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
    const line = (c: string[]) => c.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
    const rule = widths.map((w) => '-'.repeat(w)).join('  ');
    return [line(head), rule, ...cells.map(line)].join('\n');
  }

  summary(): string {
    const judged = this.rows.filter((r) => r.pass !== null);
    const passed = judged.filter((r) => r.pass).length;
    return `${passed} of ${judged.length} targets met`;
  }
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

type Results = { when: string; seconds: number; rows: (Row & { when?: string })[]; [raw: string]: unknown };

/**
 * bench/results.json after a run of some parts: this run's rows replace every row of the parts it measured (an error
 * row too, when the part now succeeds, and its figures when it now fails), the rows of the parts it did not run stay
 * as they were (each row says when it was measured), and so do their raw figures. So the file always holds the
 * latest figure of every part. Rows from before `step` was kept are matched by the name they show.
 */
export function mergeResults(previous: Results | undefined, current: Results): Results {
  const measured = new Set(current.rows.flatMap((r) => [r.part, ...(r.step ? [r.step] : [])]));
  const kept = (previous?.rows ?? [])
    .filter((r) => !measured.has(r.part) && !(r.step && measured.has(r.step)))
    .map((r) => ({ ...r, when: r.when ?? previous?.when }));
  const rows = [...current.rows.map((r) => ({ ...r, when: current.when })), ...kept];
  return { ...previous, ...current, rows };
}
