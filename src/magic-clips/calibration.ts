/**
 * How well the clip scores predict what happens once clips are published
 * (`clipScoreCalibration`, GET /v1/magic-clips/calibration): for one user's
 * clips whose edit projects were published, Spearman's rank correlation
 * between each clip's predicted `total` and its posts' views, and between the
 * total and their engagement rate ((likes + comments + shares) / views, for
 * clips with views). A clip's figures are the sums over its publications as of
 * their latest sync. Ties share their average rank. One SQL statement: the
 * ranks by window functions, the correlation by `corr`.
 *
 * Limits: a rho is null under MIN_CLIPS clips, and when either side does not
 * vary; analytics arrive with the syncs (every 15 minutes), so a clip
 * published minutes ago counts with few views; a clip whose edit project was
 * deleted no longer counts (the link goes with it); posts on different
 * platforms are summed as one audience.
 */
import type { App } from '../app.js';

/** Fewer clips than this give no correlation: a rank correlation of four points says little. */
export const MIN_CLIPS = 5;

export interface RankCorrelation {
  /** clips counted */
  clips: number;
  /** Spearman's rho, -1..1; null under MIN_CLIPS clips or when a side does not vary */
  rho: number | null;
}

export interface ClipScoreCalibration {
  /** published clips, with or without views */
  publishedClips: number;
  views: RankCorrelation;
  engagementRate: RankCorrelation;
}

const rounded = (x: number | null, clips: number) => (x === null || clips < MIN_CLIPS ? null : Math.round(x * 1000) / 1000);

export async function clipScoreCalibration(app: Pick<App, 'db'>, userId: string): Promise<ClipScoreCalibration> {
  const [row] = await app.db.$queryRaw<Array<{ published: bigint; by_views: bigint; rho_views: number | null; by_rate: bigint; rho_rate: number | null }>>`
    WITH clips AS (
      SELECT c.id, (c."viralityScores"->>'total')::float8 AS predicted,
             SUM(p.views)::float8 AS views, SUM(p.engagement)::float8 AS engagement
      FROM "MagicClip" c
      JOIN "Project" parent ON parent.id = c."projectId" AND parent."userId" = ${userId}::uuid
      JOIN "Publication" p ON p."projectId" = c."editProjectId" AND p."userId" = ${userId}::uuid AND p.status = 'published'
      GROUP BY c.id, c."viralityScores"
    ),
    ordered AS (
      SELECT predicted, views, row_number() OVER (ORDER BY predicted) AS np, row_number() OVER (ORDER BY views) AS nv FROM clips
    ),
    by_views AS (
      SELECT AVG(np) OVER (PARTITION BY predicted) AS rp, AVG(nv) OVER (PARTITION BY views) AS rv FROM ordered
    ),
    rated AS (
      SELECT predicted, engagement / views AS rate FROM clips WHERE views > 0
    ),
    rate_ordered AS (
      SELECT predicted, rate, row_number() OVER (ORDER BY predicted) AS np, row_number() OVER (ORDER BY rate) AS nr FROM rated
    ),
    by_rate AS (
      SELECT AVG(np) OVER (PARTITION BY predicted) AS rp, AVG(nr) OVER (PARTITION BY rate) AS rr FROM rate_ordered
    )
    SELECT (SELECT count(*) FROM clips) AS published,
           (SELECT count(*) FROM by_views) AS by_views,
           (SELECT corr(rp, rv) FROM by_views) AS rho_views,
           (SELECT count(*) FROM by_rate) AS by_rate,
           (SELECT corr(rp, rr) FROM by_rate) AS rho_rate`;
  const byViews = Number(row.by_views);
  const byRate = Number(row.by_rate);
  return {
    publishedClips: Number(row.published),
    views: { clips: byViews, rho: rounded(row.rho_views, byViews) },
    engagementRate: { clips: byRate, rho: rounded(row.rho_rate, byRate) },
  };
}
