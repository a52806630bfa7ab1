/**
 * The built-in sandbox platform: what accounts connected by the operator CLI
 * publish to. It behaves as a platform that processes video does: an upload
 * makes a container and answers `pending`; the container is ready after a
 * short delay; finalizing it publishes once (a second finalize of the same
 * container answers the same post). Its ids and URLs look public, and its
 * metrics grow with the post's age, the same for the same post id at the same
 * age. It keeps its records in SandboxUpload, so they outlive a restart.
 *
 * A marker anywhere in the post's text makes it fail as a platform would,
 * for tests and demonstrations of failures and refunds:
 *   [sandbox:reject]        the upload is refused (bad request)
 *   [sandbox:unavailable]   every attempt finds the platform down (retry)
 *   [sandbox:flaky]         the first check finds the platform busy (retry), later ones succeed
 *   [sandbox:reauthorize]   the account's authorisation has expired
 *   [sandbox:disconnected]  the account is gone
 *   [sandbox:no-metrics]    the post's metrics cannot be read (its sync fails)
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { jsonColumn } from '../db/json.js';
import { PlatformError, postContentColumn, type ConnectedAccount, type PlatformConnector, type PlatformErrorKind, type PostMetrics } from './types.js';

export const SANDBOX_CONNECTOR = 'sandbox';

const MARKER = /\[sandbox:(reject|unavailable|flaky|reauthorize|disconnected|no-metrics)\]/g;

/** The markers in every text of a post's content. */
export function sandboxMarkers(content: Record<string, unknown>): Set<string> {
  const texts = Object.values(content).flatMap((v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []));
  return new Set(texts.flatMap((t) => [...t.matchAll(MARKER)].map((m) => m[1])));
}

/** A number in [0, 1) drawn from `seed`: the same seed, the same number. */
function unit(seed: string, salt: string): number {
  return crypto.createHash('sha256').update(`${salt}:${seed}`).digest().readUInt32BE(0) / 2 ** 32;
}

const between = (seed: string, salt: string, lo: number, hi: number) => lo + unit(seed, salt) * (hi - lo);

/**
 * A post's totals `ageMs` after it was published: a quick first burst (log of
 * the age in seconds) and a steady daily rate, each drawn from the post id.
 */
export function sandboxMetrics(platformPostId: string, ageMs: number): PostMetrics {
  const seconds = Math.max(0, ageMs / 1000);
  const burst = between(platformPostId, 'burst', 40, 400);
  const daily = between(platformPostId, 'daily', 100, 5000);
  const views = Math.floor(burst * Math.log2(1 + seconds) + (daily * seconds) / 86_400);
  const share = (salt: string, lo: number, hi: number) => Math.floor(views * between(platformPostId, salt, lo, hi));
  const impressions = Math.floor(views * between(platformPostId, 'impressions', 1.5, 3));
  return {
    views,
    likes: share('likes', 0.02, 0.1),
    comments: share('comments', 0.003, 0.02),
    shares: share('shares', 0.002, 0.01),
    impressions,
    reach: Math.floor(impressions * between(platformPostId, 'reach', 0.6, 0.9)),
    clicks: share('clicks', 0.01, 0.05),
  };
}

/** What `account connect` stores for a sandbox account: its followers then, and when. */
export interface SandboxCredentials {
  followers: number;
  since: string;
}

/** SocialAccount.credentials: written for sandbox accounts alone; null for an account a platform connector connected */
export const sandboxCredentialsColumn = jsonColumn<SandboxCredentials | null>(
  'SocialAccount.credentials',
  z.looseObject({ followers: z.number(), since: z.string() }).nullable(),
);

/** An account's followers: those it was connected with, plus a daily gain drawn from its id. */
export function sandboxFollowers(accountId: string, credentials: SandboxCredentials, now: Date): number {
  const days = Math.max(0, now.getTime() - Date.parse(credentials.since)) / 86_400_000;
  return credentials.followers + Math.floor(days * between(accountId, 'followers', 0, 40));
}

const SANDBOX_HOST = 'https://sandbox.clipcast.local';

/** How each marker fails a post, and when: at publish, at its first check, or when its metrics are read. */
const MARKER_FAILURES: Readonly<Record<string, { kind: PlatformErrorKind; says: (platform: string) => string; retryAfterMs?: number }>> = {
  reject: { kind: 'bad_request', says: (p) => `the sandbox ${p} platform refused the post ([sandbox:reject])` },
  unavailable: { kind: 'retry', says: (p) => `the sandbox ${p} platform is unavailable ([sandbox:unavailable])`, retryAfterMs: 0 },
  reauthorize: { kind: 'reauthorize', says: (p) => `the ${p} account's authorisation has expired; connect it again ([sandbox:reauthorize])` },
  disconnected: { kind: 'disconnected', says: (p) => `the ${p} account is no longer connected ([sandbox:disconnected])` },
  flaky: { kind: 'retry', says: (p) => `the sandbox ${p} platform is busy ([sandbox:flaky])`, retryAfterMs: 0 },
  'no-metrics': { kind: 'retry', says: () => "the sandbox cannot read this post's metrics ([sandbox:no-metrics])" },
};

function markerFailure(marker: string, platform: string): PlatformError {
  const { kind, says, retryAfterMs } = MARKER_FAILURES[marker];
  return new PlatformError(kind, says(platform), retryAfterMs);
}

export function createSandboxConnector({ db, delayMs, now = () => new Date() }: { db: Db; delayMs: number; now?: () => Date }): PlatformConnector {
  /** A publish fails at the first of these markers it carries. */
  function refuse(account: ConnectedAccount, markers: Set<string>) {
    const marker = ['reject', 'unavailable', 'reauthorize', 'disconnected'].find((m) => markers.has(m));
    if (marker) throw markerFailure(marker, account.platform);
  }

  const noUpload = (ref: string) => new PlatformError('bad_request', `the sandbox has no upload ${ref}`);

  async function published(ref: string) {
    const row = await db.sandboxUpload.findUnique({ where: { ref } });
    if (!row) throw noUpload(ref);
    return row;
  }

  const postUrl = (platform: string, platformPostId: string) => `${SANDBOX_HOST}/${platform}/p/${platformPostId}`;

  return {
    async publish(account, post, media) {
      refuse(account, sandboxMarkers(post.content));
      // an upload as a platform takes it: every byte read
      let bytes = 0;
      for await (const chunk of await media.open()) bytes += (chunk as Buffer).length;
      if (bytes !== media.size) throw new PlatformError('retry', `the upload was cut off at ${bytes} of ${media.size} bytes`);
      const ref = `sbx_${crypto.randomBytes(12).toString('hex')}`;
      await db.sandboxUpload.create({ data: { ref, postId: post.id, accountId: account.id, bytes, createdAt: now() } });
      return { state: 'pending', ref, checkAfterMs: delayMs };
    },

    async check(account, ref) {
      const row = await db.sandboxUpload.update({ where: { ref }, data: { checks: { increment: 1 } } }).catch(() => null);
      if (!row) throw noUpload(ref);
      const post = await db.post.findUnique({ where: { id: row.postId }, select: { content: true } });
      const markers = sandboxMarkers(post ? postContentColumn.read(post.content) : {});
      if (markers.has('flaky') && row.checks === 1) throw markerFailure('flaky', account.platform);
      const waited = now().getTime() - row.createdAt.getTime();
      return waited >= delayMs ? { state: 'ready' } : { state: 'pending', checkAfterMs: delayMs - waited };
    },

    async finalize(account, _post, ref) {
      const platformPostId = crypto.createHash('sha256').update(ref).digest('hex').slice(0, 19);
      // publishing a container twice gives its one post, as platforms do
      await db.sandboxUpload.updateMany({ where: { ref, publishedAt: null }, data: { publishedAt: now(), platformPostId } });
      const row = await published(ref);
      return { platformPostId: row.platformPostId!, platformPostUrl: postUrl(account.platform, row.platformPostId!) };
    },

    async fetchPostMetrics(account, platformPostId) {
      const row = await db.sandboxUpload.findUnique({ where: { platformPostId } });
      if (!row?.publishedAt) throw new PlatformError('bad_request', `the sandbox has no post ${platformPostId}`);
      const post = await db.post.findUnique({ where: { id: row.postId }, select: { content: true } });
      if (sandboxMarkers(post ? postContentColumn.read(post.content) : {}).has('no-metrics')) throw markerFailure('no-metrics', account.platform);
      return sandboxMetrics(platformPostId, now().getTime() - row.publishedAt.getTime());
    },

    async fetchFollowers(account) {
      const credentials = account.credentials as SandboxCredentials | null;
      if (!credentials || typeof credentials.since !== 'string') return account.followers;
      return sandboxFollowers(account.id, credentials, now());
    },
  };
}
