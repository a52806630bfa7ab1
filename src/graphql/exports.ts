import { keptSegments } from '../exports/plan.js';
import { captionPagesOf } from '../themes/looks.js';
import { readExportRequest, requestExport } from '../exports/service.js';
import { toSrt, toVtt } from '../media/render/captions.js';
import { metaOf, wordsOf } from '../projects/service.js';
import { exportBody } from '../exports/schemas.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { currentUser, type Context } from './context.js';
import { JOB_NAMES } from '../jobs/names.js';
import { ProjectType } from './projects.js';

export const ExportType = builder.prismaObject('Export', {
  description: 'One render of a project',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', { description: 'queued, rendering, completed or failed' }),
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    fps: t.exposeFloat('fps'),
    progress: t.exposeFloat('progress'),
    duration: t.exposeFloat('duration', { nullable: true }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    jobId: t.loadable({
      type: 'ID',
      nullable: true,
      description: 'The render job of the export; follow it with `jobEvents`',
      // a project's exports, or a page of them, ask once
      load: (ids: string[], ctx: Context) => ctx.app.jobs.currentJobIds('exportId', ids, [JOB_NAMES.renderExport]),
      resolve: (e) => e.id,
    }),
    downloadUrl: t.string({ nullable: true, resolve: (e, _a, ctx) => (e.outputKey ? ctx.app.storage.url(e.outputKey, { download: 'export.mp4' }) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ExportStarted = builder.objectRef<{ message: string; projectId: string; status: string; exportId: string }>('ExportStarted').implement({
  fields: (t) => ({
    message: t.exposeString('message'),
    projectId: t.exposeID('projectId'),
    status: t.exposeString('status'),
    exportId: t.exposeID('exportId'),
    jobId: t.id({ nullable: true, description: 'The render job; follow it with `jobEvents`', resolve: (e, _a, ctx) => renderJobId(ctx, e.exportId) }),
  }),
});

const renderJobId = async (ctx: Context, exportId: string) => (await ctx.app.jobs.jobsFor({ exportId }, [JOB_NAMES.renderExport]))[0]?.id ?? null;

export const CaptionFormat = builder.enumType('CaptionFormat', { values: ['srt', 'vtt'] as const });

builder.prismaObjectFields(ProjectType, (t) => ({
  exports: t.relation('exports', {
    description: 'Renders of the project, newest first',
    query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 20 },
  }),
  captions: t.string({
    nullable: true,
    description:
      'The transcript as a caption file, on the timeline of the next render (silence and bad-take cuts applied), one cue per page of the burned-in captions',
    args: { format: t.arg({ type: CaptionFormat, defaultValue: 'srt', required: true }) },
    resolve: async (p, { format }, ctx) => {
      const words = wordsOf(p);
      const meta = metaOf(p);
      if (!words || !meta) return null;
      const keep = await keptSegments(p, words, meta.duration, meta.fps || 30);
      const opts = await captionPagesOf(ctx.app, p);
      return format === 'vtt' ? toVtt(words, keep, opts) : toSrt(words, keep, opts);
    },
  }),
}));

const ExportProjectInput = inputFromSchema('ExportProjectInput', exportBody, 'The fields of POST /v1/projects/{id}/export, all optional');

/** The body of exportProject as the service reads it, against the project; the REST route checks its body with it. */
export const exportProjectReader = bodyReader((ctx, { id, input }: { id: string | number; input?: unknown }) =>
  readExportRequest(ctx.app, currentUser(ctx).id, String(id), input),
);

builder.mutationFields((t) => ({
  exportProject: t.field({
    type: ExportStarted,
    description: "Renders a transcribed project; a size or frame rate left out is the source video's",
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: ExportProjectInput, required: false }) },
    resolve: (_root, { id, input }, ctx) => requestExport(ctx.app, currentUser(ctx).id, String(id), input ?? {}, exportProjectReader.kept(ctx)),
  }),
}));
