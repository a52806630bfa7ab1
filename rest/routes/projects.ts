import { createProjectReader, uploadProjectReader } from '../../src/graphql/projects.js';
import type { CreateProjectInput, UploadProjectInput } from '../generated/operations.js';
import { CreateProjectDocument, DeleteProjectDocument, ProjectDocument, ProjectsPageDocument, UploadProjectDocument } from '../generated/operations.js';
import { TITLE_QUERY_MAX } from '../../src/projects/service.js';
import { enumParam, pageSize, textParam } from '../query.js';
import { createProjectBody, uploadProjectBody } from '../../src/projects/schemas.js';
import { fromFormFields } from '../../src/validation.js';
import { at, constant, either, extended, fields, leftOutWhen, member, merged, only, pageOf, pipe, without, withoutNulls } from '../answer.js';
import { route } from '../route.js';
import { magicClipsRecord } from './magic-clips.js';

type Params = { id: string };
const PROJECT_STATUSES = ['uploading', 'processing', 'transcribing', 'exporting', 'completed', 'failed'] as const;
const PROJECT_KINDS = ['edit', 'magic_clips'] as const;

/**
 * The Project record of SPEC.md: always its identity, status and effect flags;
 * every other field only when it applies (was given, or came from a preset or
 * AI edit template).
 */
const projectRecord = pipe(
  withoutNulls(),
  leftOutWhen({
    magicBrollsPercentage: (_, p) => !p.magicBrolls,
    dictionary: (words) => !(words as string[]).length,
    disableCaptions: (disable) => !disable,
    autoRender: (auto) => auto === true,
  }),
);

const DETAILS = ['transcriptionStatus', 'failureReason', 'videoMetaData', 'words'];
/** A word's look, only where one is set. */
const WORD_LOOK = ['color', 'emphasis', 'emoji', 'hidden'];
const OUTPUTS = ['downloadUrl', 'directUrl', 'previewUrl'];
/** A magic-clips project's own settings: not an edit's. */
const CLIP_SETTINGS = ['minClipLength', 'maxClipLength', 'faceTracking', 'clipCount', 'topic', 'range', 'aspectRatio', 'clipsNote'];

/** Each of these members only when it is there. */
const present = (keys: string[]) => pipe(only(keys), withoutNulls());

/**
 * GET /v1/projects/{id}: the record of the project's kind plus transcript,
 * status details and outputs (DECISIONS.md); a magic-clips project has its
 * `magicClips[]` in place of the edit's settings and rendered video.
 */
const details = pipe(present(DETAILS), member('words', withoutNulls(WORD_LOOK)));
const fullRecord = either(
  (p) => p.kind === 'magic_clips',
  merged(magicClipsRecord, details, only(['magicClips'])),
  merged(pipe(without([...DETAILS, ...OUTPUTS, 'kind', 'magicClips', ...CLIP_SETTINGS]), projectRecord), details, present(OUTPUTS)),
);

export const projectRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects',
    summary: 'Makes a project from a public video URL: transcribed, then (autoRender) exported, in the background',
    operation: CreateProjectDocument,
    body: createProjectBody,
    // the body as sent: the check reads it before it becomes the typed input, and the service takes what it read
    variables: (req) => ({ input: (req.body ?? {}) as CreateProjectInput }),
    check: createProjectReader.check,
    answer: at('createProject', projectRecord),
    status: 201,
  }),
  route({
    method: 'POST',
    url: '/v1/projects/upload',
    summary: 'Makes a project from an uploaded video (multipart: the text parts below and the file)',
    operation: UploadProjectDocument,
    body: uploadProjectBody,
    form: {
      // every part is text (SPEC.md): read as the fields' types of the body's schema
      fields: {
        check: (ctx, fields) => uploadProjectReader.check(ctx, { input: fromFormFields(uploadProjectBody, fields) }),
        maxFileBytes: (ctx) => ctx.app.config.maxProjectBytes,
      },
      variables: (fields, file) => ({ input: fromFormFields(uploadProjectBody, fields) as UploadProjectInput, file }),
    },
    answer: at('uploadProject', projectRecord),
    status: 201,
    errors: { PAYLOAD_TOO_LARGE: 'the file is over 2 GB', UNSUPPORTED_MEDIA_TYPE: 'the file is not an mp4 or mov video' },
  }),
  route({
    method: 'GET',
    url: '/v1/projects',
    summary: 'Your projects, newest first, a page at a time, by status, kind or words of the title',
    extension: 'the project listing, beyond SPEC.md (which reads projects one at a time)',
    operation: ProjectsPageDocument,
    query: {
      limit: pageSize(20),
      cursor: textParam({ description: 'the nextCursor of the previous page' }),
      status: enumParam(PROJECT_STATUSES, { description: 'only projects of this status' }),
      kind: enumParam(PROJECT_KINDS, { description: 'only edits or only magic clips' }),
      q: textParam({ description: `words the title contains, in any case (at most ${TITLE_QUERY_MAX} characters)` }),
    },
    variables: (_req, q) => ({ first: q.limit, after: q.cursor, status: q.status, kind: q.kind, q: q.q }),
    answer: merged(fields({ items: at('projects.edges[].node', withoutNulls(['previewUrl', 'downloadUrl'])) }), pageOf('projects.pageInfo')),
  }),
  route({
    method: 'GET',
    url: '/v1/projects/:id',
    summary: 'One of your projects: its settings, status, transcript and outputs (or its clips)',
    operation: ProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('project', fullRecord),
  }),
  route({
    method: 'DELETE',
    url: '/v1/projects/:id',
    summary:
      'Deletes a project with its exports, clips, transcript and stored files, stops its jobs and cancels its scheduled publications with their credits; its published posts stay in the listing with its id and title',
    extension: 'deleting projects, beyond SPEC.md',
    operation: DeleteProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('deleteProject', extended({ deleted: constant(true, { const: true }) })),
    errors: { BAD_REQUEST: 'a publication of the project is being delivered (the message names it)' },
  }),
];
