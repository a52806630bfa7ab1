import { ProgramError, runProgram } from './program.js';
import { inputOptions } from './input.js';

export interface VideoStreamInfo {
  /** the stream's index in the file */
  index: number;
  codec: string;
  /** display size: width and height swapped for 90/270-degree rotations */
  width: number;
  height: number;
  fps: number | null;
  rotation: number;
}

export interface AudioStreamInfo {
  /** the stream's index in the file */
  index: number;
  codec: string;
  sampleRate: number | null;
  channels: number | null;
}

export interface ProbeResult {
  formatName: string;
  /** seconds; null for still images */
  duration: number | null;
  size: number;
  video: VideoStreamInfo | null;
  audio: AudioStreamInfo | null;
  kind: 'VIDEO' | 'AUDIO' | 'IMAGE';
}

export class NotMediaError extends Error {
  constructor(message = 'The file is not a readable video, audio or image file') {
    super(message);
    this.name = 'NotMediaError';
  }
}

const IMAGE_FORMATS = /(^|,)(image2|png_pipe|jpeg_pipe|webp_pipe|gif|bmp_pipe|tiff_pipe|svg_pipe|gif_pipe)(,|$)/;
const IMAGE_CODECS = new Set(['png', 'mjpeg', 'webp', 'gif', 'bmp', 'tiff', 'svg']);

interface RawStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: Array<{ rotation?: number }>;
}

const rate = (s?: string) => {
  if (!s) return null;
  const [n, d] = s.split('/').map(Number);
  const v = d ? n / d : n;
  return Number.isFinite(v) && v > 0 ? v : null;
};

/** What ffprobe says of a file: container, duration, streams and what kind of media it is. */
export async function probe(file: string, { timeoutMs = 30_000 } = {}): Promise<ProbeResult> {
  let stdout: string;
  try {
    ({ stdout } = await runProgram('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', ...inputOptions(file), file], {
      timeoutMs,
      maxStdout: 16 * 1024 * 1024,
    }));
  } catch (e) {
    const failure = e instanceof ProgramError ? e.failure : undefined;
    if (failure === 'missing') throw new Error('ffprobe is not installed (Debian package ffmpeg)');
    if (failure === 'timeout') throw new Error(`ffprobe timed out after ${timeoutMs} ms`);
    throw new NotMediaError();
  }
  const json = JSON.parse(stdout) as { format?: { format_name?: string; duration?: string; size?: string }; streams?: RawStream[] };
  const streams = json.streams ?? [];
  const formatName = json.format?.format_name ?? '';
  const pictures = streams.filter((s) => s.codec_type === 'video');
  const moving = pictures.filter((s) => !s.disposition?.attached_pic && !IMAGE_CODECS.has(s.codec_name ?? ''));
  const audio = streams.find((s) => s.codec_type === 'audio') ?? null;
  const duration = Number(json.format?.duration);
  const isImage = IMAGE_FORMATS.test(formatName) || (moving.length === 0 && !audio && pictures.length > 0);
  const v = isImage ? pictures[0] : moving[0];
  if (!v && !audio) throw new NotMediaError();
  const rotation = v ? normaliseRotation(v) : 0;
  const swap = rotation === 90 || rotation === 270;
  return {
    formatName,
    duration: isImage || !Number.isFinite(duration) ? null : duration,
    size: Number(json.format?.size ?? 0),
    video: v
      ? {
          index: v.index ?? 0,
          codec: v.codec_name ?? 'unknown',
          width: (swap ? v.height : v.width) ?? 0,
          height: (swap ? v.width : v.height) ?? 0,
          fps: isImage ? null : (rate(v.avg_frame_rate) ?? rate(v.r_frame_rate)),
          rotation,
        }
      : null,
    audio: audio
      ? { index: audio.index ?? 0, codec: audio.codec_name ?? 'unknown', sampleRate: Number(audio.sample_rate) || null, channels: audio.channels ?? null }
      : null,
    kind: isImage ? 'IMAGE' : v ? 'VIDEO' : 'AUDIO',
  };
}

/** What the first packets of one stream decoded to: how many frames, and the first picture's size. */
export interface FirstFrames {
  frames: number;
  /** null for sound */
  width: number | null;
  height: number | null;
}

/** Packets read: one picture needs one (the decoder is flushed), a few leave room for a damaged first one. */
const FIRST_PACKETS = 5;

/**
 * Decodes the first packets of stream `index` (ffprobe -show_frames over
 * -read_intervals, one cheap call). Reading the header is not enough: four
 * junk bytes named .png probe as a 0x0 image, and a video cut after its
 * header probes whole, yet neither decodes to a frame.
 */
export async function decodeFirstFrames(file: string, index: number, { timeoutMs = 30_000 } = {}): Promise<FirstFrames> {
  let stdout: string;
  try {
    ({ stdout } = await runProgram(
      'ffprobe',
      ['-v', 'error', '-select_streams', String(index), '-read_intervals', `%+#${FIRST_PACKETS}`, '-show_entries', 'frame=width,height', '-of', 'json', file],
      { timeoutMs, maxStdout: 1024 * 1024 },
    ));
  } catch (e) {
    if (!(e instanceof ProgramError)) throw e;
    if (e.failure === 'missing') throw new Error('ffprobe is not installed (Debian package ffmpeg)');
    if (e.failure === 'timeout') throw new Error(`decoding the first frames timed out after ${timeoutMs} ms`);
    // ffprobe gave up on the data: what it printed before counts, if anything
    stdout = e.stdout;
  }
  let frames: Array<{ width?: number; height?: number }> = [];
  try {
    frames = (JSON.parse(stdout) as { frames?: typeof frames }).frames ?? [];
  } catch {
    // no or cut output: no frame
  }
  const first = frames[0];
  return { frames: frames.length, width: first?.width ?? null, height: first?.height ?? null };
}

/** ffprobe reports the coded size; phones record portrait video as landscape plus a rotation. */
function normaliseRotation(s: RawStream): number {
  const raw = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? Number(s.tags?.rotate ?? 0);
  return (((Math.round(raw / 90) * 90) % 360) + 360) % 360;
}
