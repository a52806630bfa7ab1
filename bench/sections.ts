import type { Row } from './run.js';
import { foundation } from './foundation.js';

/** Benchmark sections in the order they run. */
export const sections: Record<string, () => Promise<Row[]>> = {
  foundation,
};
