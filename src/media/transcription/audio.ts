import fs from 'node:fs/promises';
import { EBUR128_FILTER, parseEbur128 } from '../audio-levels.js';
import { probe } from '../ffprobe.js';
import { runTool } from './process.js';

export const SAMPLE_RATE = 16_000;

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** bytes of one sample frame (all channels) */
  blockAlign: number;
  /** where the PCM data starts, and how many bytes of it there are */
  dataOffset: number;
  dataBytes: number;
  /** seconds */
  duration: number;
}

/**
 * Reads a RIFF/WAVE header (PCM). ffmpeg puts a LIST chunk before the data, and writes an
 * unknown data size when its output is not seekable, so chunks are walked and the size is
 * capped by the file's.
 */
export async function readWavInfo(wavPath: string): Promise<WavInfo> {
  const fh = await fs.open(wavPath, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(size, 64 * 1024));
    await fh.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') {
      throw new Error(`${wavPath} is not a WAV file`);
    }
    let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes' | 'duration'> | undefined;
    for (let at = 12; at + 8 <= head.length; ) {
      const id = head.toString('ascii', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      const body = at + 8;
      if (id === 'fmt ' && body + 16 <= head.length) {
        fmt = {
          channels: head.readUInt16LE(body + 2),
          sampleRate: head.readUInt32LE(body + 4),
          blockAlign: head.readUInt16LE(body + 12),
          bitsPerSample: head.readUInt16LE(body + 14),
        };
      } else if (id === 'data') {
        if (!fmt) break;
        const dataBytes = Math.min(length, size - body);
        const bytesPerSecond = fmt.sampleRate * fmt.blockAlign;
        return { ...fmt, dataOffset: body, dataBytes, duration: bytesPerSecond > 0 ? dataBytes / bytesPerSecond : 0 };
      }
      at = body + length + (length % 2);
    }
    throw new Error(`${wavPath} has no PCM data chunk`);
  } finally {
    await fh.close();
  }
}

const FF = ['-hide_banner', '-nostats', '-nostdin', '-y'];

export interface ExtractedAudio {
  duration: number;
  hasAudio: boolean;
  /** integrated loudness (LUFS) of the source's sound, measured on the way; null when silent or absent */
  loudness: number | null;
  /** sample peak (dBFS); null when silent or absent */
  peak: number | null;
}

/**
 * Writes the sound of a video as 16 kHz mono 16-bit PCM, the input every engine takes,
 * exactly as long as the video (padded with silence when the sound track is shorter), so
 * word times line up with the picture. A video without sound gives a silent file. The
 * same run measures the sound's loudness at its own rate and channels (audio-levels.ts).
 */
export async function extractAudio(
  videoPath: string,
  wavPath: string,
  opts: { signal?: AbortSignal; /** what a probe of the file already said (else it is probed here) */ source?: { duration: number; hasAudio: boolean } } = {},
): Promise<ExtractedAudio> {
  const { duration, hasAudio } = opts.source ?? (await probeSound(videoPath));
  if (!(duration > 0)) throw new Error('The media has no duration to take sound from');
  const d = duration.toFixed(3);
  const pcm = ['-c:a', 'pcm_s16le', '-f', 'wav', wavPath];
  if (!hasAudio) {
    await runTool('ffmpeg', [...FF, '-loglevel', 'error', '-f', 'lavfi', '-i', `anullsrc=r=${SAMPLE_RATE}:cl=mono`, '-t', d, ...pcm], { signal: opts.signal });
    return { duration, hasAudio, loudness: null, peak: null };
  }
  // loglevel info for ebur128's summary; only the summary is kept
  let summary = '';
  const filters = `${EBUR128_FILTER},apad=whole_dur=${d}`;
  await runTool('ffmpeg', [...FF, '-loglevel', 'info', '-i', videoPath, '-map', '0:a:0', '-vn', '-sn', '-dn', '-af', filters, '-ac', '1', '-ar', String(SAMPLE_RATE), '-t', d, ...pcm], {
    signal: opts.signal,
    onStderrLine: (line) => {
      if (line.includes('Summary:') || summary) summary += `${line}\n`;
    },
  });
  return { duration, hasAudio, ...parseEbur128(summary) };
}

async function probeSound(videoPath: string) {
  const info = await probe(videoPath);
  return { duration: info.duration ?? 0, hasAudio: info.audio !== null };
}
