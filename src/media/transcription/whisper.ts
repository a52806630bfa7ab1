import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { whisperThreads } from '../cpu.js';
import { readWavInfo } from '../wav.js';
import { dictionaryPrompt } from './dictionary.js';
import { abortReason, TranscriberUnavailableError, TranscriptionError } from './errors.js';
import { readWhisperModel, type WhisperModelInfo } from './ggml-model.js';
import { primaryLanguage, WHISPER_LANGUAGES } from './languages.js';
import { progressReporter } from './progress.js';
import { joinPieces, type TimedPiece } from './timed-pieces.js';
import type { Config } from '../../config.js';
import type { TimedWord } from '../transcript.js';
import type { Transcriber } from './types.js';

/** the Node binding of whisper.cpp, an optional dependency built from source at install */
const BINDING = 'smart-whisper';
const require = createRequire(import.meta.url);

export interface WhisperOptions {
  model: WhisperModelInfo;
  /** whisper.cpp threads (media/cpu.ts) */
  threads?: number;
}

/**
 * Checks that the binding is installed and the model file is whole (header, hyperparameters,
 * every tensor); throws TranscriberUnavailableError saying what is missing or wrong.
 */
export function whisperOptions({ whisper }: Pick<Config, 'whisper'>): WhisperOptions {
  let addon: string | undefined;
  try {
    addon = path.join(path.dirname(require.resolve(`${BINDING}/package.json`)), 'build/Release/smart-whisper.node');
  } catch {
    addon = undefined;
  }
  if (!addon || !fs.existsSync(addon)) {
    throw new TranscriberUnavailableError(
      `the Whisper engine is not installed: the optional package ${BINDING} ${addon ? 'has no built addon' : 'is missing'} (it builds whisper.cpp from source at npm install, which needs g++, make and python3; \`npm run whisper:build\` shows why it fails)`,
    );
  }
  if (!whisper.model) throw new TranscriberUnavailableError('WHISPER_MODEL must name a whisper.cpp ggml model file (`npm run model -- base.en` downloads one)');
  return { model: readWhisperModel(whisper.model) };
}

/** A segment as the binding gives it in its `detail` format; times in milliseconds. */
export interface NativeSegment {
  from: number;
  to: number;
  text: string;
  tokens?: Array<{ text: string; id: number; p: number; from?: number; to?: number }>;
}

/** What whisper.ts asks of its host process (whisper-host.ts). */
export type HostRequest = { op: 'load'; model: string } | { op: 'transcribe'; id: number; wav: string; params: Record<string, unknown> } | { op: 'free' };
/** What the host answers. */
export type HostReply =
  | { op: 'loaded' }
  | { op: 'freed' }
  | { op: 'segment'; id: number; to: number }
  | { op: 'result'; id: number; segments: NativeSegment[]; samples: number }
  | { op: 'error'; id?: number; message: string };

const HOST = fileURLToPath(new URL('./whisper-host.ts', import.meta.url));
const STDERR_TAIL = 2000;

/** The host process with the model loaded, started on first use. */
interface Host {
  child: ChildProcess;
  ready: Promise<void>;
  /** whisper.cpp's last log lines, for the error when the process dies */
  stderr: () => string;
}

function startHost(model: string): Host {
  // the host is TypeScript like the rest: run it through the same loader as the service
  const child = fork(HOST, [], {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  let tail = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL);
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (m: HostReply) => {
      if (m.op === 'loaded') resolve();
      else if (m.op === 'error') reject(new TranscriptionError(`whisper.cpp could not load ${path.basename(model)}: ${m.message}`));
      else return;
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onExit = (code: number | null, signal: string | null) =>
      reject(new TranscriptionError(`the Whisper process ended while loading ${path.basename(model)} (${signal ?? `exit ${code}`}): ${lastLines(tail)}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  ready.catch(() => child.kill('SIGKILL'));
  child.send({ op: 'load', model } satisfies HostRequest);
  return { child, ready, stderr: () => tail };
}

const lastLines = (text: string) => text.trim().split('\n').slice(-3).join(' | ');

/** Sound annotations Whisper writes instead of speech: [BLANK_AUDIO], (upbeat music), ♪ */
const ANNOTATION_OPEN: Record<string, string> = { '[': ']', '(': ')' };
const MUSIC = /^[♪♫\s]+$/u;

/**
 * whisper.cpp in a child process that keeps the model loaded from one job to the next. A child,
 * not this process: the binding cannot stop a running transcription (an abort kills the child,
 * and the next job loads the model again), and whisper.cpp ends its process on some faults.
 * Jobs take turns: each runs on the threads media/cpu.ts allows. Word times come from the
 * token timestamps, words from joining tokens (timed-pieces.ts), a word's confidence from its
 * tokens' probabilities; the dictionary goes in as the initial prompt.
 */
export function createWhisperTranscriber(options: WhisperOptions): Transcriber {
  const { model } = options;
  const threads = options.threads ?? whisperThreads();
  // whisper.cpp's special tokens (end of text, timestamps, languages) follow the text tokens
  const firstSpecial = model.multilingual ? 50257 : 50256;
  const supports = (language: string) => {
    const code = primaryLanguage(language);
    return model.multilingual ? WHISPER_LANGUAGES.has(code) : code === 'en';
  };
  let host: Host | undefined;
  let turn: Promise<unknown> = Promise.resolve();
  let nextId = 1;

  const dropHost = (h: Host) => {
    if (host === h) host = undefined;
    h.child.kill('SIGKILL');
  };

  async function run(wavPath: string, language: string, prompt: string | undefined, signal: AbortSignal | undefined, onProgress: (f: number) => void) {
    signal?.throwIfAborted();
    const h = (host ??= startHost(model.path));
    const duration = (await readWavInfo(wavPath)).duration;
    const id = nextId++;
    const params = {
      language,
      n_threads: threads,
      // greedy decoding, with whisper.cpp's temperature fallback when a window decodes badly
      strategy: 0,
      token_timestamps: true,
      format: 'detail',
      print_progress: false,
      print_realtime: false,
      ...(prompt ? { initial_prompt: prompt } : {}),
    };
    return new Promise<{ segments: NativeSegment[]; duration: number }>((resolve, reject) => {
      const done = (err: unknown, value?: { segments: NativeSegment[]; duration: number }) => {
        h.child.off('message', onMessage);
        h.child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(value!);
      };
      const onMessage = (m: HostReply) => {
        if (!('id' in m) || m.id !== id) return;
        if (m.op === 'segment' && duration > 0) onProgress(m.to / 1000 / duration);
        else if (m.op === 'result') done(null, { segments: m.segments, duration: m.samples / 16_000 });
        else if (m.op === 'error') done(new TranscriptionError(`whisper.cpp failed: ${m.message}`));
      };
      const onExit = (code: number | null, sig: string | null) => {
        dropHost(h);
        done(new TranscriptionError(`the Whisper process ended (${sig ?? `exit ${code}`}): ${lastLines(h.stderr())}`, { retryable: true }));
      };
      // the binding cannot stop whisper.cpp midway: the process goes, and the model with it
      const onAbort = () => {
        dropHost(h);
        done(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      h.child.on('message', onMessage);
      h.child.once('exit', onExit);
      h.ready.then(
        () => {
          if (!signal?.aborted) h.child.send({ op: 'transcribe', id, wav: path.resolve(wavPath), params } satisfies HostRequest);
        },
        (e: unknown) => {
          dropHost(h);
          done(e);
        },
      );
    });
  }

  return {
    name: 'whisper',
    supports,
    async transcribe(wavPath, opts) {
      if (!supports(opts.language)) {
        throw new TranscriptionError(
          model.multilingual ? `whisper does not know the language "${opts.language}"` : `the whisper model ${path.basename(model.path)} is English-only`,
        );
      }
      const report = progressReporter(opts.onProgress);
      const mine = turn.then(() => run(wavPath, primaryLanguage(opts.language), dictionaryPrompt(opts.dictionary), opts.signal, report));
      turn = mine.catch(() => undefined);
      const { segments, duration } = await mine;
      const words = wordsOfSegments(segments, firstSpecial, duration);
      opts.onProgress?.(1);
      return words;
    },
    async close() {
      const h = host;
      host = undefined;
      if (!h) return;
      await turn;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => h.child.kill('SIGKILL'), 5000);
        h.child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        if (h.child.connected) h.child.send({ op: 'free' } satisfies HostRequest, () => h.child.disconnect());
        else h.child.kill('SIGKILL');
      });
    },
  };
}

/**
 * Words of whisper.cpp's segments: text tokens (special ones dropped) joined into words with
 * their times and probabilities, sound annotations ([BLANK_AUDIO], (music), ♪) as silence.
 */
export function wordsOfSegments(segments: NativeSegment[], firstSpecial: number, duration: number): TimedWord[] {
  const pieces: TimedPiece[] = [];
  for (const seg of segments) {
    for (const t of seg.tokens ?? []) {
      if (t.id >= firstSpecial) continue;
      pieces.push({ text: t.text, start: (t.from ?? seg.from) / 1000, end: (t.to ?? seg.to) / 1000, p: t.p });
    }
  }
  const words: TimedWord[] = [];
  let closing: string | undefined;
  for (const w of joinPieces(pieces, duration)) {
    const silence = () => words.push({ text: '', type: 'silence', startTime: w.startTime, endTime: w.endTime });
    if (closing) {
      silence();
      if (w.text.includes(closing)) closing = undefined;
      continue;
    }
    const closer = ANNOTATION_OPEN[w.text[0]];
    if (closer) {
      silence();
      if (!w.text.slice(1).includes(closer)) closing = closer;
      continue;
    }
    if (MUSIC.test(w.text)) {
      silence();
      continue;
    }
    words.push(w);
  }
  return words;
}
