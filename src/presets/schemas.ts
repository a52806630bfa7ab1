/** The request bodies of presets (SPEC.md, PUT /v1/presets/{id}; names the spec leaves open: DECISIONS.md). */
import { z } from 'zod';
import { styleSchema } from '../catalog/caption-style.js';
import { findCaptionTemplate } from '../catalog/caption-templates.js';
import { COLOR_FILTERS, LOGO_POSITIONS } from '../catalog/color-filters.js';
import { findHookTitleTemplate } from '../catalog/hook-title-templates.js';
import { UUID_PATTERN } from '../ids.js';
import { bool, fields, int, issue, num, oneOf, SENT, someOf, text } from '../validation.js';

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 500;

const name = text(NAME_MAX).meta({ description: '1-100 characters' });
const description = text(DESCRIPTION_MAX, { min: 0, nullable: true }).meta({ description: 'up to 500 characters; null clears it' });
const media = (what: string) => bool().meta({ description: `apply the saved ${what}; true only when configured says it is saved` });

const updateShape = {
  name,
  description,
  magicBrollsPercentage: int(0, 100).meta({ description: 'share of automatic B-roll, 0-100' }),
  musicVolume: int(1, 100).meta({ description: '1-100; only when configured.music' }),
  transitionSoundVolume: int(0, 100, { nullable: true }).meta({ description: '0-100; null switches transition sounds off' }),
  captions: media('caption theme'),
  hookTitle: media('hook title'),
  logo: media('logo'),
  colorFilter: media('colour filter'),
  music: media('background music'),
  magicZooms: bool(),
  magicBrolls: bool().meta({ description: 'automatic AI B-roll' }),
  magicBrollsTransitions: bool().meta({ description: 'transition effects around automatic B-roll' }),
  cleanAudio: bool(),
  // SPEC.md's toggle, kept as sent (the acceptance suite's P-pre-06 sets it true); the service does not correct gaze, and says so
  eyeContactCorrection: bool().meta({ description: 'stored as sent; the service does not correct gaze, so no render changes with it' }),
};

/** The fields PUT /v1/presets/{id} accepts, in the order the spec lists them. */
const UPDATE_FIELDS = [
  'name',
  'description',
  'captions',
  'hookTitle',
  'logo',
  'colorFilter',
  'music',
  'magicZooms',
  'magicBrolls',
  'magicBrollsTransitions',
  'cleanAudio',
  'eyeContactCorrection',
  'magicBrollsPercentage',
  'musicVolume',
  'transitionSoundVolume',
] as const satisfies ReadonlyArray<keyof typeof updateShape>;

/** PUT /v1/presets/{id}: some fields, at least one. */
export const updatePresetBody = fields(updateShape).superRefine(someOf(UPDATE_FIELDS));

/** A preset made from a project: its name and description. */
export const presetFromProjectBody = fields({ name: text(NAME_MAX, { required: true }), description });

// ---------------------------------------------------------------------------
// saved media, made in the editor (savePresetMedia; SPEC.md: not through /v1)

const uuidOf = (what: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : iss.input === null ? 'must not be null' : `must be the UUID of ${what}`) })
    .regex(UUID_PATTERN, `must be the UUID of ${what}`)
    .meta({ description: `the UUID of ${what}`, graphql: 'ID' });

/** A preset's saved captions: a template or one of your themes, your style changes, the position. */
const savedCaptions = fields({
  templateName: text(50)
    .refine((t) => t === undefined || !!findCaptionTemplate(t), 'is not a caption template (see GET /v1/templates)')
    .meta({ description: 'a caption template; not with userThemeId' }),
  userThemeId: uuidOf('one of your themes').optional(),
  style: styleSchema.optional().meta({ description: 'changes to the template’s or theme’s style', graphql: 'CaptionStyleInput' }),
  captionPositionY: num(0, 80).meta({ description: '0-80, percent from the top' }),
  captionPositionX: num(0, 100).meta({ description: '0-100, 50 is centred' }),
}).superRefine((c, ctx) => {
  if (c.templateName !== undefined && c.userThemeId !== undefined) {
    ctx.addIssue(issue(['templateName'], 'cannot be combined with userThemeId', SENT));
    ctx.addIssue(issue(['userThemeId'], 'cannot be combined with templateName', SENT));
  }
});

const savedHookTitle = fields({
  text: text(100).meta({ description: '1-100 characters; left out: derived from each project’s words' }),
  template: text(50)
    .refine((t) => t === undefined || !!findHookTitleTemplate(t), 'is not a hook-title template (see GET /v1/hook-title/templates)')
    .meta({ description: 'a hook-title template' }),
  top: num(0, 80).meta({ description: '0-80, percent from the top; left out: placed off the speaker’s face' }),
  size: num(0, 80).meta({ description: '0-80' }),
});

export const LOGO_DEFAULTS = { position: 'top-right', sizePercent: 15, opacity: 90, marginPercent: 4 } as const;

const savedLogo = fields({
  userMediaId: uuidOf('an IMAGE of your library'),
  position: oneOf(LOGO_POSITIONS).meta({ description: `${LOGO_POSITIONS.join(', ')}; ${LOGO_DEFAULTS.position} when left out` }),
  sizePercent: int(5, 50).meta({ description: `its width, 5-50 % of the frame's; ${LOGO_DEFAULTS.sizePercent} when left out` }),
  opacity: int(0, 100).meta({ description: `0-100; ${LOGO_DEFAULTS.opacity} when left out` }),
  marginPercent: int(0, 20).meta({
    description: `its distance from the edges, 0-20 % of the frame's short side; ${LOGO_DEFAULTS.marginPercent} when left out`,
  }),
});

/** A named look, or a .cube LUT of the library: exactly one of the two. */
const savedColorFilter = fields({
  name: oneOf(COLOR_FILTERS).meta({ description: `a named look: ${COLOR_FILTERS.join(', ')}; not with userMediaId` }),
  userMediaId: uuidOf('a LUT (.cube) of your library').optional(),
  intensity: int(0, 100).meta({ description: '0-100; 60 when left out' }),
}).superRefine((c, ctx) => {
  if (c.name === undefined && c.userMediaId === undefined) ctx.addIssue(issue(['name'], 'is required: a named look, or userMediaId of a LUT', SENT));
  if (c.name !== undefined && c.userMediaId !== undefined) {
    ctx.addIssue(issue(['name'], 'cannot be combined with userMediaId', SENT));
    ctx.addIssue(issue(['userMediaId'], 'cannot be combined with name', SENT));
  }
});

const savedMusic = fields({
  userMediaId: uuidOf('an AUDIO file of your library or a music track (GET /v1/music)'),
  volume: int(1, 100, { required: true }).meta({ description: '1-100' }),
  startFromTime: num(0, 7200).meta({ description: 'seconds into the track; 0 when left out' }),
  fade: bool().meta({ description: 'fade in and out; true when left out' }),
});

const MEDIA_FIELDS = ['captions', 'hookTitle', 'logo', 'colorFilter', 'music'] as const;

/**
 * savePresetMedia: each medium given is saved (an object) or removed (null),
 * its toggle switched on or off with it; media left out stay as they are.
 */
export const savePresetMediaBody = fields({
  captions: savedCaptions.nullable().optional().meta({ description: 'the caption look; null removes it', graphql: 'SavedCaptionsInput' }),
  hookTitle: savedHookTitle.nullable().optional().meta({ description: 'the hook title; null removes it', graphql: 'SavedHookTitleInput' }),
  logo: savedLogo.nullable().optional().meta({ description: 'a logo from your library; null removes it', graphql: 'SavedLogoInput' }),
  colorFilter: savedColorFilter
    .nullable()
    .optional()
    .meta({ description: 'a colour look, named or a LUT of your library; null removes it', graphql: 'SavedColorFilterInput' }),
  music: savedMusic.nullable().optional().meta({ description: 'background music; null removes it', graphql: 'SavedMusicInput' }),
}).superRefine(someOf(MEDIA_FIELDS));

export type SavePresetMedia = z.output<typeof savePresetMediaBody>;
