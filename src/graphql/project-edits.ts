import { updateProject, type UpdateResult } from '../projects/update.js';
import { builder } from './builder.js';
import { currentUser } from './context.js';
import { ProjectStatusEnum } from './projects.js';

const UPDATE_PROJECT_INPUT =
  'The fields of PUT /v1/projects/{id}, all optional, at least one: words (the whole transcript), removeSilencePace, removeBadTakes, ' +
  'disableCaptions, captionPositionY (0-80), captionPositionX (0-100), hookTitle (true, false or an object), music, items (at least one)';

const UpdateProjectResultType = builder.objectRef<UpdateResult>('UpdateProjectResult').implement({
  description: 'The answer to a project update; re-export the project to see the changes',
  fields: (t) => ({
    message: t.exposeString('message', { description: '"Project updated successfully", or "Project update accepted" when AI B-roll clips are being generated' }),
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
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: 'JSON', required: true, description: UPDATE_PROJECT_INPUT }) },
    resolve: (_root, { id, input }, ctx) => updateProject(ctx.app, currentUser(ctx).id, String(id), input),
  }),
}));
