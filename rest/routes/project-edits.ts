import { updateProjectReader } from '../../src/graphql/project-edits.js';
import { updateProjectBody } from '../../src/projects/schemas.js';
import { at } from '../answer.js';
import { UpdateProjectDocument, type UpdateProjectInput } from '../generated/operations.js';
import { route } from '../route.js';

type Params = { id: string };

export const projectEditRoutes = [
  route({
    method: 'PUT',
    url: '/v1/projects/:id',
    summary: 'Changes a transcribed project (transcript, effects, hook title, music, items); export again to see it',
    operation: UpdateProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as UpdateProjectInput }),
    body: updateProjectBody,
    check: updateProjectReader.check,
    answer: at('updateProject'),
    errors: { BAD_REQUEST: 'the project cannot be updated now (not completed yet), or changed meanwhile' },
  }),
];
