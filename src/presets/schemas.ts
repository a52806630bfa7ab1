/** The request bodies of presets (SPEC.md, PUT /v1/presets/{id}; names the spec leaves open: DECISIONS.md). */
import { bool, fields, int, someOf, text } from '../validation.js';

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
  eyeContactCorrection: bool(),
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
