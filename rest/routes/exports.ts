import { badRequest } from '../../src/errors.js';
import { exportProjectReader } from '../../src/graphql/exports.js';
import { ExportProjectDocument, ProjectCaptionsDocument, type ExportProjectInput, type ProjectCaptionsQuery } from '../generated/operations.js';
import { exportBody } from '../../src/exports/schemas.js';
import { enumParam } from '../query.js';
import { string } from '../response.js';
import { at, custom } from '../answer.js';
import { route } from '../route.js';

type Params = { id: string };

const CAPTION_TYPES = { srt: 'application/x-subrip; charset=utf-8', vtt: 'text/vtt; charset=utf-8' } as const;

export const exportRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects/:id/export',
    summary: 'Renders the project to a video file, in the background',
    operation: ExportProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as ExportProjectInput }),
    body: exportBody,
    check: exportProjectReader.check,
    answer: at('exportProject'),
    errors: { BAD_REQUEST: 'the project is not ready to export (not transcribed yet, or still uploading)' },
  }),
  route({
    method: 'GET',
    url: '/v1/projects/:id/captions',
    summary: "The transcript's captions as an SRT or WebVTT file",
    operation: ProjectCaptionsDocument,
    query: { format: enumParam(['srt', 'vtt'] as const, { default: 'srt', description: 'the file format' }) },
    variables: (req, q) => ({ id: (req.params as Params).id, format: q.format ?? 'srt' }),
    answer: custom(
      (d: ProjectCaptionsQuery, req, reply) => {
        if (d.project.captions == null) throw badRequest('The project has no transcript yet');
        const format = ((req.query as { format?: string }).format ?? 'srt') as keyof typeof CAPTION_TYPES;
        reply.type(CAPTION_TYPES[format]);
        return d.project.captions;
      },
      () => string,
    ),
    produces: Object.values(CAPTION_TYPES),
    errors: { BAD_REQUEST: 'the project has no transcript yet' },
  }),
];
