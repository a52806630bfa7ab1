import { createOpenAITranscriber, openAIOptionsFromEnv } from './openai.js';
import { createPocketsphinxTranscriber } from './pocketsphinx.js';
import { createWhisperTranscriber, whisperOptionsFromEnv } from './whisper.js';

export type EngineName = 'pocketsphinx' | 'whisper' | 'openai';

/** One element as an engine hears it; times in seconds from the start of the audio. */
export interface TranscribedWord {
  text: string;
  type: 'word' | 'silence' | 'punctuation';
  startTime: number;
  endTime: number;
}

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
  /** wav: 16 kHz mono PCM; returns words in time order, seconds */
  transcribe(wavPath: string, opts: TranscribeOptions): Promise<TranscribedWord[]>;
}

/**
 * The engine named by TRANSCRIBER, with its options read from `env`. Throws
 * TranscriberUnavailableError when the engine cannot run here (program or model missing,
 * no API key), so a misconfigured service refuses to start rather than failing each job.
 *
 * - pocketsphinx: `pocketsphinx_continuous` on PATH (Debian pocketsphinx + pocketsphinx-en-us); English only.
 * - whisper: WHISPER_CPP_BIN (default: whisper-cli, whisper-cpp or main on PATH) and
 *   WHISPER_MODEL (a ggml model file; `*.en` models are English only).
 * - openai: OPENAI_BASE_URL (default https://api.openai.com), OPENAI_API_KEY (required for
 *   the default URL), OPENAI_TRANSCRIPTION_MODEL (default whisper-1).
 */
export function createTranscriber(engine: EngineName, env: NodeJS.ProcessEnv = process.env): Transcriber {
  switch (engine) {
    case 'pocketsphinx':
      return createPocketsphinxTranscriber(env);
    case 'whisper':
      return createWhisperTranscriber(whisperOptionsFromEnv(env));
    case 'openai':
      return createOpenAITranscriber(openAIOptionsFromEnv(env));
    default:
      throw new Error(`Unknown transcription engine "${String(engine)}"`);
  }
}

const engines = new Map<EngineName, Transcriber>();

/**
 * The configured engine of this process, made once: creating it checks that the
 * engine can run here (program, model, key), which need not be repeated per job.
 */
export function transcriberFor(engine: EngineName): Transcriber {
  let t = engines.get(engine);
  if (!t) {
    t = createTranscriber(engine);
    engines.set(engine, t);
  }
  return t;
}

/**
 * What the configured engine accepts, for validation and the language list. An
 * engine that cannot run here accepts nothing, so creation fails with a clear
 * VALIDATION_ERROR rather than a job failing later.
 */
export function supportedBy(app: { config: { transcriber: EngineName } }): (code: string) => boolean {
  try {
    const t = transcriberFor(app.config.transcriber);
    return (code) => t.supports(code);
  } catch {
    return () => false;
  }
}
