// src/config.ts alone reads the environment: every other module of src/ is handed a Config (or
// calls one of config.ts's functions), so what the service reads is named, defaulted and checked
// in one place, and a test gives any module the settings it wants without touching process.env.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Prisma's output (npm install writes it): its comments show `process.env.DATABASE_URL` in examples. */
const GENERATED = 'src/generated/';

/**
 * Files of src/ that still mention the environment, each with what it does with it. The list only
 * shrinks: an entry whose file no longer mentions it fails this file until it is deleted.
 */
const KNOWN: { file: string; why: string }[] = [];

/**
 * `process.env` (in code or a comment, which would soon be copied into code), `process['env']`,
 * `{ env } = process`, and `env` imported from node:process.
 */
const ENV = [
  /\bprocess\s*(?:\?\.|\.)\s*env\b/,
  /\bprocess\s*\[\s*['"`]env['"`]\s*\]/,
  /\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/,
  /\bimport\s*\{[^}]*\benv\b[^}]*\}\s*from\s*['"](?:node:)?process['"]/,
];

const mentionsEnv = (file: string) => {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return ENV.some((pattern) => pattern.test(text));
};

function filesOf(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return `${file}/` === GENERATED ? [] : filesOf(file);
    return entry.isFile() ? [file] : [];
  });
}

describe('the environment', () => {
  it('is read in src/config.ts alone, beyond the known files, each of which still reads it', () => {
    const files = filesOf('src');
    expect(files.length).toBeGreaterThan(100);
    // the patterns see what config.ts does
    expect(mentionsEnv('src/config.ts')).toBe(true);

    const stale = KNOWN.filter(({ file }) => !files.includes(file) || !mentionsEnv(file)).map(({ file }) => file);
    expect(stale, 'these files no longer mention the environment: delete them from KNOWN').toEqual([]);

    const known = new Set(['src/config.ts', ...KNOWN.map(({ file }) => file)]);
    const readers = files.filter((file) => !known.has(file) && mentionsEnv(file));
    expect(readers, 'read the environment in src/config.ts (a Config field, or a function of config.ts for what is not a setting)').toEqual([]);
  });
});
