/**
 * Publications as the API shows them (SPEC.md, Publication and Post): the
 * row, its project {id, title}, totals over its posts, and each post with its
 * analytics once synced. A page is read in three queries whatever its size,
 * in one snapshot: a publication's status follows its posts (delivery.ts),
 * and queries apart could see a post end after its publication was read,
 * showing every post ended under a publication still processing.
 */
import { Prisma, type Db } from '../db/client.js';
import type { PlatformKey } from '../catalog/platforms.js';
import { PLATFORM_KEYS } from '../catalog/platforms.js';
import type { PostMetrics } from '../platforms/types.js';

/** A post's totals as the platform reported them at the latest sync, and its engagement rate. */
export interface PostAnalytics extends PostMetrics {
  /** (likes + comments + shares) / views; 0 without views */
  engagementRate: number;
}

export interface PostView {
  platform: PlatformKey;
  platformPostId: string | null;
  platformPostUrl: string | null;
  publishStatus: string;
  syncStatus: string;
  error: string | null;
  publishedAt: Date | null;
  /** present once a sync has read the post */
  analytics: PostAnalytics | null;
}

export interface PublicationView {
  id: string;
  projectId: string;
  profileId: string;
  scheduled: boolean;
  publishedAt: Date;
  status: string;
  platforms: PlatformKey[];
  project: { id: string; title: string };
  totals: { views: number; engagement: number; followersGained: number };
  posts: PostView[];
}

export const engagementRate = (m: { views: number; likes: number; comments: number; shares: number }) =>
  m.views > 0 ? (m.likes + m.comments + m.shares) / m.views : 0;

const byCatalogue = (a: { platform: string }, b: { platform: string }) =>
  PLATFORM_KEYS.indexOf(a.platform as PlatformKey) - PLATFORM_KEYS.indexOf(b.platform as PlatformKey);

/**
 * The followers a publication's accounts gained since it went out: for each
 * published post, the account's latest level minus its level at the end of
 * the day before the publication's day (or, when none is known from before,
 * the first level known from that day on), summed.
 */
async function followersGained(db: Prisma.TransactionClient, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; gained: number }[]>`
    SELECT po."publicationId" AS id, COALESCE(sum(latest.followers - COALESCE(before.followers, first.followers, latest.followers)), 0)::float8 AS gained
    FROM "Post" po
    JOIN "Publication" p ON p.id = po."publicationId"
    LEFT JOIN LATERAL (SELECT followers FROM "AccountFollowersDaily" f WHERE f."accountId" = po."accountId" ORDER BY day DESC LIMIT 1) latest ON true
    LEFT JOIN LATERAL (SELECT followers FROM "AccountFollowersDaily" f WHERE f."accountId" = po."accountId" AND f.day < (p."publishedAt" AT TIME ZONE 'UTC')::date ORDER BY day DESC LIMIT 1) before ON true
    LEFT JOIN LATERAL (SELECT followers FROM "AccountFollowersDaily" f WHERE f."accountId" = po."accountId" AND f.day >= (p."publishedAt" AT TIME ZONE 'UTC')::date ORDER BY day ASC LIMIT 1) first ON true
    WHERE po."publicationId" IN (${Prisma.join(ids)}) AND po."publishStatus" = 'published'
    GROUP BY po."publicationId"`;
  return new Map(rows.map((r) => [r.id, Number(r.gained)]));
}

/** The publications of `ids`, in that order (ids not found are left out). */
export async function loadPublications(db: Db, ids: string[]): Promise<PublicationView[]> {
  if (ids.length === 0) return [];
  const [rows, gained] = await db.$transaction(
    async (tx) => [await tx.publication.findMany({ where: { id: { in: ids } }, include: { posts: true } }), await followersGained(tx, ids)] as const,
    { isolationLevel: 'RepeatableRead' },
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const p = byId.get(id);
    if (!p) return [];
    const view: PublicationView = {
      id: p.id,
      projectId: p.projectId,
      profileId: p.profileId,
      scheduled: p.scheduled,
      publishedAt: p.publishedAt,
      status: p.status,
      platforms: p.platforms as PlatformKey[],
      project: { id: p.projectId, title: p.projectTitle },
      totals: { views: p.views, engagement: p.engagement, followersGained: gained.get(p.id) ?? 0 },
      posts: p.posts.sort(byCatalogue).map((post) => ({
        platform: post.platform as PlatformKey,
        platformPostId: post.platformPostId,
        platformPostUrl: post.platformPostUrl,
        publishStatus: post.publishStatus,
        syncStatus: post.syncStatus,
        error: post.error,
        publishedAt: post.publishedAt,
        analytics:
          post.lastSyncedAt && post.syncStatus !== 'pending' && post.platformPostId
            ? {
                views: post.views,
                likes: post.likes,
                comments: post.comments,
                shares: post.shares,
                impressions: post.impressions,
                reach: post.reach,
                clicks: post.clicks,
                engagementRate: engagementRate(post),
              }
            : null,
      })),
    };
    return [view];
  });
}
