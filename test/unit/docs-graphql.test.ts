// The GraphQL the README and the guides show is valid against the schema the service serves
// (schema/schema.graphql, checked against the code by generated.test.ts): an example that names a
// field gone or renamed fails here, not in a reader's terminal.
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const schema = buildSchema(fs.readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8'));
const pages = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Each operation a page shows: the lines of its graphql blocks, and the "query" of each JSON body its shell blocks send. */
function operations(markdown: string): string[] {
  const found: string[] = [];
  for (const [, block] of markdown.matchAll(/```graphql\n([\s\S]*?)```/g)) found.push(...block.split('\n').filter((l) => l.trim()));
  for (const [, block] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const [, body] of block.matchAll(/-d '(\{"query":.*?\})'/g)) found.push((JSON.parse(body) as { query: string }).query);
  }
  return found;
}

describe('the GraphQL of the documentation', () => {
  const shown = pages.flatMap((page) => operations(fs.readFileSync(path.join(ROOT, page), 'utf8')).map((op) => ({ page, op })));

  it('is there to check: the README and the API guide show operations', () => {
    expect([...new Set(shown.map((s) => s.page))]).toEqual(expect.arrayContaining(['README.md', 'docs/api-guide.md']));
    expect(shown.length).toBeGreaterThanOrEqual(5);
  });

  it.each(pages)('%s: every operation it shows parses and validates against the schema', (page) => {
    for (const { op } of shown.filter((s) => s.page === page)) {
      expect(
        validate(schema, parse(op)).map((e) => e.message),
        `${page}: ${op}`,
      ).toEqual([]);
    }
  });
});
