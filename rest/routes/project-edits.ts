import { currentUser } from '../../src/graphql/context.js';
import { readProjectUpdate } from '../../src/projects/update.js';
import { UpdateProjectDocument, type UpdateProjectInput } from '../generated/operations.js';
import { route } from '../route.js';

type Params = { id: string };

export const projectEditRoutes = [
  route({
    method: 'PUT',
    url: '/v1/projects/:id',
    operation: UpdateProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as UpdateProjectInput }),
    check: (ctx, { id, input }) => readProjectUpdate(ctx.app, currentUser(ctx).id, id, input),
    respond: (d) => d.updateProject,
  }),
];
