/**
 * Writes test/timings.json (`npm run test:timings`): the seconds each test file took to load
 * and run in this run, which test/support/sequencer.ts orders the next runs by. Files that did
 * not run keep their last time; files that are gone are dropped.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { readTimings, TIMINGS_FILE, timingKey } from './sequencer.js';

export default class TimingsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const seconds = readTimings();
    for (const m of modules) {
      const d = m.diagnostic();
      seconds[timingKey(m.moduleId)] = Math.round((d.collectDuration + d.duration) / 100) / 10;
    }
    const kept = Object.entries(seconds)
      .filter(([file]) => fs.existsSync(path.resolve(path.dirname(TIMINGS_FILE), file)))
      .sort(([a], [b]) => a.localeCompare(b));
    fs.writeFileSync(TIMINGS_FILE, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
  }
}
