/**
 * What a project body names outside itself, looked up once its shape is read:
 * library files and music tracks (ready, of the right kind, in a layout that
 * fits), all in one query each. Problems go to the caller's FieldErrors.
 */
import { z } from 'zod';
import { COLOR_FILTERS, LOGO_POSITIONS, type ColorFilterName, type LogoPosition } from '../catalog/color-filters.js';
import type { App } from '../app.js';
import { jsonColumn } from '../db/json.js';
import type { FieldErrors } from '../errors.js';
import { isUuid } from '../ids.js';
import type { ItemDraft } from './schemas.js';
import { IMAGE_LAYOUTS, VIDEO_LAYOUTS } from './settings.js';

export interface HookTitle {
  text?: string;
  template: string;
  top: number;
  size: number;
  /** the user did not set `top`: it is placed off the speaker's face and the captions (hook-placement.ts) */
  autoTop?: boolean;
  /** the speaker's face over the hook's seconds, in source display pixels (null: none found); absent until looked for */
  face?: { x: number; y: number; w: number; h: number } | null;
}

export interface Music {
  userMediaId: string;
  volume: number;
  startFromTime: number;
  fade: boolean;
  /** where the id was found */
  source: 'library' | 'catalogue';
}

export type Item =
  | { type: 'user-media'; startTime: number; endTime: number; userMediaId: string; layout?: string; mediaType: 'VIDEO' | 'IMAGE' }
  | { type: 'ai-broll'; startTime: number; endTime: number; prompt: string; layout?: string };

/** A stored item: an AI B-roll item gets `clipKey` once its clip is in storage. */
export type StoredItem = Exclude<Item, { type: 'ai-broll' }> | (Extract<Item, { type: 'ai-broll' }> & { clipKey?: string });

/**
 * Project.hookTitle, null when none. A preset's saved hook title is spread over the
 * default one (creation.ts), so keys the editor saves beside these may be stored too.
 */
export const hookTitleColumn = jsonColumn<HookTitle | null>(
  'Project.hookTitle',
  z
    .looseObject({
      text: z.string().optional(),
      template: z.string(),
      top: z.number(),
      size: z.number(),
      autoTop: z.boolean().optional(),
      face: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).nullable().optional(),
    })
    .nullable(),
);

/** Project.music, null when none */
export const musicColumn = jsonColumn<Music | null>(
  'Project.music',
  z
    .looseObject({ userMediaId: z.string(), volume: z.number(), startFromTime: z.number(), fade: z.boolean(), source: z.enum(['library', 'catalogue']) })
    .nullable(),
);

const itemTimes = { startTime: z.number(), endTime: z.number(), layout: z.string().optional() };

/** Project.items, null when none */
export const itemsColumn = jsonColumn<StoredItem[] | null>(
  'Project.items',
  z
    .array(
      z.discriminatedUnion('type', [
        z.looseObject({ type: z.literal('user-media'), ...itemTimes, userMediaId: z.string(), mediaType: z.enum(['VIDEO', 'IMAGE']) }),
        z.looseObject({ type: z.literal('ai-broll'), ...itemTimes, prompt: z.string(), clipKey: z.string().optional() }),
      ]),
    )
    .nullable(),
);

export interface MusicDraft {
  userMediaId?: string;
  volume: number;
  startFromTime: number;
  fade: boolean;
}

const notReady = (status: string) =>
  status === 'failed' ? 'is a library file that failed to import' : 'is a library file that is not ready yet: wait until it is listed with its metadata';

/**
 * Checks the library references of music and items (each with its index in
 * the body) against the user's library and the music catalogue: ready entries
 * of the right kind, layouts that fit the media. Returns what passed.
 */
export async function resolveLibrary(
  app: App,
  userId: string,
  musicDraft: MusicDraft | undefined,
  itemDrafts: Array<{ index: number; item: ItemDraft }> | undefined,
  e: FieldErrors,
) {
  const [media, track] = await Promise.all([
    lookupMedia(app, userId, [
      ...(itemDrafts ?? []).flatMap(({ item }) => (item.type === 'user-media' ? [item.userMediaId] : [])),
      ...(musicDraft?.userMediaId ? [musicDraft.userMediaId] : []),
    ]),
    musicDraft?.userMediaId ? app.db.musicTrack.findUnique({ where: { id: musicDraft.userMediaId } }) : null,
  ]);
  let music: Music | undefined;
  if (musicDraft?.userMediaId) {
    const source = musicSource(musicDraft.userMediaId, media.get(musicDraft.userMediaId), track, e);
    if (source) music = { ...musicDraft, userMediaId: musicDraft.userMediaId, source };
  }

  const items: Item[] | undefined = itemDrafts ? [] : undefined;
  itemDrafts?.forEach(({ index, item: d }) => {
    const at = `items[${index}]`;
    const layout = d.layout ? { layout: d.layout } : {};
    if (d.type === 'ai-broll') {
      items!.push({ type: 'ai-broll', startTime: d.startTime, endTime: d.endTime, prompt: d.prompt, ...layout });
      return;
    }
    const entry = media.get(d.userMediaId);
    if (!entry) return void e.add(`${at}.userMediaId`, 'is not a file of your media library', d.userMediaId);
    if (entry.status !== 'ready') return void e.add(`${at}.userMediaId`, notReady(entry.status), d.userMediaId);
    if (entry.type === 'AUDIO') return void e.add(`${at}.userMediaId`, 'is an AUDIO file: items show video or images (use music for audio)', d.userMediaId);
    if (entry.type !== 'VIDEO' && entry.type !== 'IMAGE')
      return void e.add(`${at}.userMediaId`, `is a ${entry.type} file: items show video or images`, d.userMediaId);
    const layouts: readonly string[] = entry.type === 'IMAGE' ? IMAGE_LAYOUTS : VIDEO_LAYOUTS;
    if (d.layout !== undefined && !layouts.includes(d.layout)) {
      return void e.add(`${at}.layout`, `must be one of ${layouts.join(', ')} for ${entry.type === 'IMAGE' ? 'an image' : 'a video'}`, d.layout);
    }
    items!.push({ type: 'user-media', startTime: d.startTime, endTime: d.endTime, userMediaId: entry.id, mediaType: entry.type, ...layout });
  });

  return { music, items };
}

/**
 * Where music's `userMediaId` points: a ready AUDIO file of the library (its
 * entry, when the user has one of that id) or a ready catalogue track; else
 * the problem on `music.userMediaId` and undefined. Projects and a preset's
 * saved music check it alike.
 */
export function musicSource(
  id: string,
  entry: { type: string; status: string } | undefined,
  track: { status: string } | null,
  e: FieldErrors,
): Music['source'] | undefined {
  const field = 'music.userMediaId';
  if (entry) {
    if (entry.type !== 'AUDIO') return void e.add(field, `must be an AUDIO library file, not ${entry.type}`, id);
    if (entry.status !== 'ready') return void e.add(field, notReady(entry.status), id);
    return 'library';
  }
  if (track) {
    if (track.status !== 'ready') return void e.add(field, 'is a music track that is not ready yet', id);
    return 'catalogue';
  }
  e.add(field, 'is neither an AUDIO file of your library nor a music track (see GET /v1/music)', id);
}

/** Library entries of the user among `ids`, in one query. */
async function lookupMedia(app: App, userId: string, ids: string[]) {
  const unique = [...new Set(ids.filter(isUuid))];
  const rows = unique.length ? await app.db.userMedia.findMany({ where: { id: { in: unique }, userId }, select: { id: true, type: true, status: true } }) : [];
  return new Map(rows.map((m) => [m.id, m]));
}

/** A preset's logo as a project draws it (Project.logo), null when none */
export interface Logo {
  userMediaId: string;
  position: LogoPosition;
  sizePercent: number;
  opacity: number;
  marginPercent: number;
}

/** Project.logo, null when none */
export const logoColumn = jsonColumn<Logo | null>(
  'Project.logo',
  z
    .looseObject({ userMediaId: z.string(), position: z.enum(LOGO_POSITIONS), sizePercent: z.number(), opacity: z.number(), marginPercent: z.number() })
    .nullable(),
);

/** A colour look as a project draws it: a named one, or a LUT of the user's library */
export type ColorLook = { name: ColorFilterName; intensity: number } | { userMediaId: string; intensity: number };

/** Project.colorFilter (and a preset's saved one), null when none */
export const colorFilterColumn = jsonColumn<ColorLook | null>(
  'Project.colorFilter',
  z
    .union([z.looseObject({ name: z.enum(COLOR_FILTERS), intensity: z.number() }), z.looseObject({ userMediaId: z.string(), intensity: z.number() })])
    .nullable(),
);
