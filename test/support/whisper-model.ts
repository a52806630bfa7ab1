/**
 * A whisper.cpp model file with the layout of tiny.en and random weights (about 78 MB), so the
 * Whisper engine's whole path runs in the tests: loading, audio framing, token timestamps,
 * word joining. Its words are junk. Written once per machine into the temp folder (the name
 * carries the layout's version) and reused; never committed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GGML_MAGIC, HPARAM_ORDER, tensorBytes, whisperTensors, type WhisperHparams } from '../../src/media/transcription/ggml-model.js';

/** tiny.en as whisper.cpp's ggml-tiny.en.bin declares it */
export const TINY_EN: WhisperHparams = {
  nVocab: 51864,
  nAudioCtx: 1500,
  nAudioState: 384,
  nAudioHead: 6,
  nAudioLayer: 4,
  nTextCtx: 448,
  nTextState: 384,
  nTextHead: 6,
  nTextLayer: 4,
  nMels: 80,
  ftype: 1,
};
/** the text tokens the file lists; whisper.cpp names the special tokens after them itself */
const TEXT_TOKENS = 50256;
const VERSION = 1;

/** A float as IEEE half (numbers below its normal range become zero). */
function half(x: number): number {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  if (e < -14) return 0;
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | Math.min(m, 1023);
}

/**
 * Token texts: a space (whisper.cpp looks it up to suppress blanks), single characters with and
 * without a leading space, then syllables, a third of them beginning a word.
 */
function vocabulary(): string[] {
  const out: string[] = [' '];
  for (let c = 33; c < 127; c++) out.push(String.fromCharCode(c), ` ${String.fromCharCode(c)}`);
  const consonants = 'bcdfghjklmnprstvwz';
  const vowels = 'aeiou';
  for (let i = 0; out.length < TEXT_TOKENS; i++) {
    const syllable = consonants[i % 18] + vowels[Math.floor(i / 18) % 5] + (i >= 90 ? consonants[Math.floor(i / 90) % 18] : '');
    out.push(i % 3 === 0 ? ` ${syllable}${Math.floor(i / 1620) || ''}` : `${syllable}${Math.floor(i / 1620) || ''}`);
  }
  return out;
}

/** Writes the model to `file` (synchronously: a few hundred milliseconds of disk writes). */
export function writeWhisperModel(file: string, h: WhisperHparams = TINY_EN): void {
  const random = crypto.createHash('sha256');
  let seed = 0;
  // f16 noise in ±0.05, as a 1 MiB pattern repeated over the weights
  const f16 = Buffer.alloc(1 << 20);
  const f32 = Buffer.alloc(1 << 20);
  for (let i = 0; i < f16.length; i += 32) {
    const block = random.copy().update(String(seed++)).digest();
    for (let j = 0; j < 16; j++) {
      const v = (block.readUInt16LE(j * 2) / 65535 - 0.5) * 0.1;
      f16.writeUInt16LE(half(v), i + j * 2);
      if (i * 2 + j * 4 < f32.length) f32.writeFloatLE(v, i * 2 + j * 4);
    }
  }
  const ones = Buffer.alloc(4 * 4 * h.nAudioState);
  for (let i = 0; i < ones.length; i += 4) ones.writeFloatLE(1, i);

  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    const write = (b: Buffer) => fs.writeSync(fd, b);
    const i32 = (...values: number[]) => {
      const b = Buffer.alloc(4 * values.length);
      values.forEach((v, i) => b.writeInt32LE(v, i * 4));
      write(b);
    };
    const fill = (pattern: Buffer, bytes: number) => {
      for (let left = bytes; left > 0; left -= pattern.length) write(left >= pattern.length ? pattern : pattern.subarray(0, left));
    };
    const magic = Buffer.alloc(4);
    magic.writeUInt32LE(GGML_MAGIC);
    write(magic);
    i32(...HPARAM_ORDER.map((k) => h[k]));
    // mel filters: n_mel × n_fft (201 for whisper's 400-sample FFT)
    i32(h.nMels, 201);
    fill(f32.subarray(0, 1 << 12), h.nMels * 201 * 4);
    const words = vocabulary();
    i32(words.length);
    for (const w of words) {
      const bytes = Buffer.from(w, 'utf8');
      i32(bytes.length);
      write(bytes);
    }
    for (const t of whisperTensors(h)) {
      const name = Buffer.from(t.name, 'latin1');
      i32(t.dims.length, name.length, t.type, ...t.dims);
      write(name);
      const bytes = tensorBytes(
        t.dims.reduce((n, d) => n * d, 1),
        t.type,
      );
      // layer norms scale by one, so activations neither vanish nor blow up
      if (/ln(_post)?\.weight$/.test(t.name)) fill(ones, bytes);
      else fill(t.type === 0 ? f32 : f16, bytes);
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/** The generated tiny.en-shaped model, written on first use and kept in the temp folder. */
export function generatedTinyEn(): string {
  const file = path.join(os.tmpdir(), `clipcast-test-ggml-tiny.en-random-v${VERSION}.bin`);
  if (!fs.existsSync(file)) writeWhisperModel(file);
  return file;
}
