import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { formatBytes } from '../format.js';

/**
 * The one client for outbound requests to user-given URLs (media downloads,
 * webhooks). Each hop resolves DNS once, checks every address, and connects to
 * the checked address through a pinned `lookup`, so a DNS answer that changes
 * between check and connect (rebinding) cannot reach a private address.
 */

export type FetchErrorReason =
  | 'invalid_url'
  | 'scheme'
  | 'private_address'
  | 'dns'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'http_status'
  | 'connection';

/** Base of both fetch errors; `message` is written for the user who gave the URL. */
export class FetchError extends Error {
  constructor(
    readonly reason: FetchErrorReason,
    message: string,
    /** the URL of the hop that failed */
    readonly url?: string,
    /** the HTTP status, for `http_status` */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

/** The URL is not allowed: bad URL, scheme, address, downgrade or too many redirects. */
export class FetchRefused extends FetchError {
  constructor(reason: FetchErrorReason, message: string, url?: string) {
    super(reason, message, url);
    this.name = 'FetchRefused';
  }
}

/** The URL was allowed but fetching it failed: DNS, connection, timeout, size or status. */
export class FetchFailed extends FetchError {
  constructor(reason: FetchErrorReason, message: string, url?: string, status?: number) {
    super(reason, message, url, status);
    this.name = 'FetchFailed';
  }
}

export const isFetchError = (e: unknown): e is FetchError => e instanceof FetchError;

/** A fetch that failed for a passing reason (DNS, connection, timeout): the same fetch may work later. */
export const isTransientFetchError = (e: unknown): e is FetchError => isFetchError(e) && ['timeout', 'connection', 'dns'].includes(e.reason);

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface GuardedFetchOptions {
  /** ALLOW_PRIVATE_NETWORK: lets loopback and private addresses through (development and tests) */
  allowPrivateNetwork: boolean;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** overall limit, from the first connect to the last byte of the body (default 30 s) */
  timeoutMs?: number;
  /** limit for connecting and receiving the response head, per hop; also the idle limit while reading (default 10 s) */
  connectTimeoutMs?: number;
  /** the body errors with `too_large` once it grows past this (a larger Content-Length is refused at once) */
  maxBytes?: number;
  /** redirects followed (default 5); one more is `too_many_redirects` */
  maxRedirects?: number;
  /** reject with `http_status` unless the final status is 2xx */
  expectOk?: boolean;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** the URL that answered, after redirects */
  url: string;
  /** every URL requested, the first one included */
  chain: string[];
  /** the address connected to for the final hop */
  address: string;
  /**
   * The body. It errors with a FetchFailed (`too_large`, `timeout`, `connection`)
   * instead of ending early; destroy it to stop the download.
   */
  body: Readable;
}

/** The network layer the guard runs over; tests replace it to stand in for DNS. */
export interface NetworkDeps {
  /** every address of a host name (default: dns.lookup with all: true) */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /**
   * where to connect for a checked address of a host name (default: the address
   * itself). Only tests change it, to reach a local server behind a made-up
   * public address; literal IP hosts are always connected as they are.
   */
  dialAddress?: (checked: ResolvedAddress) => ResolvedAddress;
  /** extra trusted certificates (replaces the default roots); NODE_EXTRA_CA_CERTS needs nothing here */
  ca?: string | Buffer | Array<string | Buffer>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** headers that must not follow a redirect to another origin */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/**
 * Why an address may not be fetched, or null when it is a public unicast
 * address. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function addressProblem(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    // IPv4-compatible ::a.b.c.d (deprecated) is not a public address either
    else if (v6.parts.slice(0, 6).every((p) => p === 0)) return 'a reserved IPv6 range';
  }
  const range = ip.range();
  return range === 'unicast' ? null : rangeName(range);
}

function rangeName(range: string): string {
  switch (range) {
    case 'loopback':
      return 'a loopback address';
    case 'private':
      return 'a private network address';
    case 'linkLocal':
      return 'a link-local address (this includes cloud metadata services)';
    case 'uniqueLocal':
      return 'a unique-local (private) IPv6 address';
    case 'carrierGradeNat':
      return 'a carrier-grade NAT address';
    case 'multicast':
      return 'a multicast address';
    case 'unspecified':
      return 'an unspecified address';
    case 'broadcast':
      return 'a broadcast address';
    default:
      return `a reserved address range (${range})`;
  }
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function describeNetError(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${host} closed the connection`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} is unreachable`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the TLS certificate of ${host} does not match its name`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `the TLS certificate of ${host} is not trusted (${err.message})`;
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_STATUS':
    case 'HPE_INVALID_VERSION':
      return `${host} did not answer with valid HTTP`;
    default:
      return `could not fetch from ${host}: ${err.message}`;
  }
}

/** A guarded fetch over the given network layer; `guardedFetch` is the one over the system's DNS. */
export function createGuardedFetch(deps: NetworkDeps = {}) {
  const resolve = deps.resolve ?? systemResolve;
  const dial = deps.dialAddress ?? ((a: ResolvedAddress) => a);

  return async function guardedFetchImpl(input: string, opts: GuardedFetchOptions): Promise<GuardedResponse> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const connectTimeoutMs = Math.min(opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs);
    const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const { maxBytes } = opts;

    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new FetchRefused('invalid_url', 'The URL is not valid', input);
    }

    // What is in flight; the overall timer and the caller's signal end it.
    let activeReq: http.ClientRequest | undefined;
    let activeBody: Readable | undefined;
    let finished = false;
    let failure: Error | undefined;
    let signalFailure: (err: Error) => void = () => {};
    // settles only by failing: raced against steps that have no socket to destroy (DNS)
    const failed = new Promise<never>((_, reject) => (signalFailure = reject));
    failed.catch(() => {});
    const fail = (err: Error) => {
      if (finished || failure) return;
      failure = err;
      signalFailure(err);
      activeReq?.destroy(err);
      if (activeBody) destroyBody(activeBody, err);
    };
    const overall = setTimeout(
      () => fail(new FetchFailed('timeout', `The request did not finish within ${Math.round(timeoutMs / 1000)} s`, url.href)),
      timeoutMs,
    );
    const onAbort = () => fail(opts.signal?.reason instanceof Error ? opts.signal.reason : new FetchFailed('connection', 'The request was aborted', url.href));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      finished = true;
      clearTimeout(overall);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    if (opts.signal?.aborted) onAbort();

    let method = (opts.method ?? 'GET').toUpperCase();
    let body = opts.body === undefined ? undefined : Buffer.from(opts.body as Uint8Array | string);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers[k.toLowerCase()] = v;
    headers['accept-encoding'] ??= 'identity'; // no decompression, so maxBytes counts what is stored
    headers['user-agent'] ??= 'clipcast-fetch/1';

    const chain: string[] = [];
    try {
      for (let hop = 0; ; hop++) {
        if (failure) throw failure;
        chain.push(url.href);
        const { address } = await checkHop(url, chain.length > 1 ? new URL(chain[chain.length - 2]) : undefined);
        if (failure) throw failure;

        if (body !== undefined) headers['content-length'] = String(body.length);
        else delete headers['content-length'];
        const res = await requestHop(url, address, method, headers, body, connectTimeoutMs);

        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (REDIRECT_STATUSES.has(status) && location) {
          res.destroy();
          if (hop >= maxRedirects) {
            throw new FetchRefused('too_many_redirects', `The URL redirected more than ${maxRedirects} times`, url.href);
          }
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new FetchFailed('connection', 'The server redirected to an invalid URL', url.href);
          }
          if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) delete headers[h];
          if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
            method = 'GET';
            body = undefined;
            delete headers['content-type'];
          }
          url = next;
          continue;
        }

        if (opts.expectOk && (status < 200 || status > 299)) {
          res.destroy();
          throw new FetchFailed('http_status', `The server answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`, url.href, status);
        }
        const declared = Number(res.headers['content-length']);
        if (maxBytes !== undefined && Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          throw tooLarge(maxBytes, url.href);
        }
        return {
          status,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          url: url.href,
          chain,
          address: address.address,
          body: wrapBody(res, url.href),
        };
      }
    } catch (err) {
      done();
      throw err;
    }

    /** scheme, downgrade, DNS and address checks of one hop; the address to connect to */
    async function checkHop(target: URL, previous: URL | undefined): Promise<{ address: ResolvedAddress }> {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new FetchRefused('scheme', `Only http and https URLs can be fetched, not ${target.protocol.replace(/:$/, '')}`, target.href);
      }
      if (previous?.protocol === 'https:' && target.protocol === 'http:') {
        throw new FetchRefused('scheme', 'The URL redirected from https to plain http, which is refused', target.href);
      }
      const host = stripBrackets(target.hostname);
      if (!host) throw new FetchRefused('invalid_url', 'The URL has no host', target.href);
      let addresses: ResolvedAddress[];
      if (net.isIP(host)) {
        // Node does not call the lookup hook for a literal IP: it is checked here
        addresses = [{ address: host, family: net.isIPv6(host) ? 6 : 4 }];
      } else {
        try {
          addresses = await Promise.race([resolve(host), failed]);
        } catch (err) {
          if (err === failure) throw err;
          const code = (err as NodeJS.ErrnoException).code;
          throw new FetchFailed('dns', code === 'ENOTFOUND' ? `The host ${host} does not exist` : `The host ${host} could not be resolved`, target.href);
        }
        if (addresses.length === 0) throw new FetchFailed('dns', `The host ${host} has no address`, target.href);
      }
      if (!opts.allowPrivateNetwork) {
        for (const a of addresses) {
          const problem = addressProblem(a.address);
          if (problem) {
            throw new FetchRefused('private_address', `The URL points to ${problem}, which is not allowed: use a public URL`, target.href);
          }
        }
      }
      return { address: addresses[0] };
    }

    function requestHop(
      target: URL,
      checked: ResolvedAddress,
      hopMethod: string,
      hopHeaders: Record<string, string>,
      hopBody: Buffer | undefined,
      limitMs: number,
    ): Promise<http.IncomingMessage> {
      const host = stripBrackets(target.hostname);
      const dialed = dial(checked);
      const lookup: net.LookupFunction = (_name, options, cb) => {
        if (options?.all) cb(null, [{ address: dialed.address, family: dialed.family }]);
        else cb(null, dialed.address, dialed.family);
      };
      const requestOptions: https.RequestOptions = {
        protocol: target.protocol,
        // a name connects through the pinned lookup; Node connects to a literal IP (checked above) without it
        hostname: host,
        port: target.port || undefined,
        path: `${target.pathname}${target.search}`,
        method: hopMethod,
        headers: { ...hopHeaders, host: target.host },
        lookup,
        agent: false, // no pooled sockets: each hop connects to the address checked for it
        ...(target.username || target.password ? { auth: `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}` } : {}),
        ...(deps.ca ? { ca: deps.ca } : {}),
      };
      return new Promise((resolveHop, rejectHop) => {
        const req = (target.protocol === 'https:' ? https : http).request(requestOptions);
        activeReq = req;
        const firstByte = setTimeout(
          () => fail(new FetchFailed('timeout', `${host} did not answer within ${Math.round(limitMs / 1000)} s`, target.href)),
          limitMs,
        );
        // idle limit for the rest of the exchange (a stalled body)
        req.setTimeout(limitMs, () => fail(new FetchFailed('timeout', `${host} stopped sending data for ${Math.round(limitMs / 1000)} s`, target.href)));
        req.once('response', (res) => {
          clearTimeout(firstByte);
          resolveHop(res);
        });
        req.on('error', (err) => {
          clearTimeout(firstByte);
          rejectHop(
            err instanceof FetchError ? err : (failure ?? new FetchFailed('connection', describeNetError(err as NodeJS.ErrnoException, host), target.href)),
          );
        });
        req.once('close', () => clearTimeout(firstByte));
        if (failure) req.destroy(failure);
        req.end(hopBody);
      });
    }

    /** the response body, limited to maxBytes, with errors turned into FetchFailed */
    function wrapBody(res: http.IncomingMessage, href: string): Readable {
      let received = 0;
      let ended = false;
      const out = new Readable({
        read() {
          res.resume();
        },
        destroy(err, cb) {
          done();
          if (!ended) res.destroy();
          activeReq?.destroy();
          cb(err);
        },
      });
      activeBody = out;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (maxBytes !== undefined && received > maxBytes) {
          destroyBody(out, tooLarge(maxBytes, href));
          return;
        }
        if (!out.push(chunk)) res.pause();
      });
      res.once('end', () => {
        ended = true;
        done();
        out.push(null);
      });
      res.on('error', (err) => {
        destroyBody(
          out,
          err instanceof FetchError ? err : (failure ?? new FetchFailed('connection', 'The connection broke before the whole file was received', href)),
        );
      });
      res.once('close', () => {
        if (!ended && !out.destroyed) {
          destroyBody(out, failure ?? new FetchFailed('connection', 'The connection closed before the whole file was received', href));
        }
      });
      return out;
    }
  };
}

/**
 * Ends the body with `err`. A body nobody listens to yet (the caller is still
 * setting up its pipeline) must not crash the process: the error stays on the
 * stream (`errored`), and whoever reads it later gets it.
 */
function destroyBody(body: Readable, err: Error): void {
  if (body.destroyed) return;
  if (body.listenerCount('error') === 0) body.once('error', () => {});
  body.destroy(err);
}

function tooLarge(maxBytes: number, href: string): FetchFailed {
  return new FetchFailed('too_large', `The file is larger than the limit of ${formatBytes(maxBytes)}`, href);
}

/** Fetches a user-given URL under the SSRF rules above, over the system's DNS. */
export const guardedFetch = createGuardedFetch();
