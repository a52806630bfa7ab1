/** Values and bundles of project settings (SPEC.md, POST /v1/projects; Item). */

import type { SilencePace } from '../catalog/silence-paces.js';

export { SILENCE_PACES, type SilencePace } from '../catalog/silence-paces.js';
export { IMAGE_LAYOUTS, VIDEO_LAYOUTS, type Layout } from '../catalog/layouts.js';

export const ITEM_TYPES = ['user-media', 'ai-broll'] as const;
/** An AI B-roll window is at most this long, in seconds. */
export const AI_BROLL_MAX_SECONDS = 12;
export const AI_BROLL_PROMPT_MAX = 2500;
/** AI credits one AI B-roll item costs (SPEC.md). */
export const AI_BROLL_CREDITS = 3;

/**
 * The three AI edit templates: bundles of effect settings applied in place of
 * the caller's (SPEC.md: only title, language, source, webhookUrl and
 * dictionary may accompany one).
 */
export interface AiEditTemplate {
  key: 'ai_template_a' | 'ai_template_b' | 'ai_template_c';
  description: string;
  templateName: string;
  magicZooms: boolean;
  magicBrolls: boolean;
  magicBrollsPercentage: number;
  removeSilencePace: SilencePace | null;
  removeBadTakes: boolean;
  cleanAudio: boolean;
  hookTitle: boolean;
}

export const AI_EDIT_TEMPLATES: readonly AiEditTemplate[] = [
  {
    key: 'ai_template_a',
    description: 'Minimal, design: quiet subtitles, natural pacing, clean audio',
    templateName: 'subtitle',
    magicZooms: false,
    magicBrolls: false,
    magicBrollsPercentage: 0,
    removeSilencePace: 'natural',
    removeBadTakes: false,
    cleanAudio: true,
    hookTitle: false,
  },
  {
    key: 'ai_template_b',
    description: 'Effective, modern: highlighted captions, zooms, some B-roll, tighter pacing',
    templateName: 'classic',
    magicZooms: true,
    magicBrolls: true,
    magicBrollsPercentage: 30,
    removeSilencePace: 'fast',
    removeBadTakes: true,
    cleanAudio: true,
    hookTitle: true,
  },
  {
    key: 'ai_template_c',
    description: 'Dynamic, bold: boxed upper-case captions, zooms, lots of B-roll, fastest pacing',
    templateName: 'spotlight',
    magicZooms: true,
    magicBrolls: true,
    magicBrollsPercentage: 50,
    removeSilencePace: 'extra-fast',
    removeBadTakes: true,
    cleanAudio: true,
    hookTitle: true,
  },
];

export const AI_EDIT_TEMPLATE_KEYS = AI_EDIT_TEMPLATES.map((t) => t.key);
export const findAiEditTemplate = (key: string) => AI_EDIT_TEMPLATES.find((t) => t.key === key);

/** Project files: mp4 or mov, at most 2 hours (SPEC.md, Limits); the size limit is config.maxProjectBytes. */
export const MAX_PROJECT_SECONDS = 2 * 60 * 60;
