// Prints bench/results.json's rows as the Markdown tables of docs/benchmarks.md: `node scripts/bench-table.mjs`
// for every part, `node scripts/bench-table.mjs ingest` for the parts whose name starts with "ingest".
import { readFileSync } from 'node:fs';

const { rows } = JSON.parse(readFileSync(new URL('../bench/results.json', import.meta.url), 'utf8'));
const only = process.argv[2];
const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
const verdict = (pass) => (pass === true ? 'PASS' : pass === false ? 'FAIL' : '');

console.log('| part | figure | value | target | | measured |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  if (only && !row.part.startsWith(only)) continue;
  const cells = [row.part, row.figure, row.value, row.target, verdict(row.pass), row.when.slice(0, 10)];
  console.log(`| ${cells.map(cell).join(' | ')} |`);
}
