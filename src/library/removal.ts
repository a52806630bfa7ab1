/**
 * DELETE /v1/user-media/{id}: a library entry goes with its file, unless
 * something still draws it. Its users are looked up in one query each: the
 * projects whose items, music, logo or colour look name it, the presets
 * whose saved logo, music or colour look do, and, for a font, the projects,
 * themes and presets whose style names its family when no other library
 * file of that family is left. A used entry is refused with VALIDATION_ERROR
 * naming every user, and nothing changes.
 */
import type { App } from '../app.js';
import { badRequest, FieldErrors, notFound } from '../errors.js';
import type { UserMedia } from '../generated/prisma/client.ts';
import { isUuid } from '../ids.js';

/** At most this many users of each kind are named in a refusal (the count says the rest). */
const NAMED = 5;

const quoted = (title: string) => `"${title.length > 60 ? `${title.slice(0, 59)}…` : title}"`;

/** Who still draws `entry`, in words: one line per kind of user. */
async function usersOf(app: Pick<App, 'db'>, entry: UserMedia): Promise<string[]> {
  const { db } = app;
  const userId = entry.userId;
  const byId = (column: string) => ({ [column]: { path: ['userMediaId'], equals: entry.id } });
  const family = entry.type === 'FONT' ? familyOf(entry.metadata) : undefined;
  const lastOfFamily =
    family !== undefined &&
    (await db.userMedia.count({ where: { userId, type: 'FONT', id: { not: entry.id }, metadata: { path: ['family'], equals: family } } })) === 0;
  const byFamily = (column: string, path: string[] = ['font', 'family']) => ({ [column]: { path, equals: family } });

  const [projects, presets, themes] = await Promise.all([
    db.project.findMany({
      where: {
        userId,
        OR: [
          { items: { array_contains: [{ userMediaId: entry.id }] } },
          byId('music'),
          byId('logo'),
          byId('colorFilter'),
          ...(lastOfFamily ? [byFamily('captionStyle')] : []),
        ],
      },
      select: { id: true, title: true },
      orderBy: { createdAt: 'desc' },
      take: NAMED + 1,
    }),
    db.preset.findMany({
      where: {
        userId,
        OR: [
          byId('savedLogo'),
          byId('savedMusic'),
          byId('savedColorFilter'),
          ...(lastOfFamily ? [byFamily('savedCaptions', ['style', 'font', 'family'])] : []),
        ],
      },
      select: { id: true, name: true },
      orderBy: { createdAt: 'desc' },
      take: NAMED + 1,
    }),
    lastOfFamily ? db.userTheme.findMany({ where: { userId, ...byFamily('style') }, select: { id: true, name: true }, take: NAMED + 1 }) : [],
  ]);
  const line = (kind: string, rows: Array<{ id: string; title?: string; name?: string }>) => {
    if (!rows.length) return [];
    const named = rows.slice(0, NAMED).map((r) => `${quoted(r.title ?? r.name ?? '')} (${r.id})`);
    return [`${kind}${rows.length > 1 ? 's' : ''} ${named.join(', ')}${rows.length > NAMED ? ' and more' : ''}`];
  };
  return [...line('project', projects), ...line('preset', presets), ...line('theme', themes)];
}

function familyOf(metadata: unknown): string | undefined {
  const family = metadata && typeof metadata === 'object' ? (metadata as { family?: unknown }).family : undefined;
  return typeof family === 'string' ? family : undefined;
}

/**
 * Deletes one of the user's library entries and its stored file. NOT_FOUND
 * for an unknown, foreign or already deleted entry; BAD_REQUEST while its
 * file is still being fetched (the download would write it again);
 * VALIDATION_ERROR on `id` naming what still uses it.
 */
export async function deleteUserMedia(app: Pick<App, 'db' | 'storage'>, userId: string, id: string): Promise<UserMedia> {
  const entry = isUuid(id) ? await app.db.userMedia.findFirst({ where: { id, userId } }) : null;
  if (!entry) throw notFound('User media');
  if (entry.status === 'pending' && entry.sourceUrl) throw badRequest('The file is still being fetched: delete it once it is ready or failed');
  const users = await usersOf(app, entry);
  if (users.length) {
    const e = new FieldErrors();
    e.add('id', `is still used by ${users.join('; ')}: remove it from them first`, id);
    e.throwIfAny();
  }
  // the row first: once it is gone nothing can start drawing the file, and a second DELETE is 404
  const { count } = await app.db.userMedia.deleteMany({ where: { id: entry.id, userId } });
  if (count === 0) throw notFound('User media');
  if (entry.storageKey) await app.storage.delete(entry.storageKey);
  return entry;
}
