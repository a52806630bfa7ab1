/**
 * The words of a transcript and the time ranges cut from a video or kept in
 * it: what the transcription engines give, what a project stores and what the
 * renderer reads. Times are seconds of the source.
 */

/** One element of a transcript with its times: what an engine hears, and all a timeline reads. */
export interface TimedWord {
  text: string;
  type: 'word' | 'silence' | 'punctuation';
  startTime: number;
  endTime: number;
  /** how sure the engine was of a word, 0-1, where it says (pocketsphinx's posterior, Whisper's token probability) */
  confidence?: number;
}

/**
 * What a creator sets on one word of the captions, kept with the word across
 * transcript edits: its colour, emphasis on or off (over the style's rules), an
 * emoji drawn with its page, or hidden from the captions (still heard).
 */
export interface WordLook {
  color?: string;
  emphasis?: boolean;
  emoji?: string;
  hidden?: boolean;
}

/** The stored form of a transcript word (Project.transcript): its id stays the same across edits. */
export interface Word extends TimedWord, WordLook {
  id: string;
}

/** A time range [start, end] in seconds: a cut, a kept stretch, a quiet moment. */
export interface Segment {
  start: number;
  end: number;
}

/** A bad take to remove, with the reason the detector gives. */
export interface TakeCut {
  removeStart: number;
  removeEnd: number;
  reason: string;
}
