// The program runner (src/media/program.ts) with real programs: what a run gives back, how it
// fails, and that nothing it started outlives it: not its time limit, not its abort, not the
// death of the process that started it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProgramError, runFfmpegCommand, runProgram, runProgramSync, startProgram, STDERR_TAIL } from '../../src/media/program.js';
import { ROOT } from '../support/process.js';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'program-runner-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Whether a process still runs (a zombie waiting for its parent does not). */
async function running(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** Waits until every pid has ended; a loaded machine may take a moment to take a killed process off its table. */
async function ended(pids: number[], ms = 3000) {
  const until = Date.now() + ms;
  for (const pid of pids) {
    while (await running(pid)) {
      if (Date.now() > until) expect.fail(`process ${pid} still runs`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** The error a run that must fail rejects with. */
const failure = (run: Promise<unknown>) =>
  run.then(
    () => expect.fail('the run succeeded'),
    (e: unknown) => e as ProgramError,
  );

/** A shell that prints its pid and its background sleep's, then waits on the sleep. */
const SHELL_AND_SLEEP = 'echo $$; sleep 30 & echo $!; wait';

/** Starts SHELL_AND_SLEEP and resolves with its two pids once both are printed. */
function shellAndSleep(options: Parameters<typeof startProgram>[2] = {}) {
  const pids: number[] = [];
  let printed!: () => void;
  const both = new Promise<void>((resolve) => (printed = resolve));
  const run = startProgram('sh', ['-c', SHELL_AND_SLEEP], {
    ...options,
    stdout: (line) => {
      pids.push(Number(line));
      if (pids.length === 2) printed();
    },
  });
  return { run, pids, both };
}

describe('a run', () => {
  it('gives what the program wrote on stdout, and its lines as they come', async () => {
    expect(await runProgram('sh', ['-c', 'printf "one\\ntwo"; echo oops >&2'])).toEqual({ stdout: 'one\ntwo', stderr: 'oops\n' });
    const lines: string[] = [];
    const errors: string[] = [];
    await runProgram('sh', ['-c', 'printf "a\\r\\nb\\nc"; printf "x\\ny" >&2'], { stdout: (l) => lines.push(l), onStderrLine: (l) => errors.push(l) });
    expect(lines).toEqual(['a', 'b', 'c']);
    expect(errors).toEqual(['x', 'y']);
    // the caller's environment and folder
    expect((await runProgram('sh', ['-c', 'echo "$GREETING $(pwd)"'], { cwd: dir, env: { ...process.env, GREETING: 'hello' } })).stdout.trim()).toBe(
      `hello ${await fs.realpath(dir)}`,
    );
  });

  it('hands stdout over as a stream read at the caller pace', async () => {
    const run = startProgram(
      'ffmpeg',
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=s=64x48:r=10',
        '-frames:v',
        '25',
        '-pix_fmt',
        'rgb24',
        '-f',
        'rawvideo',
        'pipe:1',
      ],
      {
        stdout: 'stream',
      },
    );
    let bytes = 0;
    for await (const chunk of run.stdout! as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      // a slow reader: ffmpeg waits for it rather than the output piling up
      await new Promise((r) => setTimeout(r, 2));
    }
    await run.done;
    expect(bytes).toBe(25 * 64 * 48 * 3);
  });

  it('quotes the last lines of stderr in the error of a failed exit, and keeps a bounded tail', async () => {
    const script = 'echo partial; i=1; while [ $i -le 9 ]; do echo "line $i" >&2; i=$((i+1)); done; exit 3';
    const e = await failure(runProgram('sh', ['-c', script]));
    expect(e).toBeInstanceOf(ProgramError);
    expect(e).toMatchObject({ program: 'sh', failure: 'exit', code: 3, signal: null, stdout: 'partial\n' });
    expect(e.message).toBe('sh exited with code 3: line 5 | line 6 | line 7 | line 8 | line 9');
    expect(e.stderr).toBe([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `line ${i}\n`).join(''));

    // fewer lines quoted when asked; what is quoted and kept is redacted first
    const quiet = await failure(
      runProgram('sh', ['-c', 'echo "https://store.example/a.mp4?X-Sig=secret" >&2; echo two >&2; exit 1'], {
        quoteLines: 1,
        redact: (t) => t.replace(/\?\S*/g, ''),
      }),
    );
    expect(quiet.message).toBe('sh exited with code 1: two');
    expect(quiet.stderr).not.toContain('secret');

    // a flood of stderr: only its end is kept
    const flood = await failure(
      runProgram('sh', ['-c', 'i=0; while [ $i -lt 3000 ]; do echo "noise $i" >&2; i=$((i+1)); done; echo "the last word" >&2; exit 1']),
    );
    expect(flood.stderr.length).toBeLessThanOrEqual(STDERR_TAIL);
    expect(flood.stderr.endsWith('the last word\n')).toBe(true);
    expect(flood.message).toMatch(/ \| the last word$/);

    // killed by a signal it did not get from the runner
    await expect(runProgram('sh', ['-c', 'echo going >&2; kill -s TERM $$'])).rejects.toMatchObject({
      failure: 'exit',
      code: null,
      signal: 'SIGTERM',
      message: 'sh was killed by SIGTERM: going',
    });
  });

  it('says when the program is not installed, or cannot start', async () => {
    await expect(runProgram('no-such-program-here', [])).rejects.toMatchObject({
      failure: 'missing',
      message: 'no-such-program-here is not installed or not on PATH',
    });
    const plain = path.join(dir, 'not-executable');
    await fs.writeFile(plain, 'echo hi\n', { mode: 0o644 });
    const e = await failure(runProgram(plain, []));
    expect(e).toBeInstanceOf(ProgramError);
    expect(e.failure).toBe('unstartable');
    expect(e.message).toMatch(/^not-executable could not start: .*EACCES/);
    expect((e.cause as NodeJS.ErrnoException).code).toBe('EACCES');
  });

  it('kills the whole group at its time limit', async () => {
    const { run, pids, both } = shellAndSleep({ timeoutMs: 800 });
    await both;
    const started = Date.now();
    await expect(run.done).rejects.toMatchObject({ name: 'ProgramError', failure: 'timeout', message: 'sh timed out after 800 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
    await ended(pids);
  });

  it('kills the whole group when its signal aborts, and rejects with the reason', async () => {
    const controller = new AbortController();
    const { run, pids, both } = shellAndSleep({ signal: controller.signal });
    await both;
    expect(run.running).toBe(true);
    controller.abort(new Error('shutting down'));
    await expect(run.done).rejects.toThrow('shutting down');
    expect(run.running).toBe(false);
    await ended(pids);

    // an aborted signal starts nothing
    const before = AbortSignal.abort(new Error('too late'));
    const never = startProgram('sh', ['-c', 'exit 0'], { signal: before });
    expect(never.pid).toBeUndefined();
    await expect(never.done).rejects.toThrow('too late');
  });

  it('kills the group when stdout runs past its limit, or a line consumer throws', async () => {
    const tooMuch = await failure(runProgram('sh', ['-c', 'echo $$; while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done'], { maxStdout: 64 * 1024 }));
    expect(tooMuch).toMatchObject({ failure: 'output', message: 'sh wrote more than 65536 characters' });
    expect(tooMuch.stdout.length).toBeGreaterThan(64 * 1024);
    await ended([Number(tooMuch.stdout.split('\n')[0])]);

    const pids: number[] = [];
    const run = startProgram('sh', ['-c', SHELL_AND_SLEEP], {
      stdout: (line) => {
        pids.push(Number(line));
        if (pids.length === 2) throw new Error('cannot read that');
      },
    });
    await expect(run.done).rejects.toThrow('cannot read that');
    await ended(pids);
  });

  it('leaves nothing of its group running once the program has ended', async () => {
    // the background sleep keeps the pipes open: the run would wait for it to its end
    const started = Date.now();
    const { stdout } = await runProgram('sh', ['-c', 'sleep 30 & echo $!']);
    expect(Date.now() - started).toBeLessThan(3000);
    await ended([Number(stdout)]);
  });

  it('asks the program alone to end with terminate, then takes what it left', async () => {
    const script = 'trap "echo bye >&2; exit 0" TERM; echo $$; sleep 30 & echo $!; while :; do wait; done';
    const pids: number[] = [];
    let printed!: () => void;
    const both = new Promise<void>((resolve) => (printed = resolve));
    const run = startProgram('sh', ['-c', script], {
      stdout: (line) => {
        pids.push(Number(line));
        if (pids.length === 2) printed();
      },
    });
    await both;
    run.terminate();
    // it ended as it chose to: its own exit, after its own last word
    expect(await run.done).toEqual({ stdout: '', stderr: 'bye\n' });
    await ended(pids);
  });

  it('runs a short program to its end synchronously, with the same errors', () => {
    expect(runProgramSync('sh', ['-c', 'echo fonts; echo warn >&2'])).toEqual({ stdout: 'fonts\n', stderr: 'warn\n' });
    expect(() => runProgramSync('sh', ['-c', 'echo broken >&2; exit 2'])).toThrow('sh exited with code 2: broken');
    expect(() => runProgramSync('sh', ['-c', 'sleep 5'], { timeoutMs: 300 })).toThrow('sh timed out after 300 ms');
    expect(() => runProgramSync('no-such-program-here', [])).toThrow('no-such-program-here is not installed or not on PATH');
  });
});

describe('a fluent-ffmpeg command', () => {
  const endless = () => ffmpeg().input('testsrc2=s=64x48:r=10').inputOptions(['-re', '-f', 'lavfi']).outputOptions(['-f', 'null']).output('-');

  it('is killed by its signal and at its time limit', async () => {
    const controller = new AbortController();
    const run = runFfmpegCommand(endless(), { signal: controller.signal });
    // fluent-ffmpeg asks ffmpeg for its formats before it starts the command
    while (run.pid === undefined) await new Promise((r) => setTimeout(r, 50));
    const pid = run.pid;
    expect(await running(pid)).toBe(true);
    controller.abort();
    await expect(run.done).rejects.toMatchObject({ name: 'AbortError' });
    await ended([pid]);

    const timed = runFfmpegCommand(endless(), { timeoutMs: 600 });
    await expect(timed.done).rejects.toMatchObject({ failure: 'timeout', message: 'ffmpeg timed out after 600 ms' });
    await ended([timed.pid!]);
  });

  it('hands over stdout lines and fails with the tail of stderr', async () => {
    const lines: string[] = [];
    const progress = ffmpeg()
      .input('testsrc2=s=64x48:r=10:d=1')
      .inputOptions(['-f', 'lavfi'])
      .outputOptions(['-f', 'null', '-progress', 'pipe:1', '-nostats'])
      .output('-');
    await runFfmpegCommand(progress, { onStdoutLine: (l) => lines.push(l) }).done;
    expect(lines).toContain('progress=end');

    const missing = path.join(dir, 'missing.mp4');
    const e = await failure(runFfmpegCommand(ffmpeg().input(missing).outputOptions(['-f', 'null', '-loglevel', 'error']).output('-')).done);
    expect(e).toBeInstanceOf(ProgramError);
    expect(e).toMatchObject({ failure: 'exit', code: expect.any(Number) });
    expect(e.code).not.toBe(0);
    expect(e.stderr).toContain('missing.mp4');
    expect(e.message).toMatch(/^ffmpeg exited with code \d+: .*missing\.mp4/);
  });
});

describe('the process that started a run', () => {
  it('takes every program it started when it dies, SIGKILL and all', async () => {
    const parent = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/program-parent.ts'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the parent did not start its programs:\n${out}`)), 30_000);
        parent.stdout!.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (/^ready$/m.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
        parent.once('exit', (code) => reject(new Error(`the parent exited with ${code}:\n${out}`)));
      });
      const pid = (kind: string) => Number(new RegExp(`^${kind} (\\d+)$`, 'm').exec(out)![1]);
      const programs = [pid('shell'), pid('sleep'), pid('ffmpeg')];
      for (const p of programs) expect(await running(p), `process ${p}`).toBe(true);
      // the group keeper: the parent's shell that reads its list of groups
      const keepers = (await fs.readdir('/proc'))
        .filter((p) => /^\d+$/.test(p))
        .map(Number)
        .filter((p) => ppidOf(p) === parent.pid && cmdlineOf(p).includes('while read -r op pid'));
      expect(keepers).toHaveLength(1);

      parent.kill('SIGKILL');
      await ended([...programs, ...keepers]);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

function ppidOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
