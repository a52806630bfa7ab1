import { DEFAULT_CAPTION_TEMPLATE, findCaptionTemplate } from '../catalog/caption-templates.js';
import { mergeOverrides, overStyle, type CaptionStyle, type StyleOverride } from '../catalog/caption-style.js';
import { themeStyleColumn } from './columns.js';
import type { Db, Prisma } from '../db/client.js';
import { FieldErrors, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { isPlainObject, readBody } from '../validation.js';
import { checkStyleFont } from './fonts.js';
import { createThemeBody, updateThemeBody } from './schemas.js';

export type UserTheme = Prisma.UserThemeModel;

/** A theme's whole caption style: its template with its changes laid over. */
export function themeStyle(theme: Pick<UserTheme, 'basedOn' | 'style'>): CaptionStyle {
  const template = (theme.basedOn && findCaptionTemplate(theme.basedOn)) || DEFAULT_CAPTION_TEMPLATE;
  return overStyle(template.style, themeStyleColumn.read(theme.style));
}

/** Reads a theme body, its font checked against the user's library; every violated field is reported at once. */
export async function readTheme(db: Db, userId: string, input: unknown, creating: boolean) {
  const e = new FieldErrors();
  const data = readBody(creating ? createThemeBody : updateThemeBody, input, e);
  await checkStyleFont(db, userId, isPlainObject(input) ? input.style : undefined, 'style.font.family', e);
  e.throwIfAny();
  return data!;
}

/** One of the user's themes, or null (missing, foreign or not a UUID): project creation checks `userThemeId` with it. */
export async function findUserTheme(db: Db, userId: string, id: string): Promise<UserTheme | null> {
  return isUuid(id) ? db.userTheme.findFirst({ where: { id, userId } }) : null;
}

/** An update's theme (NOT_FOUND first) and its body read (then every violated field). */
export async function readThemeUpdate(db: Db, userId: string, id: string, input: unknown) {
  const theme = await getUserTheme(db, userId, id);
  return { theme, body: await readTheme(db, userId, input, false) };
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

/** One of the user's themes (NOT_FOUND for another user's, a missing or a malformed id). */
export const userTheme = getUserTheme;

export async function createUserTheme(db: Db, userId: string, input: unknown): Promise<UserTheme> {
  const { name, basedOn, style } = await readTheme(db, userId, input, true);
  return db.userTheme.create({
    data: { name: name as string, basedOn: basedOn ?? null, style: themeStyleColumn.write((style ?? {}) as StyleOverride), userId },
  });
}

/** Changes a theme: its name, its template, and its style (the fields given laid over its own). */
export async function updateUserTheme(db: Db, userId: string, id: string, input: unknown): Promise<UserTheme> {
  const { theme, body } = await readThemeUpdate(db, userId, id, input);
  const { name, basedOn, style } = body;
  return db.userTheme.update({
    where: { id: theme.id },
    data: {
      ...(name !== undefined ? { name } : {}),
      ...(basedOn !== undefined ? { basedOn } : {}),
      ...(style !== undefined ? { style: themeStyleColumn.write(mergeOverrides(themeStyleColumn.read(theme.style), style as StyleOverride)) } : {}),
    },
  });
}

/** Deletes one of the user's themes; projects that used it keep their template (the column is set null). */
export async function deleteUserTheme(db: Db, userId: string, id: string): Promise<UserTheme> {
  const theme = await getUserTheme(db, userId, id);
  return db.userTheme.delete({ where: { id: theme.id } });
}
