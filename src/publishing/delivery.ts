/**
 * Delivering posts (DESIGN.md, Publishing): one job per post, and a post
 * moves `processing` → `published` or `failed`, never back.
 *
 * A delivery first claims its post with a lease (one conditional UPDATE), so
 * one delivery at a time works on a post however many jobs were queued for it
 * and however many workers run. Then one step of the platform protocol:
 * - no handle yet: upload and publish; a platform that processes the video
 *   answers a handle (`platformRef`), saved, and a check is queued;
 * - a handle: check it; once ready, finalize it, which publishes. Finalizing
 *   a handle twice gives the same post, so a worker killed after the platform
 *   published and before the post was saved re-runs into the same post: a
 *   killed delivery never posts twice, and its lease running out lets the
 *   next job (or the sweep) carry on.
 * A platform error is judged by its kind (src/platforms/types.ts): `retry`
 * waits (the platform's Retry-After, or a doubling backoff) up to
 * MAX_ATTEMPTS failures; `bad_request` fails the post at once, as the
 * caller's; `reauthorize` and `disconnected` fail it too. A post that fails
 * for a reason that is not the caller's (all but `bad_request`) gives its
 * credit back (DECISIONS.md, Money).
 *
 * The publication's status follows its posts (docs/publishing.md): processing
 * while any post is, published once one is and none is processing, failed
 * when all failed. Scheduled publications fire once, at their time, by a job
 * whose conditional UPDATE makes a second firing do nothing.
 */
import type { App } from '../app.js';
import { refund } from '../credits/ledger.js';
import { Prisma, type Db } from '../db/client.js';
import { JOB_NAMES } from '../jobs/names.js';
import type { Logger } from '../logger.js';
import { connectorFor } from '../platforms/index.js';
import { disconnectedError } from '../platforms/session.js';
import {
  isPlatformError,
  PlatformError,
  postContentColumn,
  postProgressColumn,
  type ConnectedAccount,
  type OutgoingPost,
  type PostMedia,
  type PublishedPost,
} from '../platforms/types.js';
import type { PlatformKey } from '../catalog/platforms.js';
import { publishPublicationEvent } from './events.js';

type Tx = Prisma.TransactionClient;

/** DECISIONS.md, Money and limits: 1 API credit per platform post. */
export const API_CREDITS_PER_POST = 1;

/** Failures of a post that may pass (the platform down, a timeout) before it is failed. */
export const MAX_ATTEMPTS = 5;

/** The wait after the `n`th passing failure: the base (30 s by default), doubled each time; the platform's own wait when longer. */
export const retryDelayMs = (n: number, base: number, retryAfterMs = 0) => Math.max(retryAfterMs, base * 2 ** (n - 1));

/** How long a delivery holds its post: half a long job's lock, so a dead worker's post is free before its job is taken over. */
const leaseMs = (app: App) => Math.max(1000, app.config.longJobLockMs / 2);

/** Queues a delivery of each processing post of a publication (at its due time); a queue that cannot be reached leaves them to the sweep. */
export async function dispatchPosts(app: App, publicationId: string, userId: string): Promise<void> {
  const posts = await app.db.post.findMany({ where: { publicationId, publishStatus: 'processing' }, select: { id: true, nextAttemptAt: true } });
  for (const post of posts) await queueDelivery(app, post.id, userId, post.nextAttemptAt);
}

async function queueDelivery(app: App, postId: string, userId: string, at: Date | null) {
  try {
    await app.jobs.enqueue(JOB_NAMES.deliverPost, { postId, userId }, at && at.getTime() > Date.now() ? { at } : {});
  } catch (err) {
    app.log.warn({ err, postId }, 'could not queue a post delivery; the sweep will');
  }
}

interface ClaimedPost {
  id: string;
  publicationId: string;
  userId: string;
  platform: PlatformKey;
  content: Record<string, unknown>;
  platformRef: string | null;
  progress: Record<string, unknown> | null;
  attempts: number;
  mediaKey: string;
  account: ConnectedAccount & { connector: string; status: string; statusReason: string | null };
}

/**
 * Takes the post for one delivery when it is processing, due, and held by no
 * other delivery. A lease that ran out unreleased was a delivery that died:
 * it counts as a failed attempt, so a post that kills its workers ends.
 */
async function claim(app: App, postId: string): Promise<ClaimedPost | null> {
  const rows = await app.db.$queryRaw<{ id: string }[]>`
    UPDATE "Post" SET "leaseUntil" = now() + ${leaseMs(app)} * interval '1 millisecond',
      "attempts" = "attempts" + CASE WHEN "leaseUntil" IS NOT NULL THEN 1 ELSE 0 END,
      "updatedAt" = now()
    WHERE id = ${postId}::uuid AND "publishStatus" = 'processing'
      AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
      AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= now() + interval '1 second')
    RETURNING id`;
  if (rows.length === 0) return null;
  const post = await app.db.post.findUniqueOrThrow({
    where: { id: postId },
    include: { account: true, publication: { select: { userId: true, mediaKey: true } } },
  });
  const { account } = post;
  return {
    id: post.id,
    publicationId: post.publicationId,
    userId: post.publication.userId,
    platform: post.platform,
    content: postContentColumn.read(post.content),
    platformRef: post.platformRef,
    progress: postProgressColumn.read(post.progress),
    attempts: post.attempts,
    mediaKey: post.publication.mediaKey,
    account: { ...account, platform: account.platform as PlatformKey },
  };
}

/** The render a publication posts, as a connector reads it. */
async function mediaOf(app: App, key: string): Promise<PostMedia> {
  const stat = await app.storage.stat(key);
  if (!stat) throw new PlatformError('disconnected', 'the exported video of this publication is no longer stored; export the project again and publish anew');
  return { key, size: stat.size, contentType: stat.contentType, open: async () => (await app.storage.get(key)).body };
}

/** What one delivery did. */
export type DeliveryOutcome = 'published' | 'pending' | 'retrying' | 'failed' | 'skipped';

/** One delivery step of a post (the job `publishing.deliver-post`). */
export async function deliverPost(app: App, postId: string, log: Logger = app.log): Promise<DeliveryOutcome> {
  const post = await claim(app, postId);
  if (!post) return 'skipped';
  if (post.attempts >= MAX_ATTEMPTS) return await gaveUp(app, post, log);
  const connector = connectorFor(app, post.account.connector);
  const outgoing: OutgoingPost = {
    id: post.id,
    platform: post.platform,
    content: post.content,
    progress: post.progress,
    // written at once: the connector saves a handle before the platform acts on it
    saveProgress: async (progress) => {
      await app.db.post.update({ where: { id: post.id }, data: { progress: postProgressColumn.write(progress) } });
    },
  };
  // a long upload keeps its lease
  const renew = setInterval(() => {
    void app.db.post
      .updateMany({ where: { id: post.id, publishStatus: 'processing', leaseUntil: { not: null } }, data: { leaseUntil: new Date(Date.now() + leaseMs(app)) } })
      .catch(() => {});
  }, leaseMs(app) / 3);
  try {
    if (!connector)
      throw new PlatformError(
        'disconnected',
        `the ${post.platform} account uses a connector this service no longer has (${post.account.connector}); connect it again`,
      );
    if (post.account.status === 'disconnected') throw disconnectedError(post.platform, post.account.statusReason);
    if (post.platformRef) {
      const checked = await connector.check(post.account, post.platformRef);
      if (checked.state === 'pending') return await waitFor(app, post, post.platformRef, checked.checkAfterMs);
      return await published(app, post, await connector.finalize(post.account, outgoing, post.platformRef));
    }
    const step = await connector.publish(post.account, outgoing, await mediaOf(app, post.mediaKey));
    if (step.state === 'pending') return await waitFor(app, post, step.ref, step.checkAfterMs);
    return await published(app, post, step);
  } catch (err) {
    const e = isPlatformError(err) ? err : new PlatformError('retry', `internal error: ${(err as Error).message}`);
    if (!isPlatformError(err)) log.error({ err, postId }, 'post delivery failed unexpectedly');
    return await failed(app, post, e);
  } finally {
    clearInterval(renew);
  }
}

/**
 * Ends a post whose deliveries keep dying: the claim counts the lease each
 * left behind as a failed attempt, and once they reach MAX_ATTEMPTS the post
 * fails, with its credit back, as one whose platform stays down does. Tried
 * again, a post that kills its workers (a render too big to upload, say)
 * would take one down after another, for ever.
 */
async function gaveUp(app: App, post: ClaimedPost, log: Logger): Promise<DeliveryOutcome> {
  const message = `gave up after ${post.attempts} attempts: the last delivery stopped without an answer (the worker running it died)`;
  await failPosts(app.db, [post.id], message, true);
  log.warn({ postId: post.id, publicationId: post.publicationId, platform: post.platform, reason: message }, 'post failed');
  await publishPublicationEvent(app, post.publicationId);
  return 'failed';
}

/** Saves the platform's handle and queues the check. */
async function waitFor(app: App, post: ClaimedPost, ref: string, checkAfterMs: number): Promise<DeliveryOutcome> {
  const at = new Date(Date.now() + Math.min(app.config.publishCheckMaxMs, Math.max(0, checkAfterMs)));
  await app.db.post.update({ where: { id: post.id }, data: { platformRef: ref, nextAttemptAt: at, leaseUntil: null } });
  await queueDelivery(app, post.id, post.userId, at);
  return 'pending';
}

async function published(app: App, post: ClaimedPost, done: PublishedPost): Promise<DeliveryOutcome> {
  await app.db.$transaction(async (tx) => {
    await lockPublications(tx, [post.publicationId]);
    await tx.post.update({
      where: { id: post.id },
      data: {
        publishStatus: 'published',
        platformPostId: done.platformPostId,
        platformPostUrl: done.platformPostUrl,
        publishedAt: new Date(),
        error: null,
        nextAttemptAt: null,
        leaseUntil: null,
      },
    });
    await refreshStatus(tx, post.publicationId);
  });
  app.log.info({ postId: post.id, publicationId: post.publicationId, platform: post.platform, platformPostId: done.platformPostId }, 'post published');
  await publishPublicationEvent(app, post.publicationId);
  return 'published';
}

async function failed(app: App, post: ClaimedPost, e: PlatformError): Promise<DeliveryOutcome> {
  const attempts = post.attempts + 1;
  if (e.kind === 'retry' && attempts < MAX_ATTEMPTS) {
    const at = new Date(Date.now() + retryDelayMs(attempts, app.config.publishRetryBaseMs, e.retryAfterMs));
    await app.db.post.update({ where: { id: post.id }, data: { attempts, error: e.message, nextAttemptAt: at, leaseUntil: null } });
    app.log.info(
      { postId: post.id, platform: post.platform, attempt: attempts, retryAt: at.toISOString(), reason: e.message },
      'post delivery will be retried',
    );
    await queueDelivery(app, post.id, post.userId, at);
    return 'retrying';
  }
  const message = e.kind === 'retry' ? `gave up after ${attempts} attempts: ${e.message}` : e.message;
  await failPosts(app.db, [post.id], message, e.kind !== 'bad_request');
  app.log.warn({ postId: post.id, publicationId: post.publicationId, platform: post.platform, kind: e.kind, reason: message }, 'post failed');
  await publishPublicationEvent(app, post.publicationId);
  return 'failed';
}

/**
 * Fails posts still processing, with their refunds when the failure is not the
 * caller's, and the publications' statuses, in one transaction.
 */
export async function failPosts(db: Db, postIds: string[], message: string, refunded: boolean): Promise<void> {
  await db.$transaction(async (tx) => {
    const of = await tx.post.findMany({ where: { id: { in: postIds } }, select: { publicationId: true } });
    await lockPublications(
      tx,
      of.map((p) => p.publicationId),
    );
    const posts = await tx.post.findMany({
      where: { id: { in: postIds }, publishStatus: 'processing' },
      select: { id: true, publicationId: true, publication: { select: { userId: true } } },
    });
    await tx.post.updateMany({
      where: { id: { in: posts.map((p) => p.id) }, publishStatus: 'processing' },
      data: { publishStatus: 'failed', error: message, nextAttemptAt: null, leaseUntil: null },
    });
    for (const p of posts) {
      if (refunded) await refund(tx, p.publication.userId, { kind: 'api', amount: API_CREDITS_PER_POST, reason: 'publish failed', subjectId: p.publicationId });
    }
    for (const id of new Set(posts.map((p) => p.publicationId))) await refreshStatus(tx, id);
  });
}

/**
 * Holds publications' rows for the transaction: changes of their posts then
 * happen one transaction at a time, so each status is read from every post's
 * committed state (two posts ending at once would each see the other still processing).
 */
async function lockPublications(tx: Tx, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)].sort();
  if (unique.length) await tx.$queryRaw`SELECT id FROM "Publication" WHERE id IN (${Prisma.join(unique)}) ORDER BY id FOR UPDATE`;
}

/**
 * The publication's status from its posts (a scheduled one keeps its own
 * until it fires): processing while any post is, published once one is and
 * none is processing, failed when every post failed.
 */
export async function refreshStatus(tx: Tx, publicationId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Publication" p SET status = s.status, "updatedAt" = now()
    FROM (
      SELECT CASE
        WHEN bool_or("publishStatus" = 'processing') THEN 'processing'
        WHEN bool_or("publishStatus" = 'published') THEN 'published'
        ELSE 'failed' END::"PublishStatus" AS status
      FROM "Post" WHERE "publicationId" = ${publicationId}
    ) s
    WHERE p.id = ${publicationId} AND p.status <> 'scheduled' AND p.status <> s.status`;
}

/**
 * Fires a scheduled publication: its posts start processing and their
 * deliveries are queued. A publication already fired, or cancelled, is left
 * alone, so a second firing (two workers, a retried job, the sweep) does nothing.
 */
export async function firePublication(app: App, publicationId: string): Promise<boolean> {
  const fired = await app.db.$transaction(async (tx) => {
    const { count } = await tx.publication.updateMany({ where: { id: publicationId, status: 'scheduled' }, data: { status: 'processing' } });
    if (count === 0) return null;
    await tx.post.updateMany({ where: { publicationId, publishStatus: 'scheduled' }, data: { publishStatus: 'processing', nextAttemptAt: new Date() } });
    return tx.publication.findUniqueOrThrow({ where: { id: publicationId }, select: { userId: true } });
  });
  if (!fired) return false;
  app.log.info({ publicationId }, 'scheduled publication fired');
  await dispatchPosts(app, publicationId, fired.userId);
  await publishPublicationEvent(app, publicationId);
  return true;
}

/** How overdue a due post or a scheduled publication must be before the sweep presumes its job lost. */
export const SWEEP_GRACE_MS = 30_000;

/**
 * Queues what no job is going to do: posts whose due time passed long ago
 * with no delivery holding them (their job was lost between commit and
 * queue, or died), and scheduled publications past their time. Returns how many.
 */
export async function sweepPublishing(app: App, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SWEEP_GRACE_MS);
  const posts = await app.db.post.findMany({
    where: {
      publishStatus: 'processing',
      OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lt: cutoff } }],
      AND: [{ OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] }],
    },
    select: { id: true, publication: { select: { userId: true } } },
    take: 1000,
  });
  for (const p of posts) await queueDelivery(app, p.id, p.publication.userId, null);
  const due = await app.db.publication.findMany({ where: { status: 'scheduled', publishedAt: { lt: cutoff } }, select: { id: true }, take: 1000 });
  for (const p of due) await firePublication(app, p.id);
  return posts.length + due.length;
}
