/**
 * Reading a creation body (POST /v1/projects and its upload): the schema, then
 * what needs the service (the transcription engine, presets, themes, library
 * files), every problem in one VALIDATION_ERROR. Nothing is written.
 */
import type { App } from '../app.js';
import type { StyleOverride } from '../catalog/caption-style.js';
import type { Prisma } from '../db/client.js';
import { DEFAULT_HOOK_TITLE_TEMPLATE } from '../catalog/hook-title-templates.js';
import type { FieldErrors } from '../errors.js';
import { isUuid } from '../ids.js';
import { presetProjectSettings } from '../presets/service.js';
import { findUserTheme } from '../themes/service.js';
import { isPlainObject } from '../validation.js';
import { creationSettings, readCreationBody, type CreationSettings } from './kinds.js';
import { checkStyleFont } from '../themes/fonts.js';
import { resolveLibrary, type HookTitle, type Item, type Music, type MusicDraft } from './references.js';
import { createProjectBody, readableItems, uploadProjectBody, type REFRAMES } from './schemas.js';
import { findAiEditTemplate, type SilencePace } from './settings.js';
import type { SpeakerLayout } from '../media/vision/speaker-layout.js';

/** The settings a project is created with, checked and completed with defaults. */
export interface ProjectSettings extends CreationSettings {
  videoUrl?: string;
  presetId?: string;
  /** the project's own caption style changes */
  style?: StyleOverride;
  /** a preset's saved logo and colour look */
  logo?: Prisma.InputJsonObject;
  colorFilter?: Prisma.InputJsonObject;
  aiEditTemplate?: string;
  /** face, center or fill; undefined: by how far the shapes differ */
  reframe?: (typeof REFRAMES)[number];
  speakerLayout?: SpeakerLayout;
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
  hookTitle?: HookTitle;
  music?: Music;
  items?: Item[];
  dictionary: string[];
}

/** The default hook: its text derived from the words, its top placed off the face (autoTop). */
export const defaultHook = (): HookTitle => ({ template: DEFAULT_HOOK_TITLE_TEMPLATE.name, top: 50, size: 30, autoTop: true });

/** A hook title as stored: `true` is the default AI hook, an object completes it, `false` is none. */
export function hookTitleOf(v: boolean | { text?: string; template?: string; top?: number; size?: number } | undefined): HookTitle | null | undefined {
  if (v === undefined) return undefined;
  if (v === false) return null;
  if (v === true) return defaultHook();
  const { autoTop, ...fixed } = defaultHook();
  return {
    // a top the user sets is kept as given
    ...(v.top !== undefined ? { ...fixed, top: v.top } : { ...fixed, autoTop }),
    ...(v.text ? { text: v.text } : {}),
    ...(v.template ? { template: v.template } : {}),
    ...(v.size !== undefined ? { size: v.size } : {}),
  };
}

/** The music of a body for the library lookup: its id once that reads well. */
export function musicDraftOf(raw: unknown, errors: FieldErrors): MusicDraft | undefined {
  if (!isPlainObject(raw)) return undefined;
  const n = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);
  return {
    userMediaId: errors.has('music.userMediaId') ? undefined : (raw.userMediaId as string),
    volume: n(raw.volume, 50),
    startFromTime: n(raw.startFromTime, 0),
    fade: typeof raw.fade === 'boolean' ? raw.fade : true,
  };
}

/**
 * Reads and checks a creation body, every rule of SPEC.md at once: one
 * VALIDATION_ERROR listing every violated field, looked-up references
 * (preset, theme, library media, music track) included.
 */
export async function readCreateBody(app: App, userId: string, input: unknown, source: 'url' | 'upload'): Promise<ProjectSettings> {
  const { errors: e, parsed, fields: body, ok } = readCreationBody(app, input, source, { url: createProjectBody, upload: uploadProjectBody });

  // references, all looked up together, of the fields that read well
  const presetId = ok('presetId') ? (body.presetId as string) : undefined;
  const userThemeId = ok('userThemeId') ? (body.userThemeId as string) : undefined;
  const itemDrafts = Array.isArray(body.items) ? readableItems(body.items) : undefined;
  const [preset, theme, { music, items }] = await Promise.all([
    presetId && isUuid(presetId) ? app.db.preset.findFirst({ where: { id: presetId, userId } }) : null,
    userThemeId ? findUserTheme(app.db, userId, userThemeId) : null,
    resolveLibrary(app, userId, musicDraftOf(body.music, e), itemDrafts, e),
    checkStyleFont(app.db, userId, body.style, 'style.font.family', e),
  ]);
  if (presetId && !preset) e.add('presetId', 'is not one of your presets', presetId);
  if (userThemeId && !theme) e.add('userThemeId', 'is not one of your user themes', userThemeId);

  e.throwIfAny();
  const b = parsed!;
  const settings: ProjectSettings = {
    ...creationSettings(b),
    videoUrl: b.videoUrl ? new URL(b.videoUrl as string).toString() : undefined,
    presetId: b.presetId,
    style: (b.style ?? undefined) as StyleOverride | undefined,
    aiEditTemplate: b.aiEditTemplate,
    reframe: b.reframe,
    speakerLayout: b.speakerLayout,
    magicZooms: b.magicZooms ?? false,
    magicBrolls: b.magicBrolls ?? false,
    magicBrollsPercentage: b.magicBrollsPercentage ?? 50,
    removeSilencePace: b.removeSilencePace,
    removeBadTakes: b.removeBadTakes ?? false,
    cleanAudio: b.cleanAudio ?? false,
    disableCaptions: b.disableCaptions ?? false,
    autoRender: (b.autoRender as boolean | undefined) ?? true,
    captionPositionY: b.captionPositionY,
    captionPositionX: b.captionPositionX,
    hookTitle: hookTitleOf(b.hookTitle) ?? undefined,
    music,
    items,
    dictionary: (b.dictionary ?? []).map((w) => w.trim()),
  };
  if (preset) applyPreset(settings, presetProjectSettings(preset));
  const bundle = b.aiEditTemplate ? findAiEditTemplate(b.aiEditTemplate) : undefined;
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

/** The preset's enabled settings replace the defaults (presetId excludes the caller's own). */
function applyPreset(s: ProjectSettings, p: ReturnType<typeof presetProjectSettings>) {
  if (p.templateName) s.templateName = p.templateName;
  if (p.style) s.style = p.style;
  if (p.logo) s.logo = p.logo;
  if (p.colorFilter) s.colorFilter = p.colorFilter;
  if (p.userThemeId) s.userThemeId = p.userThemeId;
  if (p.captionPositionY !== undefined) s.captionPositionY = p.captionPositionY;
  if (p.captionPositionX !== undefined) s.captionPositionX = p.captionPositionX;
  if (p.hookTitle) s.hookTitle = hookTitleOf(isPlainObject(p.hookTitle) ? (p.hookTitle as Partial<HookTitle>) : true) ?? undefined;
  if (p.music && isPlainObject(p.music) && typeof p.music.userMediaId === 'string') {
    s.music = { startFromTime: 0, fade: true, volume: 50, source: 'catalogue', ...(p.music as Partial<Music>), userMediaId: p.music.userMediaId };
  }
  if (p.magicZooms !== undefined) s.magicZooms = p.magicZooms;
  if (p.magicBrolls !== undefined) s.magicBrolls = p.magicBrolls;
  if (p.magicBrollsPercentage !== undefined) s.magicBrollsPercentage = p.magicBrollsPercentage;
  if (p.cleanAudio !== undefined) s.cleanAudio = p.cleanAudio;
}
