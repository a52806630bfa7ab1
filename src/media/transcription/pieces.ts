/**
 * Long recordings in pieces, for an engine that transcribes one job at a time in one process
 * (whisper.ts): each piece is a turn of its own on the model (turns.ts), so work asked while a
 * long transcription runs waits for one piece, not for the whole recording.
 */
import fs from 'node:fs/promises';
import type { WavInfo } from '../wav.js';

/** A run of sample frames, [from, to). */
export interface Piece {
  from: number;
  to: number;
}

/** A piece's length when none is given: two of Whisper's 30 s windows. */
export const PIECE_SECONDS = 60;
/** A piece ends in the quietest stretch of its last this many seconds. */
const SEARCH_SECONDS = 10;
/** The quiet stretch a cut looks for, and the frames its loudness is summed over. */
const QUIET_SECONDS = 0.1;
const FRAME_SECONDS = 0.02;

/**
 * The middle of the quietest QUIET_SECONDS of `samples` (16-bit PCM, one channel), as an
 * index into them: where a cut loses no word. The first of equally quiet stretches wins.
 */
export function quietestPoint(samples: Int16Array, sampleRate: number): number {
  const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
  const span = Math.max(1, Math.round(QUIET_SECONDS / FRAME_SECONDS));
  const frames = Math.floor(samples.length / frame);
  if (frames <= span) return Math.floor(samples.length / 2);
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * frame, end = i + frame; i < end; i++) sum += samples[i] * samples[i];
    energy[f] = sum;
  }
  let window = 0;
  for (let f = 0; f < span; f++) window += energy[f];
  let best = window;
  let bestFirst = 0;
  for (let f = span; f < frames; f++) {
    window += energy[f] - energy[f - span];
    if (window < best) {
      best = window;
      bestFirst = f - span + 1;
    }
  }
  return Math.round((bestFirst + span / 2) * frame);
}

/**
 * The pieces of a 16-bit mono WAV: about `pieceSeconds` each, each cut in the quietest
 * stretch of its last SEARCH_SECONDS; a recording up to one and a half pieces long is one
 * piece. Reads only the stretches it searches.
 */
export async function planPieces(wavPath: string, info: WavInfo, pieceSeconds = PIECE_SECONDS): Promise<Piece[]> {
  // another layout is refused by the engine itself, with its reason
  if (info.channels !== 1 || info.bitsPerSample !== 16 || info.blockAlign !== 2) return [{ from: 0, to: Math.floor(info.dataBytes / 2) }];
  const total = Math.floor(info.dataBytes / 2);
  const piece = Math.round(pieceSeconds * info.sampleRate);
  if (!(piece > 0) || total <= piece * 1.5) return [{ from: 0, to: total }];
  const search = Math.min(Math.round(SEARCH_SECONDS * info.sampleRate), Math.floor(piece / 2));
  const pieces: Piece[] = [];
  const fh = await fs.open(wavPath, 'r');
  try {
    let from = 0;
    while (total - from > piece * 1.5) {
      const first = from + piece - search;
      const bytes = Buffer.alloc(search * 2);
      const { bytesRead } = await fh.read(bytes, 0, bytes.length, info.dataOffset + first * 2);
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytesRead / 2));
      const to = first + quietestPoint(samples, info.sampleRate);
      pieces.push({ from, to });
      from = to;
    }
  } finally {
    await fh.close();
  }
  pieces.push({ from: pieces.at(-1)?.to ?? 0, to: total });
  return pieces;
}
