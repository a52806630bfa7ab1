/**
 * A style's font family: a built-in one (STYLE_FONTS, from Debian packages)
 * or the family of a FONT in the user's library (library/assets.ts read it
 * from the file's name table). Checked where a style is accepted; at render
 * time the library's files of that family are linked into the fonts folder.
 */
import { STYLE_FONTS } from '../catalog/caption-style.js';
import type { Db } from '../db/client.js';
import type { FieldErrors } from '../errors.js';
import type { LocalFiles } from '../storage/storage.js';
import { isPlainObject } from '../validation.js';

const BUILT_IN = new Set<string>(STYLE_FONTS);

/** The family a style names, if it names one (a partial style may not). */
export function familyOf(style: unknown): string | undefined {
  const font = isPlainObject(style) ? style.font : undefined;
  return isPlainObject(font) && typeof font.family === 'string' ? font.family : undefined;
}

/** The user's ready FONT entries of a family, all its faces. */
function libraryFaces(db: Db, userId: string, family: string) {
  return db.userMedia.findMany({
    where: { userId, type: 'FONT', status: 'ready', storageKey: { not: null }, metadata: { path: ['family'], equals: family } },
    select: { id: true, storageKey: true },
    orderBy: { createdAt: 'asc' },
  });
}

/**
 * Adds to `e` at `field` (e.g. `style.font.family`) a family that is neither
 * built in nor the family of a ready FONT of the user's library.
 */
export async function checkStyleFont(db: Db, userId: string, style: unknown, field: string, e: FieldErrors): Promise<void> {
  const family = familyOf(style);
  if (family === undefined || BUILT_IN.has(family) || e.has(field)) return;
  if ((await libraryFaces(db, userId, family)).length > 0) return;
  e.add(
    field,
    `is neither a built-in font (${STYLE_FONTS.join(', ')}) nor the family of a FONT in your library (upload a TTF or OTF to /v1/user-media/upload)`,
    family,
  );
}

/**
 * Local copies of the user's font files of `family` for a render's fonts
 * folder; none for a built-in family (the system's files are linked) or one
 * no longer in the library (libass then falls back to its default).
 */
export async function libraryFontFiles(db: Db, userId: string, family: string, files: LocalFiles): Promise<string[]> {
  if (BUILT_IN.has(family)) return [];
  const faces = await libraryFaces(db, userId, family);
  return Promise.all(faces.map((f) => files(f.storageKey!)));
}
