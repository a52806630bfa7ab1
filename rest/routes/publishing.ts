import { publishProjectReader } from '../../src/graphql/publishing.js';
import { CancelPublicationDocument, PublicationDocument, PublicationsDocument, PublishProjectDocument, type PublishInput } from '../generated/operations.js';
import { PLATFORM_KEYS } from '../../src/catalog/platforms.js';
import { DEFAULT_LIMIT, DIRECTIONS, SORT_KEYS } from '../../src/publishing/listing.js';
import { publishBody } from '../../src/publishing/schemas.js';
import { pageSize, textParam } from '../query.js';
import { at, constant, extended, fields, member, withoutNulls } from '../answer.js';
import { route } from '../route.js';

type Params = { id: string };

/** A publication as SPEC.md lists it: each post's `analytics` only where available. */
const publicationRecord = member('posts', withoutNulls(['analytics']));

const INSTANT = 'an ISO 8601 date-time (2026-05-01T09:30:00Z) or date (2026-05-01)';

export const publishingRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects/:id/publish',
    summary: 'Posts an exported project to connected platforms, at once or at scheduledFor (1 API credit per platform)',
    operation: PublishProjectDocument,
    variables: (req) => ({ projectId: (req.params as Params).id, input: (req.body ?? {}) as PublishInput }),
    body: publishBody,
    // the body as sent, read with the project and the profile's accounts, before it becomes the typed input
    check: publishProjectReader.check,
    answer: at('publishProject'),
    // 200 published at once, 202 scheduled (SPEC.md)
    status: (d) => (d.publishProject.scheduled ? 202 : 200),
    statuses: { 200: 'published at once (accepted and dispatched)', 202: 'scheduled for scheduledFor' },
    errors: {
      BAD_REQUEST: 'the project is not exported',
      PAYMENT_REQUIRED: 'not enough API credits',
      FORBIDDEN: 'your plan does not allow API publishing',
      PRECONDITION_FAILED: 'a requested platform has no connected account in the profile (details name them)',
    },
  }),
  route({
    method: 'GET',
    url: '/v1/projects/published',
    summary: 'Your publications with their posts and totals, a page at a time',
    operation: PublicationsDocument,
    query: {
      platform: textParam({ enum: PLATFORM_KEYS, description: 'only publications with a post on this platform' }),
      profileId: textParam({ format: 'uuid', description: 'only this profile' }),
      from: textParam({ description: `published at or after: ${INSTANT}` }),
      to: textParam({ description: `published at or before: ${INSTANT}; now when left out` }),
      sortBy: textParam({ enum: SORT_KEYS, default: 'publishedAt', description: 'views and engagement sort by the totals' }),
      direction: textParam({ enum: DIRECTIONS, default: 'desc' }),
      limit: pageSize(DEFAULT_LIMIT),
      cursor: textParam({ description: 'the nextCursor of the previous page' }),
    },
    variables: (_req, q) => q,
    answer: fields({ data: at('publications.data', publicationRecord), pagination: fields({ nextCursor: at('publications.nextCursor') }) }),
  }),
  route({
    method: 'GET',
    url: '/v1/projects/published/:id',
    summary: 'One publication, as in the listing',
    operation: PublicationDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('publication', publicationRecord),
  }),
  route({
    method: 'DELETE',
    url: '/v1/projects/published/:id',
    summary: 'Cancels a scheduled publication and gives its credits back',
    operation: CancelPublicationDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('cancelPublication', extended({ cancelled: constant(true, { const: true }) })),
    errors: { BAD_REQUEST: 'the publication is not scheduled' },
  }),
];
