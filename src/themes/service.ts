import { CAPTION_TEMPLATES, HIGHLIGHT_STYLES } from '../catalog/caption-templates.js';
import type { Db, Prisma } from '../db/client.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { InputReader } from '../input.js';

export type UserTheme = Prisma.UserThemeModel;

/** Fonts a theme may use: those of the caption templates and the ones the README installs. */
export const THEME_FONTS: readonly string[] = [...new Set([...CAPTION_TEMPLATES.map((t) => t.font), 'Open Sans', 'Roboto', 'Lato', 'DejaVu Sans'])];

const COLOR = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;
const COLOR_RULE = 'must be a colour #RRGGBB or #RRGGBBAA';

export const THEME_FIELDS = [
  'name',
  'font',
  'fontSize',
  'primaryColor',
  'highlightColor',
  'outlineColor',
  'backgroundColor',
  'highlightStyle',
  'wordsPerLine',
  'uppercase',
] as const;

/**
 * Reads a theme body; every violated field is reported at once. On creation only
 * `name` is required (unset style fields keep the caption template's); a null
 * `backgroundColor` means no box behind the line.
 */
function readTheme(input: unknown, creating: boolean) {
  const r = new InputReader(input, THEME_FIELDS);
  if (!creating) r.requireSome(THEME_FIELDS);
  const data = {
    name: r.text('name', { max: 100, required: creating }) ?? undefined,
    font: r.oneOf('font', THEME_FONTS),
    fontSize: r.int('fontSize', 16, 200),
    primaryColor: r.matching('primaryColor', COLOR, COLOR_RULE),
    highlightColor: r.matching('highlightColor', COLOR, COLOR_RULE),
    outlineColor: r.matching('outlineColor', COLOR, COLOR_RULE),
    backgroundColor: r.matching('backgroundColor', COLOR, COLOR_RULE, { nullable: true }),
    highlightStyle: r.oneOf('highlightStyle', HIGHLIGHT_STYLES),
    wordsPerLine: r.int('wordsPerLine', 1, 12),
    uppercase: r.boolean('uppercase'),
  };
  r.errors.throwIfAny();
  return data;
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
  return db.userTheme.create({ data: { ...style, name: name!, userId } });
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
