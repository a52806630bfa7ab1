/**
 * The HTTP client of the platform connectors. Platforms' hosts are fixed by
 * their modules (never user-given), so this client does not guard addresses
 * as guarded-fetch does; it rewrites them to a platform's `<KEY>_BASE_URL`
 * when one is set, times requests out, and turns a request that got no
 * answer into a `retry` PlatformError. It never puts a token in an error
 * message or a log line: tokens travel in headers, and `redact` blanks the
 * query parameters some platforms take them in.
 */
import { Readable } from 'node:stream';
import { PlatformError, type PlatformHttp, type PlatformRequest, type PlatformResponse } from './types.js';

/** An API call's time limit; upload chunks pass their own. */
export const DEFAULT_TIMEOUT_MS = 30_000;

const SECRET_PARAMS = /([?&](?:access_token|client_secret|refresh_token|code|fb_exchange_token|input_token)=)[^&#]*/gi;

/** A URL fit for a log line or an error message: the secrets of its query blanked. */
export const redact = (url: string) => url.replace(SECRET_PARAMS, '$1***');

/** The same path and query on `baseUrl`'s origin (and under its path, when it has one). */
export function rebase(url: string, baseUrl: string | undefined): string {
  if (!baseUrl) return url;
  const u = new URL(url);
  const base = new URL(baseUrl);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${u.pathname}${u.search}`;
}

/**
 * How long a platform asks us to wait, in ms: `Retry-After` (seconds or an
 * HTTP date), else a rate-limit reset header given in epoch seconds
 * (`x-rate-limit-reset`, `x-ratelimit-reset`). Undefined when it does not say.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const after = headers.get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(after);
    if (Number.isFinite(at)) return Math.max(0, at - now);
  }
  const reset = headers.get('x-rate-limit-reset') ?? headers.get('x-ratelimit-reset');
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

function encodeBody(body: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (body === undefined || body === null) return undefined;
  if (body instanceof URLSearchParams) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    return body.toString();
  }
  if (Buffer.isBuffer(body) || body instanceof Uint8Array) return body as unknown as BodyInit;
  if (body instanceof Readable) return Readable.toWeb(body) as unknown as BodyInit;
  if (typeof body === 'string') return body;
  headers['content-type'] ??= 'application/json';
  return JSON.stringify(body);
}

/** The client for one platform; `name` (the platform key) is what errors say. */
export function createPlatformHttp(name: string, baseUrl: string | undefined, fetchImpl: typeof fetch = fetch): PlatformHttp {
  return {
    resolve: (url) => rebase(url, baseUrl),
    async request(req: PlatformRequest): Promise<PlatformResponse> {
      const url = new URL(rebase(req.url, baseUrl));
      for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
      if (req.token) headers.authorization = `Bearer ${req.token}`;
      const body = encodeBody(req.body, headers);
      const method = req.method ?? (body === undefined ? 'GET' : 'POST');
      let res: Response;
      try {
        res = await fetchImpl(url, {
          method,
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS),
          ...(req.body instanceof Readable ? { duplex: 'half' } : {}),
        } as RequestInit);
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        const why = e.name === 'TimeoutError' ? 'timed out' : `failed (${e.cause?.code ?? e.message})`;
        throw new PlatformError('retry', `${name}: ${method} ${redact(url.origin + url.pathname)} ${why}`);
      }
      const text = await res.text();
      let json: unknown = null;
      if (text) {
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
      }
      return { status: res.status, headers: res.headers, json, text };
    },
  };
}

/**
 * The largest follower count kept. Counts are stored (PostgreSQL integer) and
 * served (GraphQL Int) as 32-bit integers, which hold every account's: the
 * largest have under a billion followers.
 */
export const MAX_FOLLOWERS = 2 ** 31 - 1;

/**
 * An account's follower count as a platform reports it: a JSON number, or a
 * decimal string where the platform writes its counts so. Anything but a
 * whole number from 0 to MAX_FOLLOWERS (text, a negative or fractional
 * number, more than that, nothing) is the platform's bad answer, a `retry`
 * PlatformError saying what it gave: a connection fails with that message and
 * the analytics sync keeps the account's last count. Every connector reads
 * its counts here, so none stores a count made up or one no column holds.
 */
export function followerCount(name: string, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (Number.isInteger(n) && n >= 0 && n <= MAX_FOLLOWERS) return n;
  const given = value === undefined ? 'were not given' : `were ${JSON.stringify(value).slice(0, 40)}, not a whole number from 0 to ${MAX_FOLLOWERS}`;
  throw new PlatformError('retry', `${name}: the account's followers ${given}`);
}

/** A platform's answer that fits none of its documented shapes: a passing fault of the platform, tried again later. */
export function unexpected(name: string, res: PlatformResponse, what: string): PlatformError {
  return new PlatformError('retry', `${name}: unexpected answer to ${what} (HTTP ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ''})`, retryAfterMs(res.headers));
}
