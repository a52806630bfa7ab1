import { EBUR128_FILTER, parseEbur128 } from '../audio-levels.js';
import { probe } from '../ffprobe.js';
import { inputOptions, withoutUrlQueries } from '../input.js';
import { runProgram } from '../program.js';

/** the rate every engine takes */
const SAMPLE_RATE = 16_000;

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
 * Writes the sound of a video (a local file, or a remote store's URL: Storage.mediaSource)
 * as 16 kHz mono 16-bit PCM, the input every engine takes, exactly as long as the video
 * (padded with silence when the sound track is shorter), so word times line up with the
 * picture. A video without sound gives a silent file. The
 * same run measures the sound's loudness at its own rate and channels (audio-levels.ts).
 */
export async function extractAudio(
  videoPath: string,
  wavPath: string,
  opts: {
    signal?: AbortSignal;
    /** what a probe of the file already said (else it is probed here) */
    source?: { duration: number; hasAudio: boolean };
    /** only this part of the media (seconds): the WAV starts at `start` and lasts at most `duration` */
    window?: { start: number; duration: number };
  } = {},
): Promise<ExtractedAudio> {
  const whole = opts.source ?? (await probeSound(videoPath));
  const { hasAudio } = whole;
  const start = opts.window ? Math.min(Math.max(0, opts.window.start), whole.duration) : 0;
  const duration = opts.window ? Math.min(opts.window.duration, whole.duration - start) : whole.duration;
  if (!(duration > 0)) throw new Error('The media has no duration to take sound from');
  // an input seek: only the window is read and decoded
  const seek = start > 0 ? ['-ss', start.toFixed(3)] : [];
  const d = duration.toFixed(3);
  // a plain 44-byte header: no metadata, no encoder tag, so no LIST chunk before the data.
  // pocketsphinx_continuous skips exactly 44 bytes and would decode any chunk as samples
  const pcm = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact', '-c:a', 'pcm_s16le', '-f', 'wav', wavPath];
  if (!hasAudio) {
    await runProgram('ffmpeg', [...FF, '-loglevel', 'error', '-f', 'lavfi', '-i', `anullsrc=r=${SAMPLE_RATE}:cl=mono`, '-t', d, ...pcm], {
      signal: opts.signal,
    });
    return { duration, hasAudio, loudness: null, peak: null };
  }
  // loglevel info for ebur128's summary; only the summary is kept
  let summary = '';
  const filters = `${EBUR128_FILTER},apad=whole_dur=${d}`;
  await runProgram(
    'ffmpeg',
    [
      ...FF,
      '-loglevel',
      'info',
      ...seek,
      ...inputOptions(videoPath),
      '-i',
      videoPath,
      '-map',
      '0:a:0',
      '-vn',
      '-sn',
      '-dn',
      '-af',
      filters,
      '-ac',
      '1',
      '-ar',
      String(SAMPLE_RATE),
      '-t',
      d,
      ...pcm,
    ],
    {
      signal: opts.signal,
      redact: withoutUrlQueries,
      onStderrLine: (line) => {
        if (line.includes('Summary:') || summary) summary += `${line}\n`;
      },
    },
  );
  return { duration, hasAudio, ...parseEbur128(summary) };
}

async function probeSound(videoPath: string) {
  const info = await probe(videoPath);
  return { duration: info.duration ?? 0, hasAudio: info.audio !== null };
}
