/**
 * The sound's features the clip scorer reads: loudness and the voice's pitch
 * on a fixed step, from the 16 kHz mono WAV the ingest extracts. The file is
 * streamed (flat memory whatever its length); an hour takes about a second.
 */
import fs from 'node:fs';
import os from 'node:os';
import { readWavInfo } from '../media/wav.js';
import type { AudioFeatures } from './types.js';

/** Seconds per value. */
export const FEATURE_STEP_SECONDS = 0.1;
/** The voices looked for (Hz): low male to high female speech. */
export const PITCH_MIN_HZ = 70;
export const PITCH_MAX_HZ = 400;
/** A step is voiced when its normalised autocorrelation peak reaches this (1 = perfectly periodic). */
export const VOICED_CORRELATION = 0.6;
/** Steps quieter than this (dBFS) have no pitch. */
export const VOICED_MIN_DB = -50;
/** The loudness stored for digital silence. */
export const SILENCE_DB = -120;

/** Pitch is found on the sound low-passed at LOWPASS_HZ and resampled to about PITCH_RATE (fewer lags to try). */
const PITCH_RATE = 4000;
const LOWPASS_HZ = 1000;
/** Among peaks within this fraction of the highest, the shortest lag wins (no octave-low answer). */
const OCTAVE_TOLERANCE = 0.9;

export interface AudioFeatureOptions {
  /** seconds per value (default FEATURE_STEP_SECONDS) */
  step?: number;
  signal?: AbortSignal;
}

/**
 * Loudness (RMS of each step, dBFS against full-scale samples; SILENCE_DB for
 * digital silence) and pitch (Hz from the autocorrelation of the step, PITCH_MIN_HZ..PITCH_MAX_HZ;
 * 0 where the step is quiet or its peak is not clear) of a 16-bit PCM WAV;
 * channels are mixed.
 */
export async function readAudioFeatures(wavPath: string, opts: AudioFeatureOptions = {}): Promise<AudioFeatures> {
  const info = await readWavInfo(wavPath);
  if (info.bitsPerSample !== 16) throw new Error(`${wavPath}: expected 16-bit PCM, got ${info.bitsPerSample}-bit`);
  const step = opts.step ?? FEATURE_STEP_SECONDS;
  const perStep = Math.max(1, Math.round(info.sampleRate * step));
  const frames = Math.floor(info.dataBytes / info.blockAlign);
  const count = Math.ceil(frames / perStep);
  const loudness = new Float32Array(count);
  const pitch = new Float32Array(count);
  const analyser = new StepAnalyser(info.sampleRate, perStep);

  const { channels } = info;
  const samples = new Float32Array(perStep);
  let filled = 0;
  let index = 0;
  const endStep = () => {
    const { db, hz } = analyser.analyse(samples.subarray(0, filled));
    loudness[index] = db;
    pitch[index] = hz;
    index++;
    filled = 0;
  };

  const stream = fs.createReadStream(wavPath, { start: info.dataOffset, end: info.dataOffset + info.dataBytes - 1, highWaterMark: 1 << 20 });
  let carry: Buffer | null = null;
  for await (const raw of stream as AsyncIterable<Buffer>) {
    if (opts.signal?.aborted) {
      stream.destroy();
      throw opts.signal.reason ?? new Error('aborted');
    }
    const chunk: Buffer = carry ? Buffer.concat([carry, raw]) : raw;
    const whole = Math.floor(chunk.length / info.blockAlign);
    const pcm = int16View(chunk, whole * info.blockAlign);
    for (let f = 0; f < whole; f++) {
      let s = 0;
      for (let c = 0; c < channels; c++) s += pcm[f * channels + c];
      samples[filled++] = s / channels;
      if (filled === perStep) endStep();
    }
    carry = chunk.length > whole * info.blockAlign ? Buffer.from(chunk.subarray(whole * info.blockAlign)) : null;
  }
  if (filled > 0 && index < count) endStep();
  return { step: perStep / info.sampleRate, loudness, pitch };
}

const littleEndian = os.endianness() === 'LE';

/** The first `bytes` of `buf` as 16-bit little-endian samples. */
function int16View(buf: Buffer, bytes: number): Int16Array {
  if (littleEndian && buf.byteOffset % 2 === 0) return new Int16Array(buf.buffer, buf.byteOffset, bytes / 2);
  const out = new Int16Array(bytes / 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(i * 2);
  return out;
}

/**
 * Measures one step at a time. The low-pass filter's state runs across steps,
 * so the stream is filtered as one signal.
 */
class StepAnalyser {
  private readonly decimate: number;
  private readonly rate: number;
  private readonly minLag: number;
  private readonly maxLag: number;
  private readonly low: Float32Array;
  private readonly corr: Float64Array;
  private readonly lowpass: Biquad[];

  constructor(sampleRate: number, perStep: number) {
    this.decimate = Math.max(1, Math.floor(sampleRate / PITCH_RATE));
    this.rate = sampleRate / this.decimate;
    this.minLag = Math.max(2, Math.floor(this.rate / PITCH_MAX_HZ));
    this.maxLag = Math.ceil(this.rate / PITCH_MIN_HZ);
    this.low = new Float32Array(Math.ceil(perStep / this.decimate));
    this.corr = new Float64Array(this.maxLag + 2);
    // two second-order sections: 24 dB/octave above LOWPASS_HZ, so little folds back when decimating
    this.lowpass = [new Biquad(sampleRate, LOWPASS_HZ), new Biquad(sampleRate, LOWPASS_HZ)];
  }

  analyse(x: Float32Array): { db: number; hz: number } {
    let sq = 0;
    for (let i = 0; i < x.length; i++) sq += x[i] * x[i];
    const rms = Math.sqrt(sq / Math.max(1, x.length)) / 32768;
    const db = rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;

    // filter every sample (the filter's state must follow the stream), keep every `decimate`th
    const [a, b] = this.lowpass;
    let n = 0;
    for (let i = 0; i < x.length; i++) {
      const y = b.run(a.run(x[i]));
      if (i % this.decimate === 0) this.low[n++] = y;
    }
    return { db, hz: db < VOICED_MIN_DB ? 0 : this.pitchOf(this.low.subarray(0, n)) };
  }

  /** The normalised autocorrelation's clearest peak in the voice's lag range, as Hz; 0 when none is clear. */
  private pitchOf(y: Float32Array): number {
    const n = y.length;
    const { minLag, maxLag, corr } = this;
    if (n < 2 * maxLag) return 0;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += y[i];
    mean /= n;
    for (let i = 0; i < n; i++) y[i] -= mean;
    // energies of the two overlapping parts for each lag, from running sums of squares
    let head = 0;
    for (let i = 0; i < n; i++) head += y[i] * y[i];
    if (head <= 0) return 0;
    let best = -1;
    const lo = minLag - 1;
    const hi = maxLag + 1;
    let e0 = head;
    let e1 = head;
    for (let i = 0; i < lo; i++) {
      e0 -= y[n - 1 - i] * y[n - 1 - i];
      e1 -= y[i] * y[i];
    }
    for (let lag = lo; lag <= hi; lag++) {
      let s = 0;
      for (let i = 0, m = n - lag; i < m; i++) s += y[i] * y[i + lag];
      const r = e0 > 0 && e1 > 0 ? s / Math.sqrt(e0 * e1) : 0;
      corr[lag] = r;
      if (lag >= minLag && lag <= maxLag && r > best) best = r;
      e0 -= y[n - 1 - lag] * y[n - 1 - lag];
      e1 -= y[lag] * y[lag];
    }
    if (best < VOICED_CORRELATION) return 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      const r = corr[lag];
      if (r >= OCTAVE_TOLERANCE * best && r >= corr[lag - 1] && r >= corr[lag + 1]) {
        // parabola through the peak and its neighbours: the lag between samples
        const denom = corr[lag - 1] - 2 * r + corr[lag + 1];
        const shift = denom < 0 ? (0.5 * (corr[lag - 1] - corr[lag + 1])) / denom : 0;
        const hz = this.rate / (lag + Math.max(-0.5, Math.min(0.5, shift)));
        return hz >= PITCH_MIN_HZ * 0.95 && hz <= PITCH_MAX_HZ * 1.05 ? Math.round(hz * 10) / 10 : 0;
      }
    }
    return 0;
  }
}

/** A second-order low-pass section (RBJ cookbook, Q = 1/√2). */
class Biquad {
  private readonly b0: number;
  private readonly b1: number;
  private readonly b2: number;
  private readonly a1: number;
  private readonly a2: number;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(sampleRate: number, cutoff: number) {
    const w = (2 * Math.PI * cutoff) / sampleRate;
    const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
    const cos = Math.cos(w);
    const a0 = 1 + alpha;
    this.b0 = (1 - cos) / 2 / a0;
    this.b1 = (1 - cos) / a0;
    this.b2 = (1 - cos) / 2 / a0;
    this.a1 = (-2 * cos) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  run(x: number): number {
    const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}
