import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { currentClass } from '../../jobs/priority.js';
import { whisperThreads } from '../cpu.js';
import { readWavInfo } from '../wav.js';
import { dictionaryPrompt } from './dictionary.js';
import { abortReason, TranscriberUnavailableError, TranscriptionError } from './errors.js';
import { readWhisperModel, type WhisperModelInfo } from './ggml-model.js';
import { primaryLanguage, WHISPER_LANGUAGES } from './languages.js';
import { PIECE_SECONDS, planPieces, type Piece } from './pieces.js';
import { progressReporter } from './progress.js';
import { joinPieces, type TimedPiece } from './timed-pieces.js';
import type { Config } from '../../config.js';
import type { TimedWord } from '../transcript.js';
import { Turns } from './turns.js';
import type { TranscribeOptions, Transcriber } from './types.js';

/** the Node binding of whisper.cpp, an optional dependency built from source at install */
const BINDING = 'smart-whisper';
const require = createRequire(import.meta.url);

export interface WhisperOptions {
  model: WhisperModelInfo;
  /** whisper.cpp threads (media/cpu.ts) */
  threads?: number;
  /** the length of the pieces a long recording is transcribed in, each a turn of its own (pieces.ts) */
  pieceSeconds?: number;
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

/** What whisper.ts asks of its host process (whisper-host.ts); `from` and `to` are sample frames of the WAV's data. */
export type HostRequest =
  | { op: 'load'; model: string }
  | { op: 'transcribe'; id: number; wav: string; from: number; to: number; params: Record<string, unknown> }
  | { op: 'free' };
/** What the host answers; a piece's times are from its own start, in milliseconds. */
export type HostReply =
  | { op: 'loaded' }
  | { op: 'freed' }
  | { op: 'segment'; id: number; to: number }
  | { op: 'result'; id: number; segments: NativeSegment[] }
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

/** whisper.cpp reads 16 kHz sound; a piece's segment times are in milliseconds from its start */
const SAMPLE_RATE = 16_000;
/** What of a piece's words goes into the next piece's prompt, as whisper.cpp carries its own windows' text */
const CONTEXT_CHARS = 160;
/** The dictionary and the context together: about Whisper's 224 prompt tokens */
const PROMPT_CHARS = 800;

/**
 * whisper.cpp in a child process that keeps the model loaded from one job to the next. A child,
 * not this process: the binding cannot stop a running transcription (an abort kills the child,
 * and the next job loads the model again), and whisper.cpp ends its process on some faults.
 * Jobs take turns on the model (turns.ts), interactive work first; a recording longer than one
 * and a half pieces (PIECE_SECONDS) is transcribed a piece at a time, each piece a turn of its
 * own cut where the sound is quietest (pieces.ts), so a short job waits for one piece of a long
 * one, not the whole. Each piece runs on the threads media/cpu.ts allows. Word times come from
 * the token timestamps, words from joining tokens (timed-pieces.ts), a word's confidence from
 * its tokens' probabilities; the dictionary goes in as the initial prompt, with the end of the
 * piece before.
 */
export function createWhisperTranscriber(options: WhisperOptions): Transcriber {
  const { model } = options;
  const threads = options.threads ?? whisperThreads();
  const pieceSeconds = options.pieceSeconds ?? PIECE_SECONDS;
  // whisper.cpp's special tokens (end of text, timestamps, languages) follow the text tokens
  const firstSpecial = model.multilingual ? 50257 : 50256;
  const supports = (language: string) => {
    const code = primaryLanguage(language);
    return model.multilingual ? WHISPER_LANGUAGES.has(code) : code === 'en';
  };
  let host: Host | undefined;
  const turns = new Turns();
  let nextId = 1;
  /** transcriptions under way: close() waits for them, not only for the piece that runs */
  const underWay = new Set<Promise<unknown>>();
  let closing = false;

  const dropHost = (h: Host) => {
    if (host === h) host = undefined;
    h.child.kill('SIGKILL');
  };

  /** One piece of the WAV: its segments, timed from the piece's start; `onHeard` gets how far it is, in seconds. */
  async function run(
    wavPath: string,
    piece: Piece,
    language: string,
    prompt: string | undefined,
    signal: AbortSignal | undefined,
    onHeard: (s: number) => void,
  ) {
    signal?.throwIfAborted();
    if (closing) throw new TranscriptionError('the Whisper engine is closing', { retryable: true });
    const h = (host ??= startHost(model.path));
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
    return new Promise<NativeSegment[]>((resolve, reject) => {
      const done = (err: unknown, value?: NativeSegment[]) => {
        h.child.off('message', onMessage);
        h.child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(value!);
      };
      const onMessage = (m: HostReply) => {
        if (!('id' in m) || m.id !== id) return;
        if (m.op === 'segment') onHeard(m.to / 1000);
        else if (m.op === 'result') done(null, m.segments);
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
          if (!signal?.aborted) {
            h.child.send({ op: 'transcribe', id, wav: path.resolve(wavPath), from: piece.from, to: piece.to, params } satisfies HostRequest);
          }
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
    transcribe(wavPath, opts) {
      const work = transcribeInPieces(wavPath, opts);
      underWay.add(work);
      void work.catch(() => {}).finally(() => underWay.delete(work));
      return work;
    },
    async close() {
      closing = true;
      // the transcriptions under way end first: between two of its pieces, one holds no turn
      await Promise.allSettled([...underWay]);
      const h = host;
      host = undefined;
      if (!h) return;
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

  async function transcribeInPieces(wavPath: string, opts: TranscribeOptions): Promise<TimedWord[]> {
    if (!supports(opts.language)) {
      throw new TranscriptionError(
        model.multilingual ? `whisper does not know the language "${opts.language}"` : `the whisper model ${path.basename(model.path)} is English-only`,
      );
    }
    const report = progressReporter(opts.onProgress);
    const info = await readWavInfo(wavPath);
    const pieces = await planPieces(wavPath, info, pieceSeconds);
    const total = pieces.at(-1)!.to;
    // the class of the job asking: its pieces wait behind interactive work (turns.ts)
    const cls = currentClass();
    const segments: NativeSegment[] = [];
    let context = '';
    for (const piece of pieces) {
      const endTurn = await turns.take(cls, opts.signal);
      let heard: NativeSegment[];
      try {
        const dictionary = dictionaryPrompt(opts.dictionary, PROMPT_CHARS - context.length - 1);
        const prompt = [dictionary, context].filter(Boolean).join(' ') || undefined;
        const onHeard = (s: number) => total > 0 && report((piece.from + s * SAMPLE_RATE) / total);
        heard = await run(wavPath, piece, primaryLanguage(opts.language), prompt, opts.signal, onHeard);
      } finally {
        endTurn();
      }
      segments.push(...onRecordingClock(heard, piece));
      context = endOfText(heard.map((seg) => seg.text).join(''), CONTEXT_CHARS);
    }
    const words = wordsOfSegments(segments, firstSpecial, info.duration);
    opts.onProgress?.(1);
    return words;
  }
}

/**
 * A piece's segments on the recording's clock: held within the piece (whisper.cpp may time a
 * segment's end up to its 30 s window's, past the sound it was given), then moved by its start.
 */
export function onRecordingClock(segments: NativeSegment[], piece: Piece): NativeSegment[] {
  const offset = (piece.from / SAMPLE_RATE) * 1000;
  const length = ((piece.to - piece.from) / SAMPLE_RATE) * 1000;
  const at = (ms: number) => Math.min(Math.max(ms, 0), length) + offset;
  return segments.map((seg) => ({
    ...seg,
    from: at(seg.from),
    to: at(seg.to),
    ...(seg.tokens
      ? { tokens: seg.tokens.map((t) => ({ ...t, ...(t.from === undefined ? {} : { from: at(t.from) }), ...(t.to === undefined ? {} : { to: at(t.to) }) })) }
      : {}),
  }));
}

/** Whisper's sound annotations ([BLANK_AUDIO], (music), ♪): not words to carry into a prompt */
const ANNOTATIONS = /\[[^\]]*\]|\([^)]*\)|[♪♫]/gu;

/** The last `max` characters of a text without its sound annotations, from a word's start. */
export function endOfText(text: string, max: number): string {
  const t = text.replace(ANNOTATIONS, ' ').trim().replace(/\s+/g, ' ');
  if (t.length <= max) return t;
  const from = t.length - max;
  if (t[from - 1] === ' ') return t.slice(from);
  const space = t.indexOf(' ', from);
  return space < 0 ? t.slice(from) : t.slice(space + 1);
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
