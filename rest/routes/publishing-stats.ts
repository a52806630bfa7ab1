import type { FastifyRequest } from 'fastify';
import { ProfileStatsDocument, PublishingStatsDocument } from '../generated/operations.js';
import { queryString } from '../query.js';
import { route } from '../route.js';

type Params = { profileId: string };

/** The query as text: the service reads every member, so both doors name the same violations. */
const statsQuery = (req: FastifyRequest) => ({
  from: queryString(req, 'from'),
  to: queryString(req, 'to'),
  platform: queryString(req, 'platform'),
  metric: queryString(req, 'metric'),
});

export const publishingStatsRoutes = [
  route({
    method: 'GET',
    url: '/v1/publishing/stats/profiles/:profileId',
    operation: ProfileStatsDocument,
    variables: (req) => ({ profileId: (req.params as Params).profileId, ...statsQuery(req) }),
    respond: (d) => d.profileStats,
  }),
  route({
    method: 'GET',
    url: '/v1/publishing/stats',
    operation: PublishingStatsDocument,
    variables: statsQuery,
    respond: (d) => d.publishingStats,
  }),
];
