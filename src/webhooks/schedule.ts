/**
 * When webhook attempts happen. With the default base of 10 s the waits after
 * attempts 1-7 are 10 s, 30 s, 90 s, 4.5 min, 13.5 min, 40.5 min and about 2 h
 * (each ±20 %), so the 8th and last attempt comes about 3 h after the first.
 */

/** attempts of one series; the last failure marks the delivery failed */
export const MAX_ATTEMPTS = 8;
export const RETRY_FACTOR = 3;
/** ± share of each wait, so that receivers coming back up are not hit by every sender at once */
export const RETRY_JITTER = 0.2;
/** The wait after failed attempt number `attempt` (1-based); `base` is the config's webhookRetryBaseMs. */
export function retryDelayMs(attempt: number, base: number, random: () => number = Math.random): number {
  const jitter = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(base * RETRY_FACTOR ** (attempt - 1) * jitter);
}

/**
 * How overdue a pending delivery must be before the sweeper presumes that no job
 * will run it (3× the base: 30 s by default, far beyond a worker's pick-up delay).
 */
export const sweepGraceMs = (base: number) => RETRY_FACTOR * base;
