import { UpdateProjectDocument } from '../generated/operations.js';
import { route } from '../route.js';

type Params = { id: string };

export const projectEditRoutes = [
  route({
    method: 'PUT',
    url: '/v1/projects/:id',
    operation: UpdateProjectDocument,
    // the body goes through untouched (JSON): the service names unknown fields and wrong types along with every other violation
    variables: (req) => ({ id: (req.params as Params).id, input: req.body ?? {} }),
    respond: (d) => d.updateProject,
  }),
];
