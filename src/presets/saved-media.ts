/**
 * A preset's saved media (SPEC.md, Preset): the kinds, the column holding each,
 * and what the editor saves for each. The API cannot make saved media, so the
 * operator CLI stands in for the editor with these values.
 */
import type { Db, Prisma } from '../db/client.js';

type Preset = Prisma.PresetModel;

/** Toggles that apply media saved in the editor, with the column holding that media. */
export const MEDIA_TOGGLES = {
  captions: { column: 'savedCaptions', label: 'caption theme' },
  hookTitle: { column: 'savedHookTitle', label: 'hook title' },
  logo: { column: 'savedLogo', label: 'logo' },
  colorFilter: { column: 'savedColorFilter', label: 'color filter' },
  music: { column: 'savedMusic', label: 'music' },
} as const satisfies Record<string, { column: keyof Preset; label: string }>;

export type MediaToggle = keyof typeof MEDIA_TOGGLES;
export const MEDIA_KINDS = Object.keys(MEDIA_TOGGLES) as MediaToggle[];

export const isMediaKind = (s: string): s is MediaToggle => Object.hasOwn(MEDIA_TOGGLES, s);

/** What the editor saves for each kind of media. */
export const EDITOR_SAVED_MEDIA = {
  captions: { templateName: 'classic', fontSize: 64, primaryColor: '#FFFFFF', highlightColor: '#FFD400', wordsPerLine: 3, positionY: 70 },
  hookTitle: { text: 'Watch this first', templateName: 'bold', durationSeconds: 3 },
  logo: { fileName: 'logo.png', position: 'top-right', sizePercent: 12, opacity: 90 },
  colorFilter: { name: 'warm', intensity: 60 },
  music: { name: 'Saved background music', volume: 50, fadeInSeconds: 1, fadeOutSeconds: 2 },
} as const satisfies Record<MediaToggle, Prisma.InputJsonObject>;

/**
 * A preset whose given kinds hold the editor's saved media. Its toggles stay
 * off until the user enables them; its music volume starts at the saved music's.
 */
export function createPresetWithSavedMedia(db: Db, userId: string, name: string, kinds: readonly MediaToggle[]): Promise<Preset> {
  const saved: Partial<Prisma.PresetUncheckedCreateInput> = {};
  for (const kind of kinds) saved[MEDIA_TOGGLES[kind].column] = EDITOR_SAVED_MEDIA[kind];
  if (kinds.includes('music')) saved.musicVolume = EDITOR_SAVED_MEDIA.music.volume;
  return db.preset.create({ data: { ...saved, userId, name } });
}
