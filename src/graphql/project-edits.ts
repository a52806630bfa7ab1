import { readProjectUpdate, updateProject, type UpdateResult } from '../projects/update.js';
import { previewFrame, readPreview, type PreviewFrame } from '../exports/preview.js';
import { updateProjectBody } from '../projects/schemas.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { currentUser } from './context.js';
import { ProjectStatusEnum } from './projects.js';
import { isPlainObject } from '../validation.js';

export const UpdateProjectInput = inputFromSchema('UpdateProjectInput', updateProjectBody, 'The fields of PUT /v1/projects/{id}, all optional, at least one');

/** The body of updateProject as the service reads it, against the project; the REST route checks its body with it. */
export const updateProjectReader = bodyReader((ctx, { id, input }: { id: string | number; input: unknown }) =>
  readProjectUpdate(ctx.app, currentUser(ctx).id, String(id), input),
);

const UpdateProjectResultType = builder.objectRef<UpdateResult>('UpdateProjectResult').implement({
  description: 'The answer to a project update; re-export the project to see the changes',
  fields: (t) => ({
    message: t.exposeString('message', {
      description: '"Project updated successfully", or "Project update accepted" when AI B-roll clips are being generated',
    }),
    id: t.exposeID('id'),
    status: t.field({ type: ProjectStatusEnum, description: "the project's status after the update", resolve: (r) => r.status }),
  }),
});

builder.mutationFields((t) => ({
  updateProject: t.field({
    type: UpdateProjectResultType,
    description:
      'Changes some settings of one of your transcribed projects; words are checked and applied first, and nothing changes when anything is refused. ' +
      'AI B-roll items cost 3 AI credits each and move the project to processing until their clips exist.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateProjectInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => updateProject(ctx.app, currentUser(ctx).id, String(id), input, updateProjectReader.kept(ctx)),
  }),
}));

const PreviewFrameType = builder.objectRef<PreviewFrame>('PreviewFrame').implement({
  description: 'One frame of a project as it would export, with unsaved changes laid over it',
  fields: (t) => ({
    dataUrl: t.string({
      description: 'the frame as a PNG data URL (data:image/png;base64,…), ready for an img element',
      resolve: (f) => `data:image/png;base64,${f.png.toString('base64')}`,
    }),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    time: t.exposeFloat('time', { description: 'the second of the output drawn' }),
  }),
});

/** The preview's arguments as one body (the update's fields, time, width, height). */
const previewInput = (a: { time: unknown; width?: unknown; height?: unknown; input?: unknown }): unknown =>
  // a REST body that is not an object arrives whole as the input, and is refused as one
  a.input !== undefined && a.input !== null && !isPlainObject(a.input)
    ? a.input
    : {
        ...(a.input as object | null | undefined),
        time: a.time,
        ...(a.width != null ? { width: a.width } : {}),
        ...(a.height != null ? { height: a.height } : {}),
      };

/** previewFrame's arguments read against the project; the REST route checks its body with it. */
export const previewFrameReader = bodyReader((ctx, a: { id: string | number; time: unknown; width?: unknown; height?: unknown; input?: unknown }) =>
  readPreview(ctx.app, currentUser(ctx).id, String(a.id), previewInput(a)),
);

builder.queryFields((t) => ({
  previewFrame: t.field({
    type: PreviewFrameType,
    description:
      'One frame of one of your edit projects at `time` (a second of the output, after cuts) as the export would draw it, with `input` (any fields of updateProject, checked the same way) laid over the project without saving it; the source size unless width and height are given. Sound, automatic B-roll and a new hook placement are left to the export',
    args: {
      projectId: t.arg.id({ required: true }),
      time: t.arg.float({ required: true }),
      width: t.arg.int(),
      height: t.arg.int(),
      input: t.arg({ type: UpdateProjectInput }),
    },
    resolve: (_root, { projectId, time, width, height, input }, ctx) =>
      previewFrame(ctx.app, currentUser(ctx).id, String(projectId), previewInput({ time, width, height, input }), previewFrameReader.kept(ctx)),
  }),
}));
