/**
 * The request bodies of magic clips (SPEC.md, POST /v1/projects/magic-clips
 * and its upload), with the words a caller reads. What needs the service (the
 * hosts of VIDEO_PLATFORM_HOSTS, the transcription engine, the caller's
 * themes) is checked by creation.ts once the shape is read.
 */
import type { z } from 'zod';
import { bool, fields, issue, num } from '../validation.js';
import { httpUrl, projectBasics, themeOrTemplate } from '../projects/schemas.js';

/** Clip lengths in seconds (SPEC.md, Limits: 15-300, defaults 15 and 60). */
export const CLIP_LENGTH = { min: 15, max: 300, defaultMin: 15, defaultMax: 60 } as const;

const clipLength = (which: 'shortest' | 'longest', fallback: number) =>
  num(CLIP_LENGTH.min, CLIP_LENGTH.max).meta({ description: `the ${which} clip in seconds, ${CLIP_LENGTH.min}-${CLIP_LENGTH.max}; ${fallback} when left out` });

/** The shortest clip may not be longer than the longest. */
function lengthsInOrder(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  const min = clipLength('shortest', 0).safeParse(body.minClipLength);
  const max = clipLength('longest', 0).safeParse(body.maxClipLength);
  if (!min.success || !max.success || min.data === undefined) return;
  if (max.data !== undefined && min.data > max.data) {
    ctx.addIssue(issue(['minClipLength'], `must not be greater than maxClipLength (${max.data})`, min.data));
  }
}

function clipsShape(source: 'url' | 'upload') {
  return {
    title: projectBasics.title,
    language: projectBasics.language,
    ...(source === 'url'
      ? { videoshareUrl: httpUrl({ required: true, description: 'the page or file of the long video on a video platform (a host of VIDEO_PLATFORM_HOSTS)' }) }
      : {}),
    webhookUrl: httpUrl({ httpsOnly: true, description: 'an HTTPS URL told when the clips are made or could not be' }),
    templateName: projectBasics.templateName,
    userThemeId: projectBasics.userThemeId,
    minClipLength: clipLength('shortest', CLIP_LENGTH.defaultMin),
    maxClipLength: clipLength('longest', CLIP_LENGTH.defaultMax),
    faceTracking: bool().meta({ description: "keep the speaker's face in the vertical frame; true when left out" }),
  };
}

const clipsBody = (source: 'url' | 'upload') =>
  fields(clipsShape(source))
    .superRefine(themeOrTemplate, { when: () => true })
    .superRefine(lengthsInOrder, { when: () => true });

/** POST /v1/projects/magic-clips */
export const createMagicClipsBody = clipsBody('url');
/** POST /v1/projects/magic-clips/upload: the text parts; the file comes as `file`. */
export const uploadMagicClipsBody = clipsBody('upload');
