/** How an inserted media item sits over the speaker (SPEC.md, Item: layout). */

export const VIDEO_LAYOUTS = [
  'cover',
  'contain',
  'rounded',
  'square',
  'split-50-50',
  'split-35-65',
  'split-50-50-bordered',
  'split-35-65-bordered',
  'pip-top-right',
  'pip-bottom-right',
] as const;

/** an image cannot share the frame with the speaker: no split or picture-in-picture */
export const IMAGE_LAYOUTS = ['cover', 'contain', 'rounded', 'square'] as const satisfies readonly Layout[];

export type Layout = (typeof VIDEO_LAYOUTS)[number];
