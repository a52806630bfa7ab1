import { readProjectUpdate, updateProject, type UpdateResult } from '../projects/update.js';
import { updateProjectBody } from '../projects/schemas.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { currentUser } from './context.js';
import { ProjectStatusEnum } from './projects.js';

const UpdateProjectInput = inputFromSchema('UpdateProjectInput', updateProjectBody, 'The fields of PUT /v1/projects/{id}, all optional, at least one');

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
