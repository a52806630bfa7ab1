import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { CAPTION_TEMPLATES } from '../../src/catalog/caption-templates.js';
import { HOOK_TITLE_TEMPLATES } from '../../src/catalog/hook-title-templates.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';

/** Log lines of the service, to check what it logs (request ids, errors). */
const lines: Array<Record<string, any>> = [];
const logSink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    done();
  },
});

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ env: { LOG_LEVEL: 'info' }, logDestination: logSink });
  user = await createUser(app);
});
afterAll(async () => {
  await app?.stop();
});

describe('health and metrics', () => {
  it('GET /healthz answers 200 {status: ok} without a key', async () => {
    const r = await request(app, 'GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok' });
    // beside it, the queue by class (docs/concurrency.md, Back-pressure)
    expect(Object.keys(r.body.queue).sort()).toEqual(['batch', 'interactive', 'upkeep']);
  });

  it('GET /metrics serves Prometheus text with the HTTP histogram', async () => {
    await request(app, 'GET', '/v1/languages', { key: user.key });
    const res = await fetch(new URL('/metrics', app.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/languages",status="200"\} \d+/);
    expect(text).toMatch(/graphql_operations_total\{operation="Languages",type="query",outcome="ok"\} \d+/);
  });

  it('GET /metrics shows a stall of the event loop (nodejs_eventloop_lag_max_seconds), sampled every 50 ms', async () => {
    const lagMax = async () => Number((await (await fetch(new URL('/metrics', app.url))).text()).match(/^nodejs_eventloop_lag_max_seconds (\S+)$/m)?.[1]);
    await lagMax(); // each scrape starts the histogram again; its first sample after that only sets the clock
    await new Promise((r) => setTimeout(r, 120));
    // the server runs in this process: 200 ms of synchronous work stalls its loop
    const until = performance.now() + 200;
    while (performance.now() < until);
    await new Promise((r) => setTimeout(r, 120));
    expect(await lagMax()).toBeGreaterThanOrEqual(0.15);
  });
});

describe('catalogue reads through both doors', () => {
  it('GET /v1/languages lists {name, code} the configured engine can transcribe', async () => {
    const r = await request(app, 'GET', '/v1/languages', { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ languages: [{ name: 'English', code: 'en' }] });
    const g = await gql(app, user.key, '{ languages { name code } }');
    expect(g.body.data).toEqual({ languages: r.body.languages });
  });

  it('GET /v1/templates lists the caption template names, default first', async () => {
    const r = await request(app, 'GET', '/v1/templates', { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ templates: CAPTION_TEMPLATES.map((t) => t.name) });
    expect(r.body.templates[0]).toBe('classic');
    const g = await gql(app, user.key, '{ captionTemplates { name style { font { family size weight } activeWord { effect } layout { wordsPerLine } } } }');
    expect(g.body.data.captionTemplates.map((t: { name: string }) => t.name)).toEqual(r.body.templates);
    expect(g.body.data.captionTemplates[0].style).toEqual({
      font: { family: 'Lato', size: 176, weight: 900 },
      activeWord: { effect: 'color' },
      layout: { wordsPerLine: 2 },
    });
  });

  it('GET /v1/hook-title/templates lists the hook-title template names, default first', async () => {
    const r = await request(app, 'GET', '/v1/hook-title/templates', { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ templates: HOOK_TITLE_TEMPLATES.map((t) => t.name) });
    const g = await gql(app, user.key, '{ hookTitleTemplates { name textColor } }');
    expect(g.body.data.hookTitleTemplates.map((t: { name: string }) => t.name)).toEqual(r.body.templates);
  });

  it('GET /v1/templates/{name} answers a template: its description, whole style and a PNG still of it, made once', async () => {
    expect(CAPTION_TEMPLATES).toHaveLength(30);
    const t = CAPTION_TEMPLATES.find((x) => x.style.emoji === 'keywords')!;
    const r = await request(app, 'GET', `/v1/templates/${t.name}`, { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: t.name, description: t.description, style: t.style, previewUrl: expect.any(String) });
    const png = await fetch(r.body.previewUrl);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    // the PNG's header: 540 x 960
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([540, 960]);
    // a link of the service, needing no key, sent on to the stored picture: kept, so a second fetch is sent to the same file
    expect(new URL(r.body.previewUrl).pathname).toBe(`/previews/caption/${t.name}.png`);
    const first = await fetch(r.body.previewUrl, { redirect: 'manual' });
    const second = await fetch(r.body.previewUrl, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(new URL(second.headers.get('location')!).pathname).toBe(new URL(first.headers.get('location')!).pathname);
    expect((await fetch(new URL('/previews/caption/nope.png', app.url))).status).toBe(404);
    expect((await fetch(new URL(`/previews/hook/${t.name}.png`, app.url))).status).toBe(404);
    const g = await gql(app, user.key, 'query($n: String!) { captionTemplate(name: $n) { name style { emoji } previewUrl } }', { n: t.name });
    expect(g.body.data.captionTemplate).toMatchObject({ name: t.name, style: { emoji: 'keywords' } });
    // an unknown name
    expect(await request(app, 'GET', '/v1/templates/nope', { key: user.key })).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
    // another service in this process, with a store of its own, stores its own still: what one knows is stored is not the other's
    const other = await startTestApp({ role: 'server' });
    try {
      const still = await fetch(new URL(`/previews/caption/${t.name}.png`, other.url));
      expect(still.status).toBe(200);
      expect(new URL(still.url).origin).toBe(new URL(other.url).origin);
    } finally {
      await other.stop();
    }
  });

  it('GET /v1/hook-title/templates/{name} answers a hook template with a PNG still; there are twelve', async () => {
    expect(HOOK_TITLE_TEMPLATES.length).toBeGreaterThanOrEqual(12);
    const h = HOOK_TITLE_TEMPLATES[5];
    const r = await request(app, 'GET', `/v1/hook-title/templates/${h.name}`, { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: h.name, description: h.description, font: h.font, textColor: h.textColor, previewUrl: expect.any(String) });
    const png = await fetch(r.body.previewUrl);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(await request(app, 'GET', '/v1/hook-title/templates/nope', { key: user.key })).toMatchObject({ status: 404, body: { error: 'NOT_FOUND' } });
  });

  it('accepts the key as Authorization: Bearer too', async () => {
    const r = await request(app, 'GET', '/v1/templates', { headers: { authorization: `Bearer ${user.key}` } });
    expect(r.status).toBe(200);
  });
});

describe('authentication', () => {
  const restCases = ['/v1/languages', '/v1/templates', '/v1/hook-title/templates'];

  it('a request without a key is 401 UNAUTHORIZED on REST and GraphQL', async () => {
    for (const path of restCases) {
      const r = await request(app, 'GET', path);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'UNAUTHORIZED', message: expect.stringMatching(/missing/i) });
    }
    const g = await gql(app, undefined, '{ languages { code } }');
    expect(g.status).toBe(401);
    expect(g.body.errors?.[0].extensions?.code).toBe('UNAUTHORIZED');
    expect(g.body.data ?? null).toBeNull();
  });

  it('any /v1 path, known or not, needs a key first', async () => {
    for (const [method, path] of [
      ['GET', '/v1/presets'],
      ['POST', '/v1/projects'],
      ['GET', '/v1/whatever'],
    ]) {
      expect((await request(app, method, path)).body).toEqual({ error: 'UNAUTHORIZED', message: expect.any(String) });
      expect((await request(app, method, path, { key: 'sk-wrong' })).status).toBe(401);
    }
  });

  it('an unknown sk- key is 401 UNAUTHORIZED, introspection included', async () => {
    const key = 'sk-unknownunknownunknownunknown';
    const r = await request(app, 'GET', '/v1/languages', { key });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'UNAUTHORIZED', message: expect.stringMatching(/invalid/i) });
    const g = await gql(app, key, '{ __schema { queryType { name } } }');
    expect(g.body.errors?.[0].extensions?.code).toBe('UNAUTHORIZED');
  });

  it('a key is stored as its SHA-256 only; a revoked key is 401 at once', async () => {
    const created = await gql(app, user.key, 'mutation { createApiKey { apiKey key { id prefix revokedAt } } }');
    const { apiKey, key } = created.body.data.createApiKey;
    expect(apiKey).toMatch(/^sk-[A-Za-z0-9_-]{40,}$/);
    expect(apiKey.startsWith(key.prefix)).toBe(true);
    const rows = await app.runtime.app.db.apiKey.findMany({ where: { userId: user.id } });
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(apiKey.slice(10));
    expect((await request(app, 'GET', '/v1/languages', { key: apiKey })).status).toBe(200);

    const revoked = await gql(app, apiKey, 'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }', { id: key.id });
    expect(revoked.body.data.revokeApiKey.revokedAt).toEqual(expect.any(String));
    const after = await request(app, 'GET', '/v1/languages', { key: apiKey });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('UNAUTHORIZED');
    // the other key of the same user still works
    expect((await request(app, 'GET', '/v1/languages', { key: user.key })).status).toBe(200);
  });

  it("another user's key is NOT_FOUND, never FORBIDDEN", async () => {
    const other = await createUser(app);
    const keys = await gql(app, user.key, '{ apiKeys { id } }');
    const r = await gql(app, other.key, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: keys.body.data.apiKeys[0].id });
    expect(r.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const bad = await gql(app, other.key, 'mutation { revokeApiKey(id: "not-a-uuid") { id } }');
    expect(bad.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('WebSocket clients authenticate with connectionParams', async () => {
    const run = async (connectionParams: Record<string, string>) => {
      const client = createClient({ url: app.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
      try {
        return await new Promise<any>((resolve) => {
          client.subscribe({ query: '{ languages { code } }' }, { next: resolve, error: (e) => resolve({ error: e }), complete: () => {} });
        });
      } finally {
        await client.dispose();
      }
    };
    expect(await run({ 'x-api-key': user.key })).toEqual({ data: { languages: [{ code: 'en' }] } });
    // without a valid key the connection is never acknowledged: closed 4403 before any operation runs
    const denied = await run({});
    expect(denied.error).toMatchObject({ code: 4403, reason: 'Forbidden' });
    const wrong = await run({ 'x-api-key': 'sk-nope' });
    expect(wrong.error).toMatchObject({ code: 4403, reason: 'Forbidden' });
  });
});

describe('errors', () => {
  it('an unknown /v1 route is 404 NOT_FOUND in the error shape', async () => {
    const r = await request(app, 'GET', '/v1/no-such-route', { key: user.key });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'NOT_FOUND', message: 'Route GET /v1/no-such-route not found' });
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GraphQL input coercion errors are VALIDATION_ERROR naming the field', async () => {
    const g = await gql(app, user.key, 'mutation($id: ID!) { revokeApiKey(id: $id) { id } }', {});
    expect(g.body.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'id', message: 'is required' }] });
  });

  it('a query over the breadth or complexity limit is refused before it runs', async () => {
    const wide = Array.from({ length: 300 }, (_, i) => `f${i}: languages { code }`).join(' ');
    const refused = await gql(app, user.key, `{ ${wide} }`);
    expect(refused.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
  });

  it('unexpected failures are 500 INTERNAL_SERVER_ERROR without internals, logged with the request id', async () => {
    // the key's look-up fails; the service's other statements (its workers' among them) go on
    const db = app.runtime.app.db;
    const raw = db.$queryRaw.bind(db);
    const spy = vi
      .spyOn(db, '$queryRaw')
      .mockImplementation(((sql: TemplateStringsArray, ...values: unknown[]) =>
        sql.join('').includes('"ApiKey"') ? Promise.reject(new Error('connection to /var/run/secret-db lost')) : raw(sql, ...values)) as never);
    try {
      const r = await request(app, 'GET', '/v1/templates', { key: user.key });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
      expect(JSON.stringify(r.body)).not.toContain('secret');
      const reqId = r.headers.get('x-request-id');
      const logged = lines.find((l) => l.level >= 50 && l.reqId === reqId);
      expect(logged?.err?.message).toContain('secret-db');

      const g = await gql(app, user.key, '{ languages { code } }');
      expect(g.body.errors?.[0]).toMatchObject({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(JSON.stringify(g.body)).not.toContain('secret');
    } finally {
      spy.mockRestore();
    }
  });

  it('every log line of a request carries its request id', async () => {
    const r = await request(app, 'GET', '/v1/languages', { key: user.key, headers: { 'x-request-id': 'trace-me-123' } });
    expect(r.headers.get('x-request-id')).toBe('trace-me-123');
    const mine = lines.filter((l) => l.reqId === 'trace-me-123');
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });
});
