/**
 * The request bodies of magic clips (SPEC.md, POST /v1/projects/magic-clips
 * and its upload), with the words a caller reads. What needs the service (the
 * hosts of VIDEO_PLATFORM_HOSTS, the transcription engine, the caller's
 * themes) is checked by creation.ts once the shape is read.
 */
import type { z } from 'zod';
import { bool, fields, int, issue, num, oneOf, SENT, text } from '../validation.js';
import { hookTitleSchema, httpUrl, projectBasics, projectStyle, speakerLayoutSchema, themeOrTemplate } from '../projects/schemas.js';

/** Clip lengths in seconds (SPEC.md, Limits: 15-300, defaults 15 and 60). */
export const CLIP_LENGTH = { min: 15, max: 300, defaultMin: 15, defaultMax: 60 } as const;

const clipLength = (which: 'shortest' | 'longest', fallback: number) =>
  num(CLIP_LENGTH.min, CLIP_LENGTH.max).meta({ description: `the ${which} clip in seconds, ${CLIP_LENGTH.min}-${CLIP_LENGTH.max}; ${fallback} when left out` });

/** How many clips a creator may ask for (an extension of SPEC.md; without it, one per 3 minutes of source, at most 10). */
export const CLIP_COUNT = { min: 1, max: 20 } as const;
/** A topic is 1-200 characters. */
export const TOPIC_MAX_CHARS = 200;
/** The clips' shapes; 9:16 is SPEC.md's and the default. */
export const CLIP_ASPECT_RATIOS = ['9:16', '1:1', '4:5', '16:9'] as const;
export type ClipAspectRatio = (typeof CLIP_ASPECT_RATIOS)[number];
/** The longest source a range may name: SPEC.md's 120 minutes. */
const MAX_SOURCE_SECONDS = 120 * 60;

const extension = (what: string) => ({ extension: what });

const rangeSchema = fields(
  {
    startTime: num(0, MAX_SOURCE_SECONDS, { required: true }).meta({ description: 'seconds into the source where clips may start' }),
    endTime: num(0, MAX_SOURCE_SECONDS, { required: true }).meta({ description: 'seconds into the source where clips must have ended' }),
  },
  'must be an object {startTime, endTime}',
)
  .optional()
  .meta({
    description: 'the part of the source clips come from; only that part is transcribed and analysed',
    graphql: 'ClipRangeInput',
    ...extension('clips from a part of the source'),
  });

/** A hook per clip: true, or the look of every clip's hook; its words are each clip's own. */
const clipHookTitle = hookTitleSchema
  .superRefine((hook, ctx) => {
    if (typeof hook === 'object' && hook !== null && (hook as { text?: unknown }).text !== undefined) {
      ctx.addIssue(issue(['text'], "is written for each clip from the clip's words; leave it out", SENT));
    }
  })
  .meta({
    description: 'true: each clip gets a hook title written from its own words; or {template, top, size} for their look; false or left out: none',
    ...extension('a hook title on every clip'),
  });

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
    clipCount: int(CLIP_COUNT.min, CLIP_COUNT.max).meta({
      description: `how many clips, ${CLIP_COUNT.min}-${CLIP_COUNT.max}: met when the source has that many distinct moments, else the project says why not; left out, one per 3 minutes of source (at most 10)`,
      ...extension('a target number of clips'),
    }),
    topic: text(TOPIC_MAX_CHARS).meta({
      description: `what the clips should be about, 1-${TOPIC_MAX_CHARS} characters: clips about it rank first`,
      ...extension('clips about a topic'),
    }),
    range: rangeSchema,
    aspectRatio: oneOf(CLIP_ASPECT_RATIOS).meta({
      description: `the clips' shape: ${CLIP_ASPECT_RATIOS.join(', ')}; 9:16 when left out`,
      ...extension('clips in other shapes than 9:16'),
    }),
    speakerLayout: speakerLayoutSchema,
    style: projectStyle,
    hookTitle: clipHookTitle,
  };
}

/** A range ends after it starts and holds the shortest clip. */
function rangeFits(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  const range = rangeSchema.safeParse(body.range);
  if (!range.success || !range.data) return;
  const { startTime, endTime } = range.data;
  if (endTime <= startTime) {
    ctx.addIssue(issue(['range', 'endTime'], `must be greater than range.startTime (${startTime})`, endTime));
    return;
  }
  const min = clipLength('shortest', 0).safeParse(body.minClipLength);
  const shortest = (min.success ? min.data : undefined) ?? CLIP_LENGTH.defaultMin;
  if (endTime - startTime < shortest) {
    ctx.addIssue(issue(['range'], `must last at least minClipLength (${shortest} s); it lasts ${endTime - startTime} s`, SENT));
  }
}

const clipsBody = (source: 'url' | 'upload') =>
  fields(clipsShape(source))
    .superRefine(themeOrTemplate, { when: () => true })
    .superRefine(lengthsInOrder, { when: () => true })
    .superRefine(rangeFits, { when: () => true });

/** POST /v1/projects/magic-clips */
export const createMagicClipsBody = clipsBody('url');
/** POST /v1/projects/magic-clips/upload: the text parts; the file comes as `file`. */
export const uploadMagicClipsBody = clipsBody('upload');
