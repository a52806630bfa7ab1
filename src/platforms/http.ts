/**
 * The HTTP client of the platform connectors. Platforms' hosts are fixed by
 * their modules (never user-given), so this client does not guard addresses
 * as guarded-fetch does; it rewrites them to a platform's `<KEY>_BASE_URL`
 * when one is set, times requests out, and turns a request that got no
 * answer into a `retry` PlatformError. It never puts a token in an error
 * message or a log line: tokens travel in headers, and `redact` blanks the
 * query parameters some platforms take them in. An answer that is not a
 * success is judged here too, by one status rule (`judge`) to which each
 * connector adds only its platform's own codes and words.
 */
import { Readable } from 'node:stream';
import { PlatformError, type PlatformErrorKind, type PlatformHttp, type PlatformRequest, type PlatformResponse } from './types.js';

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
        throw platformError(name, 'retry', `${method} ${redact(url.origin + url.pathname)} ${why}`);
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
  throw platformError(name, 'retry', `the account's followers ${given}`);
}

/** A PlatformError whose message starts with the platform's name, as every connector's does. */
export function platformError(name: string, kind: PlatformErrorKind, says: string, retryAfterMs?: number): PlatformError {
  return new PlatformError(kind, `${name}: ${says}`, retryAfterMs);
}

/** A platform's answer that fits none of its documented shapes: a passing fault of the platform, tried again later. */
export function unexpected(name: string, res: PlatformResponse, what: string): PlatformError {
  return platformError(
    name,
    'retry',
    `unexpected answer to ${what} (HTTP ${res.status}${res.text ? `: ${res.text.slice(0, 200)}` : ''})`,
    retryAfterMs(res.headers),
  );
}

/**
 * What a platform's own codes make of an answer, before its status does: a
 * kind, and `says`, the message after the platform's name (else the rule's
 * words for that kind). A `retry` waits `retryAfterMs`: when absent, what the
 * platform asks (as after a 429); null, no wait of the platform's. `unexpected`:
 * an answer the platform does not document.
 */
export type Verdict =
  | { kind: 'retry'; says?: string; retryAfterMs?: number | null }
  | { kind: 'reauthorize' | 'bad_request'; says?: string }
  | { kind: 'disconnected'; says: string }
  | { kind: 'unexpected' };

/** What one platform adds to the status rule (`judge`): its words, its own codes, its waits. */
export interface PlatformErrorRule {
  /** the platform's own words for the answer (its message, its code), for the error's message */
  said(res: PlatformResponse): string;
  /** the platform's codes, judged first: undefined leaves the answer to its status */
  own?(res: PlatformResponse, what: string, said: string): Verdict | undefined;
  /** the message after the platform's name, for each outcome a verdict does not word */
  words: {
    /** a 429 or a 5xx, or a `retry` verdict */
    retry(what: string, said: string, res: PlatformResponse): string;
    /** a 429, where the platform words it apart from an outage */
    rateLimited?(what: string, said: string, res: PlatformResponse): string;
    /** a 401, or a `reauthorize` verdict */
    reauthorize(what: string, said: string, res: PlatformResponse): string;
    /** another 4xx, or a `bad_request` verdict */
    refused(what: string, said: string, res: PlatformResponse): string;
  };
  /** where the platform says how long to wait; by default Retry-After or a reset header */
  waitMs?(headers: Headers): number | undefined;
  /** how long a 429 waits when the platform names no wait (its documented window, its daily reset) */
  rateWindowMs?(res: PlatformResponse, said: string): number | undefined;
  /**
   * Whether a 4xx its codes leave undecided is the platform refusing the
   * request (`bad_request`), or an answer it does not document (false:
   * `unexpected`). By default every such answer is a refusal.
   */
  refuses?(res: PlatformResponse): boolean;
}

/** A 429 or a 5xx: a failure that passes. A platform that waits out an outage whatever code comes with it leaves such an answer to its status. */
export const passing = (res: PlatformResponse) => res.status === 429 || res.status >= 500;

/** The status rule, for an answer the platform's own codes leave undecided. */
function byStatus(rule: PlatformErrorRule, res: PlatformResponse, what: string, said: string): Verdict {
  if (res.status === 429) return { kind: 'retry', says: (rule.words.rateLimited ?? rule.words.retry)(what, said, res) };
  if (passing(res)) return { kind: 'retry' };
  if (res.status === 401) return { kind: 'reauthorize' };
  if (res.status >= 400 && res.status < 500 && (rule.refuses?.(res) ?? true)) return { kind: 'bad_request' };
  return { kind: 'unexpected' };
}

/**
 * The one rule for a platform's answer that is not a success: the platform's
 * own codes first (`rule.own`); then a 429 or a 5xx passes (`retry`, after the
 * wait the platform asks for), a 401 asks for the account's authorisation
 * again (`reauthorize`), and another 4xx is the platform refusing the request
 * (`bad_request`); anything else is an answer no platform documents.
 */
export function judge(name: string, rule: PlatformErrorRule, res: PlatformResponse, what: string): PlatformError {
  const said = rule.said(res);
  const verdict = rule.own?.(res, what, said) ?? byStatus(rule, res, what, said);
  switch (verdict.kind) {
    case 'unexpected':
      return unexpected(name, res, what);
    case 'retry': {
      const asked = () => (rule.waitMs ?? retryAfterMs)(res.headers) ?? (res.status === 429 ? rule.rateWindowMs?.(res, said) : undefined);
      const wait = verdict.retryAfterMs === null ? undefined : (verdict.retryAfterMs ?? asked());
      return platformError(name, 'retry', verdict.says ?? rule.words.retry(what, said, res), wait);
    }
    case 'reauthorize':
      return platformError(name, 'reauthorize', verdict.says ?? rule.words.reauthorize(what, said, res));
    case 'bad_request':
      return platformError(name, 'bad_request', verdict.says ?? rule.words.refused(what, said, res));
    case 'disconnected':
      return platformError(name, 'disconnected', verdict.says);
  }
}

/**
 * One platform's errors, each message starting with its name: `refusal`
 * judges an answer by the status rule and the platform's own codes
 * (`judge`), or by another rule where an endpoint has codes of its own (a
 * token endpoint); the others word a failure the connector finds itself.
 */
export function platformErrors(name: string, rule: PlatformErrorRule) {
  return {
    refusal: (res: PlatformResponse, what: string, other: PlatformErrorRule = rule) => judge(name, other, res, what),
    unexpected: (res: PlatformResponse, what: string) => unexpected(name, res, what),
    retry: (says: string, retryAfterMs?: number) => platformError(name, 'retry', says, retryAfterMs),
    badRequest: (says: string) => platformError(name, 'bad_request', says),
    reauthorize: (says: string) => platformError(name, 'reauthorize', says),
    disconnected: (says: string) => platformError(name, 'disconnected', says),
  };
}
