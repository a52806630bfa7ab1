/**
 * Runs a render graph (graph.ts) through fluent-ffmpeg: the filter script goes
 * to a file handed over with `-filter_complex_script` (one argument over 128 KiB
 * fails), progress comes from `-progress pipe:1` (`out_time_us` against the
 * expected output duration). fluent-ffmpeg only assembles and runs the argument
 * list, under the program runner's rules (runFfmpegCommand in media/program.ts:
 * an ffmpeg that dies with this process, killed on abort or timeout, its stderr's
 * tail in the error); nothing else of it is used.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import ffmpeg from 'fluent-ffmpeg';
import { currentNiceness, renderThreads } from '../../jobs/priority.js';
import { lastLines, ProgramError, runFfmpegCommand } from '../program.js';
import { inputOptions, withoutUrlQueries } from '../input.js';
import type { RenderGraph } from './graph.js';

export interface RenderOptions {
  /** fraction 0-1 of the output written; called at most a few times a second, and with 1 at the end */
  onProgress?(fraction: number): void;
  /** aborting kills ffmpeg and rejects with an AbortError */
  signal?: AbortSignal;
  /** kills ffmpeg and rejects after this many milliseconds */
  timeoutMs?: number;
  /**
   * kills ffmpeg and rejects when the output's time has not advanced for this
   * many milliseconds, plus what reading through the graph's longest cut takes
   * at real-time speed (ffmpeg writes nothing meanwhile). Off once the output
   * nears its end: the source past the last cut and the trailer report no
   * time, and `timeoutMs` covers them.
   */
  stallMs?: number;
  /** process priority, 0-19 (default: the running job's class, src/jobs/priority.ts); renderNiceness() in media/cpu.ts gives a service's */
  niceness?: number;
}

/** Where the outputs go: the video, and the preview when the graph writes one (RenderGraph.previewArgs). */
export interface RenderTargets {
  video: string;
  preview?: string;
}

export class RenderError extends Error {
  constructor(
    message: string,
    /** last lines ffmpeg wrote on stderr */
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'RenderError';
  }
}

const STDERR_LINES = 30;
/** how close to its end the output is when the stall watchdog stands down (s) */
const STALL_END_MARGIN = 2;

const seconds = (ms: number) => String(Math.round(ms / 100) / 10);

/**
 * Threads of the render's filter graph. On up to 4 cores one: x264 and the
 * decoder already keep every core busy, and slicing each filter's frame over
 * more threads only adds their hand-overs (on 2 cores the wide-to-vertical
 * export took 4 % less wall time with one, 3 pairs of runs). Above that the
 * graph's work (about a sixth of a render's CPU) could hold back the encoder,
 * so ffmpeg's default, a thread per core, or the render's share of the cores
 * when it shares them (renderThreads).
 */
const FILTER_THREADS = os.availableParallelism() <= 4 ? ['-filter_complex_threads', '1'] : [];

/** Parses `-progress` output: the last out_time_us (µs) seen in `chunk`, or null. */
export function lastOutTime(chunk: string): number | null {
  let last: number | null = null;
  for (const m of chunk.matchAll(/^out_time_(?:us|ms)=(\d+)$/gm)) last = Number(m[1]) / 1e6;
  return last;
}

/**
 * Renders `graph` into `target` (mp4; a path, or the video and preview paths).
 * Rejects with a RenderError carrying ffmpeg's last stderr lines, and leaves
 * no partial output behind. The filter script is written beside the video:
 * callers render into their job's folder (inWorkDir, jobs/work-dir.ts), which
 * the sweeps clear of what a killed run left. ffmpeg dies with this process
 * (runFfmpegCommand).
 */
export async function renderVideo(graph: RenderGraph, target: string | RenderTargets, options: RenderOptions = {}): Promise<void> {
  const { onProgress, signal, timeoutMs, stallMs, niceness = currentNiceness() } = options;
  const targets: RenderTargets = typeof target === 'string' ? { video: target } : target;
  const { video: outputPath, preview: previewPath } = targets;
  if (Boolean(graph.previewArgs) !== Boolean(previewPath))
    throw new Error(graph.previewArgs ? 'the graph writes a preview: give its path' : 'the graph writes no preview');
  signal?.throwIfAborted();
  const script = `${outputPath}.graph.txt`;
  await fs.writeFile(script, graph.filterScript);
  try {
    // each decoder's and encoder's threads: ffmpeg's own, or the render's share of the cores (renderThreads), read as
    // near its start as can be
    const threads = await renderThreads(niceness);
    const threadArgs = threads === undefined ? [] : ['-threads', String(threads)];
    const filterThreads = threads === undefined || FILTER_THREADS.length > 0 ? FILTER_THREADS : ['-filter_complex_threads', String(threads)];
    const command = ffmpeg({ stdoutLines: 5, niceness });
    for (const input of graph.inputs) command.input(input.path).inputOptions([...inputOptions(input.path), ...threadArgs, ...input.args]);
    command
      .outputOptions([
        '-filter_complex_script',
        script,
        ...filterThreads,
        ...threadArgs,
        ...graph.outputArgs,
        '-progress',
        'pipe:1',
        '-nostats',
        '-hide_banner',
        '-loglevel',
        'error',
      ])
      .output(outputPath);
    if (graph.previewArgs && previewPath) command.output(previewPath).outputOptions([...threadArgs, ...graph.previewArgs]);

    let lastReported = -1;
    let lastAt = 0;
    const report = (fraction: number, force = false) => {
      if (!onProgress) return;
      const f = Math.max(0, Math.min(1, fraction));
      const now = Date.now();
      if (!force && (f <= lastReported || now - lastAt < 200)) return;
      lastReported = f;
      lastAt = now;
      try {
        onProgress(f);
      } catch {
        // a failing listener must not break the render
      }
    };
    const stallLimit = stallMs ? stallMs + Math.ceil(graph.longestCut * 1000) : 0;
    let stall: NodeJS.Timeout | undefined;
    let outTime = 0;
    const onProgressLine = (line: string) => {
      const t = lastOutTime(line);
      if (t === null) return;
      if (t > outTime) {
        outTime = t;
        if (t >= graph.duration - STALL_END_MARGIN) clearTimeout(stall);
        else stall?.refresh();
      }
      if (graph.duration > 0) report(Math.min(0.999, t / graph.duration));
    };
    const run = runFfmpegCommand(command, { signal, timeoutMs, onStdoutLine: onProgressLine, redact: withoutUrlQueries });
    if (stallLimit) stall = setTimeout(() => run.stop(new Error(`the render made no progress for ${seconds(stallLimit)} s`)), stallLimit);
    try {
      await run.done;
    } catch (e) {
      if (!(e instanceof ProgramError) || e.failure === 'timeout') throw e;
      const tail = lastLines(e.stderr, STDERR_LINES).join('\n');
      throw new RenderError(`ffmpeg failed: ${lastLines(tail, 5).join(' | ') || e.message}`, tail);
    } finally {
      clearTimeout(stall);
    }
    report(1, true);
  } catch (e) {
    await Promise.all([outputPath, previewPath].map((p) => p && fs.rm(p, { force: true }).catch(() => undefined)));
    throw e;
  } finally {
    await fs.rm(script, { force: true });
  }
}
