/**
 * The shapes the magic-clips domain passes between its steps: the moments
 * found in a transcript (sentences, windows, scores), the sound's features
 * the scorer reads, and the crop path face tracking gives the renderer.
 * Times are seconds of the source unless a field says otherwise.
 */

import type { ClipWindow, ViralityScores } from '../ai/clip-scoring.js';

/** What the clip scorer reads and gives (src/ai/clip-scoring.ts) and a transcript's sentences, named here as the domain uses them. */
export type { AudioFeatures, ClipWindow, ViralityScores } from '../ai/clip-scoring.js';
export type { Sentence } from '../media/sentences.js';

export interface ScoredWindow extends ClipWindow {
  scores: ViralityScores;
  /** 1-100 characters */
  title: string;
}

/**
 * Where the crop window sits over time: its size (the output's aspect) and its
 * top-left corner at key times (seconds from the clip's start), in source
 * pixels of the displayed picture; a key holds until the next. The renderer's
 * own shape (src/media/render/graph.ts), named here as the domain uses it.
 */
export type { ReframePath as CropPath, ReframeKey as CropKey } from '../media/render/graph.js';
