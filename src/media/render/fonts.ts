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

/**
 * A folder in `workDir` (a job's folder, inWorkDir in jobs/work-dir.ts: it goes
 * with the job's other files) with links to the installed files of `families`
 * (default: every template font and any extra families given, e.g. user theme
 * fonts), and to `files` (fonts of the user's library, copied into the job's
 * folder), for `ass=...:fontsdir=`: libass reads every file of the folder.
 */
export function fontsDir(workDir: string, extraFamilies: readonly string[] = [], files: readonly string[] = []): string {
  const wanted = new Set([...templateFonts(), ...SCRIPT_FONTS, ...extraFamilies].map((f) => f.toLowerCase()));
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
