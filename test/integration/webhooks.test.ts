import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createGuardedFetch } from '../../src/net/guarded-fetch.js';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/webhooks/schedule.js';
import { deliverWebhook, enqueueWebhook } from '../../src/webhooks/service.js';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../../src/webhooks/signing.js';
import { createUser, gql, jobEnded, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { freePort } from '../support/ports.js';
import { selfSignedCert } from '../support/tls.js';
import { JOB_NAMES } from '../../src/jobs/names.js';

/** One request the receiver got. */
interface Hit {
  route: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Responder = (hit: Hit, res: http.ServerResponse, n: number) => void | Promise<void>;

/** A webhook endpoint on 127.0.0.1: records every request; each route answers as the test says (default 204). */
function receiver(server: http.Server | https.Server) {
  const hits: Hit[] = [];
  const responders = new Map<string, Responder>();
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = (req.url ?? '/').slice(1);
      const hit = { route, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      hits.push(hit);
      const n = hits.filter((h) => h.route === route).length;
      void Promise.resolve((responders.get(route) ?? ((_h, r) => void r.writeHead(204).end()))(hit, res, n)).catch(() => res.destroy());
    });
  });
  return {
    server,
    hits: (route: string) => hits.filter((h) => h.route === route),
    on: (route: string, responder: Responder) => responders.set(route, responder),
    url: (route: string) => {
      const { port } = server.address() as AddressInfo;
      return `${server instanceof https.Server ? 'https' : 'http'}://127.0.0.1:${port}/${route}`;
    },
    listen: () => new Promise<void>((r) => server.listen(0, '127.0.0.1', r)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

let app: TestApp;
let svc: App;
let alice: TestUser;
let bob: TestUser;
let aliceSecret: string;
const hook = receiver(http.createServer());

beforeAll(async () => {
  await hook.listen();
  // retries 5 ms, 15 ms, 45 ms, ... apart instead of 10 s, 30 s, 90 s, ...
  app = await startTestApp({ env: { WEBHOOK_RETRY_BASE_MS: '5' } });
  svc = app.runtime.app;
  [alice, bob] = await Promise.all([createUser(app), createUser(app)]);
  aliceSecret = (await svc.db.user.findUniqueOrThrow({ where: { id: alice.id } })).webhookSecret;
});
afterAll(async () => {
  await hook.close();
  await app?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(20);
  }
}

const row = (on: App, id: string) => on.db.webhookDelivery.findUniqueOrThrow({ where: { id } });
const settled = (on: App, id: string) =>
  waitFor(
    `delivery ${id}`,
    () => row(on, id),
    (d) => d.status !== 'pending',
  );

/** A project.completed event for a fresh project of `userId`. */
function completed(userId: string, url: string, subjectId: string = crypto.randomUUID()) {
  return {
    userId,
    url,
    event: 'project.completed' as const,
    subjectId,
    payload: {
      projectId: subjectId,
      status: 'completed' as const,
      downloadUrl: `https://media.example/${subjectId}.mp4`,
      directUrl: `https://media.example/${subjectId}.mp4?inline=1`,
      timestamp: '2026-11-21T12:00:00.000Z',
    },
  };
}

/** Recorded as a status transition would record it: inside a transaction, so no job is enqueued. */
const recordOnly = (on: App, input: ReturnType<typeof completed>) => on.db.$transaction((tx) => enqueueWebhook(on, input, tx));

/** Independent of src/webhooks: the Standard Webhooks signature, computed here. */
function expectedSignature(secret: string, id: string, timestamp: string, body: string) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

describe('signatures', () => {
  it('reproduces the Standard Webhooks reference vector', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,bm9wZQ== v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    expect(verifyWebhook(secret, headers, body, { now: new Date(1614265330_000) })).toEqual({ test: 2432232314 });
  });

  it('verifyWebhook refuses a changed body, another secret, a stale timestamp and missing headers', () => {
    const secret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
    const ts = Math.floor(Date.now() / 1000);
    const body = '{"event":"project.completed"}';
    const headers = { 'webhook-id': 'd1', 'webhook-timestamp': String(ts), 'webhook-signature': signWebhook(secret, 'd1', ts, body) };
    expect(verifyWebhook(secret, new Headers(headers), body)).toEqual({ event: 'project.completed' });
    const refused = (f: () => unknown, why: RegExp) =>
      expect(f).toThrow(expect.objectContaining({ name: 'WebhookVerificationError', message: expect.stringMatching(why) }));
    refused(() => verifyWebhook(secret, headers, body.replace('completed', 'failed')), /no signature/);
    refused(() => verifyWebhook(`whsec_${crypto.randomBytes(24).toString('base64')}`, headers, body), /no signature/);
    refused(() => verifyWebhook(secret, headers, body, { now: new Date((ts + 301) * 1000) }), /too old/);
    refused(() => verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body), /missing/);
    expect(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'd2' }, body)).toThrow(WebhookVerificationError);
  });

  it('waits 10 s, 30 s, 90 s, 4.5 min, ... (±20 %) between the 8 attempts by default', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, 10_000, mid))).toEqual([10_000, 30_000, 90_000, 270_000, 810_000, 2_430_000, 7_290_000]);
    expect(retryDelayMs(1, 10_000, () => 0)).toBe(8_000);
    expect(retryDelayMs(1, 10_000, () => 1)).toBe(12_000);
    expect(MAX_ATTEMPTS).toBe(8);
  });
});

describe('delivery', () => {
  it("POSTs the payload once, signed with the user's secret; the delivery is recorded as delivered", async () => {
    const input = completed(alice.id, hook.url('once'));
    const { deliveryId, created } = await enqueueWebhook(svc, input);
    expect(created).toBe(true);
    const d = await settled(svc, deliveryId);
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
      event: 'project.completed',
      subjectId: input.subjectId,
    });
    expect(d.deliveredAt).toBeInstanceOf(Date);

    const [hit] = hook.hits('once');
    expect(hook.hits('once')).toHaveLength(1);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toMatch(/^clipcast-webhooks\//);
    expect(hit.headers['webhook-id']).toBe(deliveryId);
    const ts = String(hit.headers['webhook-timestamp']);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(hit.headers['webhook-signature']).toBe(expectedSignature(aliceSecret, deliveryId, ts, hit.body));
    expect(verifyWebhook(aliceSecret, hit.headers, hit.body)).toEqual({ event: 'project.completed', ...input.payload });
  });

  it('sends an event enqueued twice for the same subject once; jobs run again send nothing', async () => {
    const input = completed(alice.id, hook.url('twice'));
    const first = await Promise.all([enqueueWebhook(svc, input), enqueueWebhook(svc, input)]);
    const again = await enqueueWebhook(svc, { ...input, payload: { ...input.payload, timestamp: new Date().toISOString() } });
    const ids = new Set([...first, again].map((r) => r.deliveryId));
    expect(ids.size).toBe(1);
    expect([...first, again].filter((r) => r.created)).toHaveLength(1);
    const [deliveryId] = ids;
    await settled(svc, deliveryId);

    // a retried job (or one enqueued by the sweeper) finds the delivery done
    expect(await deliverWebhook(svc, deliveryId)).toBe('skipped');
    await jobEnded(svc, await svc.jobs.enqueue(JOB_NAMES.deliverWebhook, { deliveryId }));
    expect(hook.hits('twice')).toHaveLength(1);
    expect(await svc.db.webhookDelivery.count({ where: { subjectId: input.subjectId } })).toBe(1);
    expect((await row(svc, deliveryId)).attempts).toBe(1);
  });

  it('retries after HTTP 500 with the same webhook-id and body and a fresh signature, until delivered', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    hook.on('flaky', async (_hit, res, n) => {
      if (n === 2) await held; // the test looks at the delivery between the two failures
      if (n <= 2) res.writeHead(500, { 'content-type': 'text/plain' }).end('database  is\n down');
      else res.writeHead(200).end('ok');
    });
    const { deliveryId } = await enqueueWebhook(svc, completed(alice.id, hook.url('flaky')));

    await waitFor(
      'the second attempt',
      async () => hook.hits('flaky').length,
      (n) => n === 2,
    );
    const between = await row(svc, deliveryId);
    expect(between).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'The endpoint answered HTTP 500 Internal Server Error: database is down',
    });
    release();

    const d = await settled(svc, deliveryId);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
    const hits = hook.hits('flaky');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers['webhook-id']))).toEqual(new Set([deliveryId]));
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    for (const h of hits)
      expect(h.headers['webhook-signature']).toBe(expectedSignature(aliceSecret, deliveryId, String(h.headers['webhook-timestamp']), h.body));
  });

  it('records each failed attempt of an unreachable receiver with growing waits, and fails after 8', async () => {
    const url = `http://127.0.0.1:${await freePort()}/down`;
    const { deliveryId } = await enqueueWebhook(svc, completed(alice.id, url));
    // the wait before the next attempt, as seen between attempts
    const waits = new Map<number, number>();
    const d = await waitFor(
      'the last attempt',
      async () => {
        const r = await row(svc, deliveryId);
        const wait = r.nextAttemptAt ? r.nextAttemptAt.getTime() - r.updatedAt.getTime() : null;
        // between attempts (not while one is in flight: its lease is 60 s)
        if (r.status === 'pending' && r.attempts > 0 && wait !== null && wait < 30_000 && !waits.has(r.attempts)) {
          expect(r.lastError).toMatch(/refused the connection/);
          expect(r.lastStatusCode).toBeNull();
          waits.set(r.attempts, wait);
        }
        return r;
      },
      (r) => r.status !== 'pending',
      30_000,
    );
    expect(d).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
      deliveredAt: null,
      lastError: expect.stringMatching(/refused the connection/),
    });
    // 5 ms × 3^(n-1) ±20 %, measured against updatedAt (a few ms of noise): waits from 45 ms on tell
    const seen = [...waits.entries()].filter(([n]) => n >= 3).sort(([a], [b]) => a - b);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i][1]).toBeGreaterThan(seen[i - 1][1]);
    for (const [n, wait] of seen) {
      expect(wait).toBeGreaterThanOrEqual(5 * 3 ** (n - 1) * 0.8 - 10);
      expect(wait).toBeLessThanOrEqual(5 * 3 ** (n - 1) * 1.2 + 10);
    }
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    hook.on('moved', (_hit, res) => void res.writeHead(302, { location: hook.url('moved-target') }).end());
    const { deliveryId } = await recordOnly(svc, completed(alice.id, hook.url('moved')));
    expect(await deliverWebhook(svc, deliveryId)).toBe('retrying');
    // stop the retries the attempt scheduled (a worker may have made one more already)
    const d = await svc.db.webhookDelivery.update({ where: { id: deliveryId }, data: { status: 'failed', nextAttemptAt: null } });
    expect(d.attempts).toBeGreaterThanOrEqual(1);
    expect(d.lastError).toBe('The endpoint answered with a redirect, which webhooks do not follow: give the final URL');
    expect(hook.hits('moved').length).toBeGreaterThanOrEqual(1);
    expect(hook.hits('moved-target')).toHaveLength(0);
  });

  it('fails at once, without a request, a URL of the private network when ALLOW_PRIVATE_NETWORK is unset', async () => {
    // the service as a process without ALLOW_PRIVATE_NETWORK runs it (a second app would cost seconds of start-up)
    const strict: App = { ...svc, config: { ...svc.config, allowPrivateNetwork: false } };
    const { deliveryId } = await recordOnly(strict, completed(alice.id, hook.url('private')));
    expect(await deliverWebhook(strict, deliveryId)).toBe('failed');
    const d = await row(svc, deliveryId);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null, lastStatusCode: null });
    expect(d.lastError).toMatch(/loopback address, which is not allowed/);
    expect(hook.hits('private')).toHaveLength(0);
  });

  it('delivers over https to a receiver whose certificate the client trusts', async () => {
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'webhooks-tls-'));
    try {
      const { cert, key } = await selfSignedCert(tmp, '127.0.0.1', 'IP:127.0.0.1');
      const tls = receiver(https.createServer({ cert, key }));
      await tls.listen();
      try {
        const { deliveryId } = await recordOnly(svc, completed(alice.id, tls.url('secure')));
        expect(await deliverWebhook(svc, deliveryId, { fetch: createGuardedFetch({ ca: cert }) })).toBe('delivered');
        const [hit] = tls.hits('secure');
        expect(hit.headers['webhook-id']).toBe(deliveryId);
        expect(verifyWebhook(aliceSecret, hit.headers, hit.body)).toMatchObject({ event: 'project.completed' });
      } finally {
        await tls.close();
      }
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  });

  it('sends a delivery recorded by a process that died before enqueueing its job, once the sweeper runs', async () => {
    const { deliveryId, created } = await recordOnly(svc, completed(alice.id, hook.url('orphan')));
    expect(created).toBe(true);
    await sleep(800); // several polls of the workers: no job exists, nothing is sent
    expect(hook.hits('orphan')).toHaveLength(0);
    expect(await row(svc, deliveryId)).toMatchObject({ status: 'pending', attempts: 0 });

    await svc.jobs.enqueue(JOB_NAMES.sweepWebhooks, {}); // what the recurring sweeper does every minute
    expect(await settled(svc, deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(hook.hits('orphan')).toHaveLength(1);

    const [recurring] = await svc.db.$queryRaw<
      Array<{ repeat_interval: string }>
    >`SELECT repeat_interval FROM agenda_jobs WHERE name = ${JOB_NAMES.sweepWebhooks} AND type = 'single'`;
    expect(recurring?.repeat_interval).toBe('1 minute');
  });
});

describe('GraphQL', () => {
  const FIELDS = 'id event subjectId url status attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt payload';

  it("lists the caller's deliveries only, newest first, by page and by subject", async () => {
    const mine = [];
    for (let i = 0; i < 3; i++) {
      mine.push((await recordOnly(svc, completed(alice.id, hook.url('listed')))).deliveryId);
      await sleep(5); // distinct createdAt, so newest-first is this order
    }
    const theirs = (await recordOnly(svc, completed(bob.id, hook.url('listed')))).deliveryId;

    const all = await gql(app, alice.key, `{ webhookDeliveries(first: 100) { edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage endCursor } } }`);
    const nodes = all.body.data.webhookDeliveries.edges.map((e: any) => e.node);
    expect(nodes.map((n: any) => n.id)).not.toContain(theirs);
    expect(nodes.slice(0, 3).map((n: any) => n.id)).toEqual([...mine].reverse());
    expect(nodes[0]).toMatchObject({
      event: 'project.completed',
      status: 'pending',
      attempts: 0,
      url: hook.url('listed'),
      payload: { event: 'project.completed' },
    });

    const page1 = await gql(app, alice.key, `{ webhookDeliveries(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`);
    expect(page1.body.data.webhookDeliveries.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql(app, alice.key, 'query($after: String) { webhookDeliveries(first: 1, after: $after) { edges { node { id } } } }', {
      after: page1.body.data.webhookDeliveries.pageInfo.endCursor,
    });
    expect(page2.body.data.webhookDeliveries.edges[0].node.id).toBe(mine[0]);

    const subject = (await row(svc, mine[1])).subjectId;
    const bySubject = await gql(app, alice.key, 'query($s: String) { webhookDeliveries(subjectId: $s) { edges { node { id } } } }', { s: subject });
    expect(bySubject.body.data.webhookDeliveries.edges.map((e: any) => e.node.id)).toEqual([mine[1]]);

    const foreign = await gql(app, alice.key, 'query($id: ID!) { webhookDelivery(id: $id) { id } }', { id: theirs });
    expect(foreign.body.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    const own = await gql(app, bob.key, 'query($id: ID!) { webhookDelivery(id: $id) { id } }', { id: theirs });
    expect(own.body.data.webhookDelivery.id).toBe(theirs);
  });

  it('redeliverWebhook sends a delivered webhook again with the same webhook-id and body', async () => {
    const { deliveryId } = await enqueueWebhook(svc, completed(alice.id, hook.url('again')));
    await settled(svc, deliveryId);
    const r = await gql(app, alice.key, `mutation($id: ID!) { redeliverWebhook(id: $id) { ${FIELDS} } }`, { id: deliveryId });
    expect(r.body.data.redeliverWebhook).toMatchObject({ id: deliveryId, status: 'pending', attempts: 0, deliveredAt: null, lastStatusCode: null });
    expect(await settled(svc, deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 });
    const hits = hook.hits('again');
    expect(hits).toHaveLength(2);
    expect(hits[1].headers['webhook-id']).toBe(deliveryId);
    expect(hits[1].body).toBe(hits[0].body);
    expect(verifyWebhook(aliceSecret, hits[1].headers, hits[1].body)).toMatchObject({ event: 'project.completed' });
  });

  it("redeliverWebhook answers NOT_FOUND for another user's or an unknown id, BAD_REQUEST while still pending", async () => {
    const { deliveryId } = await enqueueWebhook(svc, completed(alice.id, hook.url('not-yours')));
    await settled(svc, deliveryId);
    const redeliver = (key: string, id: string) => gql(app, key, 'mutation($id: ID!) { redeliverWebhook(id: $id) { id } }', { id });
    for (const [key, id] of [
      [bob.key, deliveryId],
      [alice.key, crypto.randomUUID()],
      [alice.key, 'nope'],
    ]) {
      const r = await redeliver(key, id);
      expect(r.body.data).toBeNull();
      expect(r.body.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND' });
    }
    const pending = (await recordOnly(svc, completed(alice.id, hook.url('not-yours')))).deliveryId;
    const r = await redeliver(alice.key, pending);
    expect(r.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/still being attempted/), extensions: { code: 'BAD_REQUEST' } });
    // the refusal queued no attempt: only the first delivery reached the receiver
    expect(await svc.jobs.jobsFor({ deliveryId: pending }, [JOB_NAMES.deliverWebhook])).toEqual([]);
    expect(hook.hits('not-yours')).toHaveLength(1);
  });

  it("webhookSecret returns the caller's signing secret; no key: UNAUTHORIZED", async () => {
    const r = await gql(app, alice.key, '{ webhookSecret }');
    expect(r.body.data.webhookSecret).toBe(aliceSecret);
    expect(r.body.data.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const other = await gql(app, bob.key, '{ webhookSecret }');
    expect(other.body.data.webhookSecret).not.toBe(aliceSecret);
    const anonymous = await gql(app, undefined, '{ webhookSecret }');
    expect(anonymous.body.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
