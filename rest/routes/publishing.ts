import { currentUser } from '../../src/graphql/context.js';
import { readPublish } from '../../src/publishing/publish.js';
import type { PublicationFieldsFragment } from '../generated/operations.js';
import { CancelPublicationDocument, PublicationDocument, PublicationsDocument, PublishProjectDocument, type PublishInput } from '../generated/operations.js';
import { queryInt, queryString } from '../query.js';
import { route } from '../route.js';

type Params = { id: string };

/** A post as SPEC.md lists it: `analytics` only where available. */
function publicationRecord(p: PublicationFieldsFragment) {
  return { ...p, posts: p.posts.map(({ analytics, ...post }) => (analytics ? { ...post, analytics } : post)) };
}

export const publishingRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects/:id/publish',
    operation: PublishProjectDocument,
    variables: (req) => ({ projectId: (req.params as Params).id, input: (req.body ?? {}) as PublishInput }),
    // the body as sent, read with the project and the profile's accounts, before it becomes the typed input
    check: (ctx, { projectId, input }) => readPublish(ctx.app, currentUser(ctx), projectId, input),
    respond: (d) => d.publishProject,
    // 200 published at once, 202 scheduled (SPEC.md)
    status: (d) => (d.publishProject.scheduled ? 202 : 200),
  }),
  route({
    method: 'GET',
    url: '/v1/projects/published',
    operation: PublicationsDocument,
    variables: (req) => ({
      platform: queryString(req, 'platform'),
      profileId: queryString(req, 'profileId'),
      from: queryString(req, 'from'),
      to: queryString(req, 'to'),
      sortBy: queryString(req, 'sortBy'),
      direction: queryString(req, 'direction'),
      limit: queryInt(req, 'limit'),
      cursor: queryString(req, 'cursor'),
    }),
    respond: ({ publications }) => ({ data: publications.data.map(publicationRecord), pagination: { nextCursor: publications.nextCursor ?? null } }),
  }),
  route({
    method: 'GET',
    url: '/v1/projects/published/:id',
    operation: PublicationDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    respond: (d) => publicationRecord(d.publication),
  }),
  route({
    method: 'DELETE',
    url: '/v1/projects/published/:id',
    operation: CancelPublicationDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    respond: (d) => ({ ...d.cancelPublication, cancelled: true }),
  }),
];
