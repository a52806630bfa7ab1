/**
 * `npm run bench`: measurements that belong out of the test suite. Prints a
 * table and writes bench/results.json. Each section is a file of bench/ that
 * exports `run(ctx)` returning rows; add one per capability.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Row } from './row.js';
import { sections } from './sections.js';

const only = process.argv.slice(2);
const results: Row[] = [];
for (const [name, run] of Object.entries(sections)) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  process.stderr.write(`# ${name}...\n`);
  const t0 = performance.now();
  const rows = await run();
  results.push(...rows);
  process.stderr.write(`# ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const cols: Array<keyof Row> = ['section', 'metric', 'value', 'unit', 'note'];
const shown = results.map((r) => ({ ...r, value: Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(2) }));
const width = (k: keyof Row) => Math.max(...shown.map((r) => String(r[k] ?? '').length), String(k).length);
const line = (r: Record<string, unknown>) => cols.map((c) => String(r[c] ?? '').padEnd(width(c))).join('  ');
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
for (const r of shown) console.log(line(r));

// a partial run (`npm run bench -- library`) replaces only the sections it ran
const file = fileURLToPath(new URL('./results.json', import.meta.url));
let previous: Row[] = [];
try {
  previous = (JSON.parse(fs.readFileSync(file, 'utf8')) as { results: Row[] }).results;
} catch {
  /* first run */
}
const ran = new Set(results.map((r) => r.section));
const merged = [...previous.filter((r) => !ran.has(r.section)), ...results];
fs.writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results: merged }, null, 2)}\n`);
console.log(`\nwrote ${file}`);
