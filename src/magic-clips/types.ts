/**
 * The shapes the magic-clips domain passes between its steps: the moments
 * found in a transcript (sentences, windows, scores), the sound's features
 * the scorer reads, and the crop path face tracking gives the renderer.
 * Times are seconds of the source unless a field says otherwise.
 */

/** A sentence of the transcript: its words `words[first..last]` (indices into the transcript), start of the first, end of the last. */
export interface Sentence {
  first: number;
  last: number;
  start: number;
  end: number;
  /** the words as text, punctuation attached */
  text: string;
}

/** A candidate clip: whole sentences, from the start of the first to the end of the last. */
export interface ClipWindow {
  start: number;
  end: number;
  /** its sentences, in order */
  sentences: Sentence[];
  text: string;
}

/** The five scores of a magic clip (SPEC.md, Magic clip), each an integer 0-100. */
export interface ViralityScores {
  total: number;
  shareability: number;
  hook_strength: number;
  story_quality: number;
  emotional_impact: number;
}

export interface ScoredWindow extends ClipWindow {
  scores: ViralityScores;
  /** 1-100 characters */
  title: string;
}

/**
 * The sound, measured on a fixed step over the whole source: loudness in dBFS
 * (RMS of each step; -Infinity is stored as -120) and the voice's pitch in Hz
 * (0 where no voiced pitch was found).
 */
export interface AudioFeatures {
  /** seconds per value */
  step: number;
  loudness: Float32Array;
  pitch: Float32Array;
}

/**
 * Where the crop window sits over time: its size (the output's aspect) and its
 * top-left corner at key times (seconds from the clip's start), in source
 * pixels of the displayed picture; a key holds until the next. The renderer's
 * own shape (src/media/render/graph.ts), named here as the domain uses it.
 */
export type { ReframePath as CropPath, ReframeKey as CropKey } from '../media/render/graph.js';
