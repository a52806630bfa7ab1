import { readUserMediaBody } from '../../src/library/fetch-media.js';
import { CreateUserMediaDocument, MusicCatalogueDocument, UploadUserMediaDocument, UserMediaPageDocument } from '../generated/operations.js';
import { nextCursorOf, queryEnum, queryInt, queryString } from '../query.js';
import { noVariables, route } from '../route.js';

const MEDIA_TYPES = ['VIDEO', 'AUDIO', 'IMAGE'] as const;

export const libraryRoutes = [
  route({
    method: 'POST',
    url: '/v1/user-media',
    operation: CreateUserMediaDocument,
    variables: (req) => ({ url: (req.body as { url?: unknown } | undefined)?.url as string }),
    check: (_ctx, variables) => readUserMediaBody(variables),
    respond: (d) => ({ userMediaId: d.createUserMedia.userMediaId }),
    status: 201,
  }),
  route({
    method: 'POST',
    url: '/v1/user-media/upload',
    operation: UploadUserMediaDocument,
    form: { variables: (_fields, file) => ({ file }) },
    respond: (d) => ({ userMediaId: d.uploadUserMedia.userMediaId }),
    status: 201,
  }),
  route({
    method: 'GET',
    url: '/v1/user-media',
    operation: UserMediaPageDocument,
    variables: (req) => ({ first: queryInt(req, 'limit'), after: queryString(req, 'cursor'), type: queryEnum(req, 'type', MEDIA_TYPES) }),
    respond: ({ userMedia: { edges, pageInfo } }) => ({
      items: edges.map(({ node: { status, failureReason, ...entry } }) => ({
        ...entry,
        status,
        ...(failureReason ? { failureReason } : {}),
      })),
      hasMore: pageInfo.hasNextPage,
      ...nextCursorOf(pageInfo),
    }),
  }),
  route({
    method: 'GET',
    url: '/v1/music',
    operation: MusicCatalogueDocument,
    variables: noVariables,
    respond: (d) => ({ items: d.music.map(({ id, name, duration }) => ({ id, name, duration })) }),
  }),
];
