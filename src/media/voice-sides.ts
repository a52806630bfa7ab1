/**
 * Which side of the picture a voice comes from: the loudness of the left and
 * right channels of one window of a video, on a fixed step. Two people
 * recorded on two microphones (an interview, a podcast) are usually mixed to
 * the side each sits on, or at least louder there; a mono source gives two
 * equal channels and says nothing (speaker-layout.ts then reads the mouths).
 *
 * One ffmpeg run decodes only the window's sound, at 8 kHz (speech's
 * loudness needs no more), streamed through a pipe: flat memory.
 */
import { inputOptions, withoutUrlQueries } from './input.js';
import { startProgram } from './program.js';

/** Seconds per value. */
export const SIDE_STEP_SECONDS = 0.1;
const RATE = 8000;
/** the loudness of digital silence, dBFS */
const SILENCE_DB = -120;

export interface VoiceSides {
  /** seconds per value */
  step: number;
  /** RMS of each step, dBFS, per channel (a mono source's channel twice) */
  left: Float32Array;
  right: Float32Array;
}

/** The two channels' loudness over `duration` s of `path` from `start` (a local file or a store's URL). */
export async function readVoiceSides(input: { path: string; start: number; duration: number }, opts: { signal?: AbortSignal } = {}): Promise<VoiceSides> {
  const perStep = Math.round(RATE * SIDE_STEP_SECONDS);
  const steps = Math.max(1, Math.ceil(input.duration / SIDE_STEP_SECONDS - 1e-6));
  const left = new Float32Array(steps).fill(SILENCE_DB);
  const right = new Float32Array(steps).fill(SILENCE_DB);
  const ffmpeg = startProgram(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
      ...inputOptions(input.path),
      ...['-ss', String(input.start), '-t', String(input.duration), '-i', input.path],
      // a source without sound gives no bytes: every step stays silent
      ...['-map', '0:a:0?', '-vn', '-sn', '-dn', '-ac', '2', '-ar', String(RATE), '-f', 's16le', 'pipe:1'],
    ],
    { stdout: 'stream', signal: opts.signal, redact: withoutUrlQueries, quoteLines: 3 },
  );
  let sumL = 0;
  let sumR = 0;
  let n = 0;
  let step = 0;
  let carry: Buffer | null = null;
  const endStep = () => {
    if (step < steps && n > 0) {
      left[step] = dbOf(sumL / n);
      right[step] = dbOf(sumR / n);
    }
    step++;
    sumL = sumR = n = 0;
  };
  try {
    for await (const chunk of ffmpeg.stdout as AsyncIterable<Buffer>) {
      const data: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      const whole = data.length - (data.length % 4);
      for (let i = 0; i < whole; i += 4) {
        const l = data.readInt16LE(i) / 32768;
        const r = data.readInt16LE(i + 2) / 32768;
        sumL += l * l;
        sumR += r * r;
        if (++n === perStep) endStep();
      }
      carry = whole < data.length ? data.subarray(whole) : null;
    }
    if (n > 0) endStep();
    await ffmpeg.done;
  } finally {
    ffmpeg.stop();
    await ffmpeg.done.catch(() => undefined);
  }
  return { step: SIDE_STEP_SECONDS, left, right };
}

const dbOf = (meanSquare: number) => (meanSquare > 0 ? Math.max(SILENCE_DB, 10 * Math.log10(meanSquare)) : SILENCE_DB);
