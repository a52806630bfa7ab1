/**
 * `npm run bench -- transcription`: how well each transcription engine hears real
 * speech, as the service runs it.
 *
 * The speech: Debian's pocketsphinx-testdata (real recordings with their text).
 * - librivox, the tuning set: five LibriVox clips of Sense and Sensibility (24.7 s),
 *   reference `librivox/transcription`.
 * - check, kept apart so tuning on librivox cannot flatter it: the five `cards/` clips
 *   (reference `cards.transcription`), `goforward.raw` ("go forward ten meters", the
 *   utterance of `goforward.gram`'s <move> rule) and `tidigits/dhd.2934z.raw` (TIDIGITS
 *   names a file by its digits, z for zero: "two nine three four zero").
 * `numbers.raw` and `something.raw` have no reference text in the package and are left out.
 * - librivox joined: the same five clips end to end (ffmpeg concat, no re-encode) as one
 *   24.7 s source, the way a video reaches the engine: one process, one model load, and
 *   the decoder's state carried from sentence to sentence.
 * - librivox + noise: the tuning set with pink noise mixed in at about 20 dB and 10 dB
 *   signal-to-noise (fixed seed), to judge the decoder's noise settings on noisy speech.
 * - synthetic, apart from both: espeak-ng reading the librivox references; not real speech.
 *
 * Each clip goes through what the service does with an upload (src/projects/ingest.ts):
 * extractAudio (the same ffmpeg step, to 16 kHz mono WAV), the engine's transcribe()
 * with language 'en' and no dictionary, then postProcess; its words are scored against
 * the reference (wer.ts). A .raw clip is first given a WAV header, losslessly: it stands
 * for the uploaded file.
 *
 * Real-time factor: the time of transcribe() (the engine's process from start to exit,
 * model loading included, once per clip as per video) over the audio's duration. Peak
 * memory: the largest VmHWM of the engine's process (/proc/<pid>/status, read every
 * 10 ms while it runs; the last few ms can be missed, so it is a floor). The openai
 * engine runs elsewhere: no memory figure.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Row } from './row.js';
import { loadConfig } from '../src/config.js';
import { extractAudio } from '../src/media/transcription/audio.js';
import { TranscriberUnavailableError } from '../src/media/transcription/errors.js';
import { postProcess } from '../src/media/transcription/post-process.js';
import { createTranscriber } from '../src/media/transcription/transcriber.js';
import type { EngineName, Transcriber } from '../src/media/transcription/types.js';
import { parseCmuTranscription, scoreText, sumCounts, wordErrorRate, type WerCounts } from './wer.js';

const SECTION = 'transcription';
const DATA = process.env.BENCH_SPEECH_DIR || '/usr/share/pocketsphinx/test/data';
const ENGINES: EngineName[] = ['pocketsphinx', 'whisper', 'openai'];
const run = promisify(execFile);

export interface Clip {
  id: string;
  /** a WAV file, or 16 kHz 16-bit mono little-endian PCM (.raw) */
  file: string;
  reference: string;
}

export interface SpeechSet {
  name: string;
  /** what the set is, for the notes */
  role: string;
  clips: Clip[];
}

function cmuSet(dir: string, transcription: string, fileids: string): Clip[] {
  const refs = parseCmuTranscription(fs.readFileSync(path.join(DATA, dir, transcription), 'utf8'));
  return fs
    .readFileSync(path.join(DATA, dir, fileids), 'utf8')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => {
      const reference = refs.get(id);
      if (reference === undefined) throw new Error(`${dir}/${transcription} has no text for ${id}`);
      return { id, file: path.join(DATA, dir, `${id}.wav`), reference };
    });
}

export function realSets(): SpeechSet[] {
  return [
    { name: 'librivox', role: 'tuning set', clips: cmuSet('librivox', 'transcription', 'fileids') },
    {
      name: 'check',
      role: 'check set',
      clips: [
        ...cmuSet('cards', 'cards.transcription', 'cards.fileids'),
        { id: 'goforward', file: path.join(DATA, 'goforward.raw'), reference: 'go forward ten meters' },
        { id: 'dhd.2934z', file: path.join(DATA, 'tidigits/dhd.2934z.raw'), reference: 'two nine three four zero' },
      ],
    },
  ];
}

/** The clips end to end as one WAV, scored against their references joined. */
export async function joinedSet(dir: string, set: SpeechSet): Promise<SpeechSet> {
  const list = path.join(dir, `${set.name}.txt`);
  const file = path.join(dir, `${set.name}-joined.wav`);
  await fsp.writeFile(list, set.clips.map((c) => `file '${c.file.replace(/'/g, "'\\''")}'\n`).join(''));
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', file]);
  const reference = set.clips.map((c) => c.reference).join(' ');
  return { name: `${set.name} joined`, role: `the ${set.role} as one source`, clips: [{ id: `${set.name}-joined`, file, reference }] };
}

/** espeak-ng reading the librivox references: a labelled extra, never in the real figures. */
async function syntheticSet(dir: string, librivox: Clip[]): Promise<SpeechSet | undefined> {
  const clips: Clip[] = [];
  try {
    for (const c of librivox) {
      const file = path.join(dir, `espeak-${c.id}.wav`);
      await run('espeak-ng', ['-v', 'en-us', '-w', file, c.reference]);
      clips.push({ ...c, file });
    }
  } catch {
    return undefined;
  }
  return { name: 'synthetic', role: 'espeak-ng, not real speech', clips };
}

/**
 * The clips with pink noise mixed in: speech at about -24 dB mean, the noise at -44.7 dB
 * (amplitude 0.03) or -34.7 dB (0.095), so about 20 dB and 10 dB signal-to-noise.
 */
async function noisySets(dir: string, librivox: Clip[]): Promise<SpeechSet[]> {
  const levels = [
    { snr: 20, amplitude: 0.03 },
    { snr: 10, amplitude: 0.095 },
  ];
  const sets: SpeechSet[] = [];
  for (const { snr, amplitude } of levels) {
    const clips: Clip[] = [];
    for (const c of librivox) {
      const file = path.join(dir, `noise${snr}-${c.id}.wav`);
      const noise = `anoisesrc=color=pink:amplitude=${amplitude}:sample_rate=16000:seed=7`;
      const mix = '[0:a]aformat=sample_rates=16000:channel_layouts=mono[s];[s][1:a]amix=inputs=2:duration=first:normalize=0';
      await run('ffmpeg', [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        c.file,
        '-f',
        'lavfi',
        '-i',
        noise,
        '-filter_complex',
        mix,
        '-ac',
        '1',
        '-c:a',
        'pcm_s16le',
        file,
      ]);
      clips.push({ ...c, file });
    }
    sets.push({ name: `librivox + noise ${snr} dB`, role: `the tuning set with pink noise, about ${snr} dB SNR`, clips });
  }
  return sets;
}

/** The peak resident memory of this process's children while `fn` runs (kB), sampled from /proc. */
async function withChildPeak<T>(fn: () => Promise<T>): Promise<[T, number | null]> {
  const children = `/proc/${process.pid}/task/${process.pid}/children`;
  if (!fs.existsSync(children)) return [await fn(), null];
  let peak = 0;
  const sample = () => {
    try {
      for (const pid of fs.readFileSync(children, 'utf8').split(/\s+/).filter(Boolean)) {
        const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]));
      }
    } catch {
      /* the child exited between the two reads */
    }
  };
  const timer = setInterval(sample, 10);
  try {
    return [await fn(), peak || null];
  } finally {
    clearInterval(timer);
  }
}

export interface ClipResult {
  counts: WerCounts;
  duration: number;
  engineMs: number;
  peakKb: number | null;
  hypothesis: string;
}

/** One clip through the service's steps: extraction, the engine, post-processing (no dictionary unless given). */
export async function transcribeClip(engine: Transcriber, clip: Clip, dir: string, dictionary: string[] = []): Promise<ClipResult> {
  let source = clip.file;
  if (clip.file.endsWith('.raw')) {
    source = path.join(dir, `${path.basename(clip.file, '.raw')}-source.wav`);
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', clip.file, '-c:a', 'copy', source]);
  }
  const wav = path.join(dir, 'extracted.wav');
  const sound = await extractAudio(source, wav);
  const t0 = performance.now();
  const [words, peakKb] = await withChildPeak(() => engine.transcribe(wav, { language: 'en', dictionary }));
  const engineMs = performance.now() - t0;
  const transcript = postProcess(words, { dictionary, duration: sound.duration });
  const hypothesis = transcript
    .filter((w) => w.type === 'word')
    .map((w) => w.text)
    .join(' ');
  return { counts: scoreText(clip.reference, hypothesis), duration: sound.duration, engineMs, peakKb, hypothesis };
}

function setRows(engine: EngineName, set: SpeechSet, results: ClipResult[]): Row[] {
  const c = sumCounts(results.map((r) => r.counts));
  const seconds = results.reduce((s, r) => s + r.duration, 0);
  const engineSeconds = results.reduce((s, r) => s + r.engineMs, 0) / 1000;
  const peaks = results.map((r) => r.peakKb).filter((p): p is number => p !== null);
  const label = `${engine}, ${set.name}`;
  const what = `${set.clips.length} clip${set.clips.length === 1 ? '' : 's'}, ${seconds.toFixed(1)} s, ${set.role}`;
  const rows: Row[] = [
    {
      section: SECTION,
      metric: `${label}: word error rate`,
      value: wordErrorRate(c) * 100,
      unit: '%',
      note: `${what}; N=${c.n} S=${c.substitutions} D=${c.deletions} I=${c.insertions}`,
    },
    {
      section: SECTION,
      metric: `${label}: real-time factor`,
      value: engineSeconds / seconds,
      unit: 'x',
      note: `${engineSeconds.toFixed(2)} s of engine for ${seconds.toFixed(1)} s of audio, one process per clip (model load included)`,
    },
  ];
  if (peaks.length) {
    rows.push({
      section: SECTION,
      metric: `${label}: peak memory of the engine process`,
      value: Math.max(...peaks) / 1024,
      unit: 'MiB',
      note: 'VmHWM, /proc/<pid>/status every 10 ms',
    });
  }
  return rows;
}

function engineFor(name: EngineName): Transcriber | string {
  const config = { ...loadConfig(), transcriber: name };
  try {
    return createTranscriber(config);
  } catch (e) {
    if (e instanceof TranscriberUnavailableError) return e.message;
    throw e;
  }
}

export async function transcription(): Promise<Row[]> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-transcription-'));
  try {
    const real = realSets();
    real.splice(1, 0, await joinedSet(dir, real[0]), ...(await noisySets(dir, real[0].clips)));
    const synthetic = await syntheticSet(dir, real[0].clips);
    const rows: Row[] = [
      {
        section: SECTION,
        metric: 'word start within 100 ms of the reference',
        value: NaN,
        unit: '%',
        note: 'not measured: no set here has a reference alignment with word times (the .match/.hyp files are untimed hypotheses)',
      },
    ];
    if (!synthetic) rows.push({ section: SECTION, metric: 'synthetic set', value: NaN, unit: '', note: 'skipped: espeak-ng did not run' });
    for (const name of ENGINES) {
      const engine = engineFor(name);
      if (typeof engine === 'string') {
        rows.push({ section: SECTION, metric: `${name}: skipped`, value: NaN, unit: '', note: `unavailable here: ${engine}` });
        continue;
      }
      for (const set of [...real, ...(synthetic ? [synthetic] : [])]) {
        const results: ClipResult[] = [];
        for (const clip of set.clips) {
          const r = await transcribeClip(engine, clip, dir);
          const c = r.counts;
          process.stderr.write(
            `#   ${name} ${set.name} ${clip.id}: S=${c.substitutions} D=${c.deletions} I=${c.insertions} of ${c.n}\n#     ref: ${clip.reference}\n#     hyp: ${r.hypothesis}\n`,
          );
          results.push(r);
        }
        rows.push(...setRows(name, set, results));
      }
    }
    return rows;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
