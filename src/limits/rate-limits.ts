import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Requests per hour and per user for each limited operation (SPEC.md, Limits;
 * DECISIONS.md for publishing). Keys are GraphQL root fields, so a call counts
 * the same whichever door (REST or GraphQL) it came through.
 */
export const RATE_LIMITS: Readonly<Record<string, number>> = {
  createProject: 500,
  uploadProject: 500,
  createMagicClips: 500,
  uploadMagicClips: 500,
  createUserMedia: 500,
  uploadUserMedia: 500,
  userMedia: 500,
  updatePreset: 500,
  updateProject: 100,
  presets: 1000,
  publishProject: 1000,
  publications: 1000,
  profileStats: 1000,
  publishingStats: 1000,
};

const WINDOW_SECONDS = 3600;

export interface LimitState {
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
  allowed: boolean;
}

export interface RateLimits {
  /** counts one call of `operation` by `userId`; null when the operation is not limited */
  consume(userId: string, operation: string): Promise<LimitState | null>;
  close(): Promise<void>;
}

/** In-process counters by default; Redis counters shared by every instance when REDIS_URL is set. */
export function createRateLimits(redisUrl?: string, limits: Readonly<Record<string, number>> = RATE_LIMITS): RateLimits {
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 3, enableOfflineQueue: true }) : null;
  const limiters = new Map<string, RateLimiterAbstract>();
  for (const [operation, points] of Object.entries(limits)) {
    const opts = { points, duration: WINDOW_SECONDS, keyPrefix: `rl:${operation}` };
    limiters.set(operation, redis ? new RateLimiterRedis({ ...opts, storeClient: redis }) : new RateLimiterMemory(opts));
  }
  return {
    async consume(userId, operation) {
      const limiter = limiters.get(operation);
      if (!limiter) return null;
      const limit = limits[operation];
      try {
        const res = await limiter.consume(userId);
        return { limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000), allowed: true };
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        return { limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)), allowed: false };
      }
    },
    async close() {
      await redis?.quit().catch(() => {});
    },
  };
}

/** The headers every limited route sends (DECISIONS.md, Money and limits). */
export function limitHeaders(state: LimitState): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + state.resetSeconds),
  };
  if (!state.allowed) headers['Retry-After'] = String(state.resetSeconds);
  return headers;
}
