import { previewFrameReader, updateProjectReader } from '../../src/graphql/project-edits.js';
import { previewBody } from '../../src/exports/preview.js';
import { updateProjectBody } from '../../src/projects/schemas.js';
import { at, custom } from '../answer.js';
import { PreviewFrameDocument, UpdateProjectDocument, type PreviewFrameQuery, type UpdateProjectInput } from '../generated/operations.js';
import { route } from '../route.js';
import { isPlainObject } from '../../src/validation.js';

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
  route({
    method: 'POST',
    url: '/v1/projects/:id/preview',
    summary:
      "One frame of the project at `time` as its export would draw it, with the body's changes (any fields of PUT /v1/projects/{id}) laid over it unsaved: a PNG",
    extension: 'the one-frame preview, beyond SPEC.md',
    operation: PreviewFrameDocument,
    variables: (req) => {
      const id = (req.params as Params).id;
      // a body that is not an object goes to the check whole, to be refused as one
      if (!isPlainObject(req.body)) return { id, input: req.body ?? {} } as never;
      const { time, width, height, ...input } = req.body;
      return { id, time, width, height, input } as never;
    },
    body: previewBody,
    check: previewFrameReader.check,
    answer: custom(
      (d: PreviewFrameQuery, _req, reply) => {
        reply.type('image/png');
        return Buffer.from(d.previewFrame.dataUrl.slice(d.previewFrame.dataUrl.indexOf(',') + 1), 'base64');
      },
      () => ({ type: 'string', format: 'binary' }),
    ),
    produces: ['image/png'],
    errors: { BAD_REQUEST: 'the project has no transcript yet, or is a magic-clips project' },
  }),
];
