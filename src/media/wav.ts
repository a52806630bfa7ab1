/** Reads the header of a PCM WAV file (the extracted sound of a video), for the engines and the level meter. */
import fs from 'node:fs/promises';

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
