import type { Config } from '../../config.js';
import { TranscriberUnavailableError } from './errors.js';
import { createOpenAITranscriber, openAIOptions } from './openai.js';
import { createPocketsphinxTranscriber } from './pocketsphinx.js';
import type { Transcriber } from './types.js';
import { createWhisperTranscriber, whisperOptions } from './whisper.js';

export type { EngineName, TranscribeOptions, Transcriber } from './types.js';

export type TranscriberConfig = Pick<Config, 'transcriber' | 'searchPath' | 'whisper' | 'openai'>;

/**
 * The engine named by TRANSCRIBER, with its options from the config. Throws
 * TranscriberUnavailableError when the engine cannot run here (program or model missing,
 * no API key).
 *
 * - pocketsphinx: `pocketsphinx_continuous` on PATH (Debian pocketsphinx + pocketsphinx-en-us); English only.
 * - whisper: whisper.cpp through the optional smart-whisper binding, built at install, and
 *   WHISPER_MODEL (a ggml model file, checked whole here; `*.en` models are English only).
 * - openai: OPENAI_BASE_URL (default https://api.openai.com), OPENAI_API_KEY (required for
 *   the default URL), OPENAI_TRANSCRIPTION_MODEL (default whisper-1).
 */
export function createTranscriber(config: TranscriberConfig): Transcriber {
  const engine = config.transcriber;
  switch (engine) {
    case 'pocketsphinx':
      return createPocketsphinxTranscriber(config.searchPath);
    case 'whisper':
      return createWhisperTranscriber(whisperOptions(config));
    case 'openai':
      return createOpenAITranscriber(openAIOptions(config.openai));
    default:
      throw new Error(`Unknown transcription engine "${String(engine)}"`);
  }
}

/**
 * The process's engine, made once by the runtime. One that cannot run here
 * supports no language, so creation refuses with a clear VALIDATION_ERROR, and
 * a job that reaches it anyway fails with the reason.
 */
export function configuredTranscriber(config: TranscriberConfig): Transcriber {
  try {
    return createTranscriber(config);
  } catch (e) {
    if (!(e instanceof TranscriberUnavailableError)) throw e;
    return { name: config.transcriber, supports: () => false, transcribe: () => Promise.reject(e) };
  }
}
