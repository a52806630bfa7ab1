import type { Config } from '../config.js';

/**
 * Languages the service can transcribe, and with which engine. pocketsphinx ships
 * only the English model in Debian; whisper and OpenAI-compatible engines are
 * multilingual.
 */
export interface Language {
  code: string;
  name: string;
  engines: ReadonlyArray<Config['transcriber']>;
}

const MULTI = ['whisper', 'openai'] as const;

export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', engines: ['pocketsphinx', ...MULTI] },
  { code: 'es', name: 'Spanish', engines: MULTI },
  { code: 'fr', name: 'French', engines: MULTI },
  { code: 'de', name: 'German', engines: MULTI },
  { code: 'it', name: 'Italian', engines: MULTI },
  { code: 'pt', name: 'Portuguese', engines: MULTI },
  { code: 'nl', name: 'Dutch', engines: MULTI },
  { code: 'pl', name: 'Polish', engines: MULTI },
  { code: 'sv', name: 'Swedish', engines: MULTI },
  { code: 'da', name: 'Danish', engines: MULTI },
  { code: 'no', name: 'Norwegian', engines: MULTI },
  { code: 'fi', name: 'Finnish', engines: MULTI },
  { code: 'cs', name: 'Czech', engines: MULTI },
  { code: 'ro', name: 'Romanian', engines: MULTI },
  { code: 'hu', name: 'Hungarian', engines: MULTI },
  { code: 'el', name: 'Greek', engines: MULTI },
  { code: 'tr', name: 'Turkish', engines: MULTI },
  { code: 'ru', name: 'Russian', engines: MULTI },
  { code: 'uk', name: 'Ukrainian', engines: MULTI },
  { code: 'ar', name: 'Arabic', engines: MULTI },
  { code: 'he', name: 'Hebrew', engines: MULTI },
  { code: 'hi', name: 'Hindi', engines: MULTI },
  { code: 'id', name: 'Indonesian', engines: MULTI },
  { code: 'vi', name: 'Vietnamese', engines: MULTI },
  { code: 'th', name: 'Thai', engines: MULTI },
  { code: 'ja', name: 'Japanese', engines: MULTI },
  { code: 'ko', name: 'Korean', engines: MULTI },
  { code: 'zh', name: 'Chinese', engines: MULTI },
];

/**
 * The languages the configured transcription engine can transcribe: the table's,
 * narrowed by what the engine says of itself (an English-only model, say).
 */
export function languagesFor(engine: Config['transcriber'], supports: (code: string) => boolean = () => true) {
  return LANGUAGES.filter((l) => l.engines.includes(engine) && supports(l.code));
}

export const findLanguage = (code: string) => LANGUAGES.find((l) => l.code === code.toLowerCase());
