import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dictionaryPrompt } from './dictionary.js';
import { TranscriberUnavailableError, TranscriptionError } from './errors.js';
import { primaryLanguage, WHISPER_LANGUAGES } from './languages.js';
import { findExecutable, progressReporter, runTool } from './process.js';
import { segmentWords } from './segment-words.js';
import type { Config } from '../../config.js';
import type { TimedWord } from '../transcript.js';
import type { Transcriber } from './types.js';

/** Names whisper.cpp's command-line program has had: whisper-cli (1.7.4+), packaged whisper-cpp, `main` before. */
const PROGRAM_NAMES = ['whisper-cli', 'whisper-cpp', 'main'];
const GGML_MAGIC = 0x67676d6c;
/** whisper.cpp: a model is multilingual when its vocabulary has at least this many tokens */
const MULTILINGUAL_VOCAB = 51865;

export interface WhisperOptions {
  /** absolute path of whisper.cpp's CLI */
  program: string;
  /** ggml model file */
  model: string;
  /** false for the English-only `*.en` models */
  multilingual: boolean;
}

/** Finds the program and checks the model file; throws TranscriberUnavailableError saying what is missing. */
export function whisperOptions({ whisper, searchPath }: Pick<Config, 'whisper' | 'searchPath'>): WhisperOptions {
  const names = whisper.bin ? [whisper.bin] : PROGRAM_NAMES;
  const program = names.map((n) => findExecutable(n, searchPath)).find(Boolean);
  if (!program) {
    throw new TranscriberUnavailableError(
      whisper.bin
        ? `WHISPER_CPP_BIN "${whisper.bin}" is not an executable program`
        : `whisper.cpp is not installed: none of ${PROGRAM_NAMES.join(', ')} is on PATH (set WHISPER_CPP_BIN to its whisper-cli)`,
    );
  }
  const { model } = whisper;
  if (!model) throw new TranscriberUnavailableError('WHISPER_MODEL must name a whisper.cpp ggml model file (for example ggml-base.bin)');
  return { program, model: path.resolve(model), multilingual: readModelHeader(model).multilingual };
}

/** Reads the ggml header: magic, then n_vocab (whisper.cpp's own loader reads the same fields). */
export function readModelHeader(model: string): { multilingual: boolean } {
  const header = Buffer.alloc(8);
  let read: number;
  try {
    const fd = fs.openSync(model, 'r');
    try {
      read = fs.readSync(fd, header, 0, 8, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw new TranscriberUnavailableError(`WHISPER_MODEL "${model}" cannot be read: ${(e as Error).message}`);
  }
  if (read < 8 || header.readUInt32LE(0) !== GGML_MAGIC) {
    throw new TranscriberUnavailableError(`WHISPER_MODEL "${model}" is not a whisper.cpp ggml model file`);
  }
  return { multilingual: header.readInt32LE(4) >= MULTILINGUAL_VOCAB };
}

/**
 * whisper.cpp's command-line program. One segment per word (`-ml 1 -sow`) in its JSON
 * output (`-oj`) gives word times; the dictionary goes in as the initial prompt.
 */
export function createWhisperTranscriber(options: WhisperOptions): Transcriber {
  const supports = (language: string) => {
    const code = primaryLanguage(language);
    return options.multilingual ? WHISPER_LANGUAGES.has(code) : code === 'en';
  };
  // whisper.cpp's own default: up to four threads
  const threads = Math.min(4, os.availableParallelism());
  return {
    name: 'whisper',
    supports,
    async transcribe(wavPath, opts) {
      if (!supports(opts.language)) {
        throw new TranscriptionError(
          options.multilingual ? `whisper does not know the language "${opts.language}"` : `the whisper model ${path.basename(options.model)} is English-only`,
        );
      }
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'whisper-'));
      try {
        const out = path.join(dir, 'transcript');
        const prompt = dictionaryPrompt(opts.dictionary);
        const args = ['-m', options.model, '-f', wavPath, '-l', primaryLanguage(opts.language), '-t', String(threads)];
        args.push('-oj', '-ml', '1', '-sow', '-pp', '-of', out, ...(prompt ? ['--prompt', prompt] : []));
        const report = progressReporter(opts.onProgress);
        await runTool(options.program, args, {
          signal: opts.signal,
          onStderrLine(line) {
            // whisper_print_progress_callback: progress =  35%
            const m = /progress\s*=\s*(\d+)%/.exec(line);
            if (m) report(Number(m[1]) / 100);
          },
        });
        let json: string;
        try {
          json = await fsp.readFile(`${out}.json`, 'utf8');
        } catch {
          throw new TranscriptionError(`${path.basename(options.program)} wrote no JSON transcript (is it whisper.cpp's CLI?)`);
        }
        const words = parseWhisperJson(json);
        opts.onProgress?.(1);
        return words;
      } finally {
        await fsp.rm(dir, { recursive: true, force: true });
      }
    },
  };
}

interface WhisperJson {
  transcription?: Array<{
    timestamps?: { from?: string; to?: string };
    offsets?: { from?: number; to?: number };
    text?: string;
  }>;
}

/** "00:01:02,345" → 62.345 */
const clock = (s: string | undefined) => {
  const m = /^(\d+):(\d+):(\d+)[,.](\d+)$/.exec(s ?? '');
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(`0.${m[4]}`) : NaN;
};

/** Sound annotations Whisper writes instead of speech: [BLANK_AUDIO], (upbeat music), ♪ */
const ANNOTATION_OPEN: Record<string, string> = { '[': ']', '(': ')' };
const MUSIC = /^[♪♫\s]+$/u;

/**
 * Words from whisper.cpp's JSON output (`-oj`, `-ojf` alike: the segment list under
 * `transcription`, times in `offsets` as milliseconds). With `-ml 1 -sow` each segment is a
 * word with its punctuation attached; a segment of several words has its span shared
 * between them by length. Sound annotations become silence, even when split over segments.
 */
export function parseWhisperJson(json: string): TimedWord[] {
  let doc: WhisperJson;
  try {
    doc = JSON.parse(json) as WhisperJson;
  } catch {
    // whisper.cpp escapes only quotes and backslashes: a control character in a token breaks strict JSON
    try {
      doc = JSON.parse(escapeControlCharacters(json)) as WhisperJson;
    } catch (e) {
      throw new TranscriptionError(`whisper.cpp wrote unreadable JSON: ${(e as Error).message}`);
    }
  }
  if (!Array.isArray(doc.transcription)) throw new TranscriptionError('whisper.cpp JSON has no "transcription" list');
  const words: TimedWord[] = [];
  let closing: string | undefined;
  for (const seg of doc.transcription) {
    const text = (seg.text ?? '').trim();
    const start = typeof seg.offsets?.from === 'number' ? seg.offsets.from / 1000 : clock(seg.timestamps?.from);
    const end = typeof seg.offsets?.to === 'number' ? seg.offsets.to / 1000 : clock(seg.timestamps?.to);
    if (!text || !Number.isFinite(start) || !Number.isFinite(end)) continue;
    const silence = () => words.push({ text: '', type: 'silence', startTime: start, endTime: Math.max(start, end) });
    if (closing) {
      silence();
      if (text.includes(closing)) closing = undefined;
      continue;
    }
    const closer = ANNOTATION_OPEN[text[0]];
    if (closer) {
      silence();
      if (!text.slice(1).includes(closer)) closing = closer;
      continue;
    }
    if (MUSIC.test(text)) {
      silence();
      continue;
    }
    words.push(...segmentWords(text, start, end));
  }
  return words;
}

/** Escapes raw control characters inside JSON string literals. */
function escapeControlCharacters(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === '\\') {
        out += c + (json[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === '"') inString = false;
      else if (c < ' ') {
        out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
        continue;
      }
    } else if (c === '"') inString = true;
    out += c;
  }
  return out;
}
