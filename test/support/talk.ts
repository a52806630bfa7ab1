/** A synthetic talk: spoken sentences (espeak-ng) with known pauses between them, over a picture, as an mp4. */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fixtureKey, ownCopy, sharedFixture } from './fixture-cache.js';
import { FF, H264 } from './media.js';

const run = promisify(execFile);

/** Sentences of a talk about habits: questions, numbers, direct address, claims and plain narration. */
export const TALK_SENTENCES = [
  'Have you ever wondered why most people give up on their goals by February?',
  'I spent ten years studying habits and the answer surprised me.',
  'It is not about willpower at all.',
  'The secret is that small changes beat big plans every single time.',
  'And then we went to the office and had some coffee.',
  'So that was the morning and it was fine.',
  'Here is the one thing you can do today that will change everything.',
  'Write down one tiny action and do it right after breakfast.',
  'Because it is attached to something you already do it sticks.',
  'Three out of four people who tried this kept going for a full year.',
  'That is an amazing result and it made me so happy.',
  'But the hardest part is the first week.',
  'You will feel silly and that is completely normal.',
  'After that it becomes automatic and you stop thinking about it.',
  'Then the room was painted and the chairs were moved around.',
  'The meeting ended at noon as planned.',
];

/** Where a sentence's voice is in a stereo mix: the left or right channel (the other at a seventh), or both alike. */
export type VoiceSide = 'left' | 'right' | 'both';
const PAN: Record<VoiceSide, [number, number]> = { left: [1, 0.15], right: [0.15, 1], both: [1, 1] };

export interface SpokenSentence {
  text: string;
  /** seconds in the talk */
  start: number;
  end: number;
}

export interface Talk {
  path: string;
  sentences: SpokenSentence[];
  duration: number;
}

async function seconds(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

/**
 * Speaks `sentences` one after another with `gap` seconds of silence between
 * them (and `gap` before the first and after the last), over `picture`: an
 * ffmpeg lavfi source (default a test pattern) or input arguments of a video
 * as long as the talk (`{ args }`, e.g. a looped face clip). Returns the file
 * and where each sentence's sound starts and ends.
 */
export async function syntheticTalk(
  opts: { sentences?: string[]; gap?: number; size?: string; fps?: number; picture?: { args: string[] }; name?: string; sides?: VoiceSide[] } = {},
): Promise<Talk> {
  const sentences = opts.sentences ?? TALK_SENTENCES;
  const gap = opts.gap ?? 0.8;
  const size = opts.size ?? '640x360';
  const fps = opts.fps ?? 25;
  const name = opts.name ?? 'talk.mp4';
  const params = { sentences, gap, size, fps, picture: opts.picture?.args ?? null, name, ...(opts.sides ? { sides: opts.sides } : {}) };
  // the talk is made once per run for these parameters; this process gets a copy of its own
  const shared = await sharedFixture(fixtureKey('talk', params), (dir) => speak(dir, params));
  const dir = await ownCopy(shared, 'talk');
  return { ...(JSON.parse(await fs.readFile(path.join(dir, 'talk.json'), 'utf8')) as Omit<Talk, 'path'>), path: path.join(dir, name) };
}

async function speak(
  dir: string,
  opts: { sentences: string[]; gap: number; size: string; fps: number; picture: string[] | null; name: string; sides?: VoiceSide[] },
): Promise<void> {
  const { sentences, gap, size, fps } = opts;
  const wavs = sentences.map((_, i) => path.join(dir, `s${i}.wav`));
  await Promise.all(sentences.map((s, i) => run('espeak-ng', ['-v', 'en-us', '-s', '165', '-w', wavs[i], s])));
  const lengths = await Promise.all(wavs.map(seconds));
  const spoken: SpokenSentence[] = [];
  let t = gap;
  lengths.forEach((len, i) => {
    spoken.push({ text: sentences[i], start: t, end: t + len });
    t += len + gap;
  });
  const duration = t;
  // silence, sentence, silence, sentence, ..., silence
  const inputs: string[] = [];
  const labels: string[] = [];
  // each sentence from its side of a stereo mix when sides are given
  const { sides } = opts;
  const layout = sides ? 'stereo' : 'mono';
  const panned: string[] = [];
  const silence = () => {
    inputs.push('-f', 'lavfi', '-t', String(gap), '-i', `anullsrc=r=22050:cl=${layout}`);
    labels.push(`[${labels.length}:a]`);
  };
  silence();
  wavs.forEach((w, i) => {
    // one label per input: the next label's number is this input's
    const index = labels.length;
    inputs.push('-i', w);
    if (sides) {
      const [l, r] = PAN[sides[i % sides.length]];
      panned.push(`[${index}:a]aresample=22050,pan=stereo|c0=${l}*c0|c1=${r}*c0[p${index}]`);
      labels.push(`[p${index}]`);
    } else labels.push(`[${index}:a]`);
    silence();
  });
  const speech = path.join(dir, 'speech.wav');
  const graph = [...panned, `${labels.join('')}concat=n=${labels.length}:v=0:a=1,aresample=44100[a]`].join(';');
  await run('ffmpeg', [...FF, ...inputs, '-filter_complex', graph, '-map', '[a]', speech]);
  const picture = opts.picture ?? ['-f', 'lavfi', '-i', `testsrc2=s=${size}:r=${fps}`];
  const out = path.join(dir, opts.name);
  await run('ffmpeg', [
    ...FF,
    ...picture,
    '-i',
    speech,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-t',
    duration.toFixed(3),
    ...H264,
    '-r',
    String(fps),
    '-c:a',
    'aac',
    '-ar',
    '44100',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    out,
  ]);
  await Promise.all([...wavs, speech].map((w) => fs.rm(w)));
  await fs.writeFile(path.join(dir, 'talk.json'), JSON.stringify({ sentences: spoken, duration }));
}
