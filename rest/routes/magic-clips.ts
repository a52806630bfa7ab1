import { currentUser } from '../../src/graphql/context.js';
import { createMagicClipsReader, uploadMagicClipsReader } from '../../src/graphql/magic-clips.js';
import { assertMayMakeClips } from '../../src/magic-clips/creation.js';
import { createMagicClipsBody, uploadMagicClipsBody } from '../../src/magic-clips/schemas.js';
import { fromFormFields } from '../../src/validation.js';
import type { CreateMagicClipsInput, MagicClipsRecordFragment, UploadMagicClipsInput } from '../generated/operations.js';
import { ClipScoreCalibrationDocument, CreateMagicClipsDocument, UploadMagicClipsDocument } from '../generated/operations.js';
import { at, only, pipe, withoutNulls } from '../answer.js';
import { noVariables, route } from '../route.js';

/** The members of a Magic-clips project record. */
const CLIPS_RECORD = [
  'id',
  'title',
  'language',
  'status',
  'webhookUrl',
  'templateName',
  'userThemeId',
  'minClipLength',
  'maxClipLength',
  'faceTracking',
  'clipCount',
  'topic',
  'range',
  'aspectRatio',
  'speakerLayout',
  'style',
  'hookTitle',
  'clipsNote',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof MagicClipsRecordFragment>;

/** The Magic-clips project of SPEC.md (202 on creation): webhookUrl and the extensions only when given; the clip settings it was made with. */
export const magicClipsRecord = pipe(
  only(CLIPS_RECORD),
  withoutNulls(['webhookUrl', 'clipCount', 'topic', 'range', 'aspectRatio', 'speakerLayout', 'style', 'hookTitle', 'clipsNote']),
);

const CLIPS_ERRORS = {
  FORBIDDEN: 'you have no clips subscription',
  PAYMENT_REQUIRED: 'you have no clip credit left (a project costs 1)',
} as const;

export const magicClipsRoutes = [
  route({
    method: 'GET',
    url: '/v1/magic-clips/calibration',
    summary:
      "How well your clips' predicted total ranks them once published: Spearman's rho by views and by engagement rate, with the number of clips (rho null under 5)",
    extension: 'judging the clip scores against published clips, beyond SPEC.md',
    operation: ClipScoreCalibrationDocument,
    variables: noVariables,
    answer: at('clipScoreCalibration'),
  }),
  route({
    method: 'POST',
    url: '/v1/projects/magic-clips',
    summary: 'Makes short clips of a long video on a video platform, each with a virality score, in the background',
    operation: CreateMagicClipsDocument,
    body: createMagicClipsBody,
    // the body as sent: the check reads it (subscription first) before it becomes the typed input, and the service takes what it read
    variables: (req) => ({ input: (req.body ?? {}) as CreateMagicClipsInput }),
    check: createMagicClipsReader.check,
    answer: at('createMagicClips', magicClipsRecord),
    status: 202,
    errors: CLIPS_ERRORS,
  }),
  route({
    method: 'POST',
    url: '/v1/projects/magic-clips/upload',
    summary: 'Makes short clips of an uploaded long video (multipart: the text parts below and the file)',
    operation: UploadMagicClipsDocument,
    body: uploadMagicClipsBody,
    form: {
      // a caller without the subscription or a clip credit is refused before the file is sent
      caller: (ctx) => assertMayMakeClips(ctx.app, currentUser(ctx)),
      // every part is text (SPEC.md): read as the fields' types of the body's schema
      fields: {
        check: (ctx, fields) => uploadMagicClipsReader.check(ctx, { input: fromFormFields(uploadMagicClipsBody, fields) }),
        maxFileBytes: (ctx) => ctx.app.config.maxClipsSourceBytes,
      },
      variables: (fields, file) => ({ input: fromFormFields(uploadMagicClipsBody, fields) as UploadMagicClipsInput, file }),
    },
    answer: at('uploadMagicClips', magicClipsRecord),
    status: 202,
    errors: { ...CLIPS_ERRORS, PAYLOAD_TOO_LARGE: 'the file is over 10 GB', UNSUPPORTED_MEDIA_TYPE: 'the file is not an mp4 or mov video' },
  }),
];
