/**
 * A preset's saved media, made in the editor (the console, over GraphQL's
 * savePresetMedia; SPEC.md: /v1 cannot replace them): the caption look, the
 * hook title, a logo and music from the library, a colour look. Each medium
 * saved switches its toggle on, each removed (null) switches it off; the
 * library references are the user's own and ready, checked with the rest of
 * the body, every problem in one VALIDATION_ERROR.
 */
import { Prisma, type Db } from '../db/client.js';
import { FieldErrors } from '../errors.js';
import { isUuid } from '../ids.js';
import { isPlainObject, readBody } from '../validation.js';
import { LOGO_DEFAULTS, savePresetMediaBody, type SavePresetMedia } from './schemas.js';
import { savedMediumColumn } from './saved-media.js';
import { getPreset, type Preset } from './service.js';
import { checkStyleFont } from '../themes/fonts.js';
import { musicSource } from '../projects/references.js';

const notReady = (status: string) => `is not ready yet (status ${status})`;

/** Reads and checks a savePresetMedia body against the user's library, themes and the music catalogue. */
export async function readPresetMedia(db: Db, userId: string, presetId: string, input: unknown) {
  const preset = await getPreset(db, userId, presetId);
  const e = new FieldErrors();
  const body = readBody(savePresetMediaBody, input, e);
  // the references are looked up from what was sent even when other fields are wrong, so one answer names every problem
  const raw = isPlainObject(input) ? input : {};
  const idAt = (medium: string, field: string) => {
    const value = isPlainObject(raw[medium]) ? raw[medium][field] : undefined;
    return typeof value === 'string' && isUuid(value) && !e.has(`${medium}.${field}`) ? value : undefined;
  };
  const logoId = idAt('logo', 'userMediaId');
  const musicId = idAt('music', 'userMediaId');
  const themeId = idAt('captions', 'userThemeId');
  const lutId = idAt('colorFilter', 'userMediaId');
  const ids = [logoId, musicId, lutId].filter((id): id is string => !!id);
  const [media, track, theme] = await Promise.all([
    ids.length ? db.userMedia.findMany({ where: { id: { in: ids }, userId }, select: { id: true, type: true, status: true } }) : [],
    musicId ? db.musicTrack.findUnique({ where: { id: musicId }, select: { status: true } }) : null,
    themeId ? db.userTheme.findFirst({ where: { id: themeId, userId }, select: { id: true } }) : null,
    checkStyleFont(db, userId, isPlainObject(raw.captions) ? raw.captions.style : undefined, 'captions.style.font.family', e),
  ]);
  const byId = new Map(media.map((m) => [m.id, m]));
  if (logoId) {
    const m = byId.get(logoId);
    if (!m) e.add('logo.userMediaId', 'is not an IMAGE of your library', logoId);
    else if (m.type !== 'IMAGE') e.add('logo.userMediaId', `must be an IMAGE of your library, not ${m.type}`, logoId);
    else if (m.status !== 'ready') e.add('logo.userMediaId', notReady(m.status), logoId);
  }
  if (lutId) {
    const m = byId.get(lutId);
    if (!m) e.add('colorFilter.userMediaId', 'is not a LUT of your library', lutId);
    else if (m.type !== 'LUT') e.add('colorFilter.userMediaId', `must be a LUT (.cube) of your library, not ${m.type}`, lutId);
    else if (m.status !== 'ready') e.add('colorFilter.userMediaId', notReady(m.status), lutId);
  }
  const source = musicId ? musicSource(musicId, byId.get(musicId), track, e) : undefined;
  if (themeId && !theme) e.add('captions.userThemeId', 'is not one of your user themes', themeId);
  e.throwIfAny();
  return { preset, body: body as SavePresetMedia, musicSource: source ?? 'library' };
}

export type PresetMediaRead = Awaited<ReturnType<typeof readPresetMedia>>;

const dropUndefined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, Prisma.JsonValue>;

/** Saves the media given (and removes those given as null), switching their toggles with them; the preset after. */
export async function savePresetMedia(db: Db, userId: string, presetId: string, input: unknown, read?: PresetMediaRead): Promise<Preset> {
  const { preset, body: b, musicSource } = read ?? (await readPresetMedia(db, userId, presetId, input));
  const data: Prisma.PresetUpdateInput = {};
  const save = <K extends 'captions' | 'hookTitle' | 'logo' | 'colorFilter' | 'music'>(
    kind: K,
    column: keyof Prisma.PresetUpdateInput,
    value: Record<string, Prisma.JsonValue> | null | undefined,
  ) => {
    if (value === undefined) return;
    // no saved medium of that kind: SQL NULL
    (data as Record<string, unknown>)[column] = value === null ? Prisma.DbNull : savedMediumColumn.write(value);
    (data as Record<string, unknown>)[kind] = value !== null;
  };
  save('captions', 'savedCaptions', b.captions === null ? null : b.captions && dropUndefined(b.captions));
  save('hookTitle', 'savedHookTitle', b.hookTitle === null ? null : b.hookTitle && dropUndefined(b.hookTitle));
  save('logo', 'savedLogo', b.logo === null ? null : b.logo && { ...LOGO_DEFAULTS, ...dropUndefined(b.logo) });
  save('colorFilter', 'savedColorFilter', b.colorFilter === null ? null : b.colorFilter && { intensity: 60, ...dropUndefined(b.colorFilter) });
  save('music', 'savedMusic', b.music === null ? null : b.music && { startFromTime: 0, fade: true, ...dropUndefined(b.music), source: musicSource });
  if (b.music) data.musicVolume = b.music.volume;
  if (b.music === null) data.musicVolume = null;
  return db.preset.update({ where: { id: preset.id }, data });
}
