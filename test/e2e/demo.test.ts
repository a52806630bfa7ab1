import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDemoUser,
  DEMO_PLATFORMS,
  recordedSpeechFiles,
  runDemo,
  sampleMedia,
  sampleSpeech,
  type DemoLinks,
  type DemoUser,
  type SampleMedia,
} from '../../src/cli/demo-run.js';
import { probe } from '../../src/media/ffprobe.js';
import { request, startTestApp, type TestApp } from '../support/app.js';

// `npm run demo`'s steps against a test app, then every curl line of the README against the
// same service, with what the demo prints (KEY, PROJECT, PROFILE, VIDEO_URL, MUSIC_URL).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let app: TestApp;
let tmp: string;
let media: SampleMedia;
let user: DemoUser;
let links: DemoLinks;
const progress: string[] = [];

/** The CLI's environment: the test app's database and storage, as `npm start` and `npm run admin` share them. */
const cliEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: app.database.url, DATA_DIR: app.dataDir };
  delete env.TEST_DATABASE_URL;
  return env;
};

async function download(url: string, name: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  expect(res.status, url).toBe(200);
  const file = path.join(tmp, name);
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
  return { file, res };
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-'));
  // the magic-clips example takes the demo's own link as a video page's URL
  [app, media] = await Promise.all([
    startTestApp({ env: { RENDER_PRESET: 'ultrafast', VIDEO_PLATFORM_HOSTS: '127.0.0.1' } }),
    sampleMedia(path.join(tmp, 'data', 'demo')),
  ]);
  user = await createDemoUser(cliEnv());
  links = await runDemo({ baseUrl: app.url, apiKey: user.apiKey, media, onProgress: (l) => progress.push(l), timeoutMs: 240_000 });
}, 360_000);
afterAll(async () => {
  await app?.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('makes a talking sample video of a few seconds on this machine: a recorded human voice (pocketsphinx-testdata), else espeak-ng', async () => {
    const talk = await probe(media.talk);
    expect(talk.video).toMatchObject({ width: 540, height: 960, codec: 'h264' });
    expect(talk.audio?.codec).toBe('aac');
    // .ci/run installs the recorded clips: five readings with 0.6 s after each
    expect(recordedSpeechFiles()).not.toBeNull();
    expect(talk.duration).toBeGreaterThan(26);
    expect(talk.duration).toBeLessThan(29);
    // without the package, the synthetic voice
    const wav = path.join(os.tmpdir(), `speech-${process.pid}.wav`);
    expect(await sampleSpeech(wav, recordedSpeechFiles('/nowhere'))).toBe('synthetic');
    expect((await probe(wav)).duration).toBeGreaterThan(12);
    await fs.rm(wav, { force: true });
    expect((await probe(media.music)).audio?.codec).toBe('mp3');
    expect((await probe(media.logo)).video).toMatchObject({ width: 256, height: 256 });
  });

  it('makes a user through the operator CLI, with a key the service knows and a profile with sandbox accounts', async () => {
    expect(user.apiKey).toMatch(/^sk-/);
    expect((await request(app, 'GET', '/v1/languages', { key: user.apiKey })).status).toBe(200);
    const row = await app.runtime.app.db.user.findUniqueOrThrow({ where: { id: user.userId } });
    expect(row).toMatchObject({ email: user.email, clipsSubscription: true, apiPublishing: true, apiCredits: expect.any(Number) });
    const accounts = await app.runtime.app.db.socialAccount.findMany({ where: { profileId: user.profileId } });
    expect(accounts.map((a) => a.platform).sort()).toEqual([...DEMO_PLATFORMS].sort());
  });

  it('uploads the video, follows it to its export and hands out links that serve it, its preview and captions', async () => {
    expect(progress[0]).toMatch(/uploaded/);
    expect(progress.some((l) => /transcribing/.test(l))).toBe(true);
    expect(progress.at(-1)).toMatch(/completed/);

    const { file, res } = await download(links.downloadUrl, 'export.mp4');
    expect(res.headers.get('content-disposition')).toMatch(/attachment/);
    const exported = await probe(file);
    const source = await probe(media.talk);
    expect(exported.video).toMatchObject({ width: 540, height: 960, codec: 'h264' });
    expect(Math.abs(exported.duration! - source.duration!)).toBeLessThan(0.2);
    expect((await probe((await download(links.directUrl, 'direct.mp4')).file)).duration).toBeCloseTo(exported.duration!, 1);
    expect((await probe((await download(links.previewUrl!, 'preview.mp4')).file)).video?.codec).toBe('h264');

    const srt = await fs.readFile((await download(links.srtUrl, 'c.srt', { 'x-api-key': user.apiKey })).file, 'utf8');
    expect(srt).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n\S/);
    expect(await fs.readFile((await download(links.vttUrl, 'c.vtt', { 'x-api-key': user.apiKey })).file, 'utf8')).toMatch(/^WEBVTT\n/);
    expect((await probe((await download(links.musicUrl, 'music.mp3')).file)).audio?.codec).toBe('mp3');
    expect(links.consoleUrl).toBe(`${app.url}/`);
  });

  it('says plainly when the service does not know the key (another database)', async () => {
    await expect(runDemo({ baseUrl: app.url, apiKey: 'sk-from-another-database', media })).rejects.toThrow(/another database/);
  });
});

// ---------------------------------------------------------------------------
// the README's examples

/** The README's shell commands that call the service: curl lines (and VAR=$(curl ...)), and `music add`. */
function readmeCommands(readme: string): string[] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  const commands: string[] = [];
  for (const block of blocks) {
    const logical = block.replace(/\\\n/g, ' ').split('\n');
    for (const line of logical) {
      if (/^(\w+=\$\(|until )?curl /.test(line) || / admin -- music add /.test(line)) commands.push(line);
    }
  }
  return commands;
}

describe("the README's examples", () => {
  it('run as written against a service on this machine, each answered with a success', async () => {
    const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const commands = readmeCommands(readme);
    expect(commands.length).toBeGreaterThan(20);
    for (const c of commands) {
      expect(c, 'a placeholder left in a command').not.toMatch(/<[a-z_]+>|…|example\.com/i);
    }
    const script = [
      'set -u',
      // every curl says its status on stderr, even when its output is captured
      `curl() { command curl -sS -w '%{stderr}@@HTTP %{http_code}\\n' "$@"; }`,
      ...commands.map((c) => {
        const line = c.replaceAll('http://127.0.0.1:4000', app.url);
        // npm finds the project from the repository's folder; the sample files are relative to the demo's
        return / admin -- /.test(line) ? `(cd "$REPO" && ${line}) >&2; echo "@@EXIT $?" >&2` : line;
      }),
    ].join('\n');
    const env = {
      ...cliEnv(),
      REPO: ROOT,
      KEY: user.apiKey,
      PROJECT: links.projectId,
      PROFILE: user.profileId,
      VIDEO_URL: links.directUrl,
      MUSIC_URL: links.musicUrl,
    };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', script], { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      // the answers and their statuses in one log, in order, for a failure's message
      child.stdout.on('data', (d) => (err += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    expect(code, stderr).toBe(0);
    // one status per curl, more for a loop that waits
    const statuses = [...stderr.matchAll(/@@HTTP (\d+)/g)].map((m) => Number(m[1]));
    expect(statuses.length, stderr).toBeGreaterThanOrEqual(commands.filter((c) => /curl /.test(c)).length);
    expect(
      statuses.filter((status) => status < 200 || status >= 300),
      stderr,
    ).toEqual([]);
    // GraphQL answers a document it refuses with 200 and its errors: none of the examples is refused
    expect(stderr, stderr).not.toMatch(/"errors":\[/);
    expect(stderr.match(/@@EXIT (\d+)/)?.[1], stderr).toBe('0');
    // music add fetched the demo's track from the service and stored it
    expect(await app.runtime.app.db.musicTrack.count({ where: { name: 'Upbeat' } })).toBe(1);
  }, 180_000);
});
