import { execFile } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExportPlan } from '../../src/exports/plan.js';
import { resumeRenders, runExport } from '../../src/exports/service.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { probe } from '../../src/media/ffprobe.js';
import { move } from '../../src/projects/lifecycle.js';
import { PREVIEW, previewSize } from '../../src/media/render/graph.js';
import { verifyWebhook } from '../../src/webhooks/signing.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser, waitEntry, waitProject as waitProjectOf } from '../support/app.js';
import { FF, type FileServer, frameAt, frameDiff, H264, isRed, meanVolume, mediaFixtures, pixel, serveFolder } from '../support/media.js';
import { readSse, subscribeSse } from '../support/sse.js';
import { holdSecondPut, interceptPut } from '../support/overlap.js';
import { webhookInbox, type WebhookInbox } from '../support/webhooks.js';

const run = promisify(execFile);
let app: TestApp;
let files: FileServer;
let user: TestUser;
let tmp: string;
let hooks: WebhookInbox;

const waitProject = (id: string, until: (p: any) => boolean, timeoutMs = 120_000) => waitProjectOf(app, user.key, id, until, timeoutMs);

async function transcribed(extra: Record<string, unknown> = {}) {
  const r = await request(app, 'POST', '/v1/projects', {
    key: user.key,
    json: { title: 'Export me', language: 'en', videoUrl: files.url('talk.mp4'), autoRender: false, ...extra },
  });
  expect(r.body).toMatchObject({ id: expect.any(String) });
  return waitProject(r.body.id, (p) => p.status === 'completed');
}

/** A 160x120 export of a transcribed project, queued with the project's move to exporting and no render job yet. */
async function queuedExport(projectId: string, data: { webhookUrl?: string } = {}) {
  const core = app.runtime.app;
  const project = await core.db.project.findUniqueOrThrow({ where: { id: projectId } });
  let exportId = '';
  await move(core, project, 'export', {
    also: async (tx) => void (exportId = (await tx.export.create({ data: { projectId, width: 160, height: 120, fps: 15, ...data } })).id),
  });
  return exportId;
}

let sharedProject: Promise<any> | undefined;
/** one transcribed project for the cases that leave it as it is */
const shared = () => (sharedProject ??= transcribed());

async function download(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.mp4`);
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'exports-'));
  const fx = await mediaFixtures();
  [app, files, hooks] = await Promise.all([startTestApp({ env: { RENDER_PRESET: 'ultrafast' } }), serveFolder(fx.dir), webhookInbox()]);
  user = await createUser(app);
});
afterAll(async () => {
  await hooks?.close();
  await files?.close();
  await app?.stop();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('POST /v1/projects/{id}/export', () => {
  it('answers 200 exporting, renders the asked size and fps, fills the URLs and sends a signed webhook', async () => {
    const p = await transcribed();
    const r = await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: { width: 320, height: 180, fps: 15, webhookUrl: hooks.url } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: expect.any(String), projectId: p.id, status: 'exporting' });
    const done = await waitProject(p.id, (x) => x.status === 'completed' && x.downloadUrl);
    expect(done.directUrl).toEqual(expect.any(String));
    const file = await download(done.downloadUrl);
    const info = await probe(file);
    expect(info.video).toMatchObject({ width: 320, height: 180, codec: 'h264' });
    expect(info.video!.fps).toBeCloseTo(15, 1);
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.duration! - p.videoMetaData.duration)).toBeLessThan(0.15);
    expect((await fetch(done.directUrl)).status).toBe(200);

    // the preview, made in the same render: small, at the preview frame rate, as long as the export
    expect(done.previewUrl).toEqual(expect.any(String));
    expect(new URL(done.previewUrl).pathname).not.toBe(new URL(done.directUrl).pathname);
    const preview = await probe(await download(done.previewUrl));
    expect(preview.video).toMatchObject({ ...previewSize(320, 180), codec: 'h264' });
    expect(preview.video).toMatchObject({ width: 240, height: 136 });
    expect(preview.video!.fps).toBeCloseTo(PREVIEW.fps, 1);
    expect(preview.audio?.codec).toBe('aac');
    expect(Math.abs(preview.duration! - info.duration!)).toBeLessThanOrEqual(1 / PREVIEW.fps);
    const viaGraphql = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { previewUrl } }', { id: p.id });
    expect(new URL(viaGraphql.body.data.project.previewUrl).pathname).toBe(new URL(done.previewUrl).pathname);

    const hook = await hooks.next((h) => h.projectId === p.id);
    const secret = (await app.runtime.app.db.user.findUniqueOrThrow({ where: { id: user.id } })).webhookSecret;
    expect(verifyWebhook(secret, hook.headers, hook.body)).toMatchObject({
      event: 'export.completed',
      projectId: p.id,
      exportId: expect.any(String),
      status: 'completed',
      downloadUrl: expect.any(String),
      directUrl: expect.any(String),
      width: 320,
      height: 180,
      fps: 15,
      duration: expect.any(Number),
      timestamp: expect.any(String),
    });
  });

  it('cuts the silences at the natural pace: the output is shorter by the removed pause, to the frame', async () => {
    const p = await transcribed({ removeSilencePace: 'natural', magicZooms: true, cleanAudio: true, hookTitle: true });
    await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: { width: 180, height: 320, fps: 25 } });
    const done = await waitProject(p.id, (x) => x.status === 'completed' && x.downloadUrl);
    const info = await probe(await download(done.downloadUrl));
    expect(info.video).toMatchObject({ width: 180, height: 320 });
    const silences = (p.words as Array<{ type: string; startTime: number; endTime: number }>).filter(
      (w) => w.type === 'silence' && w.endTime - w.startTime >= 0.6,
    );
    expect(silences.length).toBeGreaterThan(0);
    expect(info.duration!).toBeLessThan(p.videoMetaData.duration - 1);
    const { keptSegments } = await import('../../src/exports/plan.js');
    const row = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id: p.id } });
    const keep = await keptSegments(row, p.words, p.videoMetaData.duration, 25);
    const expected = keep.reduce((s, k) => s + k.end - k.start, 0);
    expect(Math.abs(info.duration! - expected)).toBeLessThanOrEqual(1 / 25 + 0.05);
  });

  it('with autoRender the pipeline ends in a render, and the project webhook waits for it', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: { title: 'Auto', language: 'en', videoUrl: files.url('talk.mp4') } });
    const done = await waitProject(r.body.id, (x) => x.status === 'completed' && x.downloadUrl);
    const info = await probe(await download(done.downloadUrl));
    // no size given: the source's
    expect(info.video).toMatchObject({ width: 320, height: 240 });
    const exports = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { exports { status width height fps } } }', { id: r.body.id });
    expect(exports.body.data.project.exports).toEqual([{ status: 'completed', width: 320, height: 240, fps: 30 }]);
  });

  it.each([
    [{ fps: 0 }, 'fps'],
    [{ fps: 61 }, 'fps'],
    [{ width: 99 }, 'width'],
    [{ height: 4001 }, 'height'],
    [{ webhookUrl: 'nope' }, 'webhookUrl'],
    [{ colour: 'red' }, 'colour'],
  ])('%j is 400 BAD_REQUEST naming %s', async (body, field) => {
    const p = await shared();
    const r = await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'BAD_REQUEST', details: [{ field }] });
    expect((await request(app, 'GET', `/v1/projects/${p.id}`, { key: user.key })).body.status).toBe('completed');
  });

  it('is 404 for unknown and foreign projects; 400 before transcription and while exporting', async () => {
    expect((await request(app, 'POST', '/v1/projects/00000000-0000-4000-8000-000000000000/export', { key: user.key, json: {} })).status).toBe(404);
    const p = await shared();
    const other = await createUser(app);
    expect((await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: other.key, json: {} })).body.error).toBe('NOT_FOUND');
    const fresh = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'x', language: 'en', videoUrl: files.url('talk.mp4'), autoRender: false },
    });
    const early = await request(app, 'POST', `/v1/projects/${fresh.body.id}/export`, { key: user.key, json: {} });
    expect(early).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST' } });
    const first = await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: { width: 160, height: 120 } });
    expect(first.status).toBe(200);
    const again = await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: {} });
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/already exporting/);
    await waitProject(p.id, (x) => x.status === 'completed' && x.downloadUrl);
  });

  it("an export whose render job a crash left unqueued is rendered: by the project job's next run, or by the watchdog after a minute", async () => {
    const p = await transcribed();
    const core = app.runtime.app;
    // what a process killed between the commit and the enqueue leaves: the project exporting, its export queued, no job
    const strand = () => queuedExport(p.id);
    const renderJobs = (exportId: string) =>
      core.db.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM agenda_jobs WHERE name = $1 AND data->>'exportId' = $2`,
        JOB_NAMES.renderExport,
        exportId,
      );
    const rendered = async (exportId: string) => {
      const done = await waitProject(p.id, (x) => x.status === 'completed');
      expect(await core.db.export.findUniqueOrThrow({ where: { id: exportId } })).toMatchObject({ status: 'completed', outputKey: expect.any(String) });
      expect(done.downloadUrl).toEqual(expect.any(String));
      expect(await renderJobs(exportId)).toEqual([{ n: 1 }]);
    };

    // the project job runs again after the crash (its lock ran out): it queues the render
    const first = await strand();
    await core.jobs.enqueue(JOB_NAMES.processProject, { projectId: p.id, userId: user.id });
    await rendered(first);

    // an API process killed after creating the export: the watchdog queues it once it has waited a minute
    const second = await strand();
    expect(await resumeRenders(core, { olderThanMs: 60_000 })).toBe(0);
    await core.db.export.update({ where: { id: second }, data: { createdAt: new Date(Date.now() - 61_000) } });
    expect(await resumeRenders(core, { olderThanMs: 60_000 })).toBe(1);
    // a second pass while it waits adds no second job
    await resumeRenders(core, { olderThanMs: 60_000 });
    await rendered(second);
  });

  it('two runs of one export that overlap (a lock that lapsed on a busy machine): the first outcome stands, whatever the other run does after', async () => {
    const p = await transcribed();
    const core = app.runtime.app;
    const queue = () => queuedExport(p.id, { webhookUrl: hooks.url });
    const ctx = { log: core.log, touch: async () => {} };

    // the second run to store the output is held until the first has finished, then fails
    const first = await queue();
    const outputKey = `projects/${p.id}/exports/${first}.mp4`;
    const { release, restore } = holdSecondPut(core.storage, outputKey);
    try {
      const runs = [runExport(core, first, ctx), runExport(core, first, ctx)];
      await Promise.race(runs);
      const done = await core.db.export.findUniqueOrThrow({ where: { id: first } });
      expect(done).toMatchObject({ status: 'completed', outputKey });
      // meanwhile the user asks for another export; then the held run fails
      const second = await queue();
      release();
      await Promise.all(runs);

      expect(await core.db.export.findUniqueOrThrow({ where: { id: first } })).toMatchObject({ status: 'completed', outputKey, failureReason: null });
      expect(await core.db.export.findUniqueOrThrow({ where: { id: second } })).toMatchObject({ status: 'queued' });
      expect(await core.db.project.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
        status: 'exporting',
        renderedKey: outputKey,
        failureReason: null,
      });
      expect((await probe(core.storage.localPath(outputKey)!)).video).toMatchObject({ width: 160, height: 120 });
      expect(await core.storage.stat(done.previewKey!)).not.toBeNull();
      // one outcome, one event: the refused run recorded no webhook
      expect((await core.db.webhookDelivery.findMany({ where: { subjectId: first } })).map((d) => d.event)).toEqual(['export.completed']);
      await hooks.next((h) => h.event === 'export.completed' && h.exportId === first);

      // a run of the finished export that starts now leaves both exports as they are; the later one renders
      await runExport(core, first, ctx);
      expect(await core.db.export.findUniqueOrThrow({ where: { id: second } })).toMatchObject({ status: 'queued' });
      await runExport(core, second, ctx);
      const later = await core.db.export.findUniqueOrThrow({ where: { id: second }, include: { project: true } });
      expect(later).toMatchObject({ status: 'completed' });
      expect(later.project).toMatchObject({ status: 'completed', renderedKey: later.outputKey });
    } finally {
      restore();
    }
  });

  it('two overlapping runs where one fails after the other stored its files, before it recorded them: the failure stands, and no file of the export stays', async () => {
    const p = await transcribed();
    const core = app.runtime.app;
    const ctx = { log: core.log, touch: async () => {} };
    const before = await core.db.project.findUniqueOrThrow({ where: { id: p.id } });
    const id = await queuedExport(p.id, { webhookUrl: hooks.url });
    const outputKey = `projects/${p.id}/exports/${id}.mp4`;
    const previewKey = `projects/${p.id}/exports/${id}.preview.mp4`;
    // the first run to store its video then waits before its preview; the second run's video fails to store
    let release!: () => void;
    const undoPreview = interceptPut(core.storage, previewKey, 1, { until: new Promise<void>((r) => (release = r)) });
    const undoOutput = interceptPut(core.storage, outputKey, 2, { fail: true });
    try {
      const runs = Promise.all([runExport(core, id, ctx), runExport(core, id, ctx)]);
      await expect.poll(async () => (await core.db.export.findUniqueOrThrow({ where: { id } })).status, { timeout: 60_000 }).toBe('failed');
      release();
      await runs;
    } finally {
      undoOutput();
      undoPreview();
      release();
    }
    expect(await core.db.export.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: 'failed',
      failureReason: 'Export failed: the store went away',
      outputKey: null,
    });
    expect(await core.db.project.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({
      status: 'completed',
      renderedKey: before.renderedKey,
      failureReason: 'Export failed: the store went away',
    });
    // the video the first run stored, and the preview it stored once the failure was recorded, are both gone
    expect(await core.storage.stat(outputKey)).toBeNull();
    expect(await core.storage.stat(previewKey)).toBeNull();
    expect((await core.db.webhookDelivery.findMany({ where: { subjectId: id } })).map((d) => d.event)).toEqual(['export.failed']);
  });

  it('a run whose lock lapsed (its worker starved of CPU) records no failure: the job runs again and that run ends the export', async () => {
    const p = await transcribed();
    const core = app.runtime.app;
    const id = await queuedExport(p.id, { webhookUrl: hooks.url });
    const outputKey = `projects/${p.id}/exports/${id}.mp4`;
    // the lapsed run's store fails (its worker let the lock go, and what it does now is no longer the job's)
    const undo = interceptPut(core.storage, outputKey, 1, { fail: true });
    try {
      await expect(runExport(core, id, { log: core.log, touch: async () => {}, lapsed: () => true })).rejects.toThrow('the store went away');
    } finally {
      undo();
    }
    expect(await core.db.export.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'rendering', failureReason: null });
    expect(await core.db.project.findUniqueOrThrow({ where: { id: p.id } })).toMatchObject({ status: 'exporting', failureReason: null });
    expect(await core.db.webhookDelivery.findMany({ where: { subjectId: id } })).toEqual([]);

    // the job's next run renders it
    await runExport(core, id, { log: core.log, touch: async () => {}, lapsed: () => false });
    expect(await core.db.export.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'completed', outputKey, failureReason: null });
    expect((await core.db.webhookDelivery.findMany({ where: { subjectId: id } })).map((d) => d.event)).toEqual(['export.completed']);
  });

  it('a failed render leaves the project completed with its previous output and says why', async () => {
    const p = await transcribed();
    await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: { width: 160, height: 120 } });
    const first = await waitProject(p.id, (x) => x.status === 'completed' && x.downloadUrl);
    // the source disappears: the next render must fail
    const row = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id: p.id } });
    await fs.rm(app.runtime.app.storage.localPath(row.sourceKey!)!);
    await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: { width: 160, height: 120, webhookUrl: hooks.url } });
    const after = await waitProject(p.id, (x) => x.status === 'completed' && x.failureReason);
    expect(after.failureReason).toBe("Export failed: The project's source video is missing from storage");
    expect(new URL(after.downloadUrl).pathname).toBe(new URL(first.downloadUrl).pathname);
    expect(new URL(after.previewUrl).pathname).toBe(new URL(first.previewUrl).pathname);
    expect((await hooks.next((h) => h.event === 'export.failed' && h.projectId === p.id)).payload).toMatchObject({
      status: 'failed',
      exportId: expect.any(String),
    });
    // a transcription and two renders: about 6 s alone, over a minute beside the crash storm on two cores
  }, 150_000);
});

describe('an export through the API shows every effect asked', () => {
  /** a library entry made from a served file, once ready */
  async function libraryEntry(file: string): Promise<string> {
    const r = await request(app, 'POST', '/v1/user-media', { key: user.key, json: { url: files.url(file) } });
    expect(r).toMatchObject({ status: 201, body: { userMediaId: expect.any(String) } });
    await waitEntry(app, user.key, r.body.userMediaId, (m) => m.status === 'ready');
    return r.body.userMediaId;
  }

  it('captions where the words are, music under the speech, the item in its window, silences gone, the size and fps asked', async () => {
    const fx = await mediaFixtures();
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'color=c=red:s=160x90:r=25:d=2', ...H264, path.join(fx.dir, 'red.mp4')]);
    // music: a 55 Hz hum, below any voice, so its share of the sound tells it apart from the speech
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'sine=f=55:d=4', '-c:a', 'libmp3lame', '-b:a', '96k', path.join(fx.dir, 'hum.mp3')]);
    const [red, hum] = await Promise.all([libraryEntry('red.mp4'), libraryEntry('hum.mp3')]);
    const item = { start: 1, end: 2 }; // source seconds
    const p = await transcribed({
      removeSilencePace: 'natural',
      cleanAudio: true,
      magicZooms: true,
      music: { userMediaId: hum, volume: 100, fade: false },
      items: [{ type: 'user-media', userMediaId: red, startTime: item.start, endTime: item.end, layout: 'pip-top-right' }],
    });
    const render = async () => {
      expect((await request(app, 'POST', `/v1/projects/${p.id}/export`, { key: user.key, json: { width: 180, height: 320, fps: 25 } })).status).toBe(200);
      const done = await waitProject(p.id, (x) => x.status === 'completed' && x.progress?.stage !== 'render' && x.downloadUrl && x.downloadUrl !== previous);
      previous = done.downloadUrl;
      return download(done.downloadUrl);
    };
    let previous: string | undefined;
    const withCaptions = await render();
    expect((await request(app, 'PUT', `/v1/projects/${p.id}`, { key: user.key, json: { disableCaptions: true } })).status).toBe(200);
    const without = await render();

    // size, fps, and the silences gone: the duration of the kept segments, to the frame
    const { keptSegments } = await import('../../src/exports/plan.js');
    const { captionPages } = await import('../../src/media/render/captions.js');
    const { mapSpan } = await import('../../src/media/render/timeline.js');
    const { DEFAULT_CAPTION_TEMPLATE } = await import('../../src/catalog/caption-templates.js');
    const row = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id: p.id } });
    const keep = await keptSegments(row, p.words, p.videoMetaData.duration, 25);
    const expected = keep.reduce((sum, k) => sum + k.end - k.start, 0);
    const info = await probe(withCaptions);
    expect(info.video).toMatchObject({ width: 180, height: 320 });
    expect(info.video!.fps).toBeCloseTo(25, 1);
    expect(expected).toBeLessThan(p.videoMetaData.duration - 1);
    expect(Math.abs(info.duration! - expected)).toBeLessThanOrEqual(1 / 25 + 0.05);

    // captions: around the template's line (70 % down) the renders differ while a page is on screen, and
    // no more than elsewhere (encoding noise) once the last page is over
    const y = Math.round((DEFAULT_CAPTION_TEMPLATE.style.layout.positionY / 100) * 320);
    const band = { x: 0, y: y - 32, w: 180, h: 64 };
    const top = { x: 0, y: 0, w: 180, h: 120 };
    const diffs = async (t: number) => {
      const [a, b] = await Promise.all([frameAt(withCaptions, t), frameAt(without, t)]);
      return { band: frameDiff(a, b, band), elsewhere: frameDiff(a, b, top) };
    };
    const pages = captionPages(p.words, keep, DEFAULT_CAPTION_TEMPLATE.style.layout.wordsPerLine);
    expect(pages.length).toBeGreaterThan(2);
    for (const page of [pages[0], pages[Math.floor(pages.length / 2)], pages[pages.length - 1]]) {
      const d = await diffs((page.start + page.end) / 2);
      expect(d.band).toBeGreaterThan(Math.max(3, 2 * d.elsewhere));
    }
    const after = pages[pages.length - 1].end + 0.1;
    if (after < expected - 0.1) {
      const d = await diffs(after);
      expect(d.band).toBeLessThan(1.5 * d.elsewhere + 0.5);
    }

    // the item (a red video): red in the top-right pip inside its window only
    const span = mapSpan(keep, item.start, item.end)!;
    const pip = { x: 180 - (0.36 * 180) / 2 - 0.04 * 180, y: 0.04 * 180 + (0.36 * 320) / 2 };
    expect(isRed(pixel(await frameAt(without, (span.start + span.end) / 2), pip.x, pip.y))).toBe(true);
    expect(isRed(pixel(await frameAt(without, span.end + 0.3), pip.x, pip.y))).toBe(false);
    if (span.start > 0.3) expect(isRed(pixel(await frameAt(without, span.start - 0.3), pip.x, pip.y))).toBe(false);

    // the music, ducked, is heard under the speech: its band's share of the sound is far larger than in
    // the source's speech (a share, so clean audio's gain does not count)
    const hum55 = 'lowpass=f=70,lowpass=f=70,lowpass=f=70,lowpass=f=70,';
    const share = async (file: string, start: number, dur: number) => (await meanVolume(file, start, dur, hum55)) - (await meanVolume(file, start, dur));
    const speech = pages[0];
    const inExport = await share(without, speech.start, speech.end - speech.start);
    const inSource = await share(app.runtime.app.storage.localPath(row.sourceKey!)!, 0, 3);
    expect(inExport - inSource).toBeGreaterThan(4); // measured: +6.7 dB; +0 when the music is ducked away
  });
});

describe('GET /v1/projects/{id}/captions', () => {
  it('serves SRT and VTT on the cut timeline', async () => {
    const p = await shared();
    const srt = await fetch(new URL(`/v1/projects/${p.id}/captions?format=srt`, app.url), { headers: { 'x-api-key': user.key } });
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/application\/x-subrip/);
    expect(await srt.text()).toMatch(/^1\r?\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\r?\n\S/);
    const vtt = await fetch(new URL(`/v1/projects/${p.id}/captions?format=vtt`, app.url), { headers: { 'x-api-key': user.key } });
    expect(vtt.headers.get('content-type')).toMatch(/text\/vtt/);
    expect(await vtt.text()).toMatch(/^WEBVTT\s/);
    const bad = await request(app, 'GET', `/v1/projects/${p.id}/captions?format=ass`, { key: user.key });
    expect(bad).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR', details: [{ field: 'format' }] } });
  });

  it('has one cue per page of the burned-in captions: as many words as the template or theme puts on a page', async () => {
    /** [start, end, text] of each SRT cue, times in seconds */
    const cuesOf = (srt: string) =>
      srt
        .trim()
        .split(/\n\n/)
        .map((block) => {
          const [, times, ...text] = block.split('\n');
          const [a, b] = times
            .split(' --> ')
            .map((t) => t.split(/[:,]/).map(Number))
            .map(([h, m, sec, ms]) => h * 3600 + m * 60 + sec + ms / 1000);
          return { start: a, end: b, text: text.join(' ') };
        });
    /** the captions of the ASS file the export burns in, one per page */
    const burnedIn = async (id: string) => {
      const row = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id } });
      // as an export's work folder
      const dir = await fs.mkdtemp(path.join(app.dataDir, 'plan-'));
      const ass = await buildExportPlan(app.runtime.app, row, { width: 320, height: 180, fps: 30 }, dir)
        .then(({ plan }) => fs.readFile(plan.assPath!, 'utf8'))
        .finally(() => fs.rm(dir, { recursive: true, force: true }));
      return ass
        .split('\n')
        .filter((l) => l.startsWith('Dialogue:') && l.includes(',Caption,'))
        .map((l) => {
          const f = l.slice('Dialogue: '.length).split(',');
          const time = (t: string) => t.split(':').reduce((acc, x) => acc * 60 + Number(x), 0);
          return {
            start: time(f[1]),
            end: time(f[2]),
            text: f
              .slice(9)
              .join(',')
              .replace(/\{[^}]*\}/g, ''),
          };
        });
    };
    const theme = await gql(app, user.key, 'mutation($input: UserThemeInput!) { createUserTheme(input: $input) { id } }', {
      input: { name: 'One word', style: { layout: { wordsPerLine: 1 } } },
    });
    const cases = [
      { settings: { templateName: 'karaoke' }, perPage: 3 },
      { settings: {}, perPage: 2 }, // classic, the default
      { settings: { userThemeId: theme.body.data.createUserTheme.id }, perPage: 1 },
    ];
    for (const { settings, perPage } of cases) {
      const p = await transcribed(settings);
      const srt = await fetch(new URL(`/v1/projects/${p.id}/captions?format=srt`, app.url), { headers: { 'x-api-key': user.key } });
      const cues = cuesOf(await srt.text());
      const pages = await burnedIn(p.id);
      expect(
        cues.map((c) => c.text.toUpperCase()),
        JSON.stringify(settings),
      ).toEqual(pages.map((pg) => pg.text.toUpperCase()));
      cues.forEach((c, i) => {
        expect(Math.abs(c.start - pages[i].start)).toBeLessThan(0.011);
        expect(Math.abs(c.end - pages[i].end)).toBeLessThan(0.011);
      });
      const sizes = cues.map((c) => c.text.split(' ').length);
      expect(Math.max(...sizes)).toBe(perPage);
      const vtt = await fetch(new URL(`/v1/projects/${p.id}/captions?format=vtt`, app.url), { headers: { 'x-api-key': user.key } });
      expect((await vtt.text()).split(' --> ')).toHaveLength(cues.length + 1);
    }
  });
});

describe('a render that makes no progress', () => {
  it('is stopped after RENDER_STALL_MS: the export fails with the reason, its webhook and event go out, the project keeps its state', async () => {
    // a library image stored before files had to decode: four junk bytes named j.png, "ready" at 0x0.
    // Looped under the render, it never yields a frame and ffmpeg spins without writing.
    const stalling = await startTestApp({ env: { RENDER_PRESET: 'ultrafast', RENDER_STALL_MS: '1500' } });
    try {
      const u = await createUser(stalling);
      const svc = stalling.runtime.app;
      const junk = await svc.db.userMedia.create({
        data: { userId: u.id, type: 'IMAGE', status: 'ready', fileName: 'j.png', metadata: { width: 0, height: 0, fileSize: 4 } },
      });
      const key = `user-media/${junk.id}/source.png`;
      await svc.storage.put(key, Readable.from([Buffer.from([0xde, 0xad, 0xbe, 0xef])]), { contentType: 'image/png' });
      await svc.db.userMedia.update({ where: { id: junk.id }, data: { storageKey: key } });

      const created = await request(stalling, 'POST', '/v1/projects', {
        key: u.key,
        json: {
          title: 'Stall',
          language: 'en',
          videoUrl: files.url('talk.mp4'),
          autoRender: false,
          items: [{ type: 'user-media', userMediaId: junk.id, startTime: 1, endTime: 2, layout: 'square' }],
        },
      });
      expect(created.body).toMatchObject({ id: expect.any(String) });
      const id = created.body.id;
      await waitProjectOf(stalling, u.key, id, (p) => p.status === 'completed', 120_000);

      // the project is completed: follow keeps the stream open for the export to come
      const query = 'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status stage failureReason } }';
      const events = subscribeSse(stalling.url, u.key, query, { id }).then((res) =>
        readSse(
          res,
          (d) => d.projectUpdates,
          (e: any) => Boolean(e.failureReason),
        ),
      );
      events.catch(() => {}); // awaited below; a test that fails earlier stops the app under it
      const t0 = Date.now();
      const r = await request(stalling, 'POST', `/v1/projects/${id}/export`, { key: u.key, json: { width: 160, height: 120, webhookUrl: hooks.url } });
      expect(r.status).toBe(200);
      const after = await waitProjectOf(stalling, u.key, id, (p) => p.status === 'completed' && p.failureReason, 60_000);
      const took = Date.now() - t0;
      const reason = 'Export failed: the render made no progress for 1.5 s';
      expect(after).toMatchObject({ status: 'completed', failureReason: reason });
      expect(took).toBeLessThan(20_000);

      const exp = await svc.db.export.findFirstOrThrow({ where: { projectId: id } });
      expect(exp).toMatchObject({ status: 'failed', failureReason: reason, outputKey: null });
      expect((await events).at(-1)).toEqual({ status: 'completed', stage: 'failed', failureReason: reason });
      const hook = await hooks.next((h) => h.event === 'export.failed' && h.projectId === id);
      expect(hook.payload).toMatchObject({ event: 'export.failed', exportId: exp.id, status: 'failed', failureReason: reason });
      // no ffmpeg of this render is left running, and its working files are gone
      const cmdline = (pid: string) => {
        try {
          return fsSync.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        } catch {
          return ''; // gone meanwhile
        }
      };
      const cmdlines = (await fs.readdir('/proc')).filter((p) => /^\d+$/.test(p)).map(cmdline);
      expect(cmdlines.filter((c) => c.includes(`export-${exp.id}`))).toEqual([]);
      const left = await fs.readdir(path.join(stalling.dataDir, 'tmp')).catch(() => []);
      expect(left.filter((n) => n.startsWith('export-'))).toEqual([]);
    } finally {
      await stalling.stop();
    }
  }, 180_000);
});
