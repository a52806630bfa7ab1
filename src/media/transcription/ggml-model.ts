/**
 * The whisper.cpp model file (ggml): read and checked before whisper.cpp sees it. whisper.cpp
 * answers a file it cannot load with an empty transcript, or asserts and ends the process, so
 * the layout is checked here the way its loader (whisper_model_load) reads it: magic,
 * hyperparameters, mel filters, vocabulary, then every tensor's name, shape, type and data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TranscriberUnavailableError } from './errors.js';

export const GGML_MAGIC = 0x67676d6c;
/** whisper.cpp: a model is multilingual when its vocabulary has at least this many tokens */
const MULTILINGUAL_VOCAB = 51865;
/** ftype carries the quantisation version times this */
const QNT_VERSION_FACTOR = 1000;

export interface WhisperHparams {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  ftype: number;
}

/** The hyperparameters in file order. */
export const HPARAM_ORDER: ReadonlyArray<keyof WhisperHparams> = [
  'nVocab',
  'nAudioCtx',
  'nAudioState',
  'nAudioHead',
  'nAudioLayer',
  'nTextCtx',
  'nTextState',
  'nTextHead',
  'nTextLayer',
  'nMels',
  'ftype',
];

/** ggml tensor types a whisper model file may hold: elements per block and bytes per block. */
export const GGML_TYPES: Readonly<Record<number, { name: string; block: number; bytes: number }>> = {
  0: { name: 'f32', block: 1, bytes: 4 },
  1: { name: 'f16', block: 1, bytes: 2 },
  2: { name: 'q4_0', block: 32, bytes: 18 },
  3: { name: 'q4_1', block: 32, bytes: 20 },
  6: { name: 'q5_0', block: 32, bytes: 22 },
  7: { name: 'q5_1', block: 32, bytes: 24 },
  8: { name: 'q8_0', block: 32, bytes: 34 },
};
const F32 = 0;
const F16 = 1;
/** file ftype (GGML_FTYPE_*) → the type of the big weight matrices (GGML_TYPE_*) */
const WEIGHT_TYPE: Readonly<Record<number, number>> = { 0: 0, 1: 1, 2: 2, 3: 3, 7: 8, 8: 6, 9: 7 };

export interface TensorSpec {
  name: string;
  /** ne[0], ne[1], ... as ggml counts them (innermost first) */
  dims: number[];
  type: number;
}

/** Bytes of `elements` values of ggml type `type`. */
export const tensorBytes = (elements: number, type: number) => (elements / GGML_TYPES[type].block) * GGML_TYPES[type].bytes;
const count = (dims: number[]) => dims.reduce((n, d) => n * d, 1);

/** The tensors whisper.cpp expects for these hyperparameters, as whisper_model_load declares them. */
export function whisperTensors(h: WhisperHparams): TensorSpec[] {
  const w = WEIGHT_TYPE[h.ftype % QNT_VERSION_FACTOR];
  const conv = w === F32 ? F32 : F16;
  const a = h.nAudioState;
  const t = h.nTextState;
  const out: TensorSpec[] = [];
  const add = (name: string, type: number, ...dims: number[]) => out.push({ name, dims, type });
  add('encoder.positional_embedding', F32, a, h.nAudioCtx);
  add('encoder.conv1.weight', conv, 3, h.nMels, a);
  add('encoder.conv1.bias', F32, 1, a);
  add('encoder.conv2.weight', conv, 3, a, a);
  add('encoder.conv2.bias', F32, 1, a);
  add('encoder.ln_post.weight', F32, a);
  add('encoder.ln_post.bias', F32, a);
  const block = (prefix: string, n: number, cross: boolean) => {
    add(`${prefix}.mlp_ln.weight`, F32, n);
    add(`${prefix}.mlp_ln.bias`, F32, n);
    add(`${prefix}.mlp.0.weight`, w, n, 4 * n);
    add(`${prefix}.mlp.0.bias`, F32, 4 * n);
    add(`${prefix}.mlp.2.weight`, w, 4 * n, n);
    add(`${prefix}.mlp.2.bias`, F32, n);
    for (const attn of cross ? ['attn', 'cross_attn'] : ['attn']) {
      add(`${prefix}.${attn}_ln.weight`, F32, n);
      add(`${prefix}.${attn}_ln.bias`, F32, n);
      add(`${prefix}.${attn}.query.weight`, w, n, n);
      add(`${prefix}.${attn}.query.bias`, F32, n);
      add(`${prefix}.${attn}.key.weight`, w, n, n);
      add(`${prefix}.${attn}.value.weight`, w, n, n);
      add(`${prefix}.${attn}.value.bias`, F32, n);
      add(`${prefix}.${attn}.out.weight`, w, n, n);
      add(`${prefix}.${attn}.out.bias`, F32, n);
    }
  };
  for (let i = 0; i < h.nAudioLayer; i++) block(`encoder.blocks.${i}`, a, false);
  add('decoder.positional_embedding', F32, t, h.nTextCtx);
  add('decoder.token_embedding.weight', w, t, h.nVocab);
  add('decoder.ln.weight', F32, t);
  add('decoder.ln.bias', F32, t);
  for (let i = 0; i < h.nTextLayer; i++) block(`decoder.blocks.${i}`, t, true);
  return out;
}

/** whisper.cpp's name for a model of this depth (tiny, base, ...), with `.en` for English-only ones. */
function modelType(h: WhisperHparams): string {
  const size = { 4: 'tiny', 6: 'base', 12: 'small', 24: 'medium', 32: 'large' }[h.nAudioLayer] ?? `${h.nAudioLayer}-layer`;
  return h.nVocab >= MULTILINGUAL_VOCAB ? size : `${size}.en`;
}

export interface WhisperModelInfo {
  path: string;
  hparams: WhisperHparams;
  /** false for the English-only `*.en` models */
  multilingual: boolean;
  /** tiny, base.en, ... */
  type: string;
  /** weight type: f16, q5_0, ... */
  weights: string;
  tensors: number;
  bytes: number;
}

/** Reads a file front to back through a small buffer: header fields, and skipping over data. */
class Reader {
  private buf = Buffer.alloc(1 << 16);
  private start = 0;
  private len = 0;
  pos = 0;
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}
  private fill(n: number) {
    if (this.pos >= this.start && this.pos + n <= this.start + this.len) return;
    if (n > this.buf.length) this.buf = Buffer.alloc(n);
    this.start = this.pos;
    this.len = fs.readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
    if (this.len < n) throw new ModelError(`the file ends at byte ${this.size}, in the middle of its ${this.section}`);
  }
  section = 'header';
  i32() {
    this.fill(4);
    const v = this.buf.readInt32LE(this.pos - this.start);
    this.pos += 4;
    return v;
  }
  u32() {
    this.fill(4);
    const v = this.buf.readUInt32LE(this.pos - this.start);
    this.pos += 4;
    return v;
  }
  bytes(n: number) {
    this.fill(n);
    const v = Buffer.from(this.buf.subarray(this.pos - this.start, this.pos - this.start + n));
    this.pos += n;
    return v;
  }
  skip(n: number) {
    if (this.pos + n > this.size) throw new ModelError(`the file ends at byte ${this.size}, in the middle of its ${this.section}`);
    this.pos += n;
  }
}

class ModelError extends Error {}

/**
 * Reads and checks a whisper.cpp ggml model file; throws TranscriberUnavailableError saying
 * what is wrong (unreadable, not a ggml file, truncated, a tensor missing or misshapen).
 */
export function readWhisperModel(file: string): WhisperModelInfo {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new TranscriberUnavailableError(`WHISPER_MODEL "${file}" cannot be read: ${(e as Error).message}`);
  }
  try {
    return checkModel(new Reader(fd, fs.fstatSync(fd).size), file);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    throw new TranscriberUnavailableError(`WHISPER_MODEL "${file}" is not a usable whisper.cpp model: ${e.message}`);
  } finally {
    fs.closeSync(fd);
  }
}

function checkModel(r: Reader, file: string): WhisperModelInfo {
  if (r.size < 4 || r.u32() !== GGML_MAGIC) throw new ModelError('it is not a ggml file (wrong magic number)');
  const h = Object.fromEntries(HPARAM_ORDER.map((k) => [k, r.i32()])) as unknown as WhisperHparams;
  const positive = HPARAM_ORDER.filter((k) => k !== 'ftype').every((k) => h[k] > 0 && h[k] < 1 << 20);
  if (!positive || h.nAudioState % h.nAudioHead !== 0 || h.nTextState % h.nTextHead !== 0) {
    throw new ModelError(`its hyperparameters make no model (${JSON.stringify(h)})`);
  }
  // whisper.cpp asserts this (ending the process) rather than refusing the file
  if (h.nTextState !== h.nAudioState) throw new ModelError(`its text and audio widths differ (${h.nTextState}, ${h.nAudioState})`);
  const wtype = WEIGHT_TYPE[h.ftype % QNT_VERSION_FACTOR];
  if (wtype === undefined) throw new ModelError(`its weight type (ftype ${h.ftype}) is not one whisper.cpp reads`);

  r.section = 'mel filters';
  const nMel = r.i32();
  const nFft = r.i32();
  if (nMel <= 0 || nFft <= 0 || nMel * nFft > 1 << 24) throw new ModelError(`its mel filter bank is ${nMel} × ${nFft}`);
  r.skip(nMel * nFft * 4);

  r.section = 'vocabulary';
  const nWords = r.i32();
  if (nWords < 0 || nWords > h.nVocab) throw new ModelError(`its vocabulary holds ${nWords} tokens, more than the ${h.nVocab} it declares`);
  for (let i = 0; i < nWords; i++) {
    const len = r.u32();
    if (len > 1024) throw new ModelError(`token ${i} of its vocabulary is ${len} bytes long`);
    r.skip(len);
  }

  const expected = new Map(whisperTensors(h).map((t) => [t.name, t]));
  const seen = new Set<string>();
  let bytes = 0;
  while (r.pos < r.size) {
    r.section = 'tensors';
    const nDims = r.i32();
    const nameLength = r.i32();
    const ttype = r.i32();
    if (nDims < 1 || nDims > 4 || nameLength < 1 || nameLength > 256) throw new ModelError(`a tensor header at byte ${r.pos - 12} is not one`);
    const dims = Array.from({ length: nDims }, () => r.i32());
    const name = r.bytes(nameLength).toString('latin1');
    const spec = expected.get(name);
    if (!spec) throw new ModelError(`it holds a tensor whisper.cpp does not know ("${name}")`);
    if (seen.has(name)) throw new ModelError(`it holds tensor "${name}" twice`);
    const shape = [...dims, 1, 1, 1].slice(0, 3);
    const want = [...spec.dims, 1, 1, 1].slice(0, 3);
    if (count(dims) !== count(spec.dims) || shape.some((d, i) => d !== want[i])) {
      throw new ModelError(`tensor "${name}" is [${dims.join(', ')}], whisper.cpp expects [${spec.dims.join(', ')}]`);
    }
    const type = GGML_TYPES[ttype];
    const size = tensorBytes(count(spec.dims), spec.type);
    // whisper.cpp's own test: the file's bytes per element, against the type it allocated
    if (!type || (count(dims) * type.bytes) / GGML_TYPES[spec.type].block !== size) {
      throw new ModelError(`tensor "${name}" is stored as ${type?.name ?? `type ${ttype}`}, whisper.cpp expects ${GGML_TYPES[spec.type].name}`);
    }
    r.section = `tensor "${name}"`;
    r.skip(size);
    seen.add(name);
    bytes += size;
  }
  if (seen.size !== expected.size) {
    const missing = [...expected.keys()].filter((n) => !seen.has(n));
    throw new ModelError(
      `${missing.length} of its ${expected.size} tensors are missing (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''})`,
    );
  }
  return {
    path: path.resolve(file),
    hparams: h,
    multilingual: h.nVocab >= MULTILINGUAL_VOCAB,
    type: modelType(h),
    weights: GGML_TYPES[wtype].name,
    tensors: seen.size,
    bytes,
  };
}
