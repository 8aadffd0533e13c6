// Results of a choice grid, from how many responses chose each column in each row (form_option_counts, keyed by the
// pair as JSON text, `["Speed", "Good"]`, migration 029): the same counters whatever the number of responses.
import { parseGridChoice as pairOf, type GridSettings } from '#common/kinds/grid-kind.ts';
import { percentOf, type GridResult } from '#common/results.ts';

type Base = { fieldId: string; name: string; answered: number; shownTo: number };

export function gridResult(
  base: Base,
  settings: GridSettings,
  counts: ReadonlyMap<string, number>,
): GridResult {
  const byRow = new Map<string, Map<string, number>>();
  for (const [key, n] of counts) {
    const pair = pairOf(key);
    if (!pair) continue;
    const columns = byRow.get(pair[0]) ?? new Map<string, number>();
    columns.set(pair[1], (columns.get(pair[1]) ?? 0) + n);
    byRow.set(pair[0], columns);
  }
  const retiredRows = [...byRow.keys()].filter((row) => !settings.rows.includes(row)).sort();
  const rows = [...settings.rows, ...retiredRows].map((row) => {
    const chosen = byRow.get(row) ?? new Map<string, number>();
    const answered = [...chosen.values()].reduce((sum, n) => sum + n, 0);
    const retired = [...chosen]
      .filter(([column]) => !settings.columns.includes(column))
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
    const columns = [
      ...settings.columns.map((value) => ({ value, count: chosen.get(value) ?? 0, offered: true })),
      ...retired.map(([value, count]) => ({ value, count, offered: false })),
    ].map((c) => ({ ...c, percent: percentOf(c.count, answered) }));
    return { row, answered, offered: settings.rows.includes(row), columns };
  });
  return { ...base, kind: 'grid', rows };
}
