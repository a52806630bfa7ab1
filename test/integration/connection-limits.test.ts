// What one client may hold of the service (README, Connection limits): slow heads, bodies and
// uploads are answered 408 in their door's format; the WebSocket door acknowledges only a valid
// key, reads messages up to a size, caps the sockets of one key and closes idle ones.
import fs from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, eventually, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures } from '../support/media.js';
import { jsonOf, multipartBody, pacedRequest, rawRequest } from '../support/raw.js';

const LIMITS = {
  REQUEST_HEADERS_TIMEOUT_MS: 1_000,
  REQUEST_BODY_TIMEOUT_MS: 1_500,
  UPLOAD_MIN_BYTES_PER_SECOND: 16 * 1024,
  UPLOAD_WINDOW_MS: 1_500,
  WS_MAX_PAYLOAD_BYTES: 64 * 1024,
  WS_IDLE_TIMEOUT_MS: 600,
  WS_MAX_SOCKETS_PER_KEY: 3,
};

const B = 'xB0UNDARYx';
let app: TestApp;
let user: TestUser;
/** 2 s of video, 190 KB */
let video: Buffer;
let projectId: string;

beforeAll(async () => {
  video = await fs.readFile((await mediaFixtures()).video);
  app = await startTestApp({ role: 'server', env: Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])) });
  user = await createUser(app);
  const made = await uploadProject(video);
  expect(made.status).toBe(201);
  projectId = made.body.id;
});
afterAll(async () => {
  await app?.stop();
});

function uploadProject(file: Buffer) {
  const body = multipartBody(B, [
    { name: 'title', value: 'Limits' },
    { name: 'language', value: 'en' },
    { name: 'file', value: file, filename: 'talk.mp4', type: 'video/mp4' },
  ]);
  return rawRequest(app.url, uploadHead(body.length), body).then((a) => ({ status: a.status, body: jsonOf(a) }));
}

const uploadHead = (length: number) =>
  `POST /v1/projects/upload HTTP/1.1\r\nHost: test\r\nx-api-key: ${user.key}\r\nContent-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${length}\r\n\r\n`;
const jsonHead = (target: string, length: number) =>
  `POST ${target} HTTP/1.1\r\nHost: test\r\nx-api-key: ${user.key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('a slow client over HTTP', () => {
  it('a head that trickles is 408 REQUEST_TIMEOUT once the headers timeout passes', async () => {
    const head = `GET /v1/languages HTTP/1.1\r\nHost: test\r\nx-api-key: ${user.key}\r\nx-pad: ${'a'.repeat(200)}\r\n\r\n`;
    const a = await pacedRequest(app.url, head, '', { headPiece: 1, everyMs: 50, waitMs: 1_000 });
    expect(a.status).toBe(408);
    expect(jsonOf(a)).toEqual({ error: 'REQUEST_TIMEOUT', message: expect.stringMatching(/headers were not received in time/) });
    expect(a.closed).toBe(true);
    // the interval Node checks at is a quarter of the limit
    expect(a.answeredMs).toBeGreaterThanOrEqual(LIMITS.REQUEST_HEADERS_TIMEOUT_MS);
    expect(a.answeredMs).toBeLessThan(LIMITS.REQUEST_HEADERS_TIMEOUT_MS * 2 + 1_000);
  });

  it('a JSON body that trickles, however steadily, is 408 in the error shape of /v1 once its deadline passes, and makes nothing', async () => {
    const body = JSON.stringify({ title: 'Slow', videoUrl: 'http://127.0.0.1:1/never.mp4', pad: 'x'.repeat(400) });
    const a = await pacedRequest(app.url, jsonHead('/v1/projects', body.length), body, { piece: 2, everyMs: 20 });
    expect(a.status).toBe(408);
    expect(jsonOf(a)).toEqual({ error: 'REQUEST_TIMEOUT', message: 'The request body was not received within 1.5 s' });
    expect(a.closed).toBe(true);
    expect(a.answeredMs).toBeGreaterThanOrEqual(LIMITS.REQUEST_BODY_TIMEOUT_MS);
    expect(a.answeredMs).toBeLessThan(LIMITS.REQUEST_BODY_TIMEOUT_MS + 1_500);
    expect(a.sent).toBeLessThan(body.length);
    const projects = await gql(app, user.key, '{ projects(first: 50) { edges { node { title } } } }');
    expect(projects.body.data.projects.edges.map((e: any) => e.node.title)).toEqual(['Limits']);
  });

  it('on /graphql the same refusal comes in GraphQL’s format', async () => {
    const body = JSON.stringify({ query: `{ languages { code } }`, pad: 'x'.repeat(400) });
    const a = await pacedRequest(app.url, jsonHead('/graphql', body.length), body, { piece: 2, everyMs: 20 });
    expect(a.status).toBe(408);
    expect(jsonOf(a)).toEqual({ errors: [{ message: 'The request body was not received within 1.5 s', extensions: { code: 'REQUEST_TIMEOUT' } }] });
  });

  it('a body sent whole in time is answered as usual', async () => {
    const body = JSON.stringify({ query: '{ languages { code } }' });
    const a = await pacedRequest(app.url, jsonHead('/graphql', body.length), body, { piece: 8, everyMs: 100 });
    expect(a.status).toBe(200);
    expect(jsonOf(a)).toEqual({ data: { languages: [{ code: 'en' }] } });
  });

  it('an upload slower than the floor is cut off with 408 and leaves no file behind', async () => {
    const body = multipartBody(B, [
      { name: 'title', value: 'Crawling' },
      { name: 'language', value: 'en' },
      { name: 'file', value: video, filename: 'talk.mp4', type: 'video/mp4' },
    ]);
    // 4 KiB a second: a quarter of the floor
    const a = await pacedRequest(app.url, uploadHead(body.length), body, { piece: 1024, everyMs: 250 });
    expect(a.status).toBe(408);
    expect(jsonOf(a)).toEqual({ error: 'REQUEST_TIMEOUT', message: `The upload was cut off: it sent less than ${16 * 1024} bytes a second over 1.5 s` });
    expect(a.closed).toBe(true);
    expect(a.sent).toBeLessThan(body.length);
    const tmp = path.join(app.dataDir, 'tmp');
    await eventually(async () => expect(await fs.readdir(tmp).catch(() => [])).toEqual([]));
  });

  it('an upload moving above the floor goes on past the window and is stored', async () => {
    const body = multipartBody(B, [
      { name: 'title', value: 'Steady' },
      { name: 'language', value: 'en' },
      { name: 'file', value: video, filename: 'talk.mp4', type: 'video/mp4' },
    ]);
    // four times the floor, for well over the window
    const piece = 16 * 1024;
    expect(body.length / (piece * 4)).toBeGreaterThan((1.5 * LIMITS.UPLOAD_WINDOW_MS) / 1000);
    const a = await pacedRequest(app.url, uploadHead(body.length), body, { piece, everyMs: 250 });
    expect(a.status).toBe(201);
    expect(jsonOf(a)).toMatchObject({ title: 'Steady' });
  });
});

// ---------------------------------------------------------------------------

interface Closed {
  code: number;
  reason: string;
  /** messages received before the close */
  messages: any[];
}

function openSocket(): Promise<{ ws: WebSocket; closed: Promise<Closed>; next: () => Promise<any> }> {
  const ws = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: any[] = [];
  const waiting: Array<(m: any) => void> = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    const w = waiting.shift();
    if (w) w(m);
    else messages.push(m);
  });
  const closed = new Promise<Closed>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason), messages: [...messages] })));
  ws.on('error', () => {});
  const next = () => (messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiting.push(r)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed, next }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

async function acknowledged(key = user.key) {
  const s = await openSocket();
  s.ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': key } }));
  expect(await s.next()).toEqual({ type: 'connection_ack' });
  return s;
}

describe('the WebSocket door', () => {
  it('a connection_init without a key, or with an unknown one, is closed 4403 before any acknowledgement', async () => {
    for (const payload of [undefined, {}, { 'x-api-key': 'sk-nope' }, { Authorization: 'Bearer sk-nope' }]) {
      const s = await openSocket();
      s.ws.send(JSON.stringify({ type: 'connection_init', ...(payload ? { payload } : {}) }));
      const closed = await s.closed;
      expect(closed).toEqual({ code: 4403, reason: 'Forbidden', messages: [] });
    }
  });

  it('a subscription sent before connection_init is refused 4401 and runs nothing', async () => {
    const s = await openSocket();
    s.ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ languages { code } }' } }));
    expect(await s.closed).toMatchObject({ code: 4401, messages: [] });
  });

  it('a valid key is acknowledged (in x-api-key, apiKey or Authorization) and runs operations', async () => {
    for (const payload of [{ 'x-api-key': user.key }, { apiKey: user.key }, { Authorization: `Bearer ${user.key}` }]) {
      const s = await openSocket();
      s.ws.send(JSON.stringify({ type: 'connection_init', payload }));
      expect(await s.next()).toEqual({ type: 'connection_ack' });
      s.ws.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ languages { code } }' } }));
      expect(await s.next()).toEqual({ id: 'q', type: 'next', payload: { data: { languages: [{ code: 'en' }] } } });
      s.ws.close();
      await s.closed;
    }
  });

  it('a message over WS_MAX_PAYLOAD_BYTES closes the socket 1009, and the service serves on', async () => {
    const s = await openSocket();
    s.ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': user.key, pad: 'x'.repeat(LIMITS.WS_MAX_PAYLOAD_BYTES) } }));
    expect(await s.closed).toMatchObject({ code: 1009, messages: [] });
    const after = await acknowledged();
    s.ws.send('x'); // on a closed socket: nothing
    after.ws.close();
    await after.closed;
    expect((await request(app, 'GET', '/healthz')).status).toBe(200);
  });

  it('a message that is not JSON closes the socket 4400', async () => {
    const s = await acknowledged();
    s.ws.send('{ not json');
    expect(await s.closed).toMatchObject({ code: 4400 });
  });

  it('one key holds at most WS_MAX_SOCKETS_PER_KEY sockets; another key is not held back, and a closed socket frees its place', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.WS_MAX_SOCKETS_PER_KEY }, () => acknowledged()));
    // each is kept busy, so the idle rule does not free a place meanwhile
    for (const s of held)
      s.ws.send(
        JSON.stringify({
          id: 'p',
          type: 'subscribe',
          payload: { query: `subscription { projectUpdates(projectId: "${projectId}", follow: true) { status } }` },
        }),
      );
    for (const s of held) expect(await s.next()).toMatchObject({ id: 'p', type: 'next' });
    const over = await openSocket();
    over.ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': user.key } }));
    expect(await over.closed).toEqual({ code: 1013, reason: expect.stringMatching(/holds 3 WebSockets, the most it may/), messages: [] });
    const other = await acknowledged((await createUser(app)).key);
    held[0].ws.close();
    await held[0].closed;
    await eventually(async () => {
      const again = await acknowledged();
      again.ws.close();
    });
    for (const s of [...held.slice(1), other]) s.ws.close();
    await Promise.all([...held, other].map((s) => s.closed));
  });

  it('a socket that runs no operation for WS_IDLE_TIMEOUT_MS is closed 1000; one following a subscription is not', async () => {
    const idle = await acknowledged();
    const busy = await acknowledged();
    const t0 = Date.now();
    busy.ws.send(
      JSON.stringify({ id: 'p', type: 'subscribe', payload: { query: `subscription { projectUpdates(projectId: "${projectId}", follow: true) { status } }` } }),
    );
    expect(await busy.next()).toMatchObject({ id: 'p', type: 'next', payload: { data: { projectUpdates: { status: expect.any(String) } } } });
    expect(await idle.closed).toEqual({ code: 1000, reason: 'Idle: no operation for 0.6 s', messages: [] });
    expect(Date.now() - t0).toBeLessThan(LIMITS.WS_IDLE_TIMEOUT_MS * 4);
    // three idle periods later the busy one is still open; once its subscription ends, it is idle too
    await new Promise((r) => setTimeout(r, LIMITS.WS_IDLE_TIMEOUT_MS * 3));
    expect(busy.ws.readyState).toBe(WebSocket.OPEN);
    busy.ws.send(JSON.stringify({ id: 'p', type: 'complete' }));
    expect(await busy.closed).toMatchObject({ code: 1000 });
  });
});
