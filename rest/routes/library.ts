import {
  CreateUserMediaDocument,
  DeleteUserMediaDocument,
  MusicCatalogueDocument,
  UploadUserMediaDocument,
  UserMediaPageDocument,
} from '../generated/operations.js';
import { readUserMediaBody, userMediaBody } from '../../src/library/fetch-media.js';
import { at, constant, extended, fields, merged, pageOf, withoutNulls } from '../answer.js';
import { enumParam, pageSize, textParam } from '../query.js';
import { noVariables, route } from '../route.js';

const MEDIA_TYPES = ['VIDEO', 'AUDIO', 'IMAGE', 'FONT', 'LUT'] as const;

export const libraryRoutes = [
  route({
    method: 'POST',
    url: '/v1/user-media',
    summary: 'Adds a file to your media library from a public URL; it is fetched and probed in the background',
    operation: CreateUserMediaDocument,
    variables: (req) => ({ url: (req.body as { url?: unknown } | undefined)?.url as string }),
    body: userMediaBody,
    check: (_ctx, variables) => readUserMediaBody(variables),
    answer: fields({ userMediaId: at('createUserMedia.userMediaId') }),
    status: 201,
  }),
  route({
    method: 'POST',
    url: '/v1/user-media/upload',
    summary: 'Adds an uploaded file (multipart part file) to your media library',
    operation: UploadUserMediaDocument,
    form: { variables: (_fields, file) => ({ file }) },
    answer: fields({ userMediaId: at('uploadUserMedia.userMediaId') }),
    errors: {
      PAYLOAD_TOO_LARGE: 'the file is larger than the library takes',
      UNSUPPORTED_MEDIA_TYPE: 'the file is not a video, audio or image whose first frames decode, nor a font or .cube LUT that parses',
    },
    status: 201,
  }),
  route({
    method: 'GET',
    url: '/v1/user-media',
    summary: 'Your media library, newest first, a page at a time',
    operation: UserMediaPageDocument,
    query: {
      limit: pageSize(50),
      cursor: textParam({ description: 'the nextCursor of the previous page' }),
      type: enumParam(MEDIA_TYPES, { description: 'only files of this type (FONT and LUT are extensions)' }),
    },
    variables: (_req, q) => ({ first: q.limit, after: q.cursor, type: q.type }),
    // items, then the page's hasMore and nextCursor beside them
    answer: merged(fields({ items: at('userMedia.edges[].node', withoutNulls(['failureReason'])) }), pageOf('userMedia.pageInfo')),
  }),
  route({
    method: 'DELETE',
    url: '/v1/user-media/:id',
    summary: 'Deletes a library entry and its file; refused while a project, preset or theme uses it (the refusal names them)',
    extension: 'deleting library entries, beyond SPEC.md',
    operation: DeleteUserMediaDocument,
    variables: (req) => ({ id: (req.params as { id: string }).id }),
    answer: at('deleteUserMedia', extended({ deleted: constant(true, { const: true }) })),
    errors: { BAD_REQUEST: 'the file is still being fetched', VALIDATION_ERROR: 'a project, preset or theme still uses the file (the message names them)' },
  }),
  route({
    method: 'GET',
    url: '/v1/music',
    summary: 'The trendy-music catalogue: its ids go in music.userMediaId',
    operation: MusicCatalogueDocument,
    variables: noVariables,
    answer: fields({ items: at('music') }),
  }),
];
