import { backoffStrategies } from 'agenda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, PROJECT_STEP_JOB_NAMES } from '../../src/jobs/names.js';
import { DEFAULT_CAPTION_TEMPLATE } from '../../src/catalog/caption-templates.js';
import { publishProject } from '../../src/projects/state.js';
import { jobs as registeredJobs } from '../../workers/registry.js';
import type { JobDefinition } from '../../workers/types.js';
import { createUser, gql, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';
import { followSse } from '../support/sse.js';
import { followWs } from '../support/ws.js';

/**
 * Live progress that ends: projectUpdates ends after the event that leaves no
 * work running unless `follow: true`, and jobEvents is reachable (Project.jobId,
 * Export.jobId) and ends after its job's last run; over SSE and graphql-ws.
 */

type Update = { status: string; stage: string | null; failureReason: string | null };
type JobEvent = { jobId: string; jobName: string; type: string; progress: number | null; error: string | null };

const UPDATES = 'subscription($id: ID!, $follow: Boolean) { projectUpdates(projectId: $id, follow: $follow) { status stage failureReason } }';
const JOB_EVENTS = 'subscription($id: ID!) { jobEvents(jobId: $id) { jobId jobName type progress error } }';
const pickUpdate = (d: Record<string, any>) => d.projectUpdates as Update;
const pickJob = (d: Record<string, any>) => d.jobEvents as JobEvent;

/** Fails on its first run, succeeds on its retry 200 ms later. */
const flaky: JobDefinition<{ userId: string }> = {
  name: 'test.flaky',
  backoff: backoffStrategies.exponential({ delay: 200, factor: 1, maxRetries: 1 }),
  async handler(job) {
    await new Promise((r) => setTimeout(r, 300));
    if (!job.attrs.failCount) throw new Error('the first run fails');
  },
};

let app: TestApp;
let files: FileServer;
let user: TestUser;

const follow = (id: string, vars: Record<string, unknown> = {}, until?: (e: Update) => boolean, withinMs = 60_000) =>
  Promise.all([
    followSse(app.url, user.key, UPDATES, { id, ...vars }, pickUpdate, { until, withinMs }),
    followWs(app.url, user.key, UPDATES, { id, ...vars }, pickUpdate, { until, withinMs }),
  ]);

const create = async (file = 'clip.mp4') => {
  const r = await request(app, 'POST', '/v1/projects', {
    key: user.key,
    json: { title: 'Live', language: 'en', videoUrl: files.url(file), autoRender: false },
  });
  expect(r.status).toBe(201);
  return r.body.id as string;
};

beforeAll(async () => {
  const fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp({ definitions: [...registeredJobs, flaky], env: { RENDER_PRESET: 'ultrafast' } }), serveFolder(fx.dir)]);
  user = await createUser(app);
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
});

describe('projectUpdates ends when no work is left', () => {
  it('ends after completed, over SSE and WebSocket, with nothing after it', async () => {
    const id = await create();
    for (const { events, ended } of await follow(id)) {
      expect(ended).toBe('server');
      expect(events.at(-1)).toMatchObject({ status: 'completed', stage: 'done' });
      expect(events.filter((e) => e.status === 'completed')).toHaveLength(1);
    }
  });

  it('a project already completed gives its state, then the stream ends', async () => {
    const id = await create();
    await waitProject(app, user.key, id, (p) => p.status === 'completed');
    for (const { events, ended } of await follow(id)) {
      expect(ended).toBe('server');
      expect(events).toEqual([{ status: 'completed', stage: 'done', failureReason: null }]);
    }
  });

  it('with follow: true it stays open after completed: an export is heard on the same stream', async () => {
    const id = await create();
    await waitProject(app, user.key, id, (p) => p.status === 'completed');
    let exporting = false;
    const until = (e: Update) => (exporting ||= e.status === 'exporting') && e.status === 'completed';
    const streams = follow(id, { follow: true }, until);
    // both streams have heard the current state before the export starts
    await new Promise((r) => setTimeout(r, 1000));
    const r = await request(app, 'POST', `/v1/projects/${id}/export`, { key: user.key, json: { width: 160, height: 120 } });
    expect(r.status).toBe(200);
    for (const { events, ended } of await streams) {
      expect(ended).toBe('until');
      expect(events[0]).toMatchObject({ status: 'completed', stage: 'done' });
      expect(events.map((e) => e.status)).toContain('exporting');
      expect(events.at(-1)).toMatchObject({ status: 'completed', stage: 'done' });
    }
  });

  it('ends after failed when no job of the project waits; stays open while one does', async () => {
    const id = await create('noise.bin');
    for (const { events, ended } of await follow(id)) {
      expect(ended).toBe('server');
      expect(events.at(-1)).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/not an mp4 or mov video/) });
    }
    // a run of the pipeline waits (as a retry would): the failure is not the end yet
    const db = app.runtime.app.db;
    await app.runtime.app.jobs.enqueue(JOB_NAMES.processProject, { projectId: id, userId: user.id }, { at: new Date(Date.now() + 60_000) });
    const streams = follow(id, {}, (e) => e.failureReason === 'told again', 10_000);
    await new Promise((r) => setTimeout(r, 1000));
    publishProject(app.runtime.app, await db.project.update({ where: { id }, data: { failureReason: 'told again' } }));
    for (const { events, ended } of await streams) {
      expect(ended).toBe('until');
      expect(events.map((e) => e.failureReason)).toEqual([expect.stringMatching(/not an mp4/), 'told again']);
    }
  });
});

describe('jobEvents: reachable from the project and the export, ending with the job', () => {
  it("follows a project's pipeline job to its complete, then ends; a late subscriber gets the complete at once", async () => {
    const id = await create();
    const q = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { jobId } }', { id });
    const jobId = q.body.data!.project.jobId as string;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const live = await Promise.all([
      followSse(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob),
      followWs(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob),
    ]);
    for (const { events, ended } of live) {
      expect(ended).toBe('server');
      expect(events.at(-1)).toMatchObject({ jobId, jobName: JOB_NAMES.processProject, type: 'complete', error: null });
    }
    expect((await waitProject(app, user.key, id, (p) => p.status !== 'processing' && p.status !== 'transcribing')).status).toBe('completed');
    for (const { events, ended } of [
      await followSse(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob),
      await followWs(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob),
    ]) {
      expect(ended).toBe('server');
      expect(events).toEqual([{ jobId, jobName: JOB_NAMES.processProject, type: 'complete', progress: null, error: null }]);
    }
  });

  it('exportProject and the export name the render job; its events end with its complete', async () => {
    const id = await create();
    await waitProject(app, user.key, id, (p) => p.status === 'completed');
    const started = await gql(app, user.key, 'mutation($id: ID!) { exportProject(id: $id, input: { width: 160, height: 120 }) { exportId jobId } }', { id });
    const { exportId, jobId } = started.body.data!.exportProject;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const events = await followWs(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob, { withinMs: 60_000 });
    expect(events.ended).toBe('server');
    expect(events.events.at(-1)).toMatchObject({ jobName: JOB_NAMES.renderExport, type: 'complete', error: null });
    const q = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { status jobId exports { id status jobId } } }', { id });
    expect(q.body.data!.project).toEqual({ status: 'completed', jobId, exports: [{ id: exportId, status: 'completed', jobId }] });
  });

  it('a failed run with a retry to come is followed to the retry, and the stream ends after it', async () => {
    const jobId = await app.runtime.app.jobs.enqueue(flaky.name, { userId: user.id }, { at: new Date(Date.now() + 1000) });
    const [sse, ws] = await Promise.all([
      followSse(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob),
      followWs(app.url, user.key, JOB_EVENTS, { id: jobId }, pickJob),
    ]);
    for (const { events, ended } of [sse, ws]) {
      expect(ended).toBe('server');
      const types = events.map((e) => e.type);
      expect(types.filter((t) => t === 'start')).toHaveLength(2);
      expect(types.slice(0, types.indexOf('complete') + 1)).toEqual(['start', 'fail', 'retry', 'complete']);
      expect(events.find((e) => e.type === 'fail')!.error).toBe('the first run fails');
      expect(types.slice(-2)).toEqual(['success', 'complete']);
    }
  });

  it("a page of projects names each one's job, and each export's, as the project alone does, in one lookup for the page", async () => {
    const core = app.runtime.app;
    // a completed project with an export, and a job of it waiting to run (it comes before the finished one);
    // a project whose pipeline waits to run; one with no job at all; and what the tests above left
    const done = await create();
    await waitProject(app, user.key, done, (p) => p.status === 'completed');
    const exported = await core.db.export.create({ data: { projectId: done, width: 160, height: 120, fps: 15, status: 'completed' } });
    const later = new Date(Date.now() + 3_600_000);
    const project = (title: string) =>
      core.db.project.create({ data: { userId: user.id, title, language: 'en', templateName: DEFAULT_CAPTION_TEMPLATE.name, status: 'processing' } });
    const [pending, bare] = await Promise.all([project('Queued'), project('No job')]);
    const waiting = await Promise.all(
      [done, pending.id].map((id) => core.jobs.enqueue(JOB_NAMES.processProject, { projectId: id, userId: user.id }, { at: later })),
    );

    const lookups: string[] = [];
    const batched = core.jobs.currentJobIds;
    core.jobs.currentJobIds = (subject, ids, names) => (lookups.push(subject), batched.call(core.jobs, subject, ids, names));
    try {
      const page = await gql(app, user.key, '{ projects(first: 50) { edges { node { id jobId exports { id jobId } } } } }');
      const nodes = page.body.data!.projects.edges.map((e: any) => e.node);
      expect(lookups.sort()).toEqual(['exportId', 'projectId']);
      expect(nodes.find((n: any) => n.id === done)).toEqual({ id: done, jobId: waiting[0], exports: [{ id: exported.id, jobId: null }] });
      expect(nodes.find((n: any) => n.id === pending.id).jobId).toBe(waiting[1]);
      expect(nodes.find((n: any) => n.id === bare.id).jobId).toBeNull();
      // each as the project asked alone names it
      for (const n of nodes) {
        const alone = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { id jobId exports { id jobId } } }', { id: n.id });
        expect(alone.body.data!.project).toEqual(n);
        expect(n.jobId).toBe((await core.jobs.jobsFor({ projectId: n.id }, PROJECT_STEP_JOB_NAMES))[0]?.id ?? null);
      }
    } finally {
      core.jobs.currentJobIds = batched;
      await core.db.$executeRawUnsafe(`DELETE FROM agenda_jobs WHERE id::text = ANY($1::text[])`, waiting);
      await core.db.project.deleteMany({ where: { id: { in: [pending.id, bare.id] } } });
    }
  });

  it("another user's project job is NOT_FOUND", async () => {
    const id = await create();
    const jobId = (await gql(app, user.key, 'query($id: ID!) { project(id: $id) { jobId } }', { id })).body.data!.project.jobId;
    const other = await createUser(app);
    await expect(followWs(app.url, other.key, JOB_EVENTS, { id: jobId }, pickJob)).rejects.toThrow(/NOT_FOUND/);
  });
});

describe('subscribers who ask alike share one execution of each event', () => {
  /** graphql_subscription_events_total of this process, by answer */
  const answered = async () => {
    const text = await (await fetch(new URL('/metrics', app.url))).text();
    const count = (answer: string) => Number(text.match(new RegExp(`graphql_subscription_events_total\\{answer="${answer}"\\} (\\d+)`))?.[1] ?? 0);
    return { executed: count('executed'), shared: count('shared') };
  };

  it('five alike followers get one answer per move, a follower of another selection its own, each the fields it asked', async () => {
    const id = await create();
    await waitProject(app, user.key, id, (p) => p.status === 'completed');
    const OTHER = 'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status percent } }';
    const before = await answered();
    const heard: Array<Array<Record<string, unknown>>> = [];
    /** completed again, after the current state's completed */
    const done = (i: number) => (e: Record<string, unknown>) => heard[i].length > 1 && e.status === 'completed';
    const followers = [
      ...Array.from({ length: 5 }, (_, i) =>
        followWs(app.url, user.key, UPDATES, { id, follow: true }, (d) => ((heard[i] ??= []).push(d.projectUpdates), d.projectUpdates), {
          until: done(i),
        }),
      ),
      followWs(app.url, user.key, OTHER, { id }, (d) => ((heard[5] ??= []).push(d.projectUpdates), d.projectUpdates), {
        until: done(5),
      }),
    ];
    // every follower has the current state before the project moves
    for (const t0 = Date.now(); heard.filter(Boolean).length < 6; ) {
      if (Date.now() - t0 > 10_000) throw new Error(`${heard.filter(Boolean).length} of 6 followers heard the current state`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await request(app, 'POST', `/v1/projects/${id}/export`, { key: user.key, json: {} })).status).toBe(200);
    await Promise.all(followers);

    // the moves: exporting, then completed; each follower heard them in order, with the fields it asked for
    for (const events of heard.slice(0, 5)) {
      expect(events.map((e) => e.status)).toEqual(heard[0].map((e) => e.status));
      expect(Object.keys(events[0]).sort()).toEqual(['failureReason', 'stage', 'status']);
    }
    expect(heard[0].map((e) => e.status)).toEqual(['completed', 'exporting', ...heard[0].slice(2).map(() => expect.any(String))]);
    expect(heard[0].at(-1)).toMatchObject({ status: 'completed', stage: 'done' });
    expect(heard[5].map((e) => e.status)).toEqual(heard[0].map((e) => e.status));
    expect(Object.keys(heard[5][0]).sort()).toEqual(['percent', 'status']);

    // each follower's current state is its own answer; every move after it was executed once per selection
    const moves = heard[0].length - 1;
    const after = await answered();
    expect(after.executed - before.executed).toBe(6 + 2 * moves);
    expect(after.shared - before.shared).toBe(4 * moves);
  });
});
