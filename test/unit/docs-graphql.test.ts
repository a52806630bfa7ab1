// The GraphQL the README and the guides show is valid against the schema the service serves
// (schema/schema.graphql, checked against the code by generated.test.ts): an example that names a
// field gone or renamed fails here, not in a reader's terminal.
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, Kind, parse, print, validate, type DocumentNode } from 'graphql';
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

/**
 * Each operation a page shows, as a document of its own (with the block's fragments): the operations of
 * its graphql blocks, and the "query" of each JSON body its shell blocks send.
 */
function operations(markdown: string): DocumentNode[] {
  const texts = [...markdown.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]);
  for (const [, block] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const [, body] of block.matchAll(/-d '(\{"query":.*?\})'/g)) texts.push((JSON.parse(body) as { query: string }).query);
  }
  return texts.flatMap((text) => {
    const { definitions } = parse(text);
    const fragments = definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION);
    return definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).map((op) => ({ kind: Kind.DOCUMENT, definitions: [op, ...fragments] }));
  });
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
        validate(schema, op).map((e) => e.message),
        `${page}: ${print(op)}`,
      ).toEqual([]);
    }
  });
});
