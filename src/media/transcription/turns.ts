/**
 * Turns on one thing that does one job at a time (whisper.ts's model): interactive work
 * first, then batch, then upkeep (JOB_CLASSES); within a class, in the order asked. A long
 * transcription asks again for each of its pieces (pieces.ts), so a short one asked meanwhile
 * goes before its next piece instead of after the whole of it, and two long ones alternate.
 * The order is strict: batch pieces wait while interactive ones keep coming, as batch programs
 * give way to interactive ones on the cores (src/jobs/priority.ts); their job's heartbeat keeps
 * its lock meanwhile.
 */
import type { JobClass } from '../../jobs/names.js';

const RANK: Readonly<Record<JobClass, number>> = { interactive: 0, batch: 1, upkeep: 2 };

interface Waiting {
  rank: number;
  seq: number;
  go: () => void;
}

export class Turns {
  #busy = false;
  #seq = 0;
  #waiting: Waiting[] = [];

  /**
   * Resolves with the function that ends the turn once it is the caller's; rejects with the
   * signal's reason, and leaves the line, if the signal aborts first.
   */
  take(cls: JobClass, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const me: Waiting = {
        rank: RANK[cls],
        seq: this.#seq++,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#release());
        },
      };
      const onAbort = () => {
        this.#waiting = this.#waiting.filter((w) => w !== me);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(me);
      this.#next();
    });
  }

  /** How many wait for a turn now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#busy = false;
      this.#next();
    };
  }

  #next() {
    if (this.#busy || this.#waiting.length === 0) return;
    let first = 0;
    for (let i = 1; i < this.#waiting.length; i++) {
      const w = this.#waiting[i];
      const f = this.#waiting[first];
      if (w.rank < f.rank || (w.rank === f.rank && w.seq < f.seq)) first = i;
    }
    const [chosen] = this.#waiting.splice(first, 1);
    this.#busy = true;
    chosen.go();
  }
}
