// The program runner's parts that need no program: how errors read, what is kept of stderr,
// how output splits into lines, how a program is tied to this process. Runs of real programs
// are in test/integration/program-runner.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  eachLine,
  exitMessage,
  findExecutable,
  lastLines,
  ProgramError,
  startError,
  startProgram,
  STDERR_TAIL,
  TextTail,
  tiedToThisProcess,
} from '../../src/media/program.js';

describe('the program runner', () => {
  it('quotes the last non-empty lines of stderr after how the program ended', () => {
    expect(lastLines('a\n\nb\r\nc\rd\n  \n', 3)).toEqual(['b', 'c', 'd']);
    expect(exitMessage('ffmpeg', 1, null, 'one\ntwo\nthree\nfour\nfive\nsix\n')).toBe('ffmpeg exited with code 1: two | three | four | five | six');
    expect(exitMessage('ffmpeg', null, 'SIGSEGV', 'crash\n', 3)).toBe('ffmpeg was killed by SIGSEGV: crash');
    expect(exitMessage('espeak-ng', 2, null, '\n')).toBe('espeak-ng exited with code 2');
  });

  it('tells a program not installed from one that would not start', () => {
    const missing = startError('yt-dlp', Object.assign(new Error('spawn yt-dlp ENOENT'), { code: 'ENOENT' }));
    expect(missing).toBeInstanceOf(ProgramError);
    expect(missing).toMatchObject({ failure: 'missing', program: 'yt-dlp', message: 'yt-dlp is not installed or not on PATH' });
    const denied = startError('yt-dlp', Object.assign(new Error('spawn yt-dlp EACCES'), { code: 'EACCES' }));
    expect(denied).toMatchObject({ failure: 'unstartable', message: 'yt-dlp could not start: spawn yt-dlp EACCES' });
    expect((denied.cause as NodeJS.ErrnoException).code).toBe('EACCES');
  });

  it('keeps a bounded tail of what is written', () => {
    const tail = new TextTail(10);
    tail.add('0123456789');
    tail.add('abc');
    expect(String(tail)).toBe('3456789abc');
    const big = new TextTail();
    for (let i = 0; i < 1000; i++) big.add(`line ${i}\n`);
    expect(String(big)).toHaveLength(STDERR_TAIL);
    expect(String(big).endsWith('line 999\n')).toBe(true);
  });

  it('splits output into lines as it comes, the unfinished last one at its end', () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    eachLine(stream, (l) => lines.push(l));
    stream.write('frame=1\rframe=2\r\nout_time_us=');
    expect(lines).toEqual(['frame=1', 'frame=2']);
    stream.write('100\nprogress=end');
    stream.end();
    return new Promise<void>((resolve) =>
      stream.on('end', () => {
        expect(lines).toEqual(['frame=1', 'frame=2', 'out_time_us=100', 'progress=end']);
        resolve();
      }),
    );
  });

  it('starts nothing when its signal has aborted already', async () => {
    const run = startProgram('ffmpeg', ['-version'], { signal: AbortSignal.abort(new Error('stopping')), stdout: 'stream' });
    expect(run.pid).toBeUndefined();
    expect(run.running).toBe(false);
    await expect(run.done).rejects.toThrow('stopping');
    // the caller's loop over the frames ends at once
    const chunks: unknown[] = [];
    for await (const chunk of run.stdout!) chunks.push(chunk);
    expect(chunks).toEqual([]);
  });

  it('ties a program found on PATH to this process through setpriv, and leaves one not found as it is', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tied-'));
    try {
      const program = path.join(dir, 'tool');
      fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(dir, 'plain'), '', { mode: 0o644 });
      expect(findExecutable('tool', `/nowhere${path.delimiter}${dir}`)).toBe(program);
      expect(findExecutable(program, '')).toBe(program);
      expect(findExecutable('plain', dir)).toBeUndefined();

      const setpriv = process.platform === 'linux' ? findExecutable('setpriv', process.env.PATH ?? '') : undefined;
      const [command, args] = tiedToThisProcess('tool', ['-x', 'y'], dir);
      if (setpriv) expect([command, args]).toEqual([setpriv, ['--pdeathsig', 'KILL', '--', program, '-x', 'y']]);
      else expect([command, args]).toEqual(['tool', ['-x', 'y']]);
      // a spawn of a program not found fails with ENOENT, as its callers expect of a program missing
      expect(tiedToThisProcess('plain', ['-x'], dir)).toEqual(['plain', ['-x']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
