/**
 * A preset's saved media (SPEC.md, Preset): the kinds and the column holding
 * each, and the codec of what a column holds. The editor saves them
 * (savePresetMedia, presets/media.ts); the operator CLI saves the same for a
 * user without the editor (presets/cli-media.ts).
 */
import { z } from 'zod';
import type { Prisma } from '../db/client.js';
import { jsonColumn } from '../db/json.js';

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

/** A saved medium as its column holds it: an object of the medium's fields. */
export const savedMediumColumn = jsonColumn<Record<string, Prisma.JsonValue>>('Preset.saved*', z.record(z.string(), z.json()));
