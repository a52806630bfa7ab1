import { backoffStrategies, type BackoffContext } from 'agenda';
import { describe, expect, it } from 'vitest';
import { BACKOFF_UNIT_MS, scaled } from '../../workers/backoff.js';
import { longJobBackoff } from '../../workers/heartbeat.js';

const attempt = (n: number): BackoffContext => ({ attempt: n, error: new Error('passing'), jobName: 'a job', jobData: {} });

describe('JOB_RETRY_BASE_MS', () => {
  it('scales every wait of a job backoff from its 5 s unit, and keeps its number of retries', () => {
    const written = backoffStrategies.exponential({ delay: BACKOFF_UNIT_MS, factor: 3, maxRetries: 2 });
    const quick = scaled(written, 250);
    expect([1, 2, 3].map((n) => quick(attempt(n)))).toEqual([250, 750, null]);
    const slow = scaled(written, 20_000);
    expect([1, 2, 3].map((n) => slow(attempt(n)))).toEqual([20_000, 60_000, null]);
    // the default leaves the written strategy as it is
    expect(scaled(longJobBackoff, BACKOFF_UNIT_MS)).toBe(longJobBackoff);
  });
});
