/**
 * What the renderer needs to know about a source's sound, measured once while
 * the pipeline extracts it for transcription: its integrated loudness and
 * peak (ffmpeg's ebur128 filter, EBU R128 / ITU-R BS.1770), and where it is
 * quiet (a level envelope over the extracted 16 kHz WAV). Clean audio turns
 * the loudness into one fixed gain, so the render needs no look-ahead
 * normaliser; silence removal uses the quiet ranges to trim each cut to where
 * the sound really is low.
 */
import fs from 'node:fs';
import { readWavInfo } from './wav.js';
import { inputOptions, withoutUrlQueries } from './input.js';
import { runProgram } from './program.js';
import type { Segment } from './transcript.js';

export interface AudioLevels {
  /** integrated loudness in LUFS; null when the sound is too quiet to measure (all below the gate) */
  loudness: number | null;
  /** sample peak in dBFS; null when not measured */
  peak: number | null;
  /** source ranges (seconds) where the level stays below `quietThreshold` for at least QUIET_MIN_SECONDS */
  quiet: Segment[];
  /** the level (dBFS, RMS over QUIET_WINDOW_SECONDS) under which the sound counts as quiet */
  quietThreshold: number;
}

/** Loudness clean audio aims at (LUFS), the level short-video platforms play at. */
export const TARGET_LOUDNESS = -16;
/** The gain clean audio applies stays within this many dB either way. */
export const MAX_GAIN_DB = 24;
/** Window of the level envelope. */
export const QUIET_WINDOW_SECONDS = 0.02;
/** Shortest quiet range kept. */
export const QUIET_MIN_SECONDS = 0.1;
/** Quiet is this far below the integrated loudness, within QUIET_FLOOR..QUIET_CEILING dBFS. */
export const QUIET_BELOW_LOUDNESS_DB = 30;
const QUIET_FLOOR = -65;
const QUIET_CEILING = -35;

/** The ebur128 filter to put in an audio chain; its summary (parseEbur128) goes to the log at level info. */
export const EBUR128_FILTER = 'ebur128=framelog=verbose:peak=sample';

/** Integrated loudness and peak from the summary ebur128 logs at the end of a run. */
export function parseEbur128(log: string): { loudness: number | null; peak: number | null } {
  const at = log.lastIndexOf('Summary:');
  if (at < 0) return { loudness: null, peak: null };
  const summary = log.slice(at);
  const value = (re: RegExp) => {
    const m = re.exec(summary);
    const v = m ? Number(m[1]) : NaN;
    // ebur128 prints -70.0 (its absolute gate) for an input that is all silence, and -inf peaks
    return Number.isFinite(v) ? v : null;
  };
  const loudness = value(/Integrated loudness:\s*\n\s*I:\s*(-?[\d.]+|-inf)\s*LUFS/);
  return { loudness: loudness !== null && loudness <= -70 ? null : loudness, peak: value(/(?:True|Sample) peak:\s*\n\s*Peak:\s*(-?[\d.]+|-inf)\s*dBFS/) };
}

/** The quiet threshold for a source of this loudness (dBFS). */
export function quietThresholdFor(loudness: number | null): number {
  if (loudness === null) return QUIET_FLOOR;
  return Math.min(QUIET_CEILING, Math.max(QUIET_FLOOR, loudness - QUIET_BELOW_LOUDNESS_DB));
}

/**
 * Quiet ranges of a 16-bit PCM WAV: the RMS level of each QUIET_WINDOW_SECONDS
 * window against `thresholdDb`, runs of quiet windows at least `minSeconds`
 * long. Reads the file in chunks (flat memory, whatever its length).
 */
export async function quietRanges(wavPath: string, thresholdDb: number, minSeconds = QUIET_MIN_SECONDS): Promise<Segment[]> {
  const info = await readWavInfo(wavPath);
  if (info.bitsPerSample !== 16) throw new Error(`${wavPath}: expected 16-bit PCM, got ${info.bitsPerSample}-bit`);
  const perWindow = Math.max(1, Math.round(info.sampleRate * QUIET_WINDOW_SECONDS));
  const windowSeconds = perWindow / info.sampleRate;
  // mean square under the threshold: compare squares, no log per window
  const limit = (32768 * 10 ** (thresholdDb / 20)) ** 2;
  const out: Segment[] = [];
  let quietFrom: number | null = null;
  let sum = 0;
  let count = 0;
  let window = 0;
  const close = (at: number) => {
    if (quietFrom !== null && at - quietFrom >= minSeconds - 1e-9) out.push({ start: quietFrom, end: at });
    quietFrom = null;
  };
  const endWindow = () => {
    const start = window * windowSeconds;
    if (sum / count < limit) quietFrom ??= start;
    else close(start);
    window++;
    sum = 0;
    count = 0;
  };
  const stream = fs.createReadStream(wavPath, { start: info.dataOffset, end: info.dataOffset + info.dataBytes - 1, highWaterMark: 1 << 20 });
  let carry: Buffer | null = null;
  for await (const raw of stream as AsyncIterable<Buffer>) {
    const chunk: Buffer = carry ? Buffer.concat([carry, raw]) : raw;
    const frames = Math.floor(chunk.length / info.blockAlign);
    for (let f = 0; f < frames; f++) {
      // the loudest channel of the frame counts
      let peak = 0;
      for (let c = 0; c < info.channels; c++) {
        const s = chunk.readInt16LE(f * info.blockAlign + c * 2);
        if (s * s > peak) peak = s * s;
      }
      sum += peak;
      if (++count === perWindow) endWindow();
    }
    carry = chunk.length > frames * info.blockAlign ? chunk.subarray(frames * info.blockAlign) : null;
  }
  if (count > 0) endWindow();
  close(window * windowSeconds);
  // runs of windows: already sorted and apart
  return out.map((s) => ({ start: round(s.start), end: round(Math.min(s.end, info.duration)) }));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Measures a media file's loudness alone (one audio-only ffmpeg run), for
 * sources whose levels were not measured at transcription; a local file or a
 * remote store's URL (Storage.mediaSource).
 */
export async function measureLoudness(mediaPath: string, opts: { signal?: AbortSignal } = {}): Promise<{ loudness: number | null; peak: number | null }> {
  let log = '';
  await runProgram(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostats',
      '-nostdin',
      '-loglevel',
      'info',
      ...inputOptions(mediaPath),
      '-i',
      mediaPath,
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-af',
      EBUR128_FILTER,
      '-f',
      'null',
      '-',
    ],
    {
      signal: opts.signal,
      redact: withoutUrlQueries,
      onStderrLine: (line) => {
        // keep only the summary (the per-frame log is at level verbose)
        if (line.includes('Summary:') || log) log += `${line}\n`;
      },
    },
  );
  return parseEbur128(log);
}

/** The fixed gain (dB) that brings a voice of this loudness to TARGET_LOUDNESS, bounded by MAX_GAIN_DB; 0 when unmeasured. */
export function normalizingGain(loudness: number | null): number {
  if (loudness === null) return 0;
  return Math.round(Math.max(-MAX_GAIN_DB, Math.min(MAX_GAIN_DB, TARGET_LOUDNESS - loudness)) * 10) / 10;
}
