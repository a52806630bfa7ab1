/**
 * What the platform imitations of test/fakes/ share: a small HTTP server
 * whose handler reads a request and answers JSON, a log of what it was
 * asked (a test checks that a step happened once), and the checks every
 * fake makes of a bearer token. Each fake implements one platform's
 * endpoints with the shapes of that platform's documentation, cited by URL
 * beside each endpoint, and refuses what the documentation does not allow.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  /** the path without the query */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** the body as JSON; undefined when it is not JSON */
  json: any;
  /** the body as a form (application/x-www-form-urlencoded) */
  form: URLSearchParams;
  /** the bearer token of the Authorization header, if any */
  bearer: string | undefined;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** an object is sent as JSON, a string or Buffer as is; undefined sends no body */
  body?: unknown;
}

export type FakeHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  /** the origin, http://127.0.0.1:port */
  url: string;
  /** every request answered: method, path and status */
  log: Array<{ method: string; path: string; status: number }>;
  /** how many requests matched `method path` (path may be a RegExp) */
  count(method: string, path: string | RegExp): number;
  close(): Promise<void>;
}

export async function startFake(handler: FakeHandler): Promise<FakeServer> {
  const log: FakeServer['log'] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = body.toString('utf8');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const auth = req.headers.authorization;
    const fr: FakeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      json,
      form: new URLSearchParams(/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '') ? text : ''),
      bearer: auth?.startsWith('Bearer ') ? auth.slice(7) : undefined,
    };
    let reply: FakeReply;
    try {
      reply = await handler(fr);
    } catch (err) {
      reply = { status: 500, body: { error: String((err as Error).message) } };
    }
    const status = reply.status ?? 200;
    log.push({ method: fr.method, path: fr.path, status });
    const headers: Record<string, string> = { ...reply.headers };
    let out: Buffer | string | undefined;
    if (reply.body === undefined) out = undefined;
    else if (Buffer.isBuffer(reply.body) || typeof reply.body === 'string') out = reply.body;
    else {
      out = JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json; charset=UTF-8';
    }
    res.writeHead(status, headers);
    res.end(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    log,
    count: (method, path) => log.filter((l) => l.method === method && (typeof path === 'string' ? l.path === path : path.test(l.path))).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What every platform fake offers a test beside its endpoints: its
 * registered OAuth client, the posts it published with the bytes of their
 * videos, and switches that make it misbehave as the platform can. Its
 * authorisation endpoint stands for the user's consent: it checks the
 * request and redirects at once to `redirect_uri` with a code and the state.
 */
export interface PlatformFake extends FakeServer {
  clientId: string;
  clientSecret: string;
  /** the redirect URI the fake's client has registered; other redirect URIs are refused */
  redirectUri: string;
  /** posts made, in order: the platform's id, the main text, the video's bytes */
  posts: Array<{ id: string; text: string; video: Buffer }>;
  /** the next `times` API calls (not the OAuth endpoints) answer this platform's error of the given class */
  failNext(kind: 'retry' | 'bad_request' | 'reauthorize' | 'disconnected', times?: number): void;
  /** how many status checks a new upload stays "processing" for (0: ready at once) */
  processingChecks: number;
  /** every access token issued so far is expired from now on (refresh tokens still work) */
  expireAccessTokens(): void;
  /** every refresh token issued so far is revoked (a refresh is refused with the platform's invalid-grant error) */
  revokeRefreshTokens(): void;
}
