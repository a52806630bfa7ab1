// What every kind of project shares (src/projects/), the AI providers and the App that
// holds them know no kind's domain: a kind hands them what it differs in
// (src/projects/kinds.ts), so they import nothing from src/magic-clips/, not even a type.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LOWER = ['src/projects', 'src/ai', 'src/app.ts'];
const ABOVE = 'src/magic-clips/';

/** The TypeScript files of a folder (and its folders), or the file itself, relative to the repository. */
function sources(rel: string): string[] {
  const full = path.join(ROOT, rel);
  if (fs.statSync(full).isFile()) return [rel];
  return fs
    .readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.posix.join(rel, f.split(path.sep).join('/')));
}

/** Where a file's imports, re-exports and dynamic imports of the repository's own files point, relative to the repository. */
function importsOf(rel: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, rel), 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((to) => to.startsWith('.'))
    .map((to) => path.posix.join(path.posix.dirname(rel), to));
}

describe('layers', () => {
  it('no file of src/projects/, src/ai/ or src/app.ts imports from src/magic-clips/', () => {
    // the reading sees imports across folders, type-only ones too
    expect(importsOf('src/magic-clips/pipeline.ts').filter((to) => to.startsWith('src/projects/')).length).toBeGreaterThan(0);
    expect(importsOf('src/app.ts')).toContain('src/ai/providers.js');

    const files = LOWER.flatMap(sources);
    expect(files.length).toBeGreaterThan(20);
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((to) => to.startsWith(ABOVE))
        .map((to) => `${file} → ${to}`),
    );
    expect(upward, 'move the shared piece down, or have the kind hand it over (src/projects/kinds.ts)').toEqual([]);
  });
});
