import { at } from '../answer.js';
import { ProfileStatsDocument, PublishingStatsDocument } from '../generated/operations.js';
import { PLATFORM_KEYS } from '../../src/catalog/platforms.js';
import { STATS_METRICS } from '../../src/stats/service.js';
import { textParam } from '../query.js';
import { route } from '../route.js';

type Params = { profileId: string };

/** The query as text: the service reads every member, so both doors name the same violations. */
const statsQuery = {
  from: textParam({ format: 'date-time', description: 'ISO 8601 date-time with an offset; 7 days before to when left out' }),
  to: textParam({ format: 'date-time', description: 'ISO 8601 date-time with an offset; now when left out' }),
  platform: textParam({ enum: PLATFORM_KEYS, description: 'only this platform' }),
  metric: textParam({ enum: STATS_METRICS, default: 'views', description: 'the metric of the timeseries' }),
};

export const publishingStatsRoutes = [
  route({
    method: 'GET',
    url: '/v1/publishing/stats/profiles/:profileId',
    summary: "A profile's views, engagement and followers over a window, against the window before",
    operation: ProfileStatsDocument,
    query: statsQuery,
    variables: (req, q) => ({ profileId: (req.params as Params).profileId, ...q }),
    answer: at('profileStats'),
  }),
  route({
    method: 'GET',
    url: '/v1/publishing/stats',
    summary: 'The same statistics over all your profiles',
    operation: PublishingStatsDocument,
    query: statsQuery,
    variables: (_req, q) => q,
    answer: at('publishingStats'),
  }),
];
