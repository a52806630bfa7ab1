import type { App } from '../app.js';
import { findCaptionTemplate, DEFAULT_CAPTION_TEMPLATE } from '../catalog/caption-templates.js';
import { DEFAULT_HOOK_TITLE_TEMPLATE, findHookTitleTemplate, HOOK_TITLE_TEMPLATES } from '../catalog/hook-title-templates.js';
import { findLanguage, languagesFor } from '../catalog/languages.js';
import type { FieldErrors } from '../errors.js';
import { isUuid, UUID_PATTERN } from '../ids.js';
import { InputReader, isPlainObject } from '../input.js';
import { presetProjectSettings } from '../presets/service.js';
import { findUserTheme } from '../themes/service.js';
import {
  AI_BROLL_MAX_SECONDS,
  AI_BROLL_PROMPT_MAX,
  AI_EDIT_TEMPLATE_KEYS,
  findAiEditTemplate,
  IMAGE_LAYOUTS,
  ITEM_TYPES,
  SILENCE_PACES,
  VIDEO_LAYOUTS,
  type SilencePace,
} from './settings.js';

/** The body fields of POST /v1/projects (SPEC.md); uploads take `file` instead of videoUrl and have no autoRender. */
export const CREATE_FIELDS = [
  'title', 'language', 'videoUrl', 'aiEditTemplate', 'presetId', 'templateName', 'userThemeId', 'captionPositionY',
  'captionPositionX', 'hookTitle', 'webhookUrl', 'dictionary', 'items', 'magicZooms', 'magicBrolls',
  'magicBrollsPercentage', 'removeSilencePace', 'removeBadTakes', 'cleanAudio', 'disableCaptions', 'autoRender', 'music',
] as const;
export const UPLOAD_FIELDS = CREATE_FIELDS.filter((f) => f !== 'videoUrl' && f !== 'autoRender');

/** What presetId cannot be combined with (SPEC.md). */
const PRESET_CONFLICTS = [
  'templateName', 'userThemeId', 'hookTitle', 'music', 'items', 'magicZooms', 'magicBrolls', 'magicBrollsPercentage',
  'removeSilencePace', 'removeBadTakes', 'captionPositionY', 'captionPositionX',
] as const;
/** All that may accompany aiEditTemplate (SPEC.md). */
const AI_TEMPLATE_COMPANIONS = new Set(['title', 'language', 'videoUrl', 'file', 'webhookUrl', 'dictionary', 'aiEditTemplate']);

export interface HookTitle {
  text?: string;
  template: string;
  top: number;
  size: number;
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

/** The settings a project is created with, checked and completed with defaults. */
export interface ProjectSettings {
  title: string;
  language: string;
  videoUrl?: string;
  webhookUrl?: string;
  templateName: string;
  userThemeId?: string;
  presetId?: string;
  aiEditTemplate?: string;
  magicZooms: boolean;
  magicBrolls: boolean;
  magicBrollsPercentage: number;
  removeSilencePace?: SilencePace;
  removeBadTakes: boolean;
  cleanAudio: boolean;
  disableCaptions: boolean;
  autoRender: boolean;
  captionPositionY?: number;
  captionPositionX?: number;
  /** null: none; true (default AI hook) resolved to defaults without text */
  hookTitle?: HookTitle;
  music?: Music;
  items?: Item[];
  dictionary: string[];
  /** the fields the caller sent, so the answer echoes only what applies */
  sent: string[];
}

/**
 * Reads and checks a creation body, every rule of SPEC.md at once: one
 * VALIDATION_ERROR listing every violated field, looked-up references
 * (preset, theme, library media, music track) included. Nothing is written.
 */
export async function readCreateBody(app: App, userId: string, body: unknown, source: 'url' | 'upload'): Promise<ProjectSettings> {
  const known = source === 'url' ? CREATE_FIELDS : UPLOAD_FIELDS;
  const r = new InputReader(body, known);
  const e = r.errors;

  const title = r.text('title', { max: 100, required: true });
  const language = r.text('language', { max: 10, required: true });
  if (language && !e.has('language')) {
    const lang = findLanguage(language);
    if (!lang) e.add('language', 'is not a known language code (see GET /v1/languages)', language);
    else if (!languagesFor(app.config.transcriber, (code) => app.transcriber.supports(code)).includes(lang)) {
      e.add('language', `cannot be transcribed by the configured engine (${app.config.transcriber}); see GET /v1/languages`, language);
    }
  }
  const videoUrl = source === 'url' ? readHttpUrl(r, 'videoUrl', { required: true }) : undefined;
  const webhookUrl = readHttpUrl(r, 'webhookUrl', { httpsOnly: true });
  const aiEditTemplate = r.oneOf('aiEditTemplate', AI_EDIT_TEMPLATE_KEYS) ?? undefined;
  const presetId = r.matching('presetId', /^[0-9a-f-]{36}$/i, 'must be the UUID of one of your presets') ?? undefined;
  const templateName = r.text('templateName', { max: 50 }) ?? undefined;
  if (templateName && !findCaptionTemplate(templateName)) e.add('templateName', 'is not a caption template (see GET /v1/templates)', templateName);
  const userThemeId = r.matching('userThemeId', /^[0-9a-f-]{36}$/i, 'must be the UUID of one of your themes') ?? undefined;
  if (templateName !== undefined && r.has('userThemeId')) {
    e.add('templateName', 'cannot be combined with userThemeId', templateName);
    e.add('userThemeId', 'cannot be combined with templateName', r.value('userThemeId'));
  }
  const captionPositionY = r.number('captionPositionY', 0, 80) ?? undefined;
  const captionPositionX = r.number('captionPositionX', 0, 100) ?? undefined;
  const magicZooms = r.boolean('magicZooms');
  const magicBrolls = r.boolean('magicBrolls');
  const magicBrollsPercentage = r.number('magicBrollsPercentage', 0, 100) ?? undefined;
  const removeSilencePace = r.oneOf('removeSilencePace', SILENCE_PACES) ?? undefined;
  const removeBadTakes = r.boolean('removeBadTakes');
  const cleanAudio = r.boolean('cleanAudio');
  const disableCaptions = r.boolean('disableCaptions');
  const autoRender = source === 'url' ? r.boolean('autoRender') : undefined;
  const dictionary = readDictionary(r);
  const hookTitle = readHookTitle(r.value('hookTitle'), e, 'hookTitle', { allowFalse: true });
  const musicDraft = readMusic(r.value('music'), e);
  const itemDrafts = readItems(r.value('items'), e);

  // combinations
  if (presetId !== undefined || r.has('presetId')) {
    for (const f of PRESET_CONFLICTS) if (r.has(f)) e.add(f, 'cannot be combined with presetId', r.value(f));
  }
  if (r.has('aiEditTemplate')) {
    for (const f of r.sent) {
      if (!AI_TEMPLATE_COMPANIONS.has(f) && known.includes(f as never)) e.add(f, 'cannot be combined with aiEditTemplate', r.value(f));
    }
  }

  // references, all looked up together
  const [preset, theme, { music, items }] = await Promise.all([
    presetId && !e.has('presetId') ? app.db.preset.findFirst({ where: { id: presetId, userId } }) : null,
    userThemeId && !e.has('userThemeId') ? findUserTheme(app.db, userId, userThemeId) : null,
    resolveLibrary(app, userId, musicDraft, itemDrafts, e),
  ]);
  if (presetId && !e.has('presetId') && !preset) e.add('presetId', 'is not one of your presets', presetId);
  if (userThemeId && !e.has('userThemeId') && !theme) e.add('userThemeId', 'is not one of your user themes', userThemeId);

  e.throwIfAny();

  const settings: ProjectSettings = {
    title: title!,
    language: language!.toLowerCase(),
    videoUrl,
    webhookUrl,
    templateName: templateName ?? DEFAULT_CAPTION_TEMPLATE.name,
    userThemeId,
    presetId,
    aiEditTemplate,
    magicZooms: magicZooms ?? false,
    magicBrolls: magicBrolls ?? false,
    magicBrollsPercentage: magicBrollsPercentage ?? 50,
    removeSilencePace,
    removeBadTakes: removeBadTakes ?? false,
    cleanAudio: cleanAudio ?? false,
    disableCaptions: disableCaptions ?? false,
    autoRender: autoRender ?? true,
    captionPositionY,
    captionPositionX,
    hookTitle: hookTitle ?? undefined,
    music,
    items,
    dictionary: dictionary ?? [],
    sent: r.sent,
  };
  if (preset) applyPreset(settings, presetProjectSettings(preset));
  const bundle = aiEditTemplate ? findAiEditTemplate(aiEditTemplate) : undefined;
  if (bundle) {
    Object.assign(settings, {
      templateName: bundle.templateName,
      magicZooms: bundle.magicZooms,
      magicBrolls: bundle.magicBrolls,
      magicBrollsPercentage: bundle.magicBrollsPercentage,
      removeSilencePace: bundle.removeSilencePace ?? undefined,
      removeBadTakes: bundle.removeBadTakes,
      cleanAudio: bundle.cleanAudio,
      hookTitle: bundle.hookTitle ? defaultHook() : undefined,
    });
  }
  return settings;
}

const notReady = (status: string) =>
  status === 'failed' ? 'is a library file that failed to import' : 'is a library file that is not ready yet: wait until it is listed with its metadata';

const defaultHook = (): HookTitle => ({ template: DEFAULT_HOOK_TITLE_TEMPLATE.name, top: 50, size: 30 });

/** The preset's enabled settings replace the defaults (presetId excludes the caller's own). */
function applyPreset(s: ProjectSettings, p: ReturnType<typeof presetProjectSettings>) {
  if (p.templateName) s.templateName = p.templateName;
  if (p.userThemeId) s.userThemeId = p.userThemeId;
  if (p.captionPositionY !== undefined) s.captionPositionY = p.captionPositionY;
  if (p.captionPositionX !== undefined) s.captionPositionX = p.captionPositionX;
  if (p.hookTitle) s.hookTitle = { ...defaultHook(), ...(isPlainObject(p.hookTitle) ? (p.hookTitle as Partial<HookTitle>) : {}) };
  if (p.music && isPlainObject(p.music) && typeof p.music.userMediaId === 'string') {
    s.music = { startFromTime: 0, fade: true, volume: 50, source: 'catalogue', ...(p.music as Partial<Music>), userMediaId: p.music.userMediaId };
  }
  if (p.magicZooms !== undefined) s.magicZooms = p.magicZooms;
  if (p.magicBrolls !== undefined) s.magicBrolls = p.magicBrolls;
  if (p.magicBrollsPercentage !== undefined) s.magicBrollsPercentage = p.magicBrollsPercentage;
  if (p.cleanAudio !== undefined) s.cleanAudio = p.cleanAudio;
}

function readHttpUrl(r: InputReader, field: string, opts: { required?: boolean; httpsOnly?: boolean }): string | undefined {
  const raw = r.text(field, { max: 2048, required: opts.required });
  if (raw == null) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    r.errors.add(field, opts.httpsOnly ? 'must be a valid HTTPS URL' : 'must be a valid URL', raw);
    return undefined;
  }
  if (opts.httpsOnly ? url.protocol !== 'https:' : !['http:', 'https:'].includes(url.protocol)) {
    r.errors.add(field, opts.httpsOnly ? 'must be a valid HTTPS URL' : 'must be an http or https URL', raw);
    return undefined;
  }
  return url.toString();
}

function readDictionary(r: InputReader): string[] | undefined {
  const v = r.value('dictionary');
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) return void r.errors.add('dictionary', 'must be an array of strings', v);
  if (v.length > 100) return void r.errors.add('dictionary', 'must have at most 100 items', v.length);
  v.forEach((w, i) => {
    if (typeof w !== 'string' || !w.trim() || w.length > 50) r.errors.add(`dictionary[${i}]`, 'must be a word or phrase of 1-50 characters', w);
  });
  return v.filter((w): w is string => typeof w === 'string').map((w) => w.trim());
}

/**
 * A hook title: `true` (default AI hook), an object of optional members, or
 * `false` (none; at creation it is the same as leaving it out).
 */
export function readHookTitle(v: unknown, e: FieldErrors, field: string, opts: { allowFalse: boolean }): HookTitle | null | undefined {
  if (v === undefined) return undefined;
  if (v === true) return defaultHook();
  if (v === false && opts.allowFalse) return null;
  if (!isPlainObject(v)) return void e.add(field, 'must be true, false or an object {text, template, top, size}', v);
  const r = new InputReader(v, ['text', 'template', 'top', 'size']);
  const text = r.text('text', { max: 100 }) ?? undefined;
  const template = r.text('template', { max: 50 }) ?? undefined;
  if (template && !findHookTitleTemplate(template)) {
    r.errors.add('template', `is not a hook-title template (one of ${HOOK_TITLE_TEMPLATES.map((t) => t.name).join(', ')})`, template);
  }
  const top = r.number('top', 0, 80) ?? undefined;
  const size = r.number('size', 0, 80) ?? undefined;
  for (const err of r.errors.list) e.add(`${field}.${err.field}`, err.message, err.value);
  return { ...defaultHook(), ...(text ? { text } : {}), ...(template ? { template } : {}), ...(top !== undefined ? { top } : {}), ...(size !== undefined ? { size } : {}) };
}

export interface MusicDraft {
  userMediaId?: string;
  volume: number;
  startFromTime: number;
  fade: boolean;
}

export function readMusic(v: unknown, e: FieldErrors, field = 'music'): MusicDraft | undefined {
  if (v === undefined) return undefined;
  if (!isPlainObject(v)) return void e.add(field, 'must be an object {userMediaId, volume, startFromTime, fade}', v);
  const r = new InputReader(v, ['userMediaId', 'volume', 'startFromTime', 'fade']);
  const userMediaId = r.matching('userMediaId', UUID_PATTERN, 'must be the UUID of an AUDIO library file or a music track');
  if (!r.has('userMediaId')) r.errors.add('userMediaId', 'is required');
  const volume = r.number('volume', 1, 100, { required: true });
  const startFromTime = r.number('startFromTime', 0, 24 * 3600);
  const fade = r.boolean('fade');
  for (const err of r.errors.list) e.add(`${field}.${err.field}`, err.message, err.value);
  return { userMediaId: userMediaId ?? undefined, volume: volume ?? 50, startFromTime: startFromTime ?? 0, fade: fade ?? true };
}

export interface ItemDraft {
  type: (typeof ITEM_TYPES)[number];
  startTime: number;
  endTime: number;
  userMediaId?: string;
  prompt?: string;
  layout?: string;
}

/**
 * Items: each with its type's rules, then no two overlapping in time. Library
 * references are checked by the caller, which looks them all up at once.
 */
export function readItems(v: unknown, e: FieldErrors, field = 'items', { requireOne = false } = {}): ItemDraft[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) return void e.add(field, 'must be an array of items', v);
  if (requireOne && v.length === 0) return void e.add(field, 'must have at least one item');
  const drafts: Array<ItemDraft & { index: number }> = [];
  v.forEach((raw, i) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(raw)) return void e.add(at, 'must be an object', raw);
    const type = raw.type;
    if (type === undefined) return void e.add(`${at}.type`, `is required: one of ${ITEM_TYPES.join(', ')}`);
    if (!ITEM_TYPES.includes(type as never)) return void e.add(`${at}.type`, `must be one of ${ITEM_TYPES.join(', ')}`, type);
    const allowed = type === 'user-media' ? ['type', 'startTime', 'endTime', 'userMediaId', 'layout'] : ['type', 'startTime', 'endTime', 'prompt', 'layout'];
    const r = new InputReader(raw, allowed);
    const startTime = r.number('startTime', 0, 24 * 3600, { required: true });
    const endTime = r.number('endTime', 0, 24 * 3600, { required: true });
    if (startTime != null && endTime != null) {
      if (endTime <= startTime) r.errors.add('endTime', 'must be greater than startTime', endTime);
      else if (type === 'ai-broll' && endTime - startTime > AI_BROLL_MAX_SECONDS) {
        r.errors.add('endTime', `must be at most ${AI_BROLL_MAX_SECONDS} seconds after startTime for an AI B-roll`, endTime);
      }
    }
    let userMediaId: string | undefined;
    let prompt: string | undefined;
    if (type === 'user-media') {
      const id = r.value('userMediaId');
      if (id === undefined) r.errors.add('userMediaId', 'is required');
      else if (!isUuid(id)) r.errors.add('userMediaId', 'must be a UUID of a file of your media library', id);
      else userMediaId = id;
    } else {
      prompt = r.text('prompt', { max: AI_BROLL_PROMPT_MAX, required: true }) ?? undefined;
    }
    const layout = r.oneOf('layout', VIDEO_LAYOUTS) ?? undefined;
    for (const err of r.errors.list) e.add(`${at}.${err.field}`, err.message, err.value);
    if (r.errors.size === 0) drafts.push({ index: i, type: type as ItemDraft['type'], startTime: startTime!, endTime: endTime!, userMediaId, prompt, layout });
  });
  // overlap, in time order: an item that starts before the previous one ends
  const sorted = [...drafts].sort((a, b) => a.startTime - b.startTime);
  for (let k = 1; k < sorted.length; k++) {
    const [prev, cur] = [sorted[k - 1], sorted[k]];
    if (cur.startTime < prev.endTime) {
      e.add(`${field}[${cur.index}].startTime`, `overlaps items[${prev.index}] (${prev.startTime}-${prev.endTime} s); items must not overlap`, cur.startTime);
    }
  }
  return drafts.map(({ index: _index, ...d }) => d);
}

/**
 * Checks the library references of music and items against the user's library
 * and the music catalogue, in one query each: ready entries of the right kind,
 * layouts that fit the media. Problems go to `e`; returns what passed.
 */
export async function resolveLibrary(app: App, userId: string, musicDraft: MusicDraft | undefined, itemDrafts: ItemDraft[] | undefined, e: FieldErrors) {
  const [media, track] = await Promise.all([
    lookupMedia(app, userId, [...(itemDrafts ?? []).flatMap((i) => (i.userMediaId ? [i.userMediaId] : [])), ...(musicDraft?.userMediaId ? [musicDraft.userMediaId] : [])]),
    musicDraft?.userMediaId ? app.db.musicTrack.findUnique({ where: { id: musicDraft.userMediaId } }) : null,
  ]);
  let music: Music | undefined;
  if (musicDraft?.userMediaId) {
    const entry = media.get(musicDraft.userMediaId);
    if (entry) {
      if (entry.type !== 'AUDIO') e.add('music.userMediaId', `must be an AUDIO library file, not ${entry.type}`, musicDraft.userMediaId);
      else if (entry.status !== 'ready') e.add('music.userMediaId', notReady(entry.status), musicDraft.userMediaId);
      else music = { ...musicDraft, userMediaId: musicDraft.userMediaId, source: 'library' };
    } else if (track) {
      if (track.status !== 'ready') e.add('music.userMediaId', 'is a music track that is not ready yet', musicDraft.userMediaId);
      else music = { ...musicDraft, userMediaId: musicDraft.userMediaId, source: 'catalogue' };
    } else {
      e.add('music.userMediaId', 'is neither an AUDIO file of your library nor a music track (see GET /v1/music)', musicDraft.userMediaId);
    }
  }

  const items: Item[] | undefined = itemDrafts ? [] : undefined;
  itemDrafts?.forEach((d, i) => {
    const at = `items[${i}]`;
    if (d.type === 'ai-broll') {
      items!.push({ type: 'ai-broll', startTime: d.startTime, endTime: d.endTime, prompt: d.prompt!, ...(d.layout ? { layout: d.layout } : {}) });
      return;
    }
    const entry = d.userMediaId ? media.get(d.userMediaId) : undefined;
    if (!entry) return void e.add(`${at}.userMediaId`, 'is not a file of your media library', d.userMediaId);
    if (entry.status !== 'ready') return void e.add(`${at}.userMediaId`, notReady(entry.status), d.userMediaId);
    if (entry.type === 'AUDIO') return void e.add(`${at}.userMediaId`, 'is an AUDIO file: items show video or images (use music for audio)', d.userMediaId);
    const layouts: readonly string[] = entry.type === 'IMAGE' ? IMAGE_LAYOUTS : VIDEO_LAYOUTS;
    if (d.layout !== undefined && !layouts.includes(d.layout)) {
      return void e.add(`${at}.layout`, `must be one of ${layouts.join(', ')} for ${entry.type === 'IMAGE' ? 'an image' : 'a video'}`, d.layout);
    }
    items!.push({ type: 'user-media', startTime: d.startTime, endTime: d.endTime, userMediaId: entry.id, mediaType: entry.type, ...(d.layout ? { layout: d.layout } : {}) });
  });

  return { music, items };
}

/** Library entries of the user among `ids`, in one query. */
async function lookupMedia(app: App, userId: string, ids: string[]) {
  const unique = [...new Set(ids.filter(isUuid))];
  const rows = unique.length
    ? await app.db.userMedia.findMany({ where: { id: { in: unique }, userId }, select: { id: true, type: true, status: true } })
    : [];
  return new Map(rows.map((m) => [m.id, m]));
}
