/**
 * The first steps of every project made from a video, whatever comes after
 * (an edit, magic clips): fetch the source (URL projects), probe it, extract
 * its sound (measuring loudness and quiet ranges on the way) and transcribe
 * it. Each step returns its result and stores nothing in the project: the
 * caller stores it before the next step, so a run after a crash skips what an
 * earlier run finished. Progress goes to the caller's `report`.
 */
import path from 'node:path';
import { Transform } from 'node:stream';
import type { App } from '../app.js';
import { isAppError } from '../errors.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { formatBytes } from '../format.js';
import { downloadMedia } from '../library/fetch-media.js';
import { quietRanges, quietThresholdFor, type AudioLevels } from '../media/audio-levels.js';
import { NotMediaError, probe } from '../media/ffprobe.js';
import type { Word } from '../media/transcript.js';
import { extractAudio } from '../media/transcription/audio.js';
import { postProcess } from '../media/transcription/post-process.js';
import type { Transcriber } from '../media/transcription/types.js';
import { isFetchError, isTransientFetchError, type GuardedResponse } from '../net/guarded-fetch.js';
import type { LocalFiles } from '../storage/storage.js';
import { checkProjectSource, type VideoMeta } from './service.js';

/** Every step ends: a project never stays in processing forever (seconds). */
const STEP_TIMEOUTS = {
  fetch: 30 * 60,
  probe: 60,
  extract: 10 * 60,
  /** at least this, or twice the audio duration */
  transcribe: 10 * 60,
};

export type IngestStage = 'fetch' | 'probe' | 'extract' | 'transcribe';
/** The running step's progress, 0-100; the caller records it and tells subscribers. */
export type IngestReport = (stage: IngestStage, percent: number) => Promise<void>;

/** What the steps need of the process: its settings (temporary folder, fetch rules) and storage. */
type IngestApp = Pick<App, 'config' | 'storage'>;

/**
 * A failure the caller caused (a bad file, a bad URL), or a step out of time:
 * the project fails at once, no retry. `byCaller` marks what the caller's
 * input caused (a file that is no video, too long or too large), where a paid
 * project keeps what it paid.
 */
export class ProjectFailure extends Error {
  constructor(
    message: string,
    readonly byCaller = false,
  ) {
    super(message);
  }
}

/** Network trouble and failures of our own machinery are worth another run; bad input and timeouts are not. */
export function isPassingFailure(e: unknown): boolean {
  if (e instanceof ProjectFailure || isAppError(e)) return false;
  return isFetchError(e) ? isTransientFetchError(e) : !(e instanceof NotMediaError);
}

/** A failure of the service itself (worth an error in the log), not of the caller's input or the source's host. */
export const isOwnFailure = (e: unknown) => !(e instanceof ProjectFailure) && !isAppError(e) && !isFetchError(e);

/** The failure reason a failed project shows. */
export function failureReason(e: unknown): string {
  if (e instanceof ProjectFailure || isAppError(e)) return e.message;
  if (isFetchError(e)) return `The video could not be downloaded: ${e.message}`;
  if (e instanceof NotMediaError) return 'The file is not an mp4 or mov video';
  return `Processing failed: ${e instanceof Error ? e.message : String(e)}`;
}

/** Runs one step under its time limit; the step gets a signal that fires at the limit. */
async function step<T>(name: string, seconds: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProjectFailure(`The ${name} step timed out after ${seconds} s`));
    }, seconds * 1000);
  });
  try {
    return await Promise.race([fn(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Where a project's fetched source is stored. */
export const sourceKeyOf = (projectId: string) => `projects/${projectId}/source.mp4`;

/**
 * Opens the source's bytes in place of a plain download of the URL (magic clips
 * first turn a video page into its media URL); `signal` fires at the step's time limit.
 */
export type SourceOpener = (signal: AbortSignal) => Promise<Pick<GuardedResponse, 'headers' | 'body'>>;

/** Downloads the source at `url` (or what `open` gives) into storage (at most `maxBytes`); returns its storage key. */
export async function fetchSource(
  app: IngestApp,
  input: { projectId: string; url: string; maxBytes: number; report: IngestReport; open?: SourceOpener },
): Promise<string> {
  const { url, maxBytes, report } = input;
  await report('fetch', 0);
  const key = sourceKeyOf(input.projectId);
  await step('fetch', STEP_TIMEOUTS.fetch, async (signal) => {
    const res = await (input.open ? input.open(signal) : downloadMedia(app, url, maxBytes));
    const total = Number(res.headers['content-length'] ?? 0);
    let seen = 0;
    // counts what flows to storage; a 'data' listener would start the flow before storage reads
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (total > 0) void report('fetch', (seen / total) * 100).catch(() => {});
        done(null, chunk);
      },
    });
    res.body.on('error', (err) => counter.destroy(err));
    res.body.pipe(counter);
    await app.storage.put(key, counter, { contentType: 'video/mp4', maxBytes }).catch((e) => {
      throw isAppError(e) && e.code === 'PAYLOAD_TOO_LARGE' ? new ProjectFailure(`The video is larger than ${formatBytes(maxBytes)}`, true) : e;
    });
  });
  return key;
}

/**
 * The facts of the stored source (size, duration, streams); a source that is
 * no project video fails the project. The source is read through `files`
 * (where it is stored: a local file, or a remote store's URL read by range),
 * opened before the probe's clock starts.
 */
export async function probeSource(input: { key: string; files: LocalFiles; report: IngestReport; field?: string }): Promise<VideoMeta> {
  await input.report('probe', 0);
  const file = await input.files(input.key);
  return step('probe', STEP_TIMEOUTS.probe, async () => {
    try {
      return checkProjectSource(await probe(file));
    } catch (e) {
      if (e instanceof NotMediaError) throw new ProjectFailure(`The file at ${input.field ?? 'videoUrl'} is not an mp4 or mov video`, true);
      if (isAppError(e)) throw new ProjectFailure(e.code === 'VALIDATION_ERROR' ? 'The video is longer than 2 hours' : e.message, true);
      throw e;
    }
  });
}

export interface TranscribeSourceInput {
  /** the project the temporary audio file is named after */
  projectId: string;
  /** the stored source, read through `files`, and its probe */
  key: string;
  files: LocalFiles;
  meta: VideoMeta;
  language: string;
  dictionary: string[];
  /** the engine the runtime built */
  transcriber: Transcriber;
  report: IngestReport;
  /** reads the extracted sound (16 kHz mono WAV) before it is deleted: magic clips measure the voice */
  inspectAudio?: (wavPath: string) => Promise<void>;
  /** only this part of the source (seconds) is heard; the words keep the source's times */
  window?: { start: number; end: number };
}

export interface TranscribedSource {
  /** the words with their ids, the dictionary's spellings and the silences between them */
  transcript: Word[];
  /** loudness, peak and quiet ranges of the sound */
  audioLevels: AudioLevels;
}

/**
 * Extracts the source's sound to a temporary WAV, measures it, and
 * transcribes it; the WAV is gone when this returns.
 */
const round = (t: number) => Math.round(t * 1000) / 1000;
/** A range of the source shorter than this (it starts at or past the end) has nothing to hear. */
const MIN_HEARD_SECONDS = 0.5;

export async function transcribeSource(app: IngestApp, input: TranscribeSourceInput): Promise<TranscribedSource> {
  const { meta, report } = input;
  return inWorkDir(app.config.dataDir, `transcribe-${input.projectId}`, async (dir) => {
    const wav = path.join(dir, 'audio.wav');
    await report('extract', 0);
    const source = await input.files(input.key);
    const from = input.window ? Math.min(input.window.start, meta.duration) : 0;
    const heard = input.window ? Math.max(0, Math.min(input.window.end, meta.duration) - from) : meta.duration;
    if (input.window && heard < MIN_HEARD_SECONDS) {
      throw new ProjectFailure(`range starts at ${input.window.start} s, but the video lasts ${meta.duration.toFixed(1)} s`, true);
    }
    const sound = await step('audio extraction', STEP_TIMEOUTS.extract, (signal) =>
      extractAudio(source, wav, { signal, source: meta, ...(input.window ? { window: { start: from, duration: heard } } : {}) }),
    );
    const quietThreshold = quietThresholdFor(sound.loudness);
    const audioLevels: AudioLevels = {
      loudness: sound.loudness,
      peak: sound.peak,
      quiet: sound.hasAudio ? (await quietRanges(wav, quietThreshold)).map((q) => ({ start: q.start + from, end: q.end + from })) : [],
      quietThreshold,
    };
    await report('transcribe', 0);
    const limit = Math.max(STEP_TIMEOUTS.transcribe, Math.ceil(heard * 2));
    const words = await step('transcription', limit, (signal) =>
      input.transcriber.transcribe(wav, {
        language: input.language,
        dictionary: input.dictionary,
        signal,
        onProgress: (fraction: number) => void report('transcribe', fraction * 100).catch(() => {}),
      }),
    );
    if (sound.hasAudio) await input.inspectAudio?.(wav);
    const transcript = postProcess(words, { dictionary: input.dictionary, duration: heard });
    if (from > 0) for (const w of transcript) [w.startTime, w.endTime] = [round(w.startTime + from), round(w.endTime + from)];
    return { transcript, audioLevels };
  });
}
