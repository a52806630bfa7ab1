/**
 * How transcription and renders share this process's cores (docs/concurrency.md).
 *
 * whisper.cpp's threads wait for each other at every step of a layer by spinning, not by
 * sleeping: when another program takes one of their cores, the others spin until it is
 * given back, and a transcription beside an x264 encode ran 200 times slower. So:
 * - whisper.cpp never has every core: it takes one fewer than there are (at most four), and
 *   on two cores runs one thread, which has no one to wait for;
 * - with the Whisper engine, renders (ffmpeg) run at a lower priority than the
 *   transcriptions of their class (nice +10): they take every cycle nobody else wants, and
 *   give way to a transcription, the API and the job bookkeeping when these want a core. A
 *   render alone runs as fast as before. With the other engines renders keep their class's
 *   priority: pocketsphinx is one thread that does not spin.
 * - while an interactive job runs in the process, a batch job's programs run at nice 10
 *   (src/jobs/priority.ts); otherwise every program starts at the normal priority.
 */
import os from 'node:os';
import { currentNiceness } from '../jobs/priority.js';

/** cores this process may use */
export const CPU_CORES = os.availableParallelism();

/** whisper.cpp's thread count: one core is always left for the rest of the process. */
export function whisperThreads(cores = CPU_CORES): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** how much lower renders run beside the Whisper engine than the transcriptions of their class (0 is normal, 19 the lowest) */
export const RENDER_NICENESS = 10;

/**
 * The niceness of a render in the running job: its class's (src/jobs/priority.ts: 0 for
 * interactive work, 10 for batch), lowered by RENDER_NICENESS where a Whisper
 * transcription of the same class may run beside it.
 */
export function renderNiceness(config: { transcriber: string }): number {
  return Math.min(19, currentNiceness() + (config.transcriber === 'whisper' ? RENDER_NICENESS : 0));
}
