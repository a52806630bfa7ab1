// Workers SIGKILLed in the middle of a magic-clips project: workers in their own processes over a real
// PostgreSQL, the API in this one. One is killed while it renders a clip, the next after it stored the last
// clip but before the project ended. The killed render's ffmpeg dies with its worker, nothing of the workers
// is ever in the system's temp folder, and the next worker's start removes the dead one's work folders. The
// project completes with each clip once, each clip's files once in storage, one completion webhook event,
// one clip credit spent and no work file left.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipCountFor } from '../../src/magic-clips/windows.js';
import { verifyWebhook } from '../../src/webhooks/signing.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.js';
import { createUser, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { FF, type FileServer, H264_AAC, serveFolder } from '../support/media.js';
import { childrenOf, ended, spawnReady, type Child } from '../support/process.js';
import { TALK_SENTENCES } from '../support/talk.js';
import { httpsWebhookInbox, type HttpsWebhookInbox } from '../support/webhooks.js';

const run = promisify(execFile);
/**
 * Long enough for two clips (one per 3 minutes, rounded). A 5-minute talk
 * would take pocketsphinx minutes here, so the source is a tone under a test
 * pattern and the OpenAI engine's local stand-in "hears" the talk's sentences
 * over it: transcription takes a second and the clips are as they would be.
 */
const SOURCE_SECONDS = 300;
const CLIP_CREDITS = 5;

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The work folders under `dir` whose `.owner` names process `pid` (src/writer.ts: `<pid>-<start>@<host>`). */
async function foldersOf(dir: string, pid: number): Promise<string[]> {
  const owner = (name: string) => fs.readFile(path.join(dir, name, '.owner'), 'utf8').catch(() => '');
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const owners = await Promise.all(names.map(owner));
  return names.filter((_, i) => new RegExp(`^${pid}(-\\d+)?@`).test(owners[i]));
}

// Cross-process job pick-up needs a real PostgreSQL (NOTIFY does not cross PGlite's connections).
describe.skipIf(!serverUrl())('workers killed in the middle of a magic-clips project', () => {
  let dir: string;
  /** the workers' TMPDIR, apart from every other process's */
  let tmpdir: string;
  /** what the workers left in their TMPDIR, but for the compile cache of tsx, which runs the TypeScript */
  const inTmpdir = async () => (await fs.readdir(tmpdir)).filter((n) => !/^tsx-\d+$/.test(n));
  let database: TestDatabase;
  let api: TestApp;
  let files: FileServer;
  let user: TestUser;
  let receiver: HttpsWebhookInbox;
  let openai: FakeOpenAI;
  const workers: Child[] = [];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-crash-'));
    tmpdir = path.join(dir, 'tmpdir');
    await fs.mkdir(tmpdir);
    await run('ffmpeg', [
      ...FF,
      '-f',
      'lavfi',
      '-i',
      `testsrc2=s=256x144:r=25:d=${SOURCE_SECONDS}`,
      '-f',
      'lavfi',
      '-i',
      `sine=f=220:d=${SOURCE_SECONDS}`,
      ...H264_AAC,
      '-ac',
      '1',
      '-shortest',
      path.join(dir, 'long-talk.mp4'),
    ]);
    // the talk four times over: 64 sentences spread evenly over the middle 80 % of the source
    const transcript = Array.from({ length: 4 }, () => TALK_SENTENCES.join(' ')).join(' ');
    [database, files, receiver, openai] = await Promise.all([createTestDatabase(), serveFolder(dir), httpsWebhookInbox(), startFakeOpenAI({ transcript })]);
    api = await startTestApp({
      role: 'server',
      database,
      env: { VIDEO_PLATFORM_HOSTS: '127.0.0.1', TRANSCRIBER: 'openai', OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: openai.apiKey },
    });
    user = await createUser(api, { clipCredits: CLIP_CREDITS, clipsSubscription: true });
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) await w.stop('SIGKILL');
    await api?.stop();
    await database?.drop();
    await files?.close();
    await receiver?.close();
    await openai?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  /** `npm run worker`, killed alone: its children must die with it */
  const worker = async (name: string) => {
    const w = await spawnReady(
      'test/fixtures/worker-process.ts',
      {
        TMPDIR: tmpdir,
        DATABASE_URL: database.url,
        DATA_DIR: api.dataDir,
        PUBLIC_URL: api.url,
        LOG_LEVEL: 'warn',
        JOB_POLL_MS: '300',
        ALLOW_PRIVATE_NETWORK: '1',
        NODE_EXTRA_CA_CERTS: receiver.cert,
        // a dead worker's clip job is taken over 3 s after it last renewed its lock
        PROJECT_JOB_LOCK_MS: '3000',
        WEBHOOK_RETRY_BASE_MS: '1000',
        RENDER_PRESET: 'ultrafast',
        VIDEO_PLATFORM_HOSTS: '127.0.0.1',
        TRANSCRIBER: 'openai',
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: openai.apiKey,
        INSTANCE_NAME: name,
      },
      60_000,
    );
    workers.push(w);
    return w;
  };

  it('a killed render runs again, a killed ending is finished: each clip once, one webhook event, one credit, no work file left', async () => {
    expect(clipCountFor(SOURCE_SECONDS)).toBe(2);
    const db = api.runtime.app.db;
    const first = await worker('worker-a');
    const created = await request(api, 'POST', '/v1/projects/magic-clips', {
      key: user.key,
      json: { title: 'Crash clips', language: 'en', videoshareUrl: files.url('long-talk.mp4'), minClipLength: 15, maxClipLength: 20, webhookUrl: receiver.url },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as string;

    const workDir = path.join(api.dataDir, 'tmp');
    /** the work folder of a clip's render (`clip-<id>.<run>`), if one exists */
    const clipFolder = async (clipId: string) => {
      const name = (await fs.readdir(workDir).catch(() => [] as string[])).find((n) => n.startsWith(`clip-${clipId}.`));
      return name ? path.join(workDir, name) : null;
    };
    /** a clip (of those `of`) whose render is under way: its ffmpeg output growing in its work folder */
    const rendering = async (of: Array<{ id: string }>) => {
      for (const clip of of) {
        const folder = await clipFolder(clip.id);
        const size = folder
          ? await fs.stat(path.join(folder, 'clip.mp4')).then(
              (s) => s.size,
              () => 0,
            )
          : 0;
        if (size > 0) return clip.id;
      }
      return undefined;
    };
    const allOutput = () => workers.map((w) => w.output()).join('\n');

    // 1. killed during a render: the project at its clips stage, a clip's ffmpeg writing
    let killed: string | undefined;
    for (const t0 = Date.now(); !killed; await sleep(100)) {
      if (Date.now() - t0 > 60_000) throw new Error(`no clip render seen: ${JSON.stringify(await db.project.findUnique({ where: { id } }))}\n${allOutput()}`);
      const p = await db.project.findUniqueOrThrow({ where: { id } });
      expect(p.status, p.failureReason ?? '').toBe('processing');
      if ((p.progress as { stage?: string } | null)?.stage !== 'clips') continue;
      killed = await rendering(await db.magicClip.findMany({ where: { projectId: id } }));
    }
    const renders = childrenOf(first.proc.pid!, 'ffmpeg');
    expect(renders.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    await first.stop('SIGKILL');
    // its ffmpeg dies with it, not when the render would have ended
    for (; renders.some((p) => !ended(p)); await sleep(20)) {
      if (Date.now() - killedAt > 2000) throw new Error(`ffmpeg ${renders.filter((p) => !ended(p)).map((p) => p.pid)} runs on 2 s after its worker was killed`);
    }
    // the render's scratch files were in its work folder, none in the system's temp folder
    expect(await inTmpdir()).toEqual([]);
    const clipsAtKill = await db.magicClip.findMany({ where: { projectId: id } });
    expect(clipsAtKill).toHaveLength(2);
    expect(clipsAtKill.find((c) => c.id === killed)).toMatchObject({ status: 'processing', outputKey: null });
    expect((await db.project.findUniqueOrThrow({ where: { id } })).status).toBe('processing');
    // the killed render's folder stays behind
    expect(await filesUnder((await clipFolder(killed))!)).toContain('clip.mp4');

    // 2. killed after it stored the last clip, before the project ended: once the first clip has ended (and
    // its run has told the project so), the test holds the project's row, so the run of the last clip stops
    // in the project's move to completed
    const second = await worker('worker-b');
    // the next worker's start removes the dead one's work folders
    for (const t0 = Date.now(); (await foldersOf(workDir, first.proc.pid!)).length > 0; await sleep(100)) {
      if (Date.now() - t0 > 10_000) throw new Error(`the killed worker's folders stay: ${await foldersOf(workDir, first.proc.pid!)}`);
    }
    const hold = new pg.Client({ connectionString: database.url });
    await hold.connect();
    try {
      let last: string | undefined;
      for (const t0 = Date.now(); !last; await sleep(100)) {
        if (Date.now() - t0 > 60_000) throw new Error(`the first clip did not end\n${allOutput()}`);
        const p = await db.project.findUniqueOrThrow({ where: { id } });
        if ((p.progress as { clipsDone?: number } | null)?.clipsDone !== 1) continue;
        const clips = await db.magicClip.findMany({ where: { projectId: id } });
        expect(clips.filter((c) => c.status === 'completed')).toHaveLength(1);
        last = clips.find((c) => c.status === 'processing')!.id;
      }
      await hold.query('BEGIN');
      await hold.query('SELECT 1 FROM "Project" WHERE id = $1 FOR UPDATE', [id]);
      for (const t0 = Date.now(); (await db.magicClip.findUniqueOrThrow({ where: { id: last } })).status !== 'completed'; await sleep(50)) {
        if (Date.now() - t0 > 60_000) throw new Error(`the last clip was not made\n${allOutput()}`);
      }
      // its worker waiting on the row
      const waiting = async () =>
        (await hold.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0]
          .n as number;
      for (const t0 = Date.now(); (await waiting()) === 0; await sleep(50)) {
        if (Date.now() - t0 > 10_000) throw new Error(`no run waits on the project\n${allOutput()}`);
      }
      await second.stop('SIGKILL');
      await hold.query('ROLLBACK');
    } finally {
      await hold.end();
    }
    // every clip stored, the project not ended
    expect((await db.magicClip.findMany({ where: { projectId: id } })).map((c) => c.status)).toEqual(['completed', 'completed']);
    expect((await db.project.findUniqueOrThrow({ where: { id } })).status).toBe('processing');

    await worker('worker-c');
    for (const t0 = Date.now(); ; await sleep(200)) {
      const p = await db.project.findUniqueOrThrow({ where: { id } });
      if (p.status === 'completed') break;
      if (p.status === 'failed' || Date.now() - t0 > 60_000) throw new Error(`not completed: ${p.status} ${p.failureReason}\n${allOutput()}`);
    }

    // each clip once: the two rows chosen before the kill, both made, windows apart
    const clips = await db.magicClip.findMany({ where: { projectId: id }, orderBy: { startTime: 'asc' } });
    expect(clips.map((c) => c.id).sort()).toEqual(clipsAtKill.map((c) => c.id).sort());
    for (const c of clips)
      expect(c).toMatchObject({
        status: 'completed',
        failureReason: null,
        outputKey: `projects/${id}/clips/${c.id}.mp4`,
        previewKey: `projects/${id}/clips/${c.id}.preview.mp4`,
      });
    expect(clips[1].startTime).toBeGreaterThanOrEqual(clips[0].endTime);

    // each clip's files once in storage, whole, and nothing else of the clips
    const objects = clips.flatMap((c) => [`${c.id}.mp4`, `${c.id}.preview.mp4`]);
    const stored = (await filesUnder(path.join(api.dataDir, 'media', 'projects', id, 'clips'))).sort();
    // each object with its metadata sidecar (its content type)
    expect(stored).toEqual([...objects, ...objects.map((o) => `.${o}.meta.json`)].sort());
    for (const c of clips) {
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        api.runtime.app.storage.localPath(c.outputKey!)!,
      ]);
      expect(Math.abs(Number(stdout) - c.duration)).toBeLessThan(0.12);
    }

    // one magic_clips.completed event, whatever number of POSTs carried it
    const deliveries = () => db.webhookDelivery.findMany({ where: { subjectId: id } });
    for (const t0 = Date.now(); ; await sleep(200)) {
      const rows = await deliveries();
      if (rows.length > 0 && rows.every((d) => d.status === 'delivered') && receiver.received.length > 0) break;
      if (Date.now() - t0 > 20_000) throw new Error(`webhook not delivered: ${JSON.stringify(rows)}`);
    }
    await sleep(1500); // a second POST would come now
    const rows = await deliveries();
    expect(rows.map((d) => d.event)).toEqual(['magic_clips.completed']);
    const secret = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).webhookSecret;
    const ids = new Set<string>();
    for (const hook of receiver.received) {
      const payload = verifyWebhook(secret, hook.headers, hook.body) as { event: string; projectId: string; magicClips: Array<{ id: string; status: string }> };
      expect(payload).toMatchObject({ event: 'magic_clips.completed', projectId: id, status: 'completed' });
      expect(payload.magicClips.map((c) => c.id).sort()).toEqual(clips.map((c) => c.id).sort());
      expect(payload.magicClips.every((c) => c.status === 'completed')).toBe(true);
      ids.add(hook.headers['webhook-id']);
    }
    expect([...ids]).toEqual([rows[0].id]);

    // the clip credit spent once, none given back
    const ledger = await db.creditLedger.findMany({ where: { subjectId: id } });
    expect(ledger).toMatchObject([{ kind: 'clip', delta: -1 }]);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).clipCredits).toBe(CLIP_CREDITS - 1);

    // no work file left: the killed render's folder went when its clip was rendered again
    expect(await filesUnder(workDir)).toEqual([]);
    expect(await inTmpdir()).toEqual([]);
    expect((await filesUnder(path.join(api.dataDir, 'media'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 150_000);
});
