import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/errors.js';
import { PRESSURED_OPERATIONS } from '../../src/limits/back-pressure.js';
import { RATE_LIMITS } from '../../src/limits/rate-limits.js';
import { rootField } from '../../rest/response.js';
import { routes } from '../../rest/routes.js';
import { createUser, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { checkAnswer, checkWebhook } from '../support/openapi.js';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app);
});
afterAll(async () => {
  await app?.stop();
});

type Doc = { openapi: string; paths: Record<string, Record<string, any>>; webhooks: Record<string, any>; components: Record<string, any> };

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document, served without an API key, that a validator accepts', async () => {
    const r = await request<Doc>(app, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(r.body as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // a client holding the document revalidates it
    const again = await fetch(new URL('/openapi.json', app.url), { headers: { 'if-none-match': r.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('has every route of the table, with its parameters, body, statuses and the x-api-key scheme', async () => {
    const doc = (await request<Doc>(app, 'GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
    let operations = 0;
    for (const p of Object.values(doc.paths)) operations += Object.keys(p).length;
    expect(operations).toBe(routes.length);
    for (const r of routes) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url}`).toBeDefined();
      const statuses = Object.keys(op.responses).map(Number);
      expect(statuses.filter((s) => s < 300).length, `${r.method} ${r.url}: a success`).toBeGreaterThan(0);
      expect(statuses).toEqual(expect.arrayContaining([401, 500]));
      for (const name of r.url.match(/:(\w+)/g) ?? []) {
        expect(op.parameters).toContainEqual(expect.objectContaining({ name: name.slice(1), in: 'path', required: true }));
        expect(statuses).toContain(404);
      }
      for (const name of Object.keys(r.query ?? {})) expect(op.parameters).toContainEqual(expect.objectContaining({ name, in: 'query' }));
      if (r.method === 'POST') expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }));
      if (r.form) expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data']);
      else if (r.body) expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
      for (const [code, status] of Object.entries(r.errors ?? {}).map(([c]) => [c, ERROR_STATUS[c as keyof typeof ERROR_STATUS]] as const)) {
        expect(op.responses[status].content['application/json'].schema.properties.error.enum, `${r.method} ${r.url} ${status}`).toContain(code);
      }
      const limited = Object.hasOwn(RATE_LIMITS, rootField(r.operation));
      // work that back-pressure may refuse: 429 past a user's share, 503 when the queue or the disk is full
      const pressured = PRESSURED_OPERATIONS.has(rootField(r.operation));
      expect(statuses.includes(429), `${r.method} ${r.url}: 429`).toBe(limited || pressured);
      expect(statuses.includes(503), `${r.method} ${r.url}: 503`).toBe(pressured);
      if (pressured) expect(Object.keys(op.responses['503'].headers)).toContain('Retry-After');
      if (limited) expect(Object.keys((Object.values(op.responses)[0] as { headers: object }).headers)).toContain('X-RateLimit-Limit');
    }
  });

  it('describes the webhooks: one per event, signed, with the payload of its kind', async () => {
    const doc = (await request<Doc>(app, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'export.completed',
      'export.failed',
      'magic_clips.completed',
      'magic_clips.failed',
      'project.completed',
      'project.failed',
    ]);
    const post = doc.webhooks['export.completed'].post;
    expect(post.parameters.map((p: { name: string }) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const payload = doc.components.schemas.ExportPayload;
    expect(payload.required).toEqual(
      expect.arrayContaining(['event', 'projectId', 'exportId', 'status', 'downloadUrl', 'width', 'height', 'fps', 'duration', 'timestamp']),
    );
  });

  it('request bodies carry the rules of the schemas that validate them', async () => {
    const doc = (await request<Doc>(app, 'GET', '/openapi.json')).body;
    const create = doc.components.schemas.CreateProjectBody;
    expect(create.required).toEqual(['title', 'language', 'videoUrl']);
    expect(create.properties.captionPositionY).toEqual(expect.objectContaining({ minimum: 0, maximum: 80 }));
    expect(create.additionalProperties).toBe(false);
    const upload = doc.paths['/v1/projects/upload'].post.requestBody.content['multipart/form-data'];
    expect(upload.schema.required).toEqual(['title', 'language', 'file']);
    expect(upload.encoding.items).toEqual({ contentType: 'application/json' });
    expect(upload.schema.properties).not.toHaveProperty('autoRender');
  });

  it('marks what goes beyond SPEC.md: routes and body members carry x-extension, SPEC.md’s own do not', async () => {
    const doc = (await request<Doc>(app, 'GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/themes', 'get'],
      ['/v1/themes', 'post'],
      ['/v1/themes/{id}', 'put'],
      ['/v1/themes/{id}', 'delete'],
      ['/v1/templates/{name}', 'get'],
      ['/v1/hook-title/templates/{name}', 'get'],
    ]) {
      expect(doc.paths[path][method]['x-extension'], `${method} ${path}`).toEqual(expect.any(String));
      expect(doc.paths[path][method].description).toMatch(/^An extension of SPEC\.md/);
    }
    for (const [path, method] of [
      ['/v1/templates', 'get'],
      ['/v1/projects', 'post'],
      ['/v1/projects/{id}', 'put'],
    ])
      expect(doc.paths[path][method]['x-extension'], `${method} ${path}`).toBeUndefined();
    const create = doc.components.schemas.CreateProjectBody;
    expect(create.properties.style['x-extension']).toEqual(expect.any(String));
    expect(create.properties.title['x-extension']).toBeUndefined();
    const clips = doc.components.schemas.CreateMagicClipsBody;
    for (const field of ['clipCount', 'topic', 'range', 'aspectRatio', 'style', 'hookTitle'])
      expect(clips.properties[field]['x-extension'], field).toEqual(expect.any(String));
    for (const field of ['minClipLength', 'faceTracking', 'videoshareUrl']) expect(clips.properties[field]['x-extension'], field).toBeUndefined();
    const update = doc.components.schemas.UpdateProjectBody;
    for (const field of ['templateName', 'userThemeId', 'style']) expect(update.properties[field]['x-extension'], field).toEqual(expect.any(String));
    expect(update.properties.removeBadTakes['x-extension']).toBeUndefined();
  });
});

describe('answers checked against the reference', () => {
  it('an answer that does not fit fails, naming the route, the status and the mismatch', () => {
    const json = new Headers({ 'content-type': 'application/json' });
    expect(() => checkAnswer('GET', '/v1/languages', 200, json, { languages: [{ name: 'English' }] })).toThrow(
      /GET \/v1\/languages answered 200, which does not fit the API reference .*code/,
    );
    expect(() => checkAnswer('GET', '/v1/presets/x', 402, json, { error: 'PAYMENT_REQUIRED', message: 'no' })).toThrow(
      /GET \/v1\/presets\/\{id\} answered 402.*statuses 200, 401, 404, 500/,
    );
    expect(() => checkAnswer('GET', '/v1/presets/x', 404, json, { error: 'NOT_FOUND' })).toThrow(/message/);
    expect(() => checkAnswer('GET', '/v1/languages', 200, new Headers({ 'content-type': 'text/plain' }), 'x')).toThrow(/Content-Type text\/plain/);
    expect(() => checkAnswer('GET', '/v1/languages', 200, json, { languages: [{ name: 'English', code: 'en' }] })).not.toThrow();
  });

  it('a webhook that does not fit fails, naming the event and the mismatch', () => {
    const headers = { 'webhook-id': 'd1', 'webhook-timestamp': '1767225600', 'webhook-signature': 'v1,abc' };
    const failed = {
      event: 'project.failed',
      projectId: 'p1',
      status: 'failed',
      downloadUrl: null,
      directUrl: null,
      failureReason: 'no speech',
      timestamp: '2026-01-01T00:00:00.000Z',
    };
    expect(() => checkWebhook(headers, failed)).not.toThrow();
    expect(() => checkWebhook(headers, { ...failed, status: 'done' })).toThrow(/project\.failed: .*status/);
    expect(() => checkWebhook(headers, { ...failed, timestamp: 'yesterday' })).toThrow(/timestamp/);
    expect(() => checkWebhook({ ...headers, 'webhook-signature': undefined }, failed)).toThrow(/without the header webhook-signature/);
    expect(() => checkWebhook(headers, { ...failed, event: 'project.done' })).toThrow(/its event project\.done is not one of/);
  });

  it('real answers fit: a list, a refusal and an unknown route', async () => {
    // request() checks each of them; these make sure the check runs on every kind
    expect((await request(app, 'GET', '/v1/languages', { key: user.key })).status).toBe(200);
    expect((await request(app, 'GET', '/v1/user-media?limit=0', { key: user.key })).status).toBe(400);
    expect((await request(app, 'GET', '/v1/presets/00000000-0000-4000-8000-000000000000', { key: user.key })).status).toBe(404);
    expect((await request(app, 'GET', '/v1/languages')).status).toBe(401);
    expect((await request(app, 'GET', '/v1/nothing-here', { key: user.key })).status).toBe(404);
  });
});

describe('GET /docs', () => {
  it('is a page whose every script and style is served by the service itself, with its type and caching', async () => {
    const page = await fetch(new URL('/docs', app.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const urls = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png/ };
    for (const u of urls) {
      const url = new URL(u, page.url);
      expect(url.origin, u).toBe(new URL(app.url).origin);
      const res = await fetch(url);
      expect(res.status, u).toBe(200);
      expect(res.headers.get('content-type'), u).toMatch(types[u.split('.').pop()!]);
      expect(res.headers.get('cache-control'), u).toMatch(/max-age=\d+/);
      expect((await res.arrayBuffer()).byteLength, u).toBeGreaterThan(0);
    }
    // the start-up script reads the document from this service, and swagger-ui's online validator is off
    const init = await (await fetch(new URL('/docs/init.js', app.url))).text();
    expect(init).toMatch(/url: '\/openapi\.json'/);
    expect(init).toMatch(/validatorUrl: null/);
    // nothing in the page or its scripts is fetched from another host
    const bundle = await (await fetch(new URL('/docs/swagger-ui-bundle.js', app.url))).text();
    expect(bundle.length).toBeGreaterThan(100_000);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves only its own files: anything else under /docs is the 404 of the service', async () => {
    const r = await request(app, 'GET', '/docs/package.json');
    expect(r.status).toBe(404);
    expect(r.body).toEqual(expect.objectContaining({ error: 'NOT_FOUND' }));
  });
});
