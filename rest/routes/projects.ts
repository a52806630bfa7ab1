import { createProjectReader, uploadProjectReader } from '../../src/graphql/projects.js';
import type { CreateProjectInput, ProjectQuery, ProjectRecordFragment, UploadProjectInput } from '../generated/operations.js';
import { CreateProjectDocument, ProjectDocument, UploadProjectDocument } from '../generated/operations.js';
import { createProjectBody, uploadProjectBody } from '../../src/projects/schemas.js';
import { fromFormFields } from '../../src/validation.js';
import { anyOf, merge, omit, optional, pick, withoutNulls, type JsonSchema } from '../response.js';
import { route } from '../route.js';
import { magicClipsRecord, magicClipsRecordSchema } from './magic-clips.js';

type Params = { id: string };

/**
 * The Project record of SPEC.md: always its identity, status and effect flags;
 * every other field only when it applies (was given, or came from a preset or
 * AI edit template).
 */
export function projectRecord(p: ProjectRecordFragment) {
  const { magicBrollsPercentage, dictionary, disableCaptions, autoRender, ...rest } = p;
  const record: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== null && v !== undefined) record[k] = v;
  if (p.magicBrolls) record.magicBrollsPercentage = magicBrollsPercentage;
  if (dictionary.length) record.dictionary = dictionary;
  if (disableCaptions) record.disableCaptions = true;
  if (!autoRender) record.autoRender = false;
  return record;
}

const projectRecordSchema = (p: JsonSchema) => optional(withoutNulls(p), ['magicBrollsPercentage', 'dictionary', 'disableCaptions', 'autoRender']);

const DETAILS = ['transcriptionStatus', 'failureReason', 'videoMetaData', 'words'];
const OUTPUTS = ['downloadUrl', 'directUrl', 'previewUrl'];

/**
 * GET /v1/projects/{id}: the record of the project's kind plus transcript,
 * status details and outputs (DECISIONS.md); a magic-clips project has its
 * `magicClips[]` in place of the edit's settings and rendered video.
 */
function fullRecord(p: NonNullable<ProjectQuery['project']>) {
  const {
    transcriptionStatus,
    failureReason,
    videoMetaData,
    words,
    downloadUrl,
    directUrl,
    previewUrl,
    kind,
    magicClips,
    minClipLength,
    maxClipLength,
    faceTracking,
    ...base
  } = p;
  const details = {
    ...(transcriptionStatus ? { transcriptionStatus } : {}),
    ...(failureReason ? { failureReason } : {}),
    ...(videoMetaData ? { videoMetaData } : {}),
    ...(words ? { words } : {}),
  };
  if (kind === 'magic_clips') {
    return { ...magicClipsRecord({ ...base, minClipLength, maxClipLength, faceTracking }), ...details, magicClips };
  }
  return {
    ...projectRecord(base),
    ...details,
    ...(downloadUrl ? { downloadUrl } : {}),
    ...(directUrl ? { directUrl } : {}),
    ...(previewUrl ? { previewUrl } : {}),
  };
}

/** What fullRecord makes of the project's schema: an edit project's record, or a magic-clips project's. */
function fullRecordSchema(p: JsonSchema) {
  const details = optional(withoutNulls(pick(p, DETAILS)), DETAILS);
  const edit = merge(
    projectRecordSchema(omit(p, [...DETAILS, ...OUTPUTS, 'kind', 'magicClips', 'minClipLength', 'maxClipLength', 'faceTracking'])),
    details,
    optional(withoutNulls(pick(p, OUTPUTS)), OUTPUTS),
  );
  const clips = merge(magicClipsRecordSchema(p), details, pick(p, ['magicClips']));
  return anyOf(edit, clips);
}

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
    respond: (d) => projectRecord(d.createProject),
    response: (d) => projectRecordSchema(d.at('createProject')),
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
    respond: (d) => projectRecord(d.uploadProject),
    response: (d) => projectRecordSchema(d.at('uploadProject')),
    status: 201,
    errors: { PAYLOAD_TOO_LARGE: 'the file is over 2 GB', UNSUPPORTED_MEDIA_TYPE: 'the file is not an mp4 or mov video' },
  }),
  route({
    method: 'GET',
    url: '/v1/projects/:id',
    summary: 'One of your projects: its settings, status, transcript and outputs (or its clips)',
    operation: ProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    respond: (d) => fullRecord(d.project),
    response: (d) => fullRecordSchema(d.at('project')),
  }),
];
