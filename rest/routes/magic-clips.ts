import { currentUser } from '../../src/graphql/context.js';
import { assertMayMakeClips, readMagicClipsBody } from '../../src/magic-clips/creation.js';
import { uploadMagicClipsBody } from '../../src/magic-clips/schemas.js';
import { fromFormFields } from '../../src/validation.js';
import type { CreateMagicClipsInput, MagicClipsRecordFragment, UploadMagicClipsInput } from '../generated/operations.js';
import { CreateMagicClipsDocument, UploadMagicClipsDocument } from '../generated/operations.js';
import { route } from '../route.js';

/** The Magic-clips project of SPEC.md (202 on creation): webhookUrl only when given; the clip settings it was made with. */
export function magicClipsRecord(p: MagicClipsRecordFragment) {
  const { id, title, language, status, webhookUrl, templateName, userThemeId, minClipLength, maxClipLength, faceTracking, createdAt, updatedAt } = p;
  return { id, title, language, status, ...(webhookUrl ? { webhookUrl } : {}), templateName, userThemeId, minClipLength, maxClipLength, faceTracking, createdAt, updatedAt };
}

export const magicClipsRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects/magic-clips',
    operation: CreateMagicClipsDocument,
    // the body as sent: the check reads it (subscription first) before it becomes the typed input
    variables: (req) => ({ input: (req.body ?? {}) as CreateMagicClipsInput }),
    check: (ctx, { input }) => readMagicClipsBody(ctx.app, currentUser(ctx), input, 'url'),
    respond: (d) => magicClipsRecord(d.createMagicClips),
    status: 202,
  }),
  route({
    method: 'POST',
    url: '/v1/projects/magic-clips/upload',
    operation: UploadMagicClipsDocument,
    form: {
      // a caller without the subscription or a clip credit is refused before the file is sent
      caller: (ctx) => assertMayMakeClips(ctx.app, currentUser(ctx)),
      // every part is text (SPEC.md): read as the fields' types of the body's schema
      fields: {
        check: (ctx, fields) => readMagicClipsBody(ctx.app, currentUser(ctx), fromFormFields(uploadMagicClipsBody, fields), 'upload'),
        maxFileBytes: (ctx) => ctx.app.config.maxClipsSourceBytes,
      },
      variables: (fields, file) => ({ input: fromFormFields(uploadMagicClipsBody, fields) as UploadMagicClipsInput, file }),
    },
    respond: (d) => magicClipsRecord(d.uploadMagicClips),
    status: 202,
  }),
];
