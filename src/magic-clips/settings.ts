/**
 * What a magic-clips project stores of its creator's controls beyond SPEC.md
 * (the range of the source, the clips' shape), with the frame each shape is
 * rendered at.
 */
import { z } from 'zod';
import { jsonColumn } from '../db/json.js';
import type { ClipAspectRatio } from './schemas.js';

/** Project.clipRange: the part of the source clips come from, seconds */
export const clipRangeColumn = jsonColumn<{ start: number; end: number } | null>(
  'Project.clipRange',
  z.object({ start: z.number().min(0), end: z.number().min(0) }).nullable(),
);

/** Each shape's frame: full HD on its shorter side. */
export const CLIP_FRAMES: Readonly<Record<ClipAspectRatio, { width: number; height: number }>> = {
  '9:16': { width: 1080, height: 1920 },
  '1:1': { width: 1080, height: 1080 },
  '4:5': { width: 1080, height: 1350 },
  '16:9': { width: 1920, height: 1080 },
};

/** The frame of a project's clips (9:16 for a project made before shapes could be chosen). */
export const clipFrame = (aspectRatio: string | null | undefined) => CLIP_FRAMES[(aspectRatio ?? '9:16') as ClipAspectRatio] ?? CLIP_FRAMES['9:16'];
