// Cross-origin calls from browsers (CORS_ORIGINS): one policy for /graphql, /v1
// and the signed /files/ links. By default no origin may read an answer; a listed
// origin (or any, with `*`) gets its answers and its preflights; `null` is never
// an origin of the list; credentials are never allowed.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createUser, startTestApp, type TestApp, type TestUser } from '../support/app.js';

const APP_ORIGIN = 'https://app.example';

let app: TestApp;
let user: TestUser;
let fileUrl: string;
const config = () => app.runtime.app.config;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app);
  const storage = app.runtime.app.storage;
  await storage.put('cors/captions.vtt', Readable.from(['WEBVTT\n']), { contentType: 'text/vtt' });
  fileUrl = storage.url('cors/captions.vtt');
});
afterAll(async () => {
  await app?.stop();
});

/** The calls a page on another origin makes through each door, with the page's Origin. */
const DOORS: Record<string, (origin: string) => Promise<Response>> = {
  '/v1': (origin) => fetch(new URL('/v1/languages', app.url), { headers: { origin, 'x-api-key': user.key } }),
  '/v1 without a key': (origin) => fetch(new URL('/v1/languages', app.url), { headers: { origin } }),
  '/v1 with a bad body': (origin) =>
    fetch(new URL('/v1/projects', app.url), {
      method: 'POST',
      headers: { origin, 'x-api-key': user.key, 'content-type': 'application/json' },
      body: '{"title":',
    }),
  '/graphql': (origin) =>
    fetch(new URL('/graphql', app.url), {
      method: 'POST',
      headers: { origin, 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    }),
  '/files': (origin) => fetch(fileUrl, { headers: { origin } }),
};

/** A browser's preflight of a keyed JSON POST with an Idempotency-Key. */
const preflight = (path: string, origin: string) =>
  fetch(new URL(path, app.url), {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key,x-api-key' },
  });

const PREFLIGHT_PATHS = ['/v1/projects', '/graphql'];

async function withOrigins<T>(origins: string[] | '*', run: () => Promise<T>): Promise<T> {
  const saved = config().corsOrigins;
  config().corsOrigins = origins;
  try {
    return await run();
  } finally {
    config().corsOrigins = saved;
  }
}

const list = (header: string | null) => (header ?? '').split(',').map((s) => s.trim().toLowerCase());

describe('CORS_ORIGINS', () => {
  it('reads exact origins, or * alone; refuses anything else at start', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://App.example, http://127.0.0.1:5173' }).corsOrigins).toEqual(['https://app.example', 'http://127.0.0.1:5173']);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://app.example,*' })).toThrow(/either \* alone/);
    for (const bad of ['null', 'https://app.example/path', 'app.example']) expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS must be/);
  });
});

describe.each(Object.keys(DOORS))('%s', (door) => {
  const call = DOORS[door];

  it('by default: no origin may read the answer, null included; never with credentials; Vary: Origin', async () => {
    for (const origin of [APP_ORIGIN, 'null']) {
      const res = await call(origin);
      expect(res.status, origin).toBeLessThan(500);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-allow-credentials'), origin).toBeNull();
      expect(list(res.headers.get('vary')), origin).toContain('origin');
    }
  });

  it('a listed origin reads the answer and the headers it needs, without credentials; another origin and null do not', async () => {
    await withOrigins([APP_ORIGIN], async () => {
      const res = await call(APP_ORIGIN);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(list(res.headers.get('vary'))).toContain('origin');
      expect(list(res.headers.get('access-control-expose-headers'))).toEqual(
        expect.arrayContaining(['x-request-id', 'x-ratelimit-remaining', 'retry-after', 'idempotent-replayed']),
      );
      for (const other of ['https://evil.example', 'null', `${APP_ORIGIN}.evil.example`]) {
        const refused = await call(other);
        expect(refused.headers.get('access-control-allow-origin'), other).toBeNull();
        expect(refused.headers.get('access-control-allow-credentials'), other).toBeNull();
      }
    });
  });

  it('with *, any origin reads the answer, still without credentials', async () => {
    await withOrigins('*', async () => {
      for (const origin of [APP_ORIGIN, 'null']) {
        const res = await call(origin);
        expect(res.headers.get('access-control-allow-origin'), origin).toBe('*');
        expect(res.headers.get('access-control-allow-credentials'), origin).toBeNull();
      }
    });
  });
});

describe.each(PREFLIGHT_PATHS)('a preflight of %s', (path) => {
  it('from a listed origin: 204 with the methods and the headers the API reads, before any key is asked for, without credentials', async () => {
    await withOrigins([APP_ORIGIN], async () => {
      const res = await preflight(path, APP_ORIGIN);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(list(res.headers.get('access-control-allow-methods'))).toEqual(expect.arrayContaining(['get', 'post', 'put', 'delete']));
      expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
        expect.arrayContaining(['x-api-key', 'authorization', 'content-type', 'idempotency-key']),
      );
      expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(list(res.headers.get('vary'))).toContain('origin');
    });
  });

  it('from another origin, null, or any origin by default: 204 allowing nothing', async () => {
    const refusedBy = async (origin: string) => {
      const res = await preflight(path, origin);
      expect(res.status, origin).toBe(204);
      for (const h of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-allow-credentials'])
        expect(res.headers.get(h), `${origin} ${h}`).toBeNull();
    };
    await refusedBy(APP_ORIGIN);
    await refusedBy('null');
    await withOrigins([APP_ORIGIN], async () => {
      await refusedBy('https://evil.example');
      await refusedBy('null');
    });
  });
});
