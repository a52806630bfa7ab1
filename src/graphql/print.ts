import fs from 'node:fs';
import { printSchema } from 'graphql';
import { fileURLToPath } from 'node:url';
import { schema } from './schema.js';

/** schema/schema.graphql: the printed schema, checked in and compared by a test. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));

export const printedSchema = () => `${printSchema(schema)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  fs.writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
