/** What a transcription engine is; the engines themselves are in transcriber.ts's table. */
import type { TimedWord } from '../transcript.js';

export type EngineName = 'pocketsphinx' | 'whisper' | 'openai';

export interface TranscribeOptions {
  /** language code of the speech ('en', 'en-US', ...) */
  language: string;
  /** project dictionary: engines that take a prompt are steered towards these spellings */
  dictionary?: string[];
  /** aborting kills the engine's process or request; the promise rejects with the signal's reason */
  signal?: AbortSignal;
  /** fraction done, 0-1, increasing; 1 once the words are in */
  onProgress?: (fraction: number) => void;
}

export interface Transcriber {
  readonly name: EngineName;
  /** language codes this engine can transcribe (pocketsphinx: ['en'] with the Debian model) */
  supports(language: string): boolean;
  /**
   * wav: 16 kHz mono PCM in the job's folder (inWorkDir in jobs/work-dir.ts), where an engine's
   * own files go beside it; returns words in time order, seconds from the start of the audio
   */
  transcribe(wavPath: string, opts: TranscribeOptions): Promise<TimedWord[]>;
  /** frees what the engine keeps between jobs (whisper: its process and model); the runtime calls it on shutdown */
  close?(): Promise<void>;
}
