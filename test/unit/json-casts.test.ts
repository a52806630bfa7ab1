// A JSON column is written through its codec (src/db/json.ts), typed by the column's schema:
// no module of src/ casts a value to Prisma's JSON input types, which would store whatever it
// was handed. The codec's own conversion is the one place that does.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Prisma's output: its own types mention InputJsonValue throughout. */
const GENERATED = 'src/generated/';
const CODEC = 'src/db/json.ts';

/**
 * Files that still cast, each with why. The list only shrinks: an entry whose file no longer
 * casts fails this file until it is deleted.
 */
const KNOWN: { file: string; why: string }[] = [
  { file: 'src/presets/service.ts', why: "a preset's saved music is the editor's media, of no schema of ours (Prisma.InputJsonObject)" },
];

/** `as Prisma.InputJsonValue`, `as unknown as Prisma.InputJsonValue`, the same to InputJsonObject and InputJsonArray. */
const CAST = /\bas\s+(?:unknown\s+as\s+)?Prisma\s*\.\s*InputJson(?:Value|Object|Array)\b/;

const casts = (file: string) => CAST.test(fs.readFileSync(path.join(ROOT, file), 'utf8'));

function filesOf(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return `${file}/` === GENERATED ? [] : filesOf(file);
    return entry.isFile() && file.endsWith('.ts') ? [file] : [];
  });
}

describe('JSON columns', () => {
  it('are written through their codecs: no file of src/ casts to Prisma JSON input types beyond the known ones', () => {
    const files = filesOf('src');
    expect(files.length).toBeGreaterThan(100);
    // the pattern sees the codec's conversion
    expect(casts(CODEC)).toBe(true);
    expect(CAST.test('x as unknown as Prisma.InputJsonValue')).toBe(true);

    const stale = KNOWN.filter(({ file }) => !files.includes(file) || !casts(file)).map(({ file }) => file);
    expect(stale, 'these files no longer cast: delete them from KNOWN').toEqual([]);

    const known = new Set([CODEC, ...KNOWN.map(({ file }) => file)]);
    const casting = files.filter((file) => !known.has(file) && casts(file));
    expect(casting, "write the column through its codec (src/db/json.ts's jsonColumn, beside the type it stores)").toEqual([]);
  });

  it('no `as unknown as Prisma.InputJsonValue` remains in src/', () => {
    const left = filesOf('src').filter((file) => /as\s+unknown\s+as\s+Prisma\s*\.\s*InputJsonValue\b/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(left).toEqual([]);
  });
});
