import type { Db, Prisma } from '../db/client.js';
import { FieldErrors, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { readBody } from '../validation.js';
import { createThemeBody, updateThemeBody } from './schemas.js';

export { THEME_FONTS } from './schemas.js';

export type UserTheme = Prisma.UserThemeModel;

/**
 * Reads a theme body; every violated field is reported at once. On creation only
 * `name` is required (unset style fields keep the caption template's); a null
 * `backgroundColor` means no box behind the line.
 */
function readTheme(input: unknown, creating: boolean) {
  const e = new FieldErrors();
  const data = readBody(creating ? createThemeBody : updateThemeBody, input, e);
  e.throwIfAny();
  return data!;
}

/** One of the user's themes, or null (missing, foreign or not a UUID): project creation checks `userThemeId` with it. */
export async function findUserTheme(db: Db, userId: string, id: string): Promise<UserTheme | null> {
  return isUuid(id) ? db.userTheme.findFirst({ where: { id, userId } }) : null;
}

async function getUserTheme(db: Db, userId: string, id: string): Promise<UserTheme> {
  const theme = await findUserTheme(db, userId, id);
  if (!theme) throw notFound('User theme');
  return theme;
}

/** The user's themes, newest first. */
export function listUserThemes(db: Db, userId: string, query: { include?: Prisma.UserThemeInclude; select?: Prisma.UserThemeSelect } = {}) {
  return db.userTheme.findMany({ ...query, where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

export async function createUserTheme(db: Db, userId: string, input: unknown): Promise<UserTheme> {
  const { name, ...style } = readTheme(input, true);
  return db.userTheme.create({ data: { ...style, name: name as string, userId } });
}

export async function updateUserTheme(db: Db, userId: string, id: string, input: unknown): Promise<UserTheme> {
  const theme = await getUserTheme(db, userId, id);
  return db.userTheme.update({ where: { id: theme.id }, data: readTheme(input, false) });
}

/** Deletes one of the user's themes; projects that used it keep their template (the column is set null). */
export async function deleteUserTheme(db: Db, userId: string, id: string): Promise<UserTheme> {
  const theme = await getUserTheme(db, userId, id);
  return db.userTheme.delete({ where: { id: theme.id } });
}
