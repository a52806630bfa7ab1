// Every answer of /v1 and of the file routes has the spec's error shape with a code of its list,
// whatever layer of the server gives it (the HTTP parser, the router, the body parser, GraphQL);
// /graphql answers in GraphQL's format with a code of the same list. Spoken over raw sockets,
// as these requests are ones no HTTP client would send.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/errors.js';
import { createUser, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { createTestDatabase } from '../support/db.js';
import { spawnServer } from '../support/process.js';
import { exchange, jsonOf, rawRequest, type RawAnswer } from '../support/raw.js';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app);
});
afterAll(async () => {
  await app?.stop();
});

const CODES = Object.keys(ERROR_STATUS);
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

function send(head: string, body = '') {
  return rawRequest(app.url, head, body, { waitMs: 3_000 });
}
const get = (path: string, key: string | null = user.key) =>
  send(`GET ${path} HTTP/1.1\r\nHost: t\r\n${key ? `x-api-key: ${key}\r\n` : ''}Connection: close\r\n\r\n`);
const post = (path: string, type: string, body: string, extra = '') =>
  send(
    `POST ${path} HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n`,
    body,
  );

/** `{error, message}` with a code of the spec's list, answered with that code's status (a range answer keeps 416) */
function expectSpecShape(a: RawAnswer, status?: number) {
  const body = jsonOf(a);
  expect(a.status, a.body).toBeGreaterThanOrEqual(400);
  expect(body, a.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  expect(CODES, a.body).toContain(body.error);
  expect(a.status, a.body).toBe(ERROR_STATUS[body.error as keyof typeof ERROR_STATUS]);
  if (status) expect(a.status).toBe(status);
  expect(
    Object.keys(body).filter((k) => !['error', 'message', 'details', 'retryAfter'].includes(k)),
    a.body,
  ).toEqual([]);
  return body;
}

/** GraphQL's format, `{errors: [{message, extensions: {code}}]}`, with a code of the spec's list */
function expectGraphQLShape(a: RawAnswer, code?: string) {
  const body = jsonOf(a);
  expect(body, `${a.status} ${a.body}`).toMatchObject({ errors: [{ message: expect.any(String), extensions: { code: expect.any(String) } }] });
  for (const e of body.errors) expect(CODES, a.body).toContain(e.extensions.code);
  if (code) expect(body.errors[0].extensions.code).toBe(code);
  return body;
}

describe('the /v1 API and the file routes', () => {
  it('JSON nested 5,000 deep', async () => {
    expectSpecShape(await post('/v1/projects', 'application/json', `{"title":${deep(5000)},"language":"en","videoUrl":"https://example.com/v.mp4"}`), 400);
    expectSpecShape(await post('/v1/projects', 'application/json', deep(5000)), 400);
    expectSpecShape(await post('/v1/user-media', 'application/json', `{"url":${deepObject(5000)}}`), 400);
  });

  it('a path id over the length limit is NOT_FOUND, like any id that names nothing', async () => {
    const long = 'a'.repeat(300);
    expectSpecShape(await get(`/v1/projects/${long}`), 404);
    expectSpecShape(await get(`/v1/projects/${long}/captions`), 404);
    expectSpecShape(
      await send(
        `PUT /v1/presets/${long} HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n`,
        '{}',
      ),
      404,
    );
    // a caller without a key learns nothing
    expectSpecShape(await get(`/v1/projects/${long}`, null), 401);
  });

  it('a 100 KB query string', async () => {
    expectSpecShape(await get(`/v1/user-media?cursor=${'a'.repeat(100_000)}`), 400);
    expectSpecShape(await get(`/files/x?sig=${'a'.repeat(100_000)}`, null), 400);
  });

  it('a path that is not valid percent-encoding', async () => {
    expectSpecShape(await get('/v1/projects/%FF%FE'), 400);
    expectSpecShape(await get('/v1/%FF%FE', null), 400);
    expectSpecShape(await get('/files/%FF%FE', null), 400);
  });

  it('a body the HTTP parser cannot read: bad chunked encoding, a wrong Content-Length', async () => {
    const chunked = (size: string) =>
      send(
        `POST /v1/projects HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${size}\r\n{}\r\n0\r\n\r\n`,
      );
    expectSpecShape(await chunked('zz'), 400);
    expectSpecShape(await chunked('2;\u0000'), 400);
    const withLength = (length: string) =>
      send(`POST /v1/projects HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\n${length}\r\n{}`);
    expectSpecShape(await withLength('Content-Length: abc\r\n'), 400);
    expectSpecShape(await withLength('Content-Length: 2\r\nContent-Length: 3\r\n'), 400);
  });

  /** a server of its own process: a reset races the answer only across processes */
  async function withOwnServer(run: (url: string) => Promise<void>) {
    const database = await createTestDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'error-shapes-data-'));
    const child = await spawnServer({ DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    try {
      await run(child.url);
    } finally {
      await child.stop('SIGKILL');
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }

  it('a request that asks to close, followed by megabytes the parser refuses, still gets its answer: no reset drops it', async () => {
    await withOwnServer(async (url) => {
      // no length, so the JSON that follows reads as a next request, which the parser refuses
      const head = 'POST /v1/projects HTTP/1.1\r\nHost: t\r\nx-api-key: sk-wrong\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n';
      const bytes = Buffer.from(`${head}{"title":"${'a'.repeat(6_000_000)}"}`);
      for (let i = 0; i < 20; i++) {
        const ex = await exchange(url, bytes, { waitMs: 10_000, answers: 1 });
        expect(
          ex.answers.map((a) => a.status),
          `exchange ${i}`,
        ).toEqual([401]);
        expect(JSON.parse(ex.answers[0].body.toString())).toMatchObject({ error: 'UNAUTHORIZED' });
      }
    });
  }, 120_000);

  it('a path the router refuses as not percent-encoded UTF-8, with megabytes of body still coming, still gets its answer: no reset drops it', async () => {
    await withOwnServer(async (url) => {
      // refused before any hook runs, the body unread: the answer must not close the connection under it
      const body = `{"returnUrl":"${'a'.repeat(6_000_000)}"}`;
      const head = `POST /v1/profiles/x/accounts/%ED%AB%A2/connect HTTP/1.1\r\nHost: t\r\nx-api-key: sk-wrong\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      const bytes = Buffer.from(head + body);
      for (let i = 0; i < 20; i++) {
        const ex = await exchange(url, bytes, { waitMs: 10_000, answers: 1 });
        expect(
          ex.answers.map((a) => a.status),
          `exchange ${i}`,
        ).toEqual([400]);
        expect(JSON.parse(ex.answers[0].body.toString())).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('percent-encoded') });
      }
    });
  }, 120_000);

  it('an expectation other than 100-continue is ignored: the request is answered as it would be without it', async () => {
    const withExpect = (path: string, key: string | null = user.key) =>
      send(`GET ${path} HTTP/1.1\r\nHost: t\r\n${key ? `x-api-key: ${key}\r\n` : ''}Expect: foo\r\nConnection: close\r\n\r\n`);
    const ok = await withExpect('/v1/languages');
    expect(ok.status, ok.body).toBe(200);
    expect(jsonOf(ok)).toMatchObject({ languages: expect.any(Array) });
    expectSpecShape(await withExpect('/v1/languages', null), 401);
  });

  it('an HTTP/1.1 request without a Host header is 400 in the shape of its door, and runs nothing', async () => {
    const noHost = (path: string) => send(`GET ${path} HTTP/1.1\r\nx-api-key: ${user.key}\r\nConnection: close\r\n\r\n`);
    expectSpecShape(await noHost('/v1/languages'), 400);
    expectSpecShape(await noHost('/files/media/x.mp4?exp=1&sig=bad'), 400);
    const keys = await app.runtime.app.db.apiKey.count({ where: { userId: user.id } });
    const mutation = JSON.stringify({ query: 'mutation { createApiKey { apiKey } }' });
    const graphql = await send(
      `POST /graphql HTTP/1.1\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\nContent-Length: ${mutation.length}\r\nConnection: close\r\n\r\n`,
      mutation,
    );
    expect(graphql.status).toBe(400);
    expectGraphQLShape(graphql, 'BAD_REQUEST');
    expect(await app.runtime.app.db.apiKey.count({ where: { userId: user.id } })).toBe(keys);
    // HTTP/1.0 has no such rule
    const old = await send(`GET /v1/languages HTTP/1.0\r\nx-api-key: ${user.key}\r\n\r\n`);
    expect(old.status, old.body).toBe(200);
  });

  it("a request to switch protocols outside /graphql is 400 in the spec's shape, not a dropped connection, and runs nothing", async () => {
    const upgrade = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
    expectSpecShape(await send(`GET /v1/languages HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\n${upgrade}\r\n`), 400);
    expectSpecShape(await send(`GET /nowhere HTTP/1.1\r\nHost: t\r\n${upgrade}\r\n`), 400);
    const media = await app.runtime.app.db.userMedia.count({ where: { userId: user.id } });
    const body = JSON.stringify({ url: 'http://127.0.0.1:1/a.mp3' });
    expectSpecShape(await post('/v1/user-media', 'application/json', body, 'Connection: Upgrade\r\nUpgrade: h2c\r\n'), 400);
    expect(await app.runtime.app.db.userMedia.count({ where: { userId: user.id } })).toBe(media);
  });

  it("a CONNECT request is 400 in the spec's shape, not a dropped connection: the service is no proxy", async () => {
    expectSpecShape(await send('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n'), 400);
    expectSpecShape(await send(`CONNECT /v1/languages HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\n\r\n`), 400);
  });

  it('the answers the service gave already keep their shape: unknown route, wrong type, broken JSON, a bad link', async () => {
    expectSpecShape(await get('/v1/nothing-here'), 404);
    expectSpecShape(await post('/v1/projects', 'application/xml', '<a/>'), 415);
    expectSpecShape(await post('/v1/projects', 'application/json', '{"title":'), 400);
    expectSpecShape(await get('/files/media/x.mp4?exp=1&sig=bad', null), 403);
  });
});

describe('/graphql', () => {
  const query = JSON.stringify({ query: '{ captionTemplates { name } }' });

  it('posted as text/plain: 415 with a GraphQL body', async () => {
    const a = await post('/graphql', 'text/plain', query);
    expect(a.status).toBe(415);
    expectGraphQLShape(a, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('JSON that does not parse, or nests 5,000 deep', async () => {
    expectGraphQLShape(await post('/graphql', 'application/json', '{"query":'), 'VALIDATION_ERROR');
    const op =
      'mutation($v: JSON) { createProject(input: { title: \\"T\\", language: \\"en\\", videoUrl: \\"https://example.com/v.mp4\\", hookTitle: $v }) { id } }';
    const nested = await post('/graphql', 'application/json', `{"query":"${op}","variables":{"v":${deepObject(5000)}}}`);
    expect(nested.status).toBeLessThan(500);
    expectGraphQLShape(nested);
  });

  it('what the HTTP layer refuses: a 100 KB query string, a bad chunk, an unknown method', async () => {
    expectGraphQLShape(await get(`/graphql?query=${'a'.repeat(100_000)}`), 'BAD_REQUEST');
    const chunk = await send(
      `POST /graphql HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expectGraphQLShape(chunk, 'BAD_REQUEST');
    expectGraphQLShape(
      await send(`PUT /graphql HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${query.length}\r\nConnection: close\r\n\r\n`, query),
    );
  });

  it("a WebSocket handshake it refuses is 400 in GraphQL's format; a valid one still switches protocols", async () => {
    const handshake = (method: string, lines: string) =>
      send(`${method} /graphql HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${lines}\r\n`);
    for (const refused of [
      await handshake('GET', 'Sec-WebSocket-Version: 13\r\n'),
      await handshake('GET', 'Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n'),
      await handshake('GET', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n'),
      await handshake('GET', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: a b\r\n'),
      await handshake('POST', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'),
    ]) {
      expect(refused.status, refused.body).toBe(400);
      expectGraphQLShape(refused, 'BAD_REQUEST');
    }
    const ok = await rawRequest(
      app.url,
      'GET /graphql HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
      '',
      { waitMs: 500 },
    );
    expect(ok.status).toBe(101);
  });

  it('bytes that break after a whole request do not answer for it: its own answer comes first, then the 400', async () => {
    const keys = await app.runtime.app.db.apiKey.count({ where: { userId: user.id } });
    const mutation = JSON.stringify({ query: 'mutation { createApiKey { apiKey } }' });
    const ex = await exchange(
      app.url,
      Buffer.from(
        `POST /graphql HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\nContent-Length: ${mutation.length}\r\n\r\n${mutation}\xde\r\n\r\n`,
        'latin1',
      ),
      { waitMs: 3_000 },
    );
    expect(ex.answers.map((a) => a.status)).toEqual([200, 400]);
    expect(JSON.parse(ex.answers[0].body.toString()).data.createApiKey.apiKey).toMatch(/^sk-/);
    expect(JSON.parse(ex.answers[1].body.toString())).toMatchObject({ error: 'BAD_REQUEST' });
    expect(await app.runtime.app.db.apiKey.count({ where: { userId: user.id } })).toBe(keys + 1);
    // a broken request that names its door is answered in that door's format
    const named = await exchange(
      app.url,
      Buffer.from(`GET /v1/languages HTTP/1.1\r\nHost: t\r\nx-api-key: ${user.key}\r\n\r\nGET /graphql HTTP/1.1\r\nHost: t\r\nBad Header: 1\r\n\r\n`, 'latin1'),
      { waitMs: 3_000 },
    );
    expect(named.answers.map((a) => a.status)).toEqual([200, 400]);
    expect(JSON.parse(named.answers[1].body.toString())).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
  });

  it("GraphQL's own refusals carry a code of the list: a syntax error, an unknown field", async () => {
    expectGraphQLShape(await post('/graphql', 'application/json', JSON.stringify({ query: '{ captionTemplates { name ' })), 'BAD_REQUEST');
    expectGraphQLShape(await post('/graphql', 'application/json', JSON.stringify({ query: '{ nothingHere }' })), 'BAD_REQUEST');
  });
});
