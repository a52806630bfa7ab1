/**
 * Fonts for libass. libass falls back to DejaVu without a word when a style's
 * font is missing, so the renderer hands `ass=...:fontsdir=<fontsDir()>` a
 * directory holding the files of every family the templates name (links to
 * the system's files, found with fontconfig's fc-list; Debian: fonts-open-sans,
 * fonts-roboto, fonts-lato, fonts-bebas-neue, fonts-league-spartan,
 * fonts-dancingscript, fonts-lobster, fonts-comic-neue, fonts-dejavu-core).
 * Letters a family lacks (Japanese, Arabic, Devanagari, Thai, Hebrew, ...)
 * come from the Noto families of the same folder (SCRIPT_FONTS): libass asks
 * fontconfig for a font with the glyph, and the linked Noto files are found.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CAPTION_TEMPLATES } from '../../catalog/caption-templates.js';
import { HOOK_TITLE_TEMPLATES } from '../../catalog/hook-title-templates.js';
import { runProgramSync } from '../program.js';

export interface InstalledFont {
  file: string;
  families: string[];
}

let listed: InstalledFont[] | null = null;

/** Font files fontconfig knows (empty without fc-list). Cached for the process. */
export function installedFonts(): InstalledFont[] {
  if (listed) return listed;
  let out = '';
  try {
    out = runProgramSync('fc-list', ['--format', '%{file}\t%{family}\n'], { timeoutMs: 15_000 }).stdout;
  } catch {
    out = '';
  }
  listed = out
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((p) => p.length === 2 && p[0])
    .map(([file, fam]) => ({
      file,
      families: fam
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    }));
  return listed;
}

/** Every family name fontconfig knows, sorted, without duplicates. */
export function fontFamilies(): string[] {
  return [...new Set(installedFonts().flatMap((f) => f.families))].sort();
}

/** Families that hold the letters of other scripts, linked beside every style's font (Debian: fonts-noto-core, fonts-noto-cjk). */
export const SCRIPT_FONTS = [
  'Noto Sans',
  'Noto Sans CJK JP',
  'Noto Sans Arabic',
  'Noto Sans Devanagari',
  'Noto Sans Thai',
  'Noto Sans Hebrew',
  'Noto Sans Bengali',
  'Noto Sans Tamil',
];

/** The families the caption and hook-title templates name. */
export function templateFonts(): string[] {
  return [...new Set([...CAPTION_TEMPLATES.map((t) => t.style.font.family), ...HOOK_TITLE_TEMPLATES.map((t) => t.font)])].sort();
}

/** The script fallbacks (SCRIPT_FONTS) and the letters each one draws. */
const SCRIPT_LETTERS: ReadonlyArray<[family: string, letters: RegExp]> = [
  ['Noto Sans CJK JP', /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/],
  ['Noto Sans Arabic', /[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/],
  ['Noto Sans Devanagari', /[\u0900-\u097f]/],
  ['Noto Sans Thai', /[\u0e00-\u0e7f]/],
  ['Noto Sans Hebrew', /[\u0590-\u05ff]/],
  ['Noto Sans Bengali', /[\u0980-\u09ff]/],
  ['Noto Sans Tamil', /[\u0b80-\u0bff]/],
  // last: Greek, Cyrillic, Latin beyond its Extended-B block, and what else the families above lack
  ['Noto Sans', /[^\u0000-\u024f\u2000-\u206f\u20a0-\u20cf]/],
];

/**
 * The families an ASS file draws with: its styles' fonts, its `\fn` overrides,
 * and the script fallbacks of the letters its lines hold.
 */
export function assFamilies(ass: string): string[] {
  const families = new Set<string>();
  for (const m of ass.matchAll(/^Style:\s*[^,]*,([^,]+),/gm)) families.add(m[1].trim());
  for (const m of ass.matchAll(/\\fn([^\\}]+)/g)) families.add(m[1].trim());
  const lines = ass
    .split('\n')
    .filter((l) => l.startsWith('Dialogue:'))
    .join('\n');
  let rest = lines;
  for (const [family, letters] of SCRIPT_LETTERS) {
    if (letters.test(rest)) families.add(family);
    // what a script's own font draws needs no general fallback
    rest = rest.replace(new RegExp(letters.source, 'g'), '');
  }
  return [...families];
}

/**
 * A folder in `workDir` (a job's folder, inWorkDir in jobs/work-dir.ts: it goes
 * with the job's other files) with links to the installed files of `families`
 * (default: every template font and any extra families given, e.g. user theme
 * fonts), and to `files` (fonts of the user's library, copied into the job's
 * folder), for `ass=...:fontsdir=`: libass reads every file of the folder,
 * all of it, at every run. Given the ASS text, only the families it draws with
 * are linked (assFamilies): a render in one Latin family reads a few files,
 * not the 60 MB of every template's and every script's.
 */
export function fontsDir(workDir: string, extraFamilies: readonly string[] = [], files: readonly string[] = [], ass?: string): string {
  const families = ass === undefined ? [...templateFonts(), ...SCRIPT_FONTS] : assFamilies(ass);
  const wanted = new Set([...families, ...extraFamilies].map((f) => f.toLowerCase()));
  const dir = fs.mkdtempSync(path.join(workDir, 'fonts-'));
  const used = new Set<string>();
  for (const font of installedFonts()) {
    if (!font.families.some((f) => wanted.has(f.toLowerCase()))) continue;
    if (!/\.(ttf|otf|ttc|otc)$/i.test(font.file) || !fs.existsSync(font.file)) continue;
    let name = path.basename(font.file);
    for (let i = 1; used.has(name); i++) name = `${i}-${path.basename(font.file)}`;
    used.add(name);
    fs.symlinkSync(font.file, path.join(dir, name));
  }
  files.forEach((file, i) => fs.symlinkSync(path.resolve(file), path.join(dir, `library-${i}-${path.basename(file)}`)));
  return dir;
}
