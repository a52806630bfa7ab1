import { storedOverride, type StyleOverride } from '../catalog/caption-style.js';
import type { Db, Prisma } from '../db/client.js';
import { FieldErrors, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { keysetPage, modelSource, type Page, type PageRequest } from '../pagination.js';
import { isPlainObject, readBody } from '../validation.js';
import { MEDIA_KINDS, MEDIA_TOGGLES, type MediaToggle } from './saved-media.js';
import { presetFromProjectBody, updatePresetBody } from './schemas.js';

export type Preset = Prisma.PresetModel;

/** Which kinds of saved media the preset has: a toggle can be enabled only when its kind is configured. */
export function presetConfigured(preset: Preset): Record<MediaToggle, boolean> {
  return Object.fromEntries(MEDIA_KINDS.map((kind) => [kind, preset[MEDIA_TOGGLES[kind].column] != null])) as Record<MediaToggle, boolean>;
}

/** One of the user's presets; a missing, foreign or malformed id is NOT_FOUND. */
export async function getPreset(db: Db, userId: string, id: string): Promise<Preset> {
  const preset = isUuid(id) ? await db.preset.findFirst({ where: { id, userId } }) : null;
  if (!preset) throw notFound('Preset');
  return preset;
}

/**
 * One page of the user's presets, newest first. `after` is the nextCursor of a
 * previous page: the id of one of the user's presets, anything else is refused.
 */
export function listPresets(db: Db, userId: string, page: PageRequest): Promise<Page<Preset>> {
  return keysetPage(modelSource<Preset>(db.preset as never, { scope: { userId }, where: { userId } }), page);
}

/**
 * Applies a partial update (PUT /v1/presets/{id}). Every field is checked before
 * anything is written, and every violated field is reported at once; media
 * toggles and musicVolume need the matching saved media. `read` is the update
 * as readPresetUpdate read it already (the REST check), not read again.
 */
export async function updatePreset(db: Db, userId: string, id: string, input: unknown, read?: PresetUpdateRead): Promise<Preset> {
  const { preset, data } = read ?? (await readPresetUpdate(db, userId, id, input));
  return db.preset.update({ where: { id: preset.id }, data });
}

/** A preset update as readPresetUpdate read it: handed to updatePreset when the REST check read it already. */
export type PresetUpdateRead = Awaited<ReturnType<typeof readPresetUpdate>>;

/** One of the user's presets and the update body read against it (NOT_FOUND first, then every violated field). */
export async function readPresetUpdate(db: Db, userId: string, id: string, input: unknown) {
  const preset = await getPreset(db, userId, id);
  const e = new FieldErrors();
  const data = readBody(updatePresetBody, input, e);
  const sent = isPlainObject(input) ? input : {};
  const configured = presetConfigured(preset);
  for (const kind of MEDIA_KINDS) {
    // switching off is always allowed; switching on needs something to apply
    if (sent[kind] === true && !configured[kind]) {
      e.add(kind, `can be enabled only when the preset has a saved ${MEDIA_TOGGLES[kind].label} (configured.${kind} is false)`, true);
    }
  }
  if (typeof sent.musicVolume === 'number' && !e.has('musicVolume') && !configured.music) {
    e.add('musicVolume', 'can be set only when the preset has saved music (configured.music is false)', sent.musicVolume);
  }
  e.throwIfAny();
  return { preset, data: data! };
}

/**
 * A preset holding a project's settings and its media as saved media: caption
 * template or theme, hook title, music (with its volume), zooms, B-roll and audio
 * clean-up. Projects have no logo or colour filter, so those stay unconfigured.
 */
export async function createPresetFromProject(db: Db, userId: string, projectId: string, input: { name?: unknown; description?: unknown }): Promise<Preset> {
  const project = isUuid(projectId) ? await db.project.findFirst({ where: { id: projectId, userId } }) : null;
  if (!project) throw notFound('Project');
  const e = new FieldErrors();
  const body = readBody(presetFromProjectBody, input, e);
  e.throwIfAny();
  const { name, description } = body!;

  const captions = {
    templateName: project.templateName,
    ...(project.userThemeId ? { userThemeId: project.userThemeId } : {}),
    ...(project.captionPositionY != null ? { captionPositionY: project.captionPositionY } : {}),
    ...(project.captionPositionX != null ? { captionPositionX: project.captionPositionX } : {}),
  };
  // `false` removes a hook title (SPEC.md, Hook title): nothing to save then
  const hookTitle = project.hookTitle === false ? null : project.hookTitle;
  const music = isPlainObject(project.music) ? project.music : null;
  const musicVolume = music && Number.isInteger(music.volume) ? (music.volume as number) : null;
  return db.preset.create({
    data: {
      userId,
      name: name!,
      description: description ?? null,
      sourceProjectId: project.id,
      savedCaptions: captions,
      captions: !project.disableCaptions,
      ...(hookTitle != null ? { savedHookTitle: hookTitle, hookTitle: true } : {}),
      ...(music ? { savedMusic: music as Prisma.InputJsonObject, music: true, musicVolume } : {}),
      magicZooms: project.magicZooms,
      magicBrolls: project.magicBrolls,
      magicBrollsPercentage: project.magicBrollsPercentage,
      cleanAudio: project.cleanAudio,
    },
  });
}

/** Project settings a preset supplies to project creation with `presetId`. */
export interface PresetProjectSettings {
  templateName?: string;
  userThemeId?: string;
  captionPositionY?: number;
  captionPositionX?: number;
  style?: StyleOverride;
  hookTitle?: Prisma.InputJsonValue;
  logo?: Prisma.InputJsonObject;
  colorFilter?: Prisma.InputJsonObject;
  music?: Prisma.InputJsonObject;
  magicZooms?: true;
  magicBrolls?: true;
  magicBrollsPercentage?: number;
  cleanAudio?: true;
}

/**
 * What a preset applies to a new project: its enabled toggles and the saved media
 * they stand for; a disabled toggle leaves the project's default. The logo and
 * colour filter become the project's own (drawn by every export); transition
 * settings have no project setting yet.
 */
export function presetProjectSettings(preset: Preset): PresetProjectSettings {
  const settings: PresetProjectSettings = {};
  const captions = preset.captions && isPlainObject(preset.savedCaptions) ? preset.savedCaptions : null;
  if (captions) {
    if (typeof captions.templateName === 'string') settings.templateName = captions.templateName;
    if (isUuid(captions.userThemeId)) settings.userThemeId = captions.userThemeId;
    if (typeof captions.captionPositionY === 'number') settings.captionPositionY = captions.captionPositionY;
    if (typeof captions.captionPositionX === 'number') settings.captionPositionX = captions.captionPositionX;
    const style = storedOverride(captions.style);
    if (style) settings.style = style;
  }
  if (preset.hookTitle && preset.savedHookTitle != null) settings.hookTitle = preset.savedHookTitle;
  if (preset.logo && isPlainObject(preset.savedLogo) && typeof preset.savedLogo.userMediaId === 'string') settings.logo = preset.savedLogo;
  const look = preset.savedColorFilter;
  if (preset.colorFilter && isPlainObject(look) && (typeof look.name === 'string' || typeof look.userMediaId === 'string')) settings.colorFilter = look;
  if (preset.music && isPlainObject(preset.savedMusic)) {
    const volume = preset.musicVolume ?? preset.savedMusic.volume;
    settings.music = { ...(preset.savedMusic as Prisma.InputJsonObject), ...(volume != null ? { volume } : {}) };
  }
  if (preset.magicZooms) settings.magicZooms = true;
  if (preset.magicBrolls) {
    settings.magicBrolls = true;
    settings.magicBrollsPercentage = preset.magicBrollsPercentage;
  }
  if (preset.cleanAudio) settings.cleanAudio = true;
  return settings;
}
