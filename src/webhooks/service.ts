import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { App } from '../app.js';
import type { Prisma } from '../db/client.js';
import { jsonColumn } from '../db/json.js';
import { badRequest, FieldErrors, notFound } from '../errors.js';
import type { WebhookDelivery } from '../generated/prisma/client.ts';
import { isUuid } from '../ids.js';
import { FetchRefused, guardedFetch, isFetchError } from '../net/guarded-fetch.js';
import { keysetPage, modelSource, type Page, type PageRequest } from '../pagination.js';
import type { WebhookEvent, WebhookPayload } from './events.js';
import { MAX_ATTEMPTS, retryDelayMs, sweepGraceMs } from './schedule.js';
import { webhookHeaders } from './signing.js';
import { JOB_NAMES } from '../jobs/names.js';
import { logFor, withIds } from '../logger.js';

/**
 * Webhooks are sent by jobs, never inline (DESIGN.md, Webhooks). The
 * WebhookDelivery row is the source of truth: a pending row whose nextAttemptAt
 * is due must be attempted, and an Agenda job is only the wake-up call for it.
 *
 * - An attempt first claims the row (one conditional UPDATE moves nextAttemptAt
 *   to a lease): two jobs for one delivery cannot both send, and a job for a row
 *   already delivered, failed or not yet due does nothing.
 * - The result is written only while the lease is still held, then the job of
 *   the next attempt is enqueued.
 * - A job whose worker died mid-attempt is run again by another worker once
 *   its lock runs out; the lease, half as long, has run out by then.
 * - `webhooks.sweep` (every minute) enqueues a job for every pending row overdue
 *   by more than the sweep grace: rows recorded in a transaction whose process
 *   died before the job was enqueued, retries whose job was never enqueued, and
 *   attempts whose worker died mid-way (their lease runs out). Nothing is lost
 *   between commit and enqueue; at worst a POST is repeated with the same
 *   webhook-id, which receivers dedupe on.
 */

/** per attempt, from connecting to the end of the response */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** of the receiver's response body: its status is what counts */
const MAX_RESPONSE_BYTES = 64 * 1024;
/**
 * An attempt not recorded within this time is presumed dead (its worker
 * crashed): half the lock of the delivery job (PROJECT_JOB_LOCK_MS, 2 min by
 * default, so 1 min), so the run that takes over a dead worker's job finds it free.
 */
const leaseMs = (app: App) => app.config.longJobLockMs / 2;
/** a job may fire slightly before nextAttemptAt (clocks of workers differ) */
const CLOCK_SLACK_MS = 1000;
const SWEEP_BATCH = 500;
const USER_AGENT = 'clipcast-webhooks/1';
const SNIPPET_CHARS = 200;

export type Tx = Prisma.TransactionClient;

export interface WebhookInput<E extends WebhookEvent> {
  userId: string;
  /** the webhookUrl the caller gave */
  url: string;
  event: E;
  /** the project, export, ... the event is about; listings filter on it */
  subjectId: string;
  /** the body; `event` is set from the field above */
  payload: Omit<WebhookPayload<E>, 'event'> & { event?: E };
  /** one delivery per key, ever; default `${event}:${subjectId}` */
  dedupeKey?: string;
}

/**
 * WebhookDelivery.payload: the body as sent, the same bytes at every attempt (send()
 * posts the stored JSON as it is). Of it the service reads only the project a log line
 * names; the payload schemas of events.ts describe what is written, not every row kept.
 */
export const payloadColumn = jsonColumn<WebhookPayload<WebhookEvent> | { projectId?: string }>(
  'WebhookDelivery.payload',
  z.looseObject({ projectId: z.string().optional() }),
);

export interface RecordedWebhook {
  deliveryId: string;
  /** false when a delivery with the same dedupeKey existed: nothing was recorded */
  created: boolean;
}

/**
 * Records a webhook to send. A second call with the same dedupeKey records and
 * sends nothing (INSERT ... ON CONFLICT DO NOTHING, safe inside a transaction).
 *
 * Without `tx` the delivery job is enqueued at once. With `tx` nothing is
 * enqueued, since the row is not visible before commit: call
 * `dispatchWebhook(app, deliveryId)` after the transaction commits; if the
 * process dies before that, the sweeper sends it within about a minute.
 */
export async function enqueueWebhook<E extends WebhookEvent>(app: App, input: WebhookInput<E>, tx?: Tx): Promise<RecordedWebhook> {
  const db = tx ?? app.db;
  const dedupeKey = input.dedupeKey ?? `${input.event}:${input.subjectId}`;
  const [row] = await db.webhookDelivery.createManyAndReturn({
    data: [
      {
        userId: input.userId,
        event: input.event,
        dedupeKey,
        subjectId: input.subjectId,
        url: input.url,
        payload: payloadColumn.write({ ...input.payload, event: input.event }),
        status: 'pending',
        nextAttemptAt: new Date(),
      },
    ],
    skipDuplicates: true,
    select: { id: true },
  });
  if (!row) {
    const existing = await db.webhookDelivery.findUniqueOrThrow({ where: { dedupeKey }, select: { id: true } });
    return { deliveryId: existing.id, created: false };
  }
  if (!tx) await dispatchWebhook(app, row.id);
  return { deliveryId: row.id, created: true };
}

/**
 * Enqueues the job that attempts a delivery (at `at`, default now). Never
 * throws: if the queue is unreachable the sweeper enqueues it later.
 */
export async function dispatchWebhook(app: App, deliveryId: string, at?: Date): Promise<void> {
  try {
    await app.jobs.enqueue(JOB_NAMES.deliverWebhook, { deliveryId }, at ? { at } : {});
  } catch (err) {
    app.log.warn({ err, deliveryId }, 'could not enqueue a webhook delivery; the sweeper will');
  }
}

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'skipped';

type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string; permanent: boolean };

export interface DeliverOptions {
  /** the guarded client to send through (tests pass one that trusts their CA) */
  fetch?: typeof guardedFetch;
}

/**
 * One attempt of a delivery (the job's work). `skipped` when there was nothing
 * to do: delivered or failed already, not due, or another worker holds it.
 */
export async function deliverWebhook(app: App, deliveryId: string, opts: DeliverOptions = {}): Promise<DeliveryOutcome> {
  if (!isUuid(deliveryId)) return 'skipped';
  const startedAt = Date.now();
  const lease = new Date(startedAt + leaseMs(app));
  const claimed = await app.db.webhookDelivery.updateMany({
    where: {
      id: deliveryId,
      status: 'pending',
      OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: new Date(startedAt + CLOCK_SLACK_MS) } }],
    },
    data: { nextAttemptAt: lease },
  });
  if (claimed.count === 0) return 'skipped';
  const delivery = await app.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { user: { select: { webhookSecret: true } } } });
  if (!delivery) return 'skipped';

  const attempt = delivery.attempts + 1;
  const result = await send(app, delivery, delivery.user.webhookSecret, opts.fetch ?? guardedFetch);
  const finishedAt = new Date();
  // one line per attempt, naming the project (or export, publication) it tells of
  const { projectId } = payloadColumn.read(delivery.payload);
  const log = withIds(logFor(app.log), { deliveryId, projectId });
  const told = { event: delivery.event, subjectId: delivery.subjectId, attempt, statusCode: result.status, durationMs: finishedAt.getTime() - startedAt };
  // written only while our lease holds: a late attempt whose lease ran out records nothing
  const held = { id: deliveryId, status: 'pending' as const, nextAttemptAt: lease };

  if (result.ok) {
    const { count } = await app.db.webhookDelivery.updateMany({
      where: held,
      data: { status: 'delivered', attempts: attempt, lastStatusCode: result.status, lastError: null, deliveredAt: finishedAt, nextAttemptAt: null },
    });
    if (count) log.info({ ...told, outcome: 'delivered' }, 'webhook delivered');
    return count ? 'delivered' : 'skipped';
  }

  const giveUp = result.permanent || attempt >= MAX_ATTEMPTS;
  const nextAttemptAt = giveUp ? null : new Date(finishedAt.getTime() + retryDelayMs(attempt, app.config.webhookRetryBaseMs));
  const { count } = await app.db.webhookDelivery.updateMany({
    where: held,
    data: { status: giveUp ? 'failed' : 'pending', attempts: attempt, lastStatusCode: result.status, lastError: result.error, nextAttemptAt },
  });
  if (!count) return 'skipped';
  log.info(
    { ...told, outcome: giveUp ? 'failed' : 'retrying', error: result.error, nextAttemptAt },
    giveUp ? 'webhook failed; no more attempts' : 'webhook attempt failed; retrying',
  );
  if (nextAttemptAt) await dispatchWebhook(app, deliveryId, nextAttemptAt);
  return giveUp ? 'failed' : 'retrying';
}

/** POSTs the signed payload; the body is the stored payload, the same bytes at every attempt. */
async function send(app: App, delivery: WebhookDelivery, secret: string, fetchImpl: typeof guardedFetch): Promise<AttemptResult> {
  const body = JSON.stringify(delivery.payload);
  let headers: Record<string, string>;
  try {
    headers = webhookHeaders(secret, delivery.id, Math.floor(Date.now() / 1000), body);
  } catch {
    return { ok: false, status: null, error: 'The signing secret of this account is not valid', permanent: true };
  }
  try {
    const res = await fetchImpl(delivery.url, {
      allowPrivateNetwork: app.config.allowPrivateNetwork,
      method: 'POST',
      headers: { ...headers, 'user-agent': USER_AGENT },
      body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      connectTimeoutMs: ATTEMPT_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
      // a redirect is a failure: the signature was made for this URL's receiver
      maxRedirects: 0,
    });
    if (res.status >= 200 && res.status <= 299) {
      res.body.destroy();
      return { ok: true, status: res.status };
    }
    const snippet = await readSnippet(res.body);
    const answer = `The endpoint answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
    return { ok: false, status: res.status, error: snippet ? `${answer}: ${snippet}` : answer, permanent: false };
  } catch (e) {
    if (isFetchError(e)) {
      if (e.reason === 'too_many_redirects') {
        return { ok: false, status: null, error: 'The endpoint answered with a redirect, which webhooks do not follow: give the final URL', permanent: false };
      }
      // refused (scheme, address, invalid URL) will not change by waiting; failures may
      return { ok: false, status: null, error: e.message, permanent: e instanceof FetchRefused };
    }
    app.log.error({ err: e, deliveryId: delivery.id }, 'webhook attempt failed unexpectedly');
    return { ok: false, status: null, error: 'The delivery failed for an internal reason', permanent: false };
  }
}

/** The start of a receiver's answer, for lastError; the rest is read (up to the limit) and dropped. */
async function readSnippet(body: Readable): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) if (text.length < SNIPPET_CHARS) text += (chunk as Buffer).toString('utf8');
  } catch {
    /* too large or cut off: the status is what counts */
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS);
}

/**
 * Enqueues a job for every pending delivery that is overdue by more than the
 * sweep grace (no job is going to run it); returns how many.
 */
export async function sweepWebhooks(app: App, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - sweepGraceMs(app.config.webhookRetryBaseMs));
  const due = await app.db.webhookDelivery.findMany({
    where: { status: 'pending', OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: cutoff } }] },
    select: { id: true },
    orderBy: { nextAttemptAt: 'asc' },
    take: SWEEP_BATCH,
  });
  for (const { id } of due) await dispatchWebhook(app, id);
  return due.length;
}

/**
 * Sends one of the user's deliveries again, as a new series of attempts: status
 * back to pending, attempts counted from 0 (the count drives the backoff and the
 * give-up limit), the same webhook-id and body, so a receiver that already
 * processed it can recognise it. A pending delivery is still being attempted:
 * BAD_REQUEST.
 */
export async function redeliver(app: App, userId: string, deliveryId: string): Promise<WebhookDelivery> {
  const delivery = await getWebhookDelivery(app, userId, deliveryId);
  const stillPending = () => badRequest('This delivery is still being attempted; it can be redelivered once it has been delivered or has failed');
  if (delivery.status === 'pending') throw stillPending();
  const { count } = await app.db.webhookDelivery.updateMany({
    where: { id: delivery.id, userId, status: { in: ['delivered', 'failed'] } },
    data: { status: 'pending', attempts: 0, lastStatusCode: null, lastError: null, deliveredAt: null, nextAttemptAt: new Date() },
  });
  if (count === 0) throw stillPending();
  await dispatchWebhook(app, delivery.id);
  return app.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
}

export async function getWebhookDelivery(app: App, userId: string, id: string): Promise<WebhookDelivery> {
  const delivery = isUuid(id) ? await app.db.webhookDelivery.findFirst({ where: { id, userId } }) : null;
  if (!delivery) throw notFound('Webhook delivery');
  return delivery;
}

/** The user's deliveries, newest first, keyset pages; optionally those of one subject. */
export async function listWebhookDeliveries(app: App, userId: string, page: PageRequest, subjectId?: string | null): Promise<Page<WebhookDelivery>> {
  const errors = new FieldErrors();
  if (subjectId != null && (subjectId.length === 0 || subjectId.length > 200)) errors.add('subjectId', 'must be 1 to 200 characters', subjectId);
  errors.throwIfAny();
  const where = { userId, ...(subjectId != null ? { subjectId } : {}) };
  return keysetPage(modelSource<WebhookDelivery>(app.db.webhookDelivery as never, { scope: { userId }, where }), page);
}

/** The secret that signs the user's webhooks (`whsec_` + base64), for verifying them. */
export async function getWebhookSecret(app: App, userId: string): Promise<string> {
  const user = await app.db.user.findUnique({ where: { id: userId }, select: { webhookSecret: true } });
  if (!user) throw notFound('User');
  return user.webhookSecret;
}
