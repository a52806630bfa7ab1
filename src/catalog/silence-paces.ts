/** The paces of silence removal (SPEC.md, removeSilencePace). */

export const SILENCE_PACES = ['natural', 'fast', 'extra-fast'] as const;
export type SilencePace = (typeof SILENCE_PACES)[number];

/** Silences longer than this many seconds are cut at each pace (SPEC.md). */
export const PACE_MIN_SILENCE: Record<SilencePace, number> = { natural: 0.6, fast: 0.2, 'extra-fast': 0.1 };
