/**
 * `npm run bench -- load`: many users at once on the scaled-out layout of the
 * README (cluster.ts: two API servers and two workers as separate processes,
 * sharing PostgreSQL, Redis and an S3-compatible store).
 *
 * The work is a 20 s 1080x1920 talk (espeak-ng speech over a test pattern),
 * uploaded, transcribed and rendered at its own size (an upload renders once
 * transcribed, as SPEC.md says): "time to exported" runs from the upload's
 * POST to that render stored (the project completed with its downloadUrl).
 *
 * 1. bare: a plain `ffmpeg -preset veryfast` transcode of the talk at the same
 *    size, BENCH_LOAD_BARE_RUNS (default 3) in a row: the machine's render
 *    throughput, the physical limit of everything below.
 * 2. idle: one light user's talk, alone on the service.
 * 3. six at once: six users' talks uploaded together, to the last exported,
 *    against six bare transcodes in a row (run just before and just after, the
 *    mean of the two).
 *    In 2 and 3, every process on the machine is sampled every 200 ms
 *    (cpuByKind) and its CPU time summed by what it is (the workers' ffmpeg
 *    and pocketsphinx, the servers' and workers' Node, the store, PostgreSQL,
 *    Redis, this process), beside the bare transcodes' own CPU time.
 * 4. flood: a heavy user uploads ten talks, and 2 s later the light user one:
 *    the light user's time to exported against idle, and each one's queue
 *    waits (the fairness check).
 * 5. mixed: BENCH_LOAD_USERS (default 200) virtual users for
 *    BENCH_LOAD_SECONDS (default 120), each its own user with a transcribed
 *    project of its own: BENCH_LOAD_CREATORS (6) upload a talk (rendered once
 *    transcribed), edit its words, export it again and publish it (two
 *    sandbox platforms), again and again;
 *    BENCH_LOAD_LONG (2) send a 3-minute source to magic clips at the start;
 *    the others read: their project, their projects, the publications
 *    listing, presets, the library, and now and then edit their project's
 *    words (weights below, well inside each route's hourly limit), a pause of
 *    0.5-2.5 s between calls. BENCH_LOAD_SUBSCRIBERS (2,000) graphql-ws
 *    subscribers follow the users' projects across both servers meanwhile.
 *    Reported: video-seconds rendered per wall second against the bare
 *    transcode's, queue waits per class, API latency per route, errors
 *    (anything but the 429/503 of the limits), and each process's peak memory.
 *
 * BENCH_LOAD_PHASES (default `idle,six,flood,mixed`) runs some of 2-5 (the flood
 * needs idle).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { createUser } from '../src/auth/users.js';
import { createPrisma } from '../src/db/client.js';
import { JOB_CLASSES, JOB_NAMES, type JobName } from '../src/jobs/names.js';
import { connectSandboxAccount } from '../src/publishing/accounts.js';
import { createProfile } from '../src/publishing/profiles.js';
import { subscribeCrowd } from '../test/support/crowd.js';
import { syntheticTalk, TALK_SENTENCES } from '../test/support/talk.js';
import { nodeOf, startCluster, treeRssMiB, type Cluster } from './cluster.js';
import type { Row } from './row.js';
import { childrenCpu, cpuByKind, rssKiB, withPgDatabase } from './support.js';

const run = promisify(execFile);
const SECTION = 'load';
const BARE_RUNS = Number(process.env.BENCH_LOAD_BARE_RUNS ?? 3);
const USERS = Number(process.env.BENCH_LOAD_USERS ?? 200);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 120);
const CREATORS = Number(process.env.BENCH_LOAD_CREATORS ?? 6);
const LONG = Number(process.env.BENCH_LOAD_LONG ?? 2);
const SUBSCRIBERS = Number(process.env.BENCH_LOAD_SUBSCRIBERS ?? 2000);
const FLOOD = 10;
/** the bare transcode's codecs: x264 at the renders' default preset, AAC */
const BARE_CODECS = ['-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac'];
const PHASES = new Set((process.env.BENCH_LOAD_PHASES ?? 'idle,six,flood,mixed').split(',').map((p) => p.trim()));

/** A reader's calls, weighted; every limited one stays well inside its hourly limit at a call every 1.5 s on average. */
const READS: Array<{ weight: number; route: string }> = [
  { weight: 35, route: 'GET /v1/projects/{id}' },
  { weight: 20, route: 'GET /v1/projects' },
  { weight: 12, route: 'GET /v1/projects/published' },
  { weight: 12, route: 'GET /v1/presets' },
  { weight: 10, route: 'GET /v1/user-media' },
  { weight: 8, route: 'POST /graphql (project)' },
  // 100 an hour is the limit: 3 % of about 2,400 calls an hour is 72
  { weight: 3, route: 'PUT /v1/projects/{id}' },
];

interface Talk {
  file: string;
  duration: number;
}

/** What one run of the bench measured: every call's route, status and time. */
class Calls {
  readonly ms = new Map<string, number[]>();
  readonly statuses = new Map<string, Map<number, number>>();
  readonly errors: string[] = [];
  /** the calls of 2 s or more: when each started (performance.now()) and how long it took */
  readonly slow: Array<{ route: string; at: number; ms: number }> = [];
  record(route: string, status: number, ms: number, body?: string) {
    (this.ms.get(route) ?? this.ms.set(route, []).get(route)!).push(ms);
    if (ms >= 2000) this.slow.push({ route, at: performance.now() - ms, ms });
    const s = this.statuses.get(route) ?? this.statuses.set(route, new Map()).get(route)!;
    s.set(status, (s.get(status) ?? 0) + 1);
    if (status >= 400 && status !== 429 && status !== 503) this.errors.push(`${route} ${status} ${(body ?? '').slice(0, 200)}`);
  }
}

const pct = (xs: readonly number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API call timed under its route's name; the answer's JSON (or text). */
async function call(calls: Calls | null, base: string, key: string, route: string, method: string, url: string, body?: BodyInit, json?: unknown) {
  const t0 = performance.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'x-api-key': key, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : body,
  });
  const text = await res.text();
  calls?.record(route, res.status, performance.now() - t0, text);
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* text */
  }
  return { status: res.status, body: parsed };
}

/**
 * Upload → transcribed → rendered: an upload always renders once transcribed
 * (SPEC.md: it takes no autoRender), so "exported" is the project completed
 * with its downloadUrl; ms from the upload's POST to that render stored.
 * `reexport`: then the words edited and an export asked for, as a creator
 * does after reading the first cut (a second render; `ms` stays the first's).
 */
async function talkToExported(
  c: Cluster,
  calls: Calls | null,
  key: string,
  talk: Talk,
  server: number,
  title: string,
  opts: { reexport?: boolean } = {},
): Promise<{ ms: number; id: string; uploadMs: number; renders: number }> {
  const base = c.servers[server % c.servers.length].url;
  const t0 = performance.now();
  const form = new FormData();
  form.append('title', title);
  form.append('language', 'en');
  // read from the file as it is sent, as a client streams an upload (a copy in memory stalled this process's event loop)
  form.append('file', await fs.openAsBlob(talk.file, { type: 'video/mp4' }), 'talk.mp4');
  let created = await call(calls, base, key, 'POST /v1/projects/upload', 'POST', '/v1/projects/upload', form);
  for (let tries = 0; created.status === 429 || created.status === 503; tries++) {
    if (tries > 60) throw new Error(`upload refused: ${JSON.stringify(created.body)}`);
    await sleep(1000);
    created = await call(calls, base, key, 'POST /v1/projects/upload', 'POST', '/v1/projects/upload', form);
  }
  if (created.status !== 201) throw new Error(`upload: ${created.status} ${JSON.stringify(created.body)}`);
  const uploadMs = performance.now() - t0;
  const id = created.body.id as string;
  const rendered = await until(calls, base, key, id, (p) => p.status === 'completed' && !!p.downloadUrl);
  const ms = performance.now() - t0;
  if (!opts.reexport) return { ms, id, uploadMs, renders: 1 };
  const said = rendered.words as Array<{ id: string; text: string; type: string; startTime: number; endTime: number }>;
  // the first spoken word corrected (a silence's text is not drawn, so it is not an edit)
  const first = said.findIndex((w) => w.type === 'word');
  const words = said.map((w, i) => ({ id: w.id, text: i === first ? `${w.text}!` : w.text, type: w.type, startTime: w.startTime, endTime: w.endTime }));
  const edited = await call(calls, base, key, 'PUT /v1/projects/{id}', 'PUT', `/v1/projects/${id}`, undefined, { words });
  if (edited.status !== 200) throw new Error(`edit: ${edited.status} ${JSON.stringify(edited.body).slice(0, 300)}`);
  const exported = await call(calls, base, key, 'POST /v1/projects/{id}/export', 'POST', `/v1/projects/${id}/export`, undefined, {});
  if (exported.status !== 200) throw new Error(`export: ${exported.status} ${JSON.stringify(exported.body)}`);
  // each export is stored under its own key: the new render is there when the link's path changes; a failed
  // export leaves the project completed with the first render's link and its failure's reason
  const pathOf = (url: string) => new URL(url).pathname;
  const firstPath = pathOf(rendered.downloadUrl);
  await until(calls, base, key, id, (p) => {
    const again = p.status === 'completed' && !!p.downloadUrl && pathOf(p.downloadUrl) !== firstPath;
    if (!again && p.status === 'completed' && p.failureReason) throw new Error(`export of ${id} failed: ${p.failureReason}`);
    return again;
  });
  return { ms, id, uploadMs, renders: 2 };
}

/**
 * Follows the project until `done` holds, as the console does: its moves over
 * graphql-ws (projectUpdates, follow), and the project read again (GET) when
 * it completes or fails, and every 5 s should a move be missed. (Reading it
 * every 250 ms instead made six users' 4,000 reads in the six-at-once phase,
 * each a request, a key and a row: work a user following progress does not
 * make.) A failed project is an error.
 */
async function until(calls: Calls | null, base: string, key: string, id: string, done: (p: any) => boolean, timeoutMs = 900_000) {
  const client = createClient({
    url: `${base.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { 'x-api-key': key },
    retryAttempts: 5,
  });
  let moved = false;
  let wake = () => {};
  const stop = client.subscribe<{ projectUpdates: { status: string } }>(
    { query: 'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status } }', variables: { id } },
    {
      next: (m) => {
        const status = m.data?.projectUpdates.status;
        if (status === 'completed' || status === 'failed') {
          moved = true;
          wake();
        }
      },
      error: () => wake(),
      complete: () => {},
    },
  );
  try {
    for (const t0 = performance.now(); ; ) {
      moved = false;
      const r = await call(calls, base, key, 'GET /v1/projects/{id}', 'GET', `/v1/projects/${id}`);
      if (r.status === 200 && r.body.status === 'failed') throw new Error(`project ${id} failed: ${r.body.failureReason}`);
      if (r.status === 200 && done(r.body)) return r.body;
      if (performance.now() - t0 > timeoutMs) throw new Error(`project ${id}: ${JSON.stringify(r.body).slice(0, 300)}`);
      // a move heard while the project was read is read again at once
      if (!moved) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  } finally {
    stop();
    await client.dispose();
  }
}

/** Queue waits (first run's start less the job's creation) of the jobs made after `since`, by class and by user. */
async function queueWaits(db: pg.Client, since: Date) {
  const { rows } = await db.query<{ name: string; user: string | null; wait: number }>(
    `SELECT name, data->>'userId' AS user, EXTRACT(EPOCH FROM (last_run_at - created_at)) * 1000 AS wait
     FROM agenda_jobs WHERE created_at >= $1 AND last_run_at IS NOT NULL AND repeat_interval IS NULL`,
    [since],
  );
  const byClass = new Map<string, number[]>();
  const byUser = new Map<string, number[]>();
  for (const r of rows) {
    const cls = JOB_CLASSES[r.name as JobName] ?? 'other';
    (byClass.get(cls) ?? byClass.set(cls, []).get(cls)!).push(Number(r.wait));
    if (r.user) (byUser.get(r.user) ?? byUser.set(r.user, []).get(r.user)!).push(Number(r.wait));
  }
  return { byClass, byUser };
}

/**
 * Where a project's time to exported went, as means over `runs`: the upload's
 * POST, then each job's wait in the queue (its first run's start less its
 * creation) and its run (finished less started), read from the jobs table.
 */
async function breakdown(db: pg.Client, runs: ReadonlyArray<{ id: string; uploadMs: number }>): Promise<string> {
  const read = () =>
    db.query<{ name: string; wait: number | null; ran: number | null }>(
      `SELECT name, avg(EXTRACT(EPOCH FROM (last_run_at - created_at)))::float AS wait, avg(EXTRACT(EPOCH FROM (last_finished_at - last_run_at)))::float AS ran
       FROM agenda_jobs WHERE data->>'projectId' = ANY($1) AND name IN ($2, $3) GROUP BY name`,
      [runs.map((r) => r.id), JOB_NAMES.processProject, JOB_NAMES.renderExport],
    );
  // a project is exported a moment before its render job records its own finish: read again until it has
  let { rows } = await read();
  for (let i = 0; i < 50 && rows.some((r) => r.ran === null); i++) {
    await sleep(100);
    ({ rows } = await read());
  }
  const of = (name: string) => rows.find((r) => r.name === name);
  const upload = runs.reduce((sum, r) => sum + r.uploadMs, 0) / runs.length / 1000;
  const [pipeline, render] = [of(JOB_NAMES.processProject), of(JOB_NAMES.renderExport)];
  // a job with no finish recorded 5 s after its project's has no time to show
  const s = (seconds: number | null | undefined) => (seconds == null ? 'n/a' : `${seconds.toFixed(1)} s`);
  return `upload ${upload.toFixed(1)} s; pipeline waited ${s(pipeline?.wait)} and ran ${s(pipeline?.ran)}; render waited ${s(render?.wait)} and ran ${s(render?.ran)} (means)`;
}

/** Which part of the layout a process is: the virtual users, a server, a worker and its programs by name, the store, PostgreSQL, Redis. */
function kindsOf(c: Cluster) {
  const servers = new Set(c.servers.map((s) => s.child.pid!));
  const workers = new Set(c.workers.map((w) => w.pid!));
  // npm (its process titled `npm run server` and the like), the shell it runs, and node
  const node = (comm: string) => comm === 'node' || comm === 'sh' || comm.startsWith('npm');
  return (pid: number, comm: string, ancestors: readonly number[]): string => {
    if (pid === process.pid) return 'the virtual users (this process)';
    if (comm.startsWith('postgres')) return 'PostgreSQL';
    if (comm.startsWith('redis-server')) return 'Redis';
    const line = [pid, ...ancestors];
    if (line.some((p) => workers.has(p))) {
      if (node(comm)) return 'workers: Node';
      if (comm.startsWith('pocketsphinx')) return 'workers: pocketsphinx';
      return comm === 'ffmpeg' ? `workers: ffmpeg, ${ffmpegRole(pid)}` : `workers: ${comm}`;
    }
    if (line.some((p) => servers.has(p))) return node(comm) ? 'servers: Node' : `servers: ${comm}`;
    if (line.includes(c.s3.pid!)) return 'the S3 server';
    return 'the rest of the machine';
  };
}

/** `n` bare transcodes of the talk one after another: their wall time and their CPU time. */
async function bareInARow(talk: Talk, dir: string, n: number): Promise<{ ms: number; cpu: number }> {
  const t0 = performance.now();
  const c0 = childrenCpu();
  for (let i = 0; i < n; i++) {
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', talk.file, ...BARE_CODECS, path.join(dir, 'bare.mp4')]);
  }
  return { ms: performance.now() - t0, cpu: childrenCpu() - c0 };
}

/** What a worker's ffmpeg is doing, from its command line: a render encodes H.264, the sound for the speech engine is PCM, the rest reads frames or measures. */
function ffmpegRole(pid: number): string {
  let args: string[];
  try {
    args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return 'gone before it was seen';
  }
  if (args.includes('libx264')) return 'render';
  if (args.some((a) => a.startsWith('pcm_'))) return 'sound for transcription';
  return 'frames and measures';
}

/** The CPU rows of a phase: each kind's seconds, largest first, and the whole against `reference` CPU seconds. */
function cpuRows(
  row: (metric: string, value: number, unit: string, note?: string) => void,
  phase: string,
  cpu: Map<string, number>,
  reference: { cpu: number; what: string },
  wallMs: number,
) {
  const total = [...cpu.values()].reduce((a, b) => a + b, 0);
  row(
    `${phase}: CPU of every process`,
    total,
    's',
    `${(total / reference.cpu).toFixed(2)} times ${reference.what} (${reference.cpu.toFixed(1)} s); ${(total / (wallMs / 1000) / os.availableParallelism()).toFixed(2)} of the ${os.availableParallelism()} cores over ${(wallMs / 1000).toFixed(1)} s`,
  );
  for (const [kind, seconds] of [...cpu].sort((a, b) => b[1] - a[1])) {
    if (seconds >= 0.05) row(`${phase}: CPU of ${kind}`, seconds, 's', `${((seconds / total) * 100).toFixed(0)} %`);
  }
}

/** Peak resident memory of each process while `work` runs, sampled every 500 ms. */
/**
 * Each second's longest event-loop delay (ms) of both servers (their /metrics, whose histogram restarts at
 * each scrape) and of this process, while `work` runs: a stall shows as a second of seconds, where a
 * machine short of CPU shows as many seconds of tens or hundreds of milliseconds.
 */
async function eventLoopDelays<T>(c: Cluster, work: () => Promise<T>): Promise<{ result: T; delays: Record<string, number[]> }> {
  const delays: Record<string, number[]> = { 'this process (the virtual users)': [] };
  c.servers.forEach((_, i) => (delays[`server ${i + 1}`] = []));
  const own = monitorEventLoopDelay({ resolution: 10 });
  own.enable();
  let scraping = false;
  const sample = async () => {
    if (scraping) return;
    scraping = true;
    delays['this process (the virtual users)'].push(own.max / 1e6);
    own.reset();
    await Promise.all(
      c.servers.map(async (s, i) => {
        const text = await fetch(`${s.url}/metrics`).then(
          (r) => r.text(),
          () => '',
        );
        const max = Number(text.match(/^nodejs_eventloop_lag_max_seconds (\S+)$/m)?.[1]);
        if (Number.isFinite(max)) delays[`server ${i + 1}`].push(max * 1000);
      }),
    );
    scraping = false;
  };
  await sample(); // the servers' histograms start now
  for (const k of Object.keys(delays)) delays[k] = [];
  const timer = setInterval(() => void sample(), 1000);
  try {
    return { result: await work(), delays };
  } finally {
    clearInterval(timer);
    own.disable();
  }
}

async function peaks<T>(c: Cluster, work: () => Promise<T>): Promise<{ result: T; peak: Record<string, number> }> {
  const peak: Record<string, number> = {};
  const sample = () => {
    c.servers.forEach((s, i) => (peak[`server ${i + 1} (Node)`] = Math.max(peak[`server ${i + 1} (Node)`] ?? 0, rssKiB(nodeOf(s.child)) / 1024)));
    c.workers.forEach(
      (w, i) => (peak[`worker ${i + 1} (Node and its programs)`] = Math.max(peak[`worker ${i + 1} (Node and its programs)`] ?? 0, treeRssMiB(w))),
    );
    peak['this process (the virtual users)'] = Math.max(peak['this process (the virtual users)'] ?? 0, rssKiB('self') / 1024);
  };
  const timer = setInterval(sample, 500);
  try {
    return { result: await work(), peak };
  } finally {
    clearInterval(timer);
  }
}

export async function load(): Promise<Row[]> {
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, note?: string) => rows.push({ section: SECTION, metric, value, unit, ...(note ? { note } : {}) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
  try {
    // a 20 s talk at 1080x1920, and a 3-minute one at 1280x720 for magic clips
    const short = await syntheticTalk({ sentences: TALK_SENTENCES.slice(0, 4), gap: 1.2, size: '1080x1920', fps: 30, name: 'short.mp4' });
    const longTalk = await syntheticTalk({ sentences: Array.from({ length: 3 }, () => TALK_SENTENCES).flat(), size: '1280x720', fps: 30, name: 'long.mp4' });
    const talk: Talk = { file: short.path, duration: short.duration };
    const long: Talk = { file: longTalk.path, duration: longTalk.duration };
    process.stderr.write(`# load: a ${talk.duration.toFixed(1)} s talk and a ${long.duration.toFixed(0)} s source\n`);

    // 1. the machine's render throughput
    const bare: number[] = [];
    const bareCpus: number[] = [];
    for (let i = 0; i < BARE_RUNS; i++) {
      const one = await bareInARow(talk, dir, 1);
      bare.push(one.ms);
      bareCpus.push(one.cpu);
    }
    const bareMs = pct(bare, 50);
    const bareCpu = pct(bareCpus, 50);
    const bareThroughput = talk.duration / (bareMs / 1000);
    row(
      'bare veryfast transcode of the 20 s talk (median)',
      bareMs / 1000,
      's',
      `${BARE_RUNS} runs; ${bareThroughput.toFixed(2)} video-seconds a second; CPU ${bareCpu.toFixed(1)} s`,
    );

    return await withPgDatabase(async (url) => {
      const c = await startCluster(url, { env: { LOG_LEVEL: 'warn' } });
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const prisma = createPrisma(url, { max: 4 });
      try {
        const light = await c.user();
        let idleMs = Number.NaN;
        const kindOf = kindsOf(c);
        if (PHASES.has('idle')) {
          const { result: alone, cpu } = await cpuByKind(kindOf, () => talkToExported(c, null, light.apiKey, talk, 0, 'Alone'));
          idleMs = alone.ms;
          row('light user: upload to exported, idle service', idleMs / 1000, 's', await breakdown(db, [alone]));
          cpuRows(row, 'idle', cpu, { cpu: bareCpu, what: 'the bare transcode' }, idleMs);
        }
        if (PHASES.has('six')) {
          const six = await Promise.all(Array.from({ length: 6 }, () => c.user()));
          // the reference runs just before and just after, so that a machine whose speed drifts
          // (the same bare transcode has taken 5.2 to 15.2 s on different runs here) is compared with itself
          const before = await bareInARow(talk, dir, 6);
          const t6 = performance.now();
          const { result: made, cpu } = await cpuByKind(kindOf, () => Promise.all(six.map((u, i) => talkToExported(c, null, u.apiKey, talk, i, `Six ${i}`))));
          const sixMs = performance.now() - t6;
          const after = await bareInARow(talk, dir, 6);
          const sixBareMs = (before.ms + after.ms) / 2;
          for (const [when, b] of [
            ['just before', before],
            ['just after', after],
          ] as const) {
            row(`six bare transcodes in a row, ${when}`, b.ms / 1000, 's', `CPU ${b.cpu.toFixed(1)} s`);
          }
          row("six users' talks at once: to the last exported", sixMs / 1000, 's', await breakdown(db, made));
          cpuRows(row, 'six at once', cpu, { cpu: (before.cpu + after.cpu) / 2, what: 'six bare transcodes' }, sixMs);
          row(
            'six at once against six bare transcodes in a row',
            sixMs / sixBareMs,
            'ratio',
            `against the mean of the two rows above; target <= 1.6: ${sixMs / sixBareMs <= 1.6 ? 'met' : 'MISSED'} (the issue measured 2.0 on one service before fair shares and priorities)`,
          );
        }
        if (PHASES.has('flood') && PHASES.has('idle')) {
          const heavy = await c.user();
          const floodSince = new Date();
          const flood = Array.from({ length: FLOOD }, (_, i) => talkToExported(c, null, heavy.apiKey, talk, i, `Flood ${i}`));
          await sleep(2000);
          const beside = await talkToExported(c, null, light.apiKey, talk, 1, 'Beside a flood');
          row(`light user: upload to exported, 2 s after another user's ${FLOOD} uploads`, beside.ms / 1000, 's', await breakdown(db, [beside]));
          row(
            'light user beside a flood against idle',
            beside.ms / idleMs,
            'ratio',
            `target <= 2: ${beside.ms / idleMs <= 2 ? 'met' : 'MISSED'} (the issue measured 8.7 on one service before the fair claim)`,
          );
          await Promise.all(flood);
          const floodWaits = await queueWaits(db, floodSince);
          for (const [who, u] of [
            ['light user', light],
            ['heavy user', heavy],
          ] as const) {
            const w = floodWaits.byUser.get(u.id) ?? [];
            row(`queue wait during the flood, ${who}: p95`, pct(w, 95) / 1000, 's', `${w.length} jobs; p50 ${(pct(w, 50) / 1000).toFixed(1)} s`);
          }
        }
        if (PHASES.has('mixed')) rows.push(...(await mixed(c, db, prisma, talk, long, bareThroughput)));
      } finally {
        await prisma.$disconnect();
        await db.end();
        await c.stop();
      }
      return rows;
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function mixed(c: Cluster, db: pg.Client, prisma: ReturnType<typeof createPrisma>, talk: Talk, long: Talk, bareThroughput: number): Promise<Row[]> {
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, note?: string) => rows.push({ section: SECTION, metric, value, unit, ...(note ? { note } : {}) });
  const calls = new Calls();
  const words = ['Every', 'user', 'reads', 'this', 'project'].map((text, i) => ({ id: `w${i}`, text, type: 'word', startTime: i, endTime: i + 0.8 }));
  const meta = { width: 1080, height: 1920, duration: 5, fps: 30, rotation: 0, hasAudio: true, size: 1, formatName: 'mov,mp4,m4a,3gp,3g2,mj2' };

  // the users: each with a transcribed project of its own (written straight to the table)
  const users: Array<{ id: string; apiKey: string; projectId: string }> = [];
  for (let i = 0; i < USERS; i++) {
    const creator = i < CREATORS;
    const longUser = !creator && i < CREATORS + LONG;
    // made as the operator CLI makes them, without a process each
    const made = await createUser(prisma, {
      email: `load-${i}-${Date.now()}@bench.local`,
      apiCredits: 100_000,
      aiCredits: null,
      clipCredits: longUser ? 1000 : 0,
      clipsSubscription: longUser,
      apiPublishing: creator,
    });
    const u = { id: made.user.id, apiKey: made.apiKey };
    const p = await prisma.project.create({
      data: {
        userId: u.id,
        kind: 'edit',
        title: `Project of user ${i}`,
        language: 'en',
        status: 'completed',
        transcriptionStatus: 'COMPLETED',
        templateName: 'classic',
        sourceKey: 'bench/none.mp4',
        videoMeta: meta,
        transcript: words,
      },
    });
    if (creator) {
      const profile = await createProfile(prisma, u.id, { name: `Creator ${i}`, primary: true });
      for (const platform of ['microblog', 'socialnet']) await connectSandboxAccount(prisma, profile.id, { platform, isPrivate: false, followers: 100 });
    }
    users.push({ ...u, projectId: p.id });
  }

  // the subscribers: spread over the users' projects and both servers
  const perUser = Math.max(1, Math.floor(SUBSCRIBERS / users.length));
  const crowds = [];
  for (const u of users.slice(0, Math.ceil(SUBSCRIBERS / perUser))) {
    crowds.push(
      await subscribeCrowd(
        c.servers.map((s) => s.url),
        u.apiKey,
        'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status stage percent } }',
        { id: u.projectId },
        perUser,
      ),
    );
  }
  const subscribed = crowds.reduce((n, cr) => n + cr.size, 0);

  const since = new Date();
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  let renderedSeconds = 0;
  let rendersDone = 0;
  let clipsDone = 0;
  const failures: string[] = [];
  const total = READS.reduce((s, r) => s + r.weight, 0);

  const reader = async (u: (typeof users)[number], n: number) => {
    const base = c.servers[n % c.servers.length].url;
    while (performance.now() < end) {
      let pick = Math.random() * total;
      const { route } = READS.find((r) => (pick -= r.weight) < 0) ?? READS[0];
      if (route === 'GET /v1/projects/{id}') await call(calls, base, u.apiKey, route, 'GET', `/v1/projects/${u.projectId}`);
      else if (route === 'GET /v1/projects') await call(calls, base, u.apiKey, route, 'GET', '/v1/projects?limit=20');
      else if (route === 'GET /v1/projects/published') await call(calls, base, u.apiKey, route, 'GET', '/v1/projects/published?limit=25');
      else if (route === 'GET /v1/presets') await call(calls, base, u.apiKey, route, 'GET', '/v1/presets');
      else if (route === 'GET /v1/user-media') await call(calls, base, u.apiKey, route, 'GET', '/v1/user-media');
      else if (route === 'POST /graphql (project)')
        await call(calls, base, u.apiKey, route, 'POST', '/graphql', undefined, {
          query: 'query($id: ID!) { project(id: $id) { id status title } }',
          variables: { id: u.projectId },
        });
      else
        await call(calls, base, u.apiKey, route, 'PUT', `/v1/projects/${u.projectId}`, undefined, {
          words: words.map((w) => ({ ...w, text: `${w.text}${n % 2 ? '' : '!'}` })),
        });
      await sleep(500 + Math.random() * 2000);
    }
  };
  const creator = async (u: (typeof users)[number], n: number) => {
    const base = c.servers[n % c.servers.length].url;
    while (performance.now() < end) {
      try {
        const { id, renders } = await talkToExported(c, calls, u.apiKey, talk, n, `Creator ${n}`, { reexport: true });
        if (performance.now() < end + 600_000) {
          renderedSeconds += renders * talk.duration;
          rendersDone += renders;
        }
        const published = await call(calls, base, u.apiKey, 'POST /v1/projects/{id}/publish', 'POST', `/v1/projects/${id}/publish`, undefined, {
          platforms: { microblog: { content: 'New talk' }, socialnet: { content: 'New talk' } },
        });
        if (published.status !== 200 && published.status !== 429) failures.push(`publish ${published.status}`);
      } catch (e) {
        failures.push(String(e));
        await sleep(1000);
      }
    }
  };
  const clipper = async (u: (typeof users)[number], n: number) => {
    const base = c.servers[n % c.servers.length].url;
    const form = new FormData();
    form.append('title', `Long source ${n}`);
    form.append('language', 'en');
    form.append('file', await fs.openAsBlob(long.file, { type: 'video/mp4' }), 'long.mp4');
    const made = await call(calls, base, u.apiKey, 'POST /v1/projects/magic-clips/upload', 'POST', '/v1/projects/magic-clips/upload', form);
    if (made.status !== 202) return void failures.push(`magic clips ${made.status} ${JSON.stringify(made.body).slice(0, 200)}`);
    // its clips are counted as they are made, inside the window
    while (performance.now() < end) {
      await sleep(2000);
      const p = await call(calls, base, u.apiKey, 'GET /v1/projects/{id}', 'GET', `/v1/projects/${made.body.id}`);
      if (p.body?.status === 'failed') return void failures.push(`magic clips failed: ${p.body.failureReason}`);
    }
    const { rows: done } = await db.query<{ n: number; seconds: number }>(
      `SELECT count(*)::int AS n, COALESCE(sum(duration), 0)::float AS seconds FROM "MagicClip" WHERE "projectId" = $1 AND status = 'completed' AND "updatedAt" <= now()`,
      [made.body.id],
    );
    clipsDone += done[0].n;
    renderedSeconds += done[0].seconds;
  };

  const {
    result: { peak },
    delays,
  } = await eventLoopDelays(c, () =>
    peaks(c, () => Promise.all(users.map((u, i) => (i < CREATORS ? creator(u, i) : i < CREATORS + LONG ? clipper(u, i) : reader(u, i))))),
  );
  const wall = (performance.now() - t0) / 1000;
  for (const cr of crowds) cr.close();

  const waits = await queueWaits(db, since);
  row(
    'mixed: virtual users',
    USERS,
    '',
    `${CREATORS} creators (upload, edit, export again, publish), ${LONG} magic-clips sources of ${long.duration.toFixed(0)} s, ${USERS - CREATORS - LONG} readers; ${subscribed} graphql-ws subscribers over ${c.servers.length} servers`,
  );
  row('mixed: wall time', wall, 's', `${SECONDS} s of calls, then the creators' last exports`);
  row(
    'mixed: video rendered per wall second',
    renderedSeconds / wall,
    'video-s/s',
    `${rendersDone} renders of the talk and ${clipsDone} clips; the bare transcode does ${bareThroughput.toFixed(2)}: ${((renderedSeconds / wall / bareThroughput) * 100).toFixed(0)} %`,
  );
  for (const [cls, w] of waits.byClass)
    row(
      `mixed: queue wait, ${cls}`,
      pct(w, 50) / 1000,
      's',
      `p95 ${(pct(w, 95) / 1000).toFixed(2)} s, p99 ${(pct(w, 99) / 1000).toFixed(2)} s, ${w.length} jobs`,
    );
  for (const [route, ms] of [...calls.ms].sort((a, b) => b[1].length - a[1].length)) {
    const statuses = [...(calls.statuses.get(route) ?? [])].map(([s, n]) => `${s}:${n}`).join(' ');
    row(`mixed: ${route}`, pct(ms, 50), 'ms', `p99 ${pct(ms, 99).toFixed(0)} ms, ${ms.length} calls (${statuses})`);
  }
  // when the slow calls started, by 5 s of the run: a stall gathers them in a few windows, a machine short of CPU spreads them
  const slowWindows = new Map<number, number>();
  for (const c of calls.slow) {
    const window = Math.floor((c.at - t0) / 5000) * 5;
    slowWindows.set(window, (slowWindows.get(window) ?? 0) + 1);
  }
  row(
    'mixed: calls of 2 s or more',
    calls.slow.length,
    '',
    `started in ${slowWindows.size} of the run's 5 s windows: ${
      [...slowWindows]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([s, n]) => `${n} at ${s}-${s + 5} s`)
        .join(', ') || 'none'
    }`,
  );
  row(
    'mixed: errors',
    calls.errors.length + failures.length,
    '',
    [...calls.errors, ...failures].slice(0, 3).join(' | ') || 'none (429 and 503 are the limits at work)',
  );
  for (const [who, mib] of Object.entries(peak)) row(`mixed: peak memory, ${who}`, mib, 'MiB');
  for (const [who, ms] of Object.entries(delays))
    row(
      `mixed: event-loop delay, worst second, ${who}`,
      Math.max(...ms),
      'ms',
      `each second's longest: p50 ${pct(ms, 50).toFixed(0)} ms, p99 ${pct(ms, 99).toFixed(0)} ms over ${ms.length} s; ${ms.filter((d) => d >= 1000).length} s with a delay of a second or more`,
    );
  return rows;
}
