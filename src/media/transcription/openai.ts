import fs from 'node:fs/promises';
import { readWavInfo, type WavInfo } from '../wav.js';
import { dictionaryPrompt } from './dictionary.js';
import { abortReason, TranscriberUnavailableError, TranscriptionError } from './errors.js';
import { primaryLanguage, WHISPER_LANGUAGES } from './languages.js';
import { segmentWords } from './segment-words.js';
import { joinPieces, type TimedPiece } from './timed-pieces.js';
import type { Config } from '../../config.js';
import type { TimedWord } from '../transcript.js';
import type { Transcriber } from './types.js';
import { apiEndpoint } from '../../net/openai-compatible.js';

const DEFAULT_BASE_URL = 'https://api.openai.com';

export interface OpenAIOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** the API refuses files over 25 MB: longer audio is sent in pieces of at most this size */
  maxUploadBytes?: number;
  /** per request */
  timeoutMs?: number;
}

export function openAIOptions(openai: Config['openai']): OpenAIOptions {
  const baseUrl = (openai.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const { apiKey } = openai;
  // compatible servers on the operator's own network may need no key; OpenAI's always does
  if (!apiKey && baseUrl === DEFAULT_BASE_URL) {
    throw new TranscriberUnavailableError('OPENAI_API_KEY must be set to use the openai transcription engine');
  }
  try {
    new URL(baseUrl);
  } catch {
    throw new TranscriberUnavailableError(`OPENAI_BASE_URL "${openai.baseUrl}" is not a URL`);
  }
  return { baseUrl, apiKey, model: openai.transcriptionModel };
}

/** The answer of /v1/audio/transcriptions with response_format=verbose_json. */
export interface VerboseTranscription {
  text?: string;
  language?: string;
  duration?: number;
  words?: Array<{ word: string; start: number; end: number }>;
  segments?: Array<{ start: number; end: number; text: string }>;
}

/**
 * OpenAI's transcription API, or any server speaking it (OPENAI_BASE_URL). Word times come
 * from `timestamp_granularities[]=word`; the dictionary is sent as the prompt.
 */
export function createOpenAITranscriber(options: OpenAIOptions): Transcriber {
  // the SDKs' convention is a base URL ending in /v1; accept both spellings
  const endpoint = apiEndpoint(options.baseUrl, 'audio/transcriptions');
  const maxUploadBytes = options.maxUploadBytes ?? 24_000_000;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const supports = (language: string) => WHISPER_LANGUAGES.has(primaryLanguage(language));

  async function request(audio: Uint8Array<ArrayBuffer>, language: string, prompt: string | undefined, signal: AbortSignal | undefined) {
    const form = new FormData();
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', options.model);
    form.append('language', language);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'word');
    if (prompt) form.append('prompt', prompt);
    const timeout = AbortSignal.timeout(timeoutMs);
    let res: Response;
    let body: string;
    try {
      res = await fetch(endpoint, {
        method: 'POST',
        headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      body = await res.text();
    } catch (e) {
      if (signal?.aborted) throw abortReason(signal);
      const why = timeout.aborted ? `no answer within ${timeoutMs / 1000} s` : (e as Error).message;
      throw new TranscriptionError(`transcription request to ${endpoint} failed: ${why}`, { retryable: true, cause: e });
    }
    if (!res.ok) throw httpError(res.status, body);
    try {
      return JSON.parse(body) as VerboseTranscription;
    } catch {
      throw new TranscriptionError(`transcription answer is not JSON (status ${res.status})`, { retryable: true, status: res.status });
    }
  }

  return {
    name: 'openai',
    supports,
    async transcribe(wavPath, opts) {
      if (!supports(opts.language)) throw new TranscriptionError(`the openai engine does not know the language "${opts.language}"`);
      const wav = await readWavInfo(wavPath);
      const pieces = splitPcm(wav, maxUploadBytes);
      const prompt = dictionaryPrompt(opts.dictionary);
      const words: TimedWord[] = [];
      const file = await fs.open(wavPath, 'r');
      try {
        for (const [i, piece] of pieces.entries()) {
          const upload = new Uint8Array(44 + piece.bytes);
          upload.set(wavHeader(wav, piece.bytes));
          await file.read(upload, 44, piece.bytes, wav.dataOffset + piece.offset);
          const answer = await request(upload, primaryLanguage(opts.language), prompt, opts.signal);
          const offset = piece.offset / (wav.sampleRate * wav.blockAlign);
          words.push(...parseVerboseTranscription(answer, offset, piece.bytes / (wav.sampleRate * wav.blockAlign)));
          opts.onProgress?.(i + 1 === pieces.length ? 1 : (i + 1) / pieces.length);
        }
      } finally {
        await file.close();
      }
      return words;
    },
  };
}

function httpError(status: number, body: string): TranscriptionError {
  let detail = body.slice(0, 300);
  let code: string | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string; code?: string | null } | string };
    detail = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? detail;
    code = typeof parsed.error === 'object' ? (parsed.error.code ?? undefined) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  // OpenAI answers 429 both for a rate limit (wait and retry) and for an exhausted quota (retrying cannot help)
  const retryable = status === 408 || (status === 429 && code !== 'insufficient_quota') || status >= 500;
  const what =
    status === 401 || status === 403
      ? 'the transcription service refused the API key'
      : status === 429
        ? code === 'insufficient_quota'
          ? 'the transcription account is out of quota'
          : 'the transcription service is rate limiting'
        : 'the transcription service answered an error';
  return new TranscriptionError(`${what} (HTTP ${status})${detail ? `: ${detail}` : ''}`, { status, retryable });
}

/** Pieces of the PCM data, whole sample frames, each small enough to upload with its header. */
function splitPcm(wav: WavInfo, maxUploadBytes: number): Array<{ offset: number; bytes: number }> {
  const frame = Math.max(1, wav.blockAlign);
  const per = Math.max(frame, Math.floor((maxUploadBytes - 44) / frame) * frame);
  const pieces = [];
  for (let offset = 0; offset < wav.dataBytes || pieces.length === 0; offset += per) {
    pieces.push({ offset, bytes: Math.min(per, wav.dataBytes - offset) });
  }
  return pieces;
}

/** A canonical 44-byte PCM WAV header for `dataBytes` of audio in the source's format. */
function wavHeader(wav: WavInfo, dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(wav.channels, 22);
  h.writeUInt32LE(wav.sampleRate, 24);
  h.writeUInt32LE(wav.sampleRate * wav.blockAlign, 28);
  h.writeUInt16LE(wav.blockAlign, 32);
  h.writeUInt16LE(wav.bitsPerSample, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/**
 * Words of a verbose_json answer, shifted by `offset` seconds. The API's words carry no
 * punctuation: each word is taken with the text that leads up to it, and the words are joined
 * as Whisper's tokens are (timed-pieces.ts), so captions read "Hello," and "well-known".
 * Without words (a server that ignores the granularity), segments' words share their span.
 * Times stay within the piece of audio sent (`pieceDuration`, else the answer's duration).
 */
export function parseVerboseTranscription(answer: VerboseTranscription, offset = 0, pieceDuration?: number): TimedWord[] {
  const duration = pieceDuration ?? answer.duration ?? Infinity;
  let pieces: TimedPiece[];
  if (Array.isArray(answer.words) && answer.words.length > 0) {
    pieces = textPieces(answer.words, answer.text ?? '');
  } else {
    const segments =
      Array.isArray(answer.segments) && answer.segments.length > 0
        ? answer.segments
        : answer.text?.trim()
          ? [{ start: 0, end: Number.isFinite(duration) ? duration : 0, text: answer.text }]
          : [];
    pieces = segments.flatMap((seg) => segmentWords(seg.text, seg.start, seg.end).map((w) => ({ text: ` ${w.text}`, start: w.startTime, end: w.endTime })));
  }
  return joinPieces(pieces, duration).map((w) => ({ ...w, startTime: w.startTime + offset, endTime: w.endTime + offset }));
}

const PUNCT = /[^\s\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * Each word with the text from the end of the word before it: the space or punctuation that
 * leads up to it, and the punctuation that stands against it at its end.
 */
function textPieces(words: NonNullable<VerboseTranscription['words']>, text: string): TimedPiece[] {
  const lower = text.toLowerCase();
  let pos = 0;
  return words.map((w) => {
    const word = String(w.word ?? '').trim();
    const at = word ? lower.indexOf(word.toLowerCase(), pos) : -1;
    // lost sync (numbers written differently, ...): the word as the API gave it
    if (at < 0 || at - pos > 200) return { text: ` ${word}`, start: w.start, end: w.end };
    let end = at + word.length;
    let stuck = end;
    while (stuck < text.length && PUNCT.test(text[stuck])) stuck++;
    if (stuck === text.length || SPACE.test(text[stuck])) end = stuck;
    const piece = text.slice(pos, end);
    pos = end;
    return { text: piece, start: w.start, end: w.end };
  });
}
