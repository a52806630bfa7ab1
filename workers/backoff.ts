import type { BackoffStrategy } from 'agenda';

/**
 * The first wait the job backoffs are written with (the default one and a definition's own):
 * a 5 s first retry. JOB_RETRY_BASE_MS scales all their waits alike.
 */
export const BACKOFF_UNIT_MS = 5000;

/** `backoff` with every wait scaled from its 5 s unit to `firstMs`: the same retries, sooner or later. */
export function scaled(backoff: BackoffStrategy, firstMs: number): BackoffStrategy {
  if (firstMs === BACKOFF_UNIT_MS) return backoff;
  return (context) => {
    const wait = backoff(context);
    return wait === null ? null : Math.round((wait * firstMs) / BACKOFF_UNIT_MS);
  };
}
