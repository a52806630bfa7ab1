// Interactive work before batch work (src/jobs/priority.ts, workers/agenda.ts): a job's programs run at
// its class's niceness, batch steps in this process wait while an interactive job uses the CPU, and a
// worker whose long jobs hold their slots still takes a delivery at once.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_VARIABLE } from '../../src/config.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import {
  busyProgramsBeside,
  interactiveRunning,
  MACHINE_ID,
  markPrograms,
  renderThreads,
  runInClass,
  SHARE_NICENESS,
  setUsersOverShare,
  usersOverShare,
  yieldToInteractive,
} from '../../src/jobs/priority.js';
import { runProgram, startProgram, type RunningProgram } from '../../src/media/program.js';
import { PROGRAM as POCKETSPHINX } from '../../src/media/transcription/pocketsphinx.js';
import { renderVideo } from '../../src/media/render/ffmpeg.js';
import { buildRenderGraph } from '../../src/media/render/graph.js';
import type { JobDefinition } from '../../workers/types.js';
import { SHARE_CHECK_MS } from '../../workers/agenda.js';
import { FairJobRepository } from '../../workers/fair-claim.js';
import { JOBS_TABLE } from '../../workers/table.js';
import pg from 'pg';
import { eventually, startTestApp, type TestApp } from '../support/app.js';

const run = promisify(execFile);
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'priority-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * The niceness of the session `pid` leads, as the scheduler weighs it against other sessions
 * (Linux's autogroup: /proc/<pid>/autogroup); null where the kernel has none.
 */
function sessionNice(pid: number): number | null {
  try {
    return Number(/nice (-?\d+)/.exec(fs.readFileSync(`/proc/${pid}/autogroup`, 'utf8'))![1]);
  } catch {
    return null;
  }
}
const withAutogroup = sessionNice(process.pid) !== null;

/** The ffmpeg processes this process started that run now: pid, arguments, and the fields of /proc/<pid>/stat from the state on. */
function ourFfmpegs(): Array<{ pid: number; args: string[]; fields: string[] }> {
  const out: Array<{ pid: number; args: string[]; fields: string[] }> = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // ppid is the 2nd of these fields
      if (comm !== 'ffmpeg' || !descendsFromUs(Number(fields[1]))) continue;
      out.push({ pid: Number(pid), args: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean), fields });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** The niceness of every ffmpeg this process started that runs now (stat's 19th field), and of its session where autogroup is on. */
const ffmpegNiceness = (): number[] => ourFfmpegs().flatMap(({ pid, fields }) => [Number(fields[16]), ...(withAutogroup ? [sessionNice(pid)!] : [])]);

/** The threads of the ffmpeg processes this process started that run now (stat's 20th field), with their arguments. */
const ffmpegThreads = (): Array<{ threads: number; args: string[] }> => ourFfmpegs().map(({ args, fields }) => ({ threads: Number(fields[17]), args }));

function descendsFromUs(ppid: number): boolean {
  for (let p = ppid, hops = 0; p > 1 && hops < 8; hops++) {
    if (p === process.pid) return true;
    const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
    p = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return false;
}

/** The render graph of a silent test pattern of `width`x`height` and `duration` s (made in the test's folder as `name`.mp4), kept whole at its size. */
async function testPatternGraph(name: string, width: number, height: number, duration: number, extra: { preview?: boolean } = {}) {
  const source = path.join(tmp, `${name}.mp4`);
  const pattern = `testsrc2=s=${width}x${height}:r=25:d=${duration}`;
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', pattern, '-c:v', 'libx264', '-preset', 'ultrafast', source]);
  return buildRenderGraph({
    source: { path: source, width, height, fps: 25, rotation: 0, duration, hasAudio: false },
    output: { width, height, fps: 25, preset: 'medium' },
    keep: [{ start: 0, end: duration }],
    zooms: [],
    overlays: [],
    audio: { clean: false, gainDb: 0, music: null },
    ...extra,
  } as never);
}

describe('a job runs in its class', () => {
  it("runs a batch job's programs at its class's niceness while an interactive job uses the CPU here, and at 0 when none does", async () => {
    const niceOf = async () => Number((await runProgram('nice', [])).stdout.trim());
    // alone, batch work keeps the normal priority: it gives way to this service's interactive work, not to the machine's
    expect(await runInClass(JOB_NAMES.renderClip, niceOf)).toBe(0);
    let release!: () => void;
    const render = runInClass(JOB_NAMES.renderExport, () => new Promise<void>((r) => (release = r)));
    try {
      expect(await runInClass(JOB_NAMES.renderClip, niceOf)).toBe(10);
      expect(await runInClass(JOB_NAMES.processMagicClips, niceOf)).toBe(10);
      expect(await runInClass(JOB_NAMES.purge, niceOf)).toBe(10);
      expect(await runInClass(JOB_NAMES.renderExport, niceOf)).toBe(0);
      expect(await runInClass(JOB_NAMES.processProject, niceOf)).toBe(0);
      expect(await niceOf()).toBe(0);
      // the class follows the job through its awaits
      expect(
        await runInClass(JOB_NAMES.renderClip, async () => {
          await new Promise((r) => setTimeout(r, 5));
          return niceOf();
        }),
      ).toBe(10);
    } finally {
      release();
      await render;
    }
    expect(await runInClass(JOB_NAMES.renderClip, niceOf)).toBe(0);
  });

  it('lowers a running batch program, every thread, when an interactive job starts here', async () => {
    const sleeper = runInClass(JOB_NAMES.processMagicClips, async () => startProgram('sleep', ['5']));
    const program = await sleeper;
    const niceOf = (pid: number) => fs.readdirSync(`/proc/${pid}/task`).map((tid) => os.getPriority(Number(tid)));
    expect(niceOf(program.pid!)).toEqual([0]);
    let release!: () => void;
    const render = runInClass(JOB_NAMES.renderExport, () => new Promise<void>((r) => (release = r)));
    expect(niceOf(program.pid!)).toEqual([10]);
    // its session with it: the scheduler weighs a session as a whole against the others (the worker's own is never lowered)
    if (withAutogroup) expect([sessionNice(program.pid!), sessionNice(process.pid)]).toEqual([10, 0]);
    release();
    await render;
    program.stop();
    await program.done.catch(() => undefined);
  });

  it("renders at its class's niceness: a batch job's render started beside an export runs at 10, alone at 0", async () => {
    const graph = await testPatternGraph('src', 320, 240, 6);
    const niceness = async (name: string, beside: boolean) => {
      let release!: () => void;
      const render = beside ? runInClass(JOB_NAMES.renderExport, () => new Promise<void>((r) => (release = r))) : null;
      const seen = new Set<number>();
      await runInClass(name, () => renderVideo(graph, path.join(tmp, `${name}.mp4`), { onProgress: () => ffmpegNiceness().forEach((n) => seen.add(n)) }));
      release?.();
      await render;
      return [...seen];
    };
    expect(await niceness(JOB_NAMES.renderClip, true)).toEqual([10]);
    expect(await niceness(JOB_NAMES.renderClip, false)).toEqual([0]);
    expect(await niceness(JOB_NAMES.renderExport, false)).toEqual([0]);
  });

  it('a batch step waits while an interactive job that uses the CPU runs here, and goes on when it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const render = runInClass(JOB_NAMES.renderExport, () => held);
    expect(interactiveRunning()).toBe(1);
    // interactive work and work outside a job never wait
    await expect(runInClass(JOB_NAMES.processProject, async () => yieldToInteractive())).resolves.toBeUndefined();
    expect(yieldToInteractive()).toBeUndefined();
    // a webhook's delivery is interactive but does not use the cores: it holds nothing back
    let delivered!: () => void;
    const delivery = runInClass(JOB_NAMES.deliverWebhook, () => new Promise<void>((r) => (delivered = r)));
    expect(interactiveRunning()).toBe(1);
    delivered();
    await delivery;
    // a batch step waits for the render
    let stepped = false;
    const step = runInClass(JOB_NAMES.renderClip, async () => {
      await yieldToInteractive();
      stepped = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stepped).toBe(false);
    release();
    await render;
    await step;
    expect(stepped).toBe(true);
    expect(interactiveRunning()).toBe(0);

    // an abort ends the wait with its reason
    let again!: () => void;
    const render2 = runInClass(JOB_NAMES.renderExport, () => new Promise<void>((r) => (again = r)));
    const stop = new AbortController();
    const waiting = runInClass(JOB_NAMES.renderClip, async () => yieldToInteractive(stop.signal));
    stop.abort(new Error('the project was deleted'));
    await expect(waiting).rejects.toThrow('the project was deleted');
    again();
    await render2;
  });
});

describe("a render's threads", () => {
  // a service of this test's own: programs of the suite's other files, running beside it, are another service's
  const database = `postgresql://someone:secret@127.0.0.1:5432/threads-${process.pid}`;
  const started: RunningProgram[] = [];
  /** An H.264 encode that runs until stopped, at the pace of its frames (little CPU), as a program of this service. */
  const encode = (extra: string[] = []) => {
    const program = startProgram('ffmpeg', [...extra, '-re', '-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=10', '-c:v', 'libx264', '-f', 'null', '-']);
    started.push(program);
    return program;
  };
  /** A program with the transcription engine's name (a script that sleeps), as a program of this service. */
  const transcribe = () => {
    const program = startProgram(path.join(tmp, POCKETSPHINX), ['60']);
    started.push(program);
    return program;
  };
  const stopAll = async () => {
    for (const p of started.splice(0)) {
      p.stop();
      await p.done.catch(() => undefined);
    }
  };
  let markBefore: string | undefined;
  beforeAll(() => {
    markBefore = process.env[SERVICE_VARIABLE];
    fs.writeFileSync(path.join(tmp, POCKETSPHINX), '#!/bin/sh\nsleep "$1"\n', { mode: 0o755 });
  });
  afterAll(async () => {
    await stopAll();
    if (markBefore === undefined) delete process.env[SERVICE_VARIABLE];
    else process.env[SERVICE_VARIABLE] = markBefore;
  });

  it("counts this service's busy programs on the machine, as much as or more than a render weighs, whoever started them", async () => {
    markPrograms(database);
    const threads = (niceness: number) => Promise.all([renderThreads(niceness, 2), renderThreads(niceness, 8)]);
    // alone: ffmpeg's own
    expect(await busyProgramsBeside(0)).toBe(0);
    expect(await threads(0)).toEqual([undefined, undefined]);
    // an encode beside it: half the cores each
    encode();
    await eventually(async () => expect(await busyProgramsBeside(0)).toBe(1), 5_000);
    expect(await threads(0)).toEqual([1, 4]);
    // a transcription counts; the sound ffmpeg hands it (no video encoded) does not
    transcribe();
    started.push(startProgram('ffmpeg', ['-re', '-f', 'lavfi', '-i', 'sine=d=60', '-f', 'null', '-']));
    await eventually(async () => expect(await busyProgramsBeside(0)).toBe(2), 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await busyProgramsBeside(0)).toBe(2);
    expect(await threads(0)).toEqual([1, 2]);
    // a batch job's encode beside an export runs at 10: it gives way to the export, and the export does not count it;
    // a batch render counts it, and the two above
    let release!: () => void;
    const exporting = runInClass(JOB_NAMES.renderExport, () => new Promise<void>((r) => (release = r)));
    try {
      await runInClass(JOB_NAMES.renderClip, async () => encode());
      await eventually(async () => expect(await busyProgramsBeside(10)).toBe(3), 5_000);
      expect(await busyProgramsBeside(0)).toBe(2);
      expect(await threads(10)).toEqual([1, 2]);
    } finally {
      release();
      await exporting;
    }
    // another process's program of this service counts (another worker on this machine); another service's does not,
    // nor a program without the mark
    const other = (mark: string | undefined) => {
      const env = { ...process.env };
      if (mark === undefined) delete env[SERVICE_VARIABLE];
      else env[SERVICE_VARIABLE] = mark;
      return spawn('ffmpeg', ['-re', '-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=10', '-c:v', 'libx264', '-f', 'null', '-'], { env, stdio: 'ignore' });
    };
    const ours = process.env[SERVICE_VARIABLE]!;
    const others = [other(ours), other('another-service'), other(undefined)];
    try {
      await eventually(async () => expect(await busyProgramsBeside(10)).toBe(4), 5_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(await busyProgramsBeside(10)).toBe(4);
    } finally {
      for (const o of others) o.kill('SIGKILL');
      await Promise.all(others.map((o) => (o.exitCode === null && o.signalCode === null ? once(o, 'exit') : undefined)));
    }
    // a program that ended counts no more
    await stopAll();
    expect(await busyProgramsBeside(19)).toBe(0);
    expect(await threads(0)).toEqual([undefined, undefined]);
    // another service's database is another mark; the credentials are not part of it, nor the default port's spelling
    markPrograms(database.replace('someone:secret', 'else:other'));
    expect(process.env[SERVICE_VARIABLE]).toBe(ours);
    markPrograms(database.replace(':5432', ''));
    expect(process.env[SERVICE_VARIABLE]).toBe(ours);
    markPrograms(`${database}-2`);
    expect(process.env[SERVICE_VARIABLE]).not.toBe(ours);
    markPrograms(database);
  });

  // on one core ffmpeg's own is about a thread a stage already
  it.skipIf(os.availableParallelism() < 2)('hands its share to ffmpeg: a render beside a busy program runs on fewer threads than alone', async () => {
    markPrograms(database);
    const graph = await testPatternGraph('threads', 640, 360, 8, { preview: true });
    const render = async (beside: boolean) => {
      if (beside) {
        encode();
        await eventually(async () => expect(await busyProgramsBeside(0)).toBe(1), 5_000);
      }
      const seen: Array<{ threads: number; args: string[] }> = [];
      const video = path.join(tmp, `threads-${beside}.mp4`);
      const expected = await renderThreads(0);
      await runInClass(JOB_NAMES.renderExport, () =>
        renderVideo(
          graph,
          { video, preview: `${video}.preview.mp4` },
          { onProgress: () => seen.push(...ffmpegThreads().filter((f) => f.args.includes(video))) },
        ),
      );
      await stopAll();
      expect(seen.length).toBeGreaterThan(0);
      return { expected, threads: Math.max(...seen.map((s) => s.threads)), args: seen[0].args };
    };
    const alone = await render(false);
    expect(alone.expected).toBeUndefined();
    expect(alone.args).not.toContain('-threads');
    const beside = await render(true);
    const share = Math.max(1, Math.floor(os.availableParallelism() / 2));
    expect(beside.expected).toBe(share);
    // the decoder's and the encoders' threads: before the input, before the video and before the preview
    const at = beside.args.flatMap((a, i) => (a === '-threads' ? [beside.args[i + 1]] : []));
    expect(at).toEqual([String(share), String(share), String(share)]);
    expect(beside.args.indexOf('-threads')).toBeLessThan(beside.args.indexOf('-i'));
    expect(beside.threads).toBeLessThan(alone.threads);
  });
});

describe('a worker whose long jobs hold their slots', () => {
  let app: TestApp;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const started: string[] = [];
  const holding = (name: string, concurrency: number): JobDefinition => ({
    name,
    concurrency,
    async handler(job) {
      started.push(`${name}:${job.attrs.data.n}`);
      await held;
    },
  });

  beforeAll(async () => {
    app = await startTestApp({
      role: 'worker',
      env: { JOB_POLL_MS: '200' },
      definitions: [
        holding(JOB_NAMES.processProject, 2),
        holding(JOB_NAMES.processMagicClips, 2),
        holding(JOB_NAMES.renderClip, 1),
        holding(JOB_NAMES.generateBroll, 1),
        {
          name: JOB_NAMES.deliverPost,
          concurrency: 4,
          async handler(job) {
            started.push(`${JOB_NAMES.deliverPost}:${job.attrs.data.n}`);
          },
        },
      ],
    });
  });
  afterAll(async () => {
    release();
    await app?.stop();
  });

  it('takes a delivery while six long jobs run (it waited for one of them to end before)', async () => {
    const { jobs } = app.runtime.app;
    for (const [name, n] of [
      [JOB_NAMES.processProject, 2],
      [JOB_NAMES.processMagicClips, 2],
      [JOB_NAMES.renderClip, 1],
      [JOB_NAMES.generateBroll, 1],
    ] as const) {
      for (let i = 0; i < n; i++) await jobs.enqueue(name, { n: i, userId: `u${i}` });
    }
    await eventually(async () => expect(started).toHaveLength(6), 20_000);
    await jobs.enqueue(JOB_NAMES.deliverPost, { n: 0 });
    await eventually(async () => expect(started).toContain(`${JOB_NAMES.deliverPost}:0`), 20_000);
  });
});

describe("users' shares of the cores", () => {
  it('counts a user over their share who runs more CPU jobs than the user running fewest; nobody when alone or alike', () => {
    expect(usersOverShare(new Map())).toEqual([]);
    expect(usersOverShare(new Map([['solo', 6]]))).toEqual([]);
    expect(
      usersOverShare(
        new Map([
          ['a', 2],
          ['b', 2],
        ]),
      ),
    ).toEqual([]);
    expect(
      usersOverShare(
        new Map([
          ['flood', 6],
          ['light', 1],
          ['mid', 2],
        ]),
      ).sort(),
    ).toEqual(['flood', 'mid']);
  });

  it("lowers a user's running programs, every thread, once they go over their share, and starts their next ones lower; others keep 0", async () => {
    const niceOf = (pid: number) => fs.readdirSync(`/proc/${pid}/task`).map((tid) => os.getPriority(Number(tid)));
    const startedBy = (user: string) => runInClass(JOB_NAMES.renderExport, async () => startProgram('sleep', ['5']), user);
    const [flood, light] = [await startedBy('flood'), await startedBy('light')];
    try {
      expect([niceOf(flood.pid!), niceOf(light.pid!)]).toEqual([[0], [0]]);
      setUsersOverShare(['flood']);
      expect([niceOf(flood.pid!), niceOf(light.pid!)]).toEqual([[SHARE_NICENESS], [0]]);
      if (withAutogroup) expect([sessionNice(flood.pid!), sessionNice(light.pid!)]).toEqual([SHARE_NICENESS, 0]);
      const next = async (user: string) => Number((await runInClass(JOB_NAMES.processProject, () => runProgram('nice', []), user)).stdout.trim());
      expect([await next('flood'), await next('light')]).toEqual([SHARE_NICENESS, 0]);
      // a program started lower leads a session started lower
      const sessionOfNext = async (user: string) =>
        Number((await runInClass(JOB_NAMES.processProject, () => runProgram('sh', ['-c', "sed 's/.*nice //' /proc/self/autogroup"]), user)).stdout.trim());
      if (withAutogroup) expect([await sessionOfNext('flood'), await sessionOfNext('light')]).toEqual([SHARE_NICENESS, 0]);
      // a batch program of a user over their share beside interactive work: both, at most 19
      let release!: () => void;
      const render = runInClass(JOB_NAMES.renderExport, () => new Promise<void>((r) => (release = r)));
      expect(Number((await runInClass(JOB_NAMES.renderClip, () => runProgram('nice', []), 'flood')).stdout.trim())).toBe(Math.min(19, 10 + SHARE_NICENESS));
      release();
      await render;
      setUsersOverShare([]);
      expect(await next('flood')).toBe(0);
    } finally {
      setUsersOverShare([]);
      for (const p of [flood, light]) p.stop();
      await Promise.all([flood.done, light.done].map((d) => d.catch(() => undefined)));
    }
  });
});

/** A worker whose `name` jobs each start a sleeping program (handed to `keep` with the job's data) and hold their slot until `held` settles. */
const holdingWorker = (name: string, held: Promise<void>, keep: (program: RunningProgram, data: Record<string, unknown>) => void) =>
  startTestApp({
    role: 'worker',
    env: { JOB_POLL_MS: '200' },
    definitions: [
      {
        name,
        concurrency: 2,
        async handler(job) {
          keep(startProgram('sleep', ['60']), job.attrs.data as Record<string, unknown>);
          await held;
        },
      },
    ],
  });

describe('two workers on one machine', () => {
  let app: TestApp;
  let pool: pg.Pool;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const programs: RunningProgram[] = [];

  beforeAll(async () => {
    app = await holdingWorker(JOB_NAMES.renderClip, held, (program) => programs.push(program));
    pool = new pg.Pool({ connectionString: app.database.url, max: 2 });
  });
  afterAll(async () => {
    release();
    for (const p of programs) p.stop();
    await pool?.end();
    await app?.stop();
  });

  /** Another worker, on `machine`, claims an export: its tag. */
  async function claimElsewhere(machine: string, tag: string) {
    await app.runtime.app.jobs.enqueue(JOB_NAMES.renderExport, { tag, userId: 'someone' });
    const other = new FairJobRepository({ pool, tableName: JOBS_TABLE, userCap: 2, machine });
    const now = new Date();
    const job = await other.getNextJobToRun(JOB_NAMES.renderExport, now, new Date(now.getTime() - 60_000), now, { lastModifiedBy: `worker-on-${machine}` });
    expect((job?.data as { tag?: string } | undefined)?.tag).toBe(tag);
    return job!;
  }

  it("lowers a batch job's programs while another worker on the same machine renders an export, not one on another machine", async () => {
    const nice = () => programs.map((p) => os.getPriority(p.pid!));
    await app.runtime.app.jobs.enqueue(JOB_NAMES.renderClip, { userId: 'batch-user' });
    await eventually(async () => expect(programs).toHaveLength(1), 20_000);
    expect(nice()).toEqual([0]);
    // an export on another machine takes none of these cores: nothing changes here
    await claimElsewhere('another-machine', 'far');
    await new Promise((r) => setTimeout(r, 2.5 * SHARE_CHECK_MS));
    expect(nice()).toEqual([0]);
    // one on this machine, by another worker: the clip's program gives way within a reading of the queue
    const near = await claimElsewhere(MACHINE_ID, 'near');
    await eventually(async () => expect(nice()).toEqual([10]), 5_000);
    if (withAutogroup) expect(sessionNice(programs[0].pid!)).toBe(10);
    // and its next program starts lower while the export runs
    await app.runtime.app.jobs.enqueue(JOB_NAMES.renderClip, { userId: 'batch-user' });
    await eventually(async () => expect(nice()).toEqual([10, 10]), 20_000);
    // a batch step in this worker waits for it too, and goes on once that export is done
    let stepped = false;
    const step = runInClass(JOB_NAMES.processMagicClips, async () => {
      await yieldToInteractive();
      stepped = true;
    });
    await new Promise((r) => setTimeout(r, 2 * SHARE_CHECK_MS));
    expect(stepped).toBe(false);
    await pool.query(`UPDATE "${JOBS_TABLE}" SET locked_at = NULL WHERE id = $1`, [String(near._id)]);
    await step;
    expect(stepped).toBe(true);
  });
});

describe('a worker with a reserve slot, between a flood and a newcomer', () => {
  let app: TestApp;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const started: string[] = [];
  const programs = new Map<string, RunningProgram>();

  beforeAll(async () => {
    app = await holdingWorker(JOB_NAMES.renderExport, held, (program, data) => {
      const tag = String(data.tag);
      started.push(tag);
      // a render's program: lowered while its user is over their share
      programs.set(tag, program);
    });
  });
  afterAll(async () => {
    release();
    for (const p of programs.values()) p.stop();
    await app?.stop();
  });

  it("starts a newcomer's render at once while a flood holds both slots, and the flood's programs give way", async () => {
    const { jobs } = app.runtime.app;
    for (let i = 0; i < 4; i++) await jobs.enqueue(JOB_NAMES.renderExport, { tag: `flood-${i}`, userId: 'flood' });
    await eventually(async () => expect(started).toEqual(['flood-0', 'flood-1']), 20_000);
    // the reserve slot is not the flood's: its third render waits
    await new Promise((r) => setTimeout(r, 1000));
    expect(started).toHaveLength(2);
    await jobs.enqueue(JOB_NAMES.renderExport, { tag: 'light', userId: 'light' });
    await eventually(async () => expect(started).toContain('light'), 5_000);
    expect(started).toHaveLength(3);
    // the flood runs two renders, the newcomer one: the flood's programs are lowered, the newcomer's are not
    const nice = (tag: string) => os.getPriority(programs.get(tag)!.pid!);
    await eventually(async () => expect([nice('flood-0'), nice('flood-1'), nice('light')]).toEqual([SHARE_NICENESS, SHARE_NICENESS, 0]), 5_000);
    if (withAutogroup) expect(['flood-0', 'flood-1', 'light'].map((tag) => sessionNice(programs.get(tag)!.pid!))).toEqual([SHARE_NICENESS, SHARE_NICENESS, 0]);
  });
});
