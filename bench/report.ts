// Turns measurements into rows: each figure with its target and PASS or FAIL, printed as one table.

export type Row = {
  part: string;
  figure: string;
  value: string;
  target: string;
  /** null: reported for context, no target. */
  pass: boolean | null;
};

export class Report {
  readonly rows: Row[] = [];
  readonly notes: string[] = [];

  add(part: string, figure: string, value: string, target = '', pass: boolean | null = null): void {
    this.rows.push({ part, figure, value, target, pass });
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
