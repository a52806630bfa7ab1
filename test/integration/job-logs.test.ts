import http from 'node:http';
import { Writable } from 'node:stream';
import { backoffStrategies } from 'agenda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { jobs as registeredJobs } from '../../workers/registry.js';
import type { JobDefinition } from '../../workers/types.js';
import { createUser, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';

/**
 * The log a person follows at the default level (info): one line per job start
 * and finish (with its duration), stage change, status move, failure (with the
 * reason) and webhook attempt (status, next try), each naming the project.
 */

type Line = Record<string, any> & { msg: string; level: number };
const INFO = 30;

const lines: Line[] = [];
const raw: string[] = [];
const destination = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n')) if (l.trim()) raw.push(l), lines.push(JSON.parse(l));
    done();
  },
});

/** Fails its first run, then succeeds on the retry 200 ms later. */
const flaky: JobDefinition<{ projectId: string }> = {
  name: 'test.flaky-step',
  backoff: backoffStrategies.exponential({ delay: 200, factor: 1, maxRetries: 1 }),
  async handler(job) {
    if (!job.attrs.failCount) throw new Error('the source could not be reached');
  },
};

let app: TestApp;
let files: FileServer;
let user: TestUser;
/** answers 503 to a delivery's first attempt, 200 to the next */
let receiver: http.Server;
let receiverUrl: string;
const seen = new Set<string>();

const ofProject = (id: string) => lines.filter((l) => l.projectId === id && l.level >= INFO);
const until = async (what: () => boolean, ms = 30_000) => {
  for (const t0 = Date.now(); !what(); await new Promise((r) => setTimeout(r, 100))) if (Date.now() - t0 > ms) throw new Error('not logged in time');
};

beforeAll(async () => {
  const fx = await mediaFixtures();
  receiver = http.createServer((req, res) => {
    const id = String(req.headers['webhook-id']);
    req.resume().on('end', () => {
      res.statusCode = seen.has(id) ? 200 : 503;
      seen.add(id);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  [app, files] = await Promise.all([
    startTestApp({ definitions: [...registeredJobs, flaky], logDestination: destination, env: { LOG_LEVEL: 'info', WEBHOOK_RETRY_BASE_MS: '300' } }),
    serveFolder(fx.dir),
  ]);
  user = await createUser(app);
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('logs at info', () => {
  it("a project's run and its export: each job's start and finish with the duration, each stage and move once, each webhook attempt, all naming the project", async () => {
    const r = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Logged', language: 'en', videoUrl: files.url('clip.mp4'), autoRender: false },
    });
    const id = r.body.id as string;
    await waitProject(app, user.key, id, (p) => p.status === 'completed');
    const e = await request(app, 'POST', `/v1/projects/${id}/export`, { key: user.key, json: { width: 160, height: 120, webhookUrl: receiverUrl } });
    expect(e.status).toBe(200);
    const { id: exportId } = await app.runtime.app.db.export.findFirstOrThrow({ where: { projectId: id } });
    await until(() => ofProject(id).some((l) => l.msg === 'webhook delivered'));
    const mine = ofProject(id);
    const msgs = mine.map((l) => l.msg);

    const [pipeline, render] = [JOB_NAMES.processProject, JOB_NAMES.renderExport].map((job) => ({
      started: mine.find((l) => l.msg === 'job started' && l.job === job)!,
      finished: mine.find((l) => l.msg === 'job finished' && l.job === job)!,
    }));
    for (const { started, finished } of [pipeline, render]) {
      expect(started).toMatchObject({ jobId: expect.any(String), attempt: 1 });
      expect(finished.jobId).toBe(started.jobId);
      expect(finished.durationMs).toBeGreaterThan(0);
      expect(finished.durationMs).toBeLessThanOrEqual(finished.time - started.time + 5);
    }
    expect(render.started.exportId).toBe(exportId);
    expect(render.finished.exportId).toBe(exportId);

    // stages in the order they ran, none twice in a row: progress percentages are not stage changes
    const stages = mine.filter((l) => l.msg.startsWith('project stage')).map((l) => l.stage);
    expect(stages).toEqual(expect.arrayContaining(['fetch', 'probe', 'extract', 'transcribe']));
    expect(stages.indexOf('fetch')).toBeLessThan(stages.indexOf('probe'));
    expect(stages.filter((s, i) => s === stages[i - 1])).toEqual([]);
    expect(msgs.filter((m) => m.startsWith('project ') && !m.startsWith('project stage'))).toEqual([
      'project transcribing',
      'project completed',
      'project exporting',
      'project completed',
    ]);

    const attempts = mine.filter((l) => l.msg.startsWith('webhook'));
    expect(attempts.map((l) => l.msg)).toEqual(['webhook attempt failed; retrying', 'webhook delivered']);
    expect(attempts[0]).toMatchObject({
      event: 'export.completed',
      subjectId: exportId,
      attempt: 1,
      statusCode: 503,
      outcome: 'retrying',
      error: expect.stringMatching(/503/),
      nextAttemptAt: expect.any(String),
    });
    expect(attempts[1]).toMatchObject({ event: 'export.completed', subjectId: exportId, attempt: 2, statusCode: 200, outcome: 'delivered' });
    // a person reads the run in a screenful; no line names an id twice (a job's bindings and the line's own)
    expect(mine.length).toBeLessThan(25);
    const twice = raw.filter((l) => l.includes(id) && ['projectId', 'exportId', 'jobId', 'deliveryId'].some((k) => l.split(`"${k}":`).length > 2));
    expect(twice).toEqual([]);
  });

  it('a failed project: the move to failed with its reason', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: { title: 'Not a video', language: 'en', videoUrl: files.url('noise.bin') } });
    const id = r.body.id as string;
    await waitProject(app, user.key, id, (p) => p.status === 'failed');
    await until(() => ofProject(id).some((l) => l.msg === 'job finished'));
    expect(ofProject(id).find((l) => l.msg === 'project failed')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/not an mp4 or mov video/) });
  });

  it("a job's failed run: the reason, then the retry and when it comes", async () => {
    const projectId = crypto.randomUUID();
    await app.runtime.app.jobs.enqueue(flaky.name, { projectId });
    await until(() => lines.some((l) => l.projectId === projectId && l.msg === 'job finished'));
    const mine = ofProject(projectId);
    expect(mine.map((l) => l.msg)).toEqual(['job started', 'job failed', 'job retry scheduled', 'job started', 'job finished']);
    expect(mine[1]).toMatchObject({ job: flaky.name, attempt: 1, reason: 'the source could not be reached', durationMs: expect.any(Number) });
    expect(mine[2]).toMatchObject({ attempt: 2, nextRunAt: expect.any(String) });
    expect(mine[3]).toMatchObject({ attempt: 2 });
  });

  it('recurring sweeps stay out of the info log', () => {
    const recurring = [JOB_NAMES.projectWatchdog, JOB_NAMES.sweepWebhooks, JOB_NAMES.purge];
    expect(lines.filter((l) => l.level >= INFO && recurring.includes(l.job) && l.msg.startsWith('job '))).toEqual([]);
  });
});
