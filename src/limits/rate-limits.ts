import { Redis } from 'ioredis';

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
  operation: string;
  /** calls of the operation this request asked for */
  calls: number;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
  /** whether the calls fit in what the window has left */
  allowed: boolean;
}

export interface RateLimits {
  /**
   * Spends `calls` (operation → number of calls) of `userId` only when every limited
   * operation among them fits in what its hour has left, all at once; otherwise spends
   * nothing. Answers one state per limited operation (unlimited ones are left out).
   */
  spend(userId: string, calls: ReadonlyMap<string, number>): Promise<LimitState[]>;
  close(): Promise<void>;
}

/**
 * A fixed window per user and operation, opened by the first call and lasting an hour.
 * In-process counters by default; with REDIS_URL, Redis counters shared by every
 * instance, checked and spent by one script so concurrent requests cannot overspend.
 */
export function createRateLimits(redisUrl?: string, limits: Readonly<Record<string, number>> = RATE_LIMITS): RateLimits {
  const store = redisUrl ? redisStore(redisUrl) : memoryStore();
  return {
    async spend(userId, calls) {
      const asked = [...calls].filter(([operation, n]) => Object.hasOwn(limits, operation) && n > 0);
      if (!asked.length) return [];
      const windows = await store.spend(asked.map(([operation, n]) => ({ key: `rl:${operation}:${userId}`, cost: n, limit: limits[operation] })));
      return asked.map(([operation, n], i) => {
        const limit = limits[operation];
        const { used, msLeft, spent } = windows[i];
        return {
          operation,
          calls: n,
          limit,
          remaining: Math.max(0, limit - used),
          resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
          allowed: spent || used + n <= limit,
        };
      });
    },
    close: () => store.close(),
  };
}

interface Ask {
  key: string;
  cost: number;
  limit: number;
}

interface Window {
  /** calls counted in the window, this request's included when spent */
  used: number;
  msLeft: number;
  spent: boolean;
}

interface Store {
  spend(asks: Ask[]): Promise<Window[]>;
  close(): Promise<void>;
}

function memoryStore(): Store {
  const windows = new Map<string, { used: number; resetAt: number }>();
  let nextSweep = 0;
  return {
    // no await inside: one event-loop turn checks and spends, so requests cannot interleave
    async spend(asks) {
      const now = Date.now();
      if (now >= nextSweep) {
        for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
        nextSweep = now + 60_000;
      }
      const current = asks.map((a) => {
        const w = windows.get(a.key);
        return w && w.resetAt > now ? w : { used: 0, resetAt: now + WINDOW_SECONDS * 1000 };
      });
      const fits = asks.every((a, i) => current[i].used + a.cost <= a.limit);
      if (fits) {
        asks.forEach((a, i) => {
          current[i].used += a.cost;
          windows.set(a.key, current[i]);
        });
      }
      return current.map((w) => ({ used: w.used, msLeft: w.resetAt - now, spent: fits }));
    },
    async close() {},
  };
}

// KEYS: one counter per operation; ARGV: the window in ms, then cost and limit of each key.
// Reads every counter first and writes only when all fit; answers fits, then used and
// ms left of each key. The keys (rl:<operation>:<userId>, a count that expires with its
// window) are those of the previous counters, so counts carry over an upgrade.
const SPEND_SCRIPT = `
local window = tonumber(ARGV[1])
local used, ttl, fits = {}, {}, 1
for i, key in ipairs(KEYS) do
  used[i] = tonumber(redis.call('get', key) or '0')
  ttl[i] = redis.call('pttl', key)
  if ttl[i] < 0 then used[i] = 0 end
  if used[i] + tonumber(ARGV[2 * i]) > tonumber(ARGV[2 * i + 1]) then fits = 0 end
end
local out = { fits }
for i, key in ipairs(KEYS) do
  if fits == 1 then
    if ttl[i] < 0 then
      redis.call('set', key, ARGV[2 * i], 'PX', window)
      used[i] = tonumber(ARGV[2 * i])
      ttl[i] = window
    else
      used[i] = redis.call('incrby', key, ARGV[2 * i])
    end
  elseif ttl[i] < 0 then
    ttl[i] = window
  end
  out[#out + 1] = used[i]
  out[#out + 1] = ttl[i]
end
return out
`;

function redisStore(url: string): Store {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, enableOfflineQueue: true });
  redis.defineCommand('spendLimits', { lua: SPEND_SCRIPT });
  const run = (redis as unknown as { spendLimits(numKeys: number, ...args: Array<string | number>): Promise<number[]> }).spendLimits.bind(redis);
  return {
    async spend(asks) {
      const out = await run(asks.length, ...asks.map((a) => a.key), WINDOW_SECONDS * 1000, ...asks.flatMap((a) => [a.cost, a.limit]));
      const spent = out[0] === 1;
      return asks.map((_, i) => ({ used: out[1 + 2 * i], msLeft: out[2 + 2 * i], spent }));
    },
    async close() {
      await redis.quit().catch(() => {});
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
