import fs from 'node:fs';
import { generate } from '@graphql-codegen/cli';
import { describe, expect, it } from 'vitest';
import config from '../../codegen.ts';
import { printedSchema, SCHEMA_FILE } from '../../src/graphql/print.js';

describe('checked-in generated files', () => {
  it('schema/schema.graphql is the printed schema (run `npm run schema:print`)', () => {
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
  });

  it('rest/generated is what `npm run codegen` makes from the schema and rest/operations', async () => {
    const outputs = (await generate({ ...config, silent: true }, false)) as Array<{ filename: string; content: string }>;
    expect(outputs.length).toBeGreaterThan(0);
    for (const out of outputs) {
      expect(fs.readFileSync(out.filename, 'utf8'), `${out.filename} is stale: run npm run codegen`).toBe(out.content);
    }
  });
});
