/**
 * The steps of `npm run demo` (src/cli/demo.ts), each as a user of the service takes it: a user
 * made by the operator CLI, sample media made on this machine (recorded speech or espeak-ng, and ffmpeg, no
 * download), the video uploaded through /v1, the automatic export waited for, and the links a
 * user gets. The test runs these against a test app.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProgramError, runProgram } from '../media/program.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FF = ['-hide_banner', '-loglevel', 'error', '-y'];

/** What the sample video says without the recorded speech (espeak-ng reads it): four sentences, about 19 s. */
export const SAMPLE_SENTENCES = [
  'Welcome to clipcast, a service that turns talking videos into short captioned clips.',
  'This sample was made on your own machine, without the internet.',
  'Every word you hear is written on the screen as it is said.',
  'Try the links below, then make your own video with the examples of the README.',
];

export interface SampleMedia {
  /** a 540x960 talking video: the sentences over a simple picture, H.264 + AAC */
  talk: string;
  /** 10 s of a soft chord, MP3: background music for the examples */
  music: string;
  /** a 256x256 PNG: a library image for the examples */
  logo: string;
}

/**
 * Recorded human speech for the sample video: the LibriVox clips Debian's
 * pocketsphinx-testdata ships (BSD-licensed; 25 s of a reader of "Sense and
 * Sensibility"), one after another with a short pause between them, so the
 * captions show what a person said and the engine mostly hears it right.
 */
export const RECORDED_SPEECH = {
  dir: '/usr/share/pocketsphinx/test/data/librivox',
  clips: ['0870', '0880', '0890', '0920', '0930'].map((n) => `sense_and_sensibility_01_austen_64kb-${n}.wav`),
  /** what is said, clip by clip (the package's own transcription) */
  words: [
    'and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them',
    'he was not an ill disposed young man',
    'unless to be rather cold hearted and rather selfish is to be ill disposed',
    'had he married a more a amiable woman he might have been made still more respectable than he was',
    'he might even have been made amiable himself',
  ],
};

/** The recorded clips when the package is installed, else null. */
export const recordedSpeechFiles = (dir = RECORDED_SPEECH.dir): string[] | null => {
  const files = RECORDED_SPEECH.clips.map((c) => path.join(dir, c));
  return files.every((file) => fs.existsSync(file)) ? files : null;
};

/** Writes the sample's speech to `wav`: the recorded clips with 0.6 s between them, else espeak-ng reading SAMPLE_SENTENCES. */
export async function sampleSpeech(wav: string, recorded = recordedSpeechFiles()): Promise<'recorded' | 'synthetic'> {
  if (!recorded) {
    await runProgram('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', wav, SAMPLE_SENTENCES.join(' ')]);
    return 'synthetic';
  }
  const n = recorded.length;
  const pads = recorded.map((_, i) => `[${i}:a]aresample=16000,aformat=channel_layouts=mono,apad=pad_dur=0.6[a${i}]`).join(';');
  const join = `${recorded.map((_, i) => `[a${i}]`).join('')}concat=n=${n}:v=0:a=1[out]`;
  await runProgram('ffmpeg', [...FF, ...recorded.flatMap((file) => ['-i', file]), '-filter_complex', `${pads};${join}`, '-map', '[out]', wav]);
  return 'recorded';
}

/** Makes the sample files in `dir`, or keeps those already there. */
export async function sampleMedia(dir: string): Promise<SampleMedia> {
  fs.mkdirSync(dir, { recursive: true });
  const f = (name: string) => path.join(dir, name);
  const media: SampleMedia = { talk: f('talk.mp4'), music: f('music.mp3'), logo: f('logo.png') };
  // written under a temporary name and renamed, so an interrupted run leaves no half file behind
  const make = async (file: string, args: (out: string) => string[]) => {
    if (fs.existsSync(file)) return;
    const tmp = `${file}.part${path.extname(file)}`;
    await runProgram('ffmpeg', [...FF, ...args(tmp)]);
    fs.renameSync(tmp, file);
  };
  const speech = f('speech.wav');
  if (!fs.existsSync(media.talk)) await sampleSpeech(speech);
  // a calm gradient with two shapes: something to look at that encodes small
  const picture =
    'gradients=s=540x960:c0=0x1d3557:c1=0x457b9d:speed=0.004:r=25,drawbox=x=170:y=230:w=200:h=200:color=0xf1faee@0.9:t=fill,drawbox=x=120:y=470:w=300:h=24:color=0xe63946:t=fill';
  await make(media.talk, (out) => [
    '-f',
    'lavfi',
    '-i',
    picture,
    '-i',
    speech,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-shortest',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '28',
    '-pix_fmt',
    'yuv420p',
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
  fs.rmSync(speech, { force: true });
  await make(media.music, (out) => [
    '-f',
    'lavfi',
    '-i',
    'sine=f=220:d=10',
    '-f',
    'lavfi',
    '-i',
    'sine=f=277:d=10',
    '-f',
    'lavfi',
    '-i',
    'sine=f=330:d=10',
    '-filter_complex',
    '[0:a][1:a][2:a]amix=inputs=3,volume=0.6,afade=t=in:d=1,afade=t=out:st=9:d=1[a]',
    '-map',
    '[a]',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '96k',
    out,
  ]);
  await make(media.logo, (out) => [
    '-f',
    'lavfi',
    '-i',
    'color=c=0xe63946:s=256x256,drawbox=x=64:y=64:w=128:h=128:color=0xf1faee:t=fill',
    '-frames:v',
    '1',
    out,
  ]);
  return media;
}

// ---------------------------------------------------------------------------
// the service

export type Health = 'ok' | 'starting' | 'unreachable';

/** GET /healthz: 'ok', 'starting' (it answers, migrations not applied yet) or 'unreachable'. */
export async function health(baseUrl: string): Promise<Health> {
  try {
    const res = await fetch(new URL('/healthz', baseUrl), { signal: AbortSignal.timeout(5000) });
    await res.body?.cancel();
    return res.ok ? 'ok' : 'starting';
  } catch {
    return 'unreachable';
  }
}

/** Waits until /healthz answers ok; false after `timeoutMs`, or as soon as `gone()` says the process died. */
export async function waitHealthy(baseUrl: string, timeoutMs: number, gone: () => boolean = () => false): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < timeoutMs; ) {
    if ((await health(baseUrl)) === 'ok') return true;
    if (gone()) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

// ---------------------------------------------------------------------------
// the user, through the operator CLI

/** One operator CLI command (`npm run admin -- ...`) in a child process: the operator's own path. */
async function admin(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Record<string, string>> {
  let stdout: string;
  try {
    ({ stdout } = await runProgram(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, env }));
  } catch (e) {
    if (!(e instanceof ProgramError) || e.failure !== 'exit') throw e;
    throw new Error(`npm run admin -- ${args.slice(0, 2).join(' ')}: ${e.stderr.trim().split('\n').pop() || `exit ${e.code}`}`);
  }
  return JSON.parse(stdout.trim()) as Record<string, string>;
}

export interface DemoUser {
  userId: string;
  apiKey: string;
  email: string;
  /** the user's primary profile, with sandbox accounts on the platforms the README's examples publish to */
  profileId: string;
}

/** Platforms whose sandbox accounts the demo connects (the README's publishing examples use these). */
export const DEMO_PLATFORMS = ['microblog', 'videoshare', 'prosocial'] as const;

/**
 * A user who can try every part of the API, made with the operator CLI as an operator would:
 * API and AI credits, a clips subscription, publishing, and a primary profile with sandbox
 * accounts. `env` names the database as the service's does (DATABASE_URL or DATA_DIR).
 */
export async function createDemoUser(env: NodeJS.ProcessEnv): Promise<DemoUser> {
  const email = `demo-${new Date().toISOString().slice(0, 10)}-${crypto.randomBytes(3).toString('hex')}@clipcast.local`;
  const { userId, apiKey } = await admin(
    env,
    'user',
    'create',
    '--email',
    email,
    '--api-credits',
    '100',
    '--ai-credits',
    '20',
    '--clip-credits',
    '5',
    '--clips-subscription',
    '--api-publishing',
  );
  const { profileId } = await admin(env, 'profile', 'create', '--user', userId, '--name', 'Demo', '--primary');
  for (const platform of DEMO_PLATFORMS) await admin(env, 'account', 'connect', '--profile', profileId, '--platform', platform, '--followers', '100');
  return { userId, apiKey, email, profileId };
}

// ---------------------------------------------------------------------------
// the API, as a user calls it

interface Answer {
  status: number;
  body: any;
}

async function call(baseUrl: string, key: string, method: string, url: string, body?: FormData | object): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': key };
  let payload: FormData | string | undefined;
  if (body instanceof FormData) payload = body;
  else if (body) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(new URL(url, baseUrl), { method, headers, body: payload });
  const text = await res.text();
  try {
    return { status: res.status, body: text ? JSON.parse(text) : null };
  } catch {
    return { status: res.status, body: text };
  }
}

const problem = (what: string, r: Answer) =>
  new Error(`${what}: HTTP ${r.status} ${typeof r.body === 'string' ? r.body.slice(0, 300) : JSON.stringify(r.body).slice(0, 300)}`);

const fileField = async (file: string, type: string) => new Blob([await fs.promises.readFile(file)], { type });

const PROJECT_STATE = 'query($id: ID!) { project(id: $id) { status failureReason progress { stage percent } downloadUrl directUrl previewUrl } }';

export interface DemoLinks {
  projectId: string;
  /** the export, as an attachment */
  downloadUrl: string;
  /** the export, to play in a browser */
  directUrl: string;
  previewUrl: string | null;
  /** GET with the x-api-key header */
  srtUrl: string;
  vttUrl: string;
  /** the web console */
  consoleUrl: string;
  /** the sample music, as a library file (a media URL on this service) */
  musicUrl: string;
  /** a library image */
  logoId: string;
}

export interface DemoOptions {
  baseUrl: string;
  apiKey: string;
  media: SampleMedia;
  /** told of each move of the project (status, stage, percent) */
  onProgress?: (line: string) => void;
  timeoutMs?: number;
}

/**
 * Uploads the sample video (the upload renders once transcribed), adds the music and the
 * image to the user's library, and waits until the export is made.
 */
export async function runDemo(o: DemoOptions): Promise<DemoLinks> {
  const { baseUrl, apiKey: key } = o;
  const langs = await call(baseUrl, key, 'GET', '/v1/languages');
  if (langs.status === 401)
    throw new Error(
      `the service at ${baseUrl} does not know the new API key: it uses another database than this command (run the demo with the service's DATABASE_URL or DATA_DIR)`,
    );
  if (langs.status !== 200) throw problem('GET /v1/languages', langs);
  if (!langs.body.languages?.some((l: { code: string }) => l.code === 'en')) {
    throw new Error('the service transcribes no English: is pocketsphinx with its English model installed (see the README, System prerequisites)?');
  }

  const form = new FormData();
  form.append('title', 'clipcast demo');
  form.append('language', 'en');
  form.append('hookTitle', 'true');
  form.append('file', await fileField(o.media.talk, 'video/mp4'), path.basename(o.media.talk));
  const created = await call(baseUrl, key, 'POST', '/v1/projects/upload', form);
  if (created.status !== 201 && created.status !== 200) throw problem('POST /v1/projects/upload', created);
  const projectId: string = created.body.id;
  o.onProgress?.(`project ${projectId}: uploaded, ${created.body.status}`);

  const library = async (file: string, type: string) => {
    const f = new FormData();
    f.append('file', await fileField(file, type), path.basename(file));
    const r = await call(baseUrl, key, 'POST', '/v1/user-media/upload', f);
    if (r.status !== 201) throw problem('POST /v1/user-media/upload', r);
    return r.body.userMediaId as string;
  };
  const [musicId, logoId] = await Promise.all([library(o.media.music, 'audio/mpeg'), library(o.media.logo, 'image/png')]);
  const entry = await call(baseUrl, key, 'POST', '/graphql', {
    query: 'query($id: ID!) { userMediaEntry(id: $id) { url status } }',
    variables: { id: musicId },
  });
  const musicUrl: string | undefined = entry.body?.data?.userMediaEntry?.url;
  if (!musicUrl) throw problem('the music library entry', entry);

  let said = '';
  const deadline = Date.now() + (o.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const r = await call(baseUrl, key, 'POST', '/graphql', { query: PROJECT_STATE, variables: { id: projectId } });
    const p = r.body?.data?.project;
    if (!p) throw problem(`the project ${projectId}`, r);
    const line = [p.status, p.progress?.stage, typeof p.progress?.percent === 'number' ? `${Math.round(p.progress.percent)} %` : null]
      .filter(Boolean)
      .join(', ');
    if (line !== said) o.onProgress?.(`project ${projectId}: ${(said = line)}`);
    if (p.status === 'failed') throw new Error(`the project failed: ${p.failureReason ?? 'no reason given'}`);
    if (p.status === 'completed' && p.downloadUrl) {
      const captions = (format: string) => new URL(`/v1/projects/${projectId}/captions?format=${format}`, baseUrl).toString();
      return {
        projectId,
        downloadUrl: p.downloadUrl,
        directUrl: p.directUrl,
        previewUrl: p.previewUrl ?? null,
        srtUrl: captions('srt'),
        vttUrl: captions('vtt'),
        consoleUrl: new URL('/', baseUrl).toString(),
        musicUrl,
        logoId,
      };
    }
    if (Date.now() > deadline) throw new Error(`the export was not made in time (last: ${line})`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}
