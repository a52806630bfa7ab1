import { badRequest } from '../../src/errors.js';
import { readExportRequest } from '../../src/exports/service.js';
import { currentUser } from '../../src/graphql/context.js';
import { ExportProjectDocument, ProjectCaptionsDocument, type ExportProjectInput } from '../generated/operations.js';
import { queryEnum } from '../query.js';
import { route } from '../route.js';

type Params = { id: string };

const CAPTION_TYPES = { srt: 'application/x-subrip; charset=utf-8', vtt: 'text/vtt; charset=utf-8' } as const;

export const exportRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects/:id/export',
    operation: ExportProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as ExportProjectInput }),
    check: (ctx, { id, input }) => readExportRequest(ctx.app, currentUser(ctx).id, id, input),
    respond: (d) => d.exportProject,
  }),
  route({
    method: 'GET',
    url: '/v1/projects/:id/captions',
    operation: ProjectCaptionsDocument,
    variables: (req) => ({ id: (req.params as Params).id, format: queryEnum(req, 'format', ['srt', 'vtt'] as const) ?? 'srt' }),
    respond: (d, req, reply) => {
      if (d.project.captions == null) throw badRequest('The project has no transcript yet');
      const format = ((req.query as { format?: string }).format ?? 'srt') as keyof typeof CAPTION_TYPES;
      reply.type(CAPTION_TYPES[format]);
      return d.project.captions;
    },
  }),
];
