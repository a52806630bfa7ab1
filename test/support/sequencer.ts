/**
 * The order test files start in: the longest first, by the seconds each took when the suite
 * was last timed (test/timings.json, written by `npm run test:timings`). With the long files
 * started first, the short ones fill the gaps at the end and both workers end together,
 * instead of one long file running alone at the end of the run. A file the timings do not
 * know yet (a new one) starts before all others, as vitest's own order does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Where the timings are kept, and how a file is named in them: its path under test/. */
export const TIMINGS_FILE = path.resolve(import.meta.dirname, '../timings.json');
export const timingKey = (moduleId: string) => path.relative(path.dirname(TIMINGS_FILE), moduleId);

export function readTimings(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(TIMINGS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = readTimings();
    const weight = (spec: TestSpecification) => seconds[timingKey(spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}
