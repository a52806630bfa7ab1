/**
 * The request bodies of projects (SPEC.md, POST /v1/projects, the upload and
 * PUT /v1/projects/{id}), one zod schema each, with the words a caller reads.
 * What needs the database or the caller's transcript (library files, presets,
 * themes, word ids) is checked by the services once the shape is read.
 */
import { z } from 'zod';
import { findCaptionTemplate } from '../catalog/caption-templates.js';
import { findHookTitleTemplate, HOOK_TITLE_TEMPLATES } from '../catalog/hook-title-templates.js';
import { findLanguage } from '../catalog/languages.js';
import { UUID_PATTERN } from '../ids.js';
import { styleSchema } from '../catalog/caption-style.js';
import { isDrawableEmoji } from '../media/render/emoji.js';
import { bool, fields, isPlainObject, issue, matching, num, oneOf, SENT, someOf, storableString, text } from '../validation.js';
import { AI_BROLL_MAX_SECONDS, AI_BROLL_PROMPT_MAX, AI_EDIT_TEMPLATE_KEYS, ITEM_TYPES, SILENCE_PACES, VIDEO_LAYOUTS } from './settings.js';
import { SPEAKER_LAYOUTS } from '../media/vision/speaker-layout.js';

const MAX_SECONDS = 24 * 3600;
const seconds = <O extends { required?: boolean } = {}>(opts: O = {} as O) => num(0, MAX_SECONDS, opts);
const listed = (values: readonly string[]) => `one of ${values.join(', ')}`;

/** A loose UUID test for ids that are looked up next (the lookup says whether it is yours). */
const ID_SHAPE = /^[0-9a-f-]{36}$/i;

export function httpUrl(opts: { required?: boolean; httpsOnly?: boolean; description: string }) {
  const wrong = opts.httpsOnly ? 'must be a valid HTTPS URL' : 'must be a valid URL';
  const scheme = opts.httpsOnly ? 'must be a valid HTTPS URL' : 'must be an http or https URL';
  return text(2048, { required: opts.required })
    .superRefine((raw, ctx) => {
      if (typeof raw !== 'string') return;
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return ctx.addIssue({ code: 'custom', message: wrong });
      }
      if (opts.httpsOnly ? url.protocol !== 'https:' : !['http:', 'https:'].includes(url.protocol)) ctx.addIssue({ code: 'custom', message: scheme });
    })
    .meta({ description: opts.description });
}

export const hookTitleSchema = z
  .union(
    [
      z.boolean(),
      fields({
        text: text(100).meta({ description: '1-100 characters; left out: written from the transcript' }),
        template: text(50)
          .refine(
            (t) => t === undefined || !!findHookTitleTemplate(t),
            `is not a hook-title template (one of ${HOOK_TITLE_TEMPLATES.map((t) => t.name).join(', ')})`,
          )
          .meta({ description: `${HOOK_TITLE_TEMPLATES.map((t) => t.name).join(', ')}` }),
        top: num(0, 80).meta({ description: 'percent from the top, 0-80' }),
        size: num(0, 80).meta({ description: '0-80' }),
      }),
    ],
    { error: 'must be true, false or an object {text, template, top, size}' },
  )
  .optional()
  .meta({ description: 'true: the default AI hook title; false: none; or an object {text, template, top, size} (each optional)' });

export const musicSchema = fields(
  {
    userMediaId: z
      .string({
        error: (iss) =>
          iss.input === undefined ? 'is required' : iss.input === null ? 'must not be null' : 'must be the UUID of an AUDIO library file or a music track',
      })
      .regex(UUID_PATTERN, 'must be the UUID of an AUDIO library file or a music track')
      .meta({ description: 'an AUDIO file of your library or a music track (GET /v1/music)', graphql: 'ID' }),
    volume: num(1, 100, { required: true }).meta({ description: '1-100' }),
    startFromTime: seconds().meta({ description: 'seconds into the track; 0 when left out' }),
    fade: bool().meta({ description: 'fade in and out; true when left out' }),
  },
  'must be an object {userMediaId, volume, startFromTime, fade}',
)
  .optional()
  .meta({ description: 'Background music', graphql: 'ProjectMusicInput' });

/** How a picture of another shape fills an export's frame (an extension of SPEC.md). */
export const REFRAMES = ['face', 'center', 'fill'] as const;
export const reframeSchema = oneOf(REFRAMES).meta({
  description:
    'how a picture of another shape fills the frame: face (a crop that follows the speaker), center (a centred crop) or fill (the whole picture over a blurred copy); left out, center or fill by how far the shapes differ',
  extension: 'reframing that follows the face',
});

/** Two people on screen in a reframed picture (media/vision/speaker-layout.ts; an extension of SPEC.md). */
export const speakerLayoutSchema = oneOf(SPEAKER_LAYOUTS).meta({
  description:
    'two people on screen, when the picture follows faces: auto (the one speaking, both stacked where both speak or nothing tells who), follow (always the one speaking) or split (both stacked); auto when left out',
  extension: 'the layout of two speakers',
});

/** One item's times: the end after the start, an AI B-roll window at most 12 s. */
function timesInOrder(item: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (!isPlainObject(item)) return;
  const start = seconds().safeParse(item.startTime);
  const end = seconds().safeParse(item.endTime);
  if (!start.success || !end.success || start.data === undefined || end.data === undefined) return;
  if (end.data <= start.data) ctx.addIssue(issue(['endTime'], 'must be greater than startTime', end.data));
  else if (item.type === 'ai-broll' && end.data - start.data > AI_BROLL_MAX_SECONDS) {
    ctx.addIssue(issue(['endTime'], `must be at most ${AI_BROLL_MAX_SECONDS} seconds after startTime for an AI B-roll`, end.data));
  }
}

const itemSchema = z.discriminatedUnion(
  'type',
  [
    fields({
      type: z.literal('user-media'),
      startTime: seconds({ required: true }),
      endTime: seconds({ required: true }),
      userMediaId: z
        .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a UUID of a file of your media library') })
        .regex(UUID_PATTERN, 'must be a UUID of a file of your media library'),
      layout: oneOf(VIDEO_LAYOUTS),
    }).superRefine(timesInOrder, { when: () => true }),
    fields({
      type: z.literal('ai-broll'),
      startTime: seconds({ required: true }),
      endTime: seconds({ required: true }),
      prompt: text(AI_BROLL_PROMPT_MAX, { required: true }),
      layout: oneOf(VIDEO_LAYOUTS),
    }).superRefine(timesInOrder, { when: () => true }),
  ],
  {
    error: (iss) => {
      if ((iss.code as string) === 'invalid_type') return 'must be an object';
      const type = isPlainObject(iss.input) ? iss.input.type : undefined;
      return type === undefined ? `is required: ${listed(ITEM_TYPES)}` : `must be ${listed(ITEM_TYPES)}`;
    },
  },
);

export type ItemDraft = z.output<typeof itemSchema>;

/** Items that read well on their own, with their index in the body. */
export const readableItems = (items: unknown[]) =>
  items.flatMap((raw, index) => {
    const r = itemSchema.safeParse(raw);
    return r.success ? [{ index, item: r.data }] : [];
  });

/** Items one after another: an item that starts before the previous one ends is refused. */
function noOverlap(items: unknown[], ctx: z.RefinementCtx) {
  const sorted = readableItems(items).sort((a, b) => a.item.startTime - b.item.startTime);
  for (let k = 1; k < sorted.length; k++) {
    const [prev, cur] = [sorted[k - 1], sorted[k]];
    if (cur.item.startTime < prev.item.endTime) {
      ctx.addIssue(
        issue(
          [cur.index, 'startTime'],
          `overlaps items[${prev.index}] (${prev.item.startTime}-${prev.item.endTime} s); items must not overlap`,
          cur.item.startTime,
        ),
      );
    }
  }
}

const ITEMS_DESCRIPTION =
  `Media over the video, none overlapping: {type: "user-media", userMediaId, startTime, endTime, layout?} for a VIDEO or IMAGE file of your library, ` +
  `or {type: "ai-broll", prompt (1-${AI_BROLL_PROMPT_MAX} characters), startTime, endTime (at most ${AI_BROLL_MAX_SECONDS} s later), layout?} ` +
  `(3 AI credits each); layout is one of ${VIDEO_LAYOUTS.join(', ')} (images: cover, contain, rounded, square)`;

function itemsSchema({ requireOne }: { requireOne: boolean }) {
  let list = z.array(z.unknown(), { error: 'must be an array of items' });
  if (requireOne) list = list.refine((l) => l.length > 0, { message: 'must have at least one item', params: { noValue: true } }) as unknown as typeof list;
  return list
    .pipe(z.array(itemSchema).superRefine(noOverlap, { when: () => true }))
    .optional()
    .meta({ description: requireOne ? `At least one item. ${ITEMS_DESCRIPTION}` : ITEMS_DESCRIPTION });
}

const DICTIONARY_WORD = 'must be a word or phrase of 1-50 characters';
const dictionarySchema = z
  .array(z.unknown(), { error: 'must be an array of strings' })
  .superRefine((l, ctx) => {
    if (l.length > 100) ctx.addIssue(issue([], 'must have at most 100 items', l.length));
  })
  .pipe(
    z.array(
      storableString({ error: DICTIONARY_WORD })
        .max(50, DICTIONARY_WORD)
        .refine((w) => w.trim() !== '', DICTIONARY_WORD),
    ),
  )
  .optional()
  .meta({ description: 'Words and names the transcription should know: at most 100, each 1-50 characters' });

const captionPositionY = num(0, 80).meta({ description: 'vertical caption position, percent from the top, 0-80' });
const captionPositionX = num(0, 100).meta({ description: 'horizontal caption position, percent, 0-100' });
const removeSilencePace = oneOf(SILENCE_PACES).meta({ description: `cut pauses: ${SILENCE_PACES.join(', ')}` });
const removeBadTakes = bool().meta({ description: 'keep only the last take of a repeated phrase' });
const disableCaptions = bool().meta({ description: 'no burnt-in captions' });

/** Fields every kind of project is created with (edit projects and magic clips), as SPEC.md words them. */
export const projectBasics = {
  title: text(100, { required: true }).meta({ description: '1-100 characters' }),
  language: text(10, { required: true })
    .refine((code) => !!findLanguage(code), 'is not a known language code (see GET /v1/languages)')
    .meta({ description: 'a language code of GET /v1/languages' }),
  webhookUrl: httpUrl({ httpsOnly: true, description: 'an HTTPS URL told when the project completes or fails' }),
  templateName: text(50)
    .refine((t) => t === undefined || !!findCaptionTemplate(t), 'is not a caption template (see GET /v1/templates)')
    .meta({ description: 'a caption template of GET /v1/templates; not with userThemeId' }),
  userThemeId: z
    .string({ error: (iss) => (iss.input === null ? 'must not be null' : 'must be the UUID of one of your themes') })
    .regex(ID_SHAPE, 'must be the UUID of one of your themes')
    .optional()
    .meta({ description: 'one of your caption themes; not with templateName', graphql: 'ID' }),
};

const templateText = text(50);

/** A project's own changes to its template's or theme's caption style (an extension of SPEC.md). */
export const projectStyle = styleSchema.nullable().optional().meta({
  description:
    'your changes to the caption template’s or theme’s style: any fields of a caption style (GET /v1/templates/{name} shows a whole one); on update, laid over the project’s own, null clears them',
  graphql: 'CaptionStyleInput',
  extension: 'a caption style beyond SPEC.md',
});

/** A caption template and a user theme exclude one another. */
export function themeOrTemplate(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (body.templateName !== undefined && templateText.safeParse(body.templateName).success && body.userThemeId !== undefined) {
    ctx.addIssue(issue(['templateName'], 'cannot be combined with userThemeId', SENT));
    ctx.addIssue(issue(['userThemeId'], 'cannot be combined with templateName', SENT));
  }
}

/** The settings of POST /v1/projects and of its upload, in the order they are read. */
function creationShape(source: 'url' | 'upload') {
  return {
    title: projectBasics.title,
    language: projectBasics.language,
    ...(source === 'url' ? { videoUrl: httpUrl({ required: true, description: 'a public mp4 or mov file, at most 2 GB and 2 hours' }) } : {}),
    webhookUrl: projectBasics.webhookUrl,
    aiEditTemplate: oneOf(AI_EDIT_TEMPLATE_KEYS as [string, ...string[]]).meta({
      description: 'a bundle of settings; only title, language, the source, webhookUrl and dictionary may accompany it',
      graphql: 'AiEditTemplate',
    }),
    presetId: z
      .string({ error: (iss) => (iss.input === null ? 'must not be null' : 'must be the UUID of one of your presets') })
      .regex(ID_SHAPE, 'must be the UUID of one of your presets')
      .optional()
      .meta({ description: 'one of your presets, applied in place of the settings it holds', graphql: 'ID' }),
    templateName: projectBasics.templateName,
    userThemeId: projectBasics.userThemeId,
    style: projectStyle,
    captionPositionY,
    captionPositionX,
    reframe: reframeSchema,
    speakerLayout: speakerLayoutSchema,
    magicZooms: bool().meta({ description: 'punch-in zooms on stressed words' }),
    magicBrolls: bool().meta({ description: 'automatic B-roll from your library or the generator' }),
    magicBrollsPercentage: num(0, 100).meta({ description: 'share of automatic B-roll, 0-100; 50 when left out' }),
    removeSilencePace,
    removeBadTakes,
    cleanAudio: bool().meta({ description: 'denoise and level the voice' }),
    disableCaptions,
    ...(source === 'url' ? { autoRender: bool().meta({ description: 'export once transcribed; true when left out' }) } : {}),
    dictionary: dictionarySchema,
    hookTitle: hookTitleSchema,
    music: musicSchema,
    items: itemsSchema({ requireOne: false }),
  };
}

/** What presetId cannot be combined with (SPEC.md). */
const PRESET_CONFLICTS = [
  'templateName',
  'userThemeId',
  'style',
  'hookTitle',
  'music',
  'items',
  'magicZooms',
  'magicBrolls',
  'magicBrollsPercentage',
  'removeSilencePace',
  'removeBadTakes',
  'captionPositionY',
  'captionPositionX',
] as const;
/** All that may accompany aiEditTemplate (SPEC.md). */
const AI_TEMPLATE_COMPANIONS = new Set(['title', 'language', 'videoUrl', 'file', 'webhookUrl', 'dictionary', 'aiEditTemplate']);

/** Fields that exclude one another: a theme and a template, a preset or an AI edit template and what they set. */
function combinations(known: readonly string[]) {
  return (body: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const has = (f: string) => body[f] !== undefined;
    themeOrTemplate(body, ctx);
    if (has('presetId')) for (const f of PRESET_CONFLICTS) if (has(f)) ctx.addIssue(issue([f], 'cannot be combined with presetId', SENT));
    if (has('aiEditTemplate')) {
      for (const f of Object.keys(body)) {
        if (has(f) && !AI_TEMPLATE_COMPANIONS.has(f) && known.includes(f)) ctx.addIssue(issue([f], 'cannot be combined with aiEditTemplate', SENT));
      }
    }
  };
}

/** What an upload says of the settings only a creation from a URL takes (SPEC.md: an upload has no autoRender). */
const UPLOAD_REFUSES = {
  autoRender:
    'is not taken by an upload, which always renders automatically once transcribed; for an editable project, create it from a URL (POST /v1/projects, or createProject) with videoUrl and autoRender false',
};

function creationBody(source: 'url' | 'upload') {
  const shape = creationShape(source);
  return fields(shape, undefined, source === 'upload' ? UPLOAD_REFUSES : {}).superRefine(combinations(Object.keys(shape)), { when: () => true });
}

/** POST /v1/projects */
export const createProjectBody = creationBody('url');
/** POST /v1/projects/upload: the text parts; the file comes as `file`. */
export const uploadProjectBody = creationBody('upload');

export const WORD_TYPES = ['word', 'silence', 'punctuation'] as const;
/** More than a two-hour video can hold, with silences and punctuation. */
const MAX_WORDS = 100_000;
const MAX_WORD_CHARS = 200;
const WORD_SHAPE = '{id?, text, type, startTime, endTime}';
const wordText = text(MAX_WORD_CHARS, { required: true });

const wordSchema = fields(
  {
    id: z.unknown().optional().meta({ description: 'the id of a word of the current transcript; left out for a new word', graphql: 'ID' }),
    type: z
      .enum(WORD_TYPES, {
        error: (iss) =>
          iss.input === undefined ? `is required: ${listed(WORD_TYPES)}` : iss.input === null ? 'must not be null' : `must be one of: ${WORD_TYPES.join(', ')}`,
      })
      .meta({ graphql: 'WordKind' }),
    text: z
      .unknown()
      .optional()
      .meta({ description: `1-${MAX_WORD_CHARS} characters; ignored for a silence`, graphql: 'String' }),
    startTime: seconds({ required: true }),
    endTime: seconds({ required: true }),
    color: matching(/^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/, 'must be a colour #RRGGBB or #RRGGBBAA', { nullable: true }).meta({
      description: 'this word’s caption colour; null: the style’s (kept across edits when left out)',
      extension: 'per-word caption look beyond SPEC.md',
    }),
    emphasis: bool({ nullable: true }).meta({
      description: 'emphasise this word (true) or never (false), over the style’s rules; null: the rules decide',
      extension: 'per-word caption look beyond SPEC.md',
    }),
    emoji: z
      .string({ error: (iss) => (iss.input === null ? 'must not be null' : 'must be one emoji') })
      .refine(isDrawableEmoji, 'must be one emoji')
      .nullable()
      .optional()
      .meta({ description: 'an emoji drawn with this word’s caption page; null: none', extension: 'per-word caption look beyond SPEC.md' }),
    hidden: bool({ nullable: true }).meta({
      description: 'leave this word out of the captions (it is still heard)',
      extension: 'per-word caption look beyond SPEC.md',
    }),
  },
  `must be an object ${WORD_SHAPE}`,
)
  .superRefine(
    (word, ctx) => {
      if (!isPlainObject(word)) return;
      // a silence's text is ignored (stored empty); a word or punctuation needs one
      if (word.type !== 'silence') {
        const t = wordText.safeParse(word.text, { reportInput: true });
        if (!t.success) ctx.addIssue(issue(['text'], t.error.issues[0].message, ...(word.text === undefined ? [] : [word.text])));
      }
      const start = seconds().safeParse(word.startTime);
      const end = seconds().safeParse(word.endTime);
      if (start.success && end.success && start.data !== undefined && end.data !== undefined && end.data < start.data) {
        ctx.addIssue(issue(['endTime'], 'must be greater than or equal to startTime', end.data));
      }
    },
    { when: () => true },
  )
  .meta({ description: 'A transcript element', graphql: 'WordInput' });

/** Words in time order: each starts no earlier than the one before. */
function inTimeOrder(words: unknown[], ctx: z.RefinementCtx) {
  let previousStart: number | null = null;
  words.forEach((w, i) => {
    if (!isPlainObject(w)) return;
    const start = seconds({ required: true }).safeParse(w.startTime);
    if (!start.success) return;
    if (previousStart !== null && start.data < previousStart) {
      ctx.addIssue(issue([i, 'startTime'], `must be at least the previous word's startTime (${previousStart}): words are in time order`, start.data));
    }
    previousStart = start.data;
  });
}

const wordsSchema = z
  .array(z.unknown(), { error: `must be an array of words ${WORD_SHAPE}` })
  .superRefine((l, ctx) => {
    if (l.length > MAX_WORDS) ctx.addIssue(issue([], `must have at most ${MAX_WORDS} words`, l.length));
  })
  .pipe(z.array(wordSchema).superRefine(inTimeOrder, { when: () => true }))
  .optional()
  .meta({ description: 'The whole transcript, in time order: words of the current transcript keep their id, new ones have none' });

export type WordDraft = z.output<typeof wordSchema>;

export const updateShape = {
  words: wordsSchema,
  templateName: projectBasics.templateName.meta({
    description: 'a caption template of GET /v1/templates, in place of the project’s template or theme; not with userThemeId',
    extension: 'changing the caption template after creation, beyond SPEC.md',
  }),
  userThemeId: projectBasics.userThemeId.meta({
    description: 'one of your caption themes, in place of the project’s template or theme; not with templateName',
    graphql: 'ID',
    extension: 'changing the caption theme after creation, beyond SPEC.md',
  }),
  style: projectStyle,
  removeSilencePace,
  removeBadTakes,
  magicZooms: bool().meta({ description: 'punch-in zooms on stressed words', extension: 'changing zooms after creation, beyond SPEC.md' }),
  cleanAudio: bool().meta({ description: 'denoise and level the voice', extension: 'changing clean audio after creation, beyond SPEC.md' }),
  disableCaptions,
  captionPositionY,
  captionPositionX,
  reframe: reframeSchema.nullable().meta({ description: 'face, center or fill (see creation); null: back to center or fill by shape' }),
  speakerLayout: speakerLayoutSchema.nullable().meta({ description: 'auto, follow or split (see creation); null: back to auto' }),
  hookTitle: hookTitleSchema,
  music: musicSchema,
  items: itemsSchema({ requireOne: true }),
};

/** PUT /v1/projects/{id}: some settings, at least one; a caption template or a theme, not both. */
export const updateProjectBody = fields(updateShape)
  .superRefine(someOf(Object.keys(updateShape)))
  .superRefine(themeOrTemplate, { when: () => true });
