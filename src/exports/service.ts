import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { App } from '../app.js';
import { AppError, badRequest, FieldErrors } from '../errors.js';
import type { Export, Prisma, Project } from '../generated/prisma/client.ts';
import type { ExportStatus } from '../generated/prisma/enums.ts';
import { readBody } from '../validation.js';
import { exportBody } from './schemas.js';
import type { Logger } from '../logger.js';
import { buildRenderGraph } from '../media/render/graph.js';
import { renderNiceness } from '../media/cpu.js';
import { renderVideo } from '../media/render/ffmpeg.js';
import { getProject, metaOf, wordsOf } from '../projects/service.js';
import { move } from '../projects/lifecycle.js';
import { progressReporter } from '../projects/state.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { dispatchWebhook, enqueueWebhook, type RecordedWebhook } from '../webhooks/service.js';
import { buildExportPlan } from './plan.js';
import { JOB_NAMES } from '../jobs/names.js';

export interface ExportSize {
  width: number;
  height: number;
  fps: number;
}

/** Size and fps of an export: the body's, else the source's, else 1080x1920 at 30 (SPEC.md). Even sizes: libx264 needs them. */
export function exportSize(body: { width?: number; height?: number; fps?: number }, project: Pick<Project, 'videoMeta'>): ExportSize {
  const meta = metaOf(project);
  const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
  return {
    width: even(body.width ?? meta?.width ?? 1080),
    height: even(body.height ?? meta?.height ?? 1920),
    fps: body.fps ?? (meta?.fps && meta.fps > 0 ? Math.min(60, meta.fps) : 30),
  };
}

/**
 * POST /v1/projects/{id}/export: checks the body (400 BAD_REQUEST naming the
 * parameter) and the preconditions (transcribed, not uploading or already
 * exporting, created through the API), moves the project to exporting and
 * queues the render. Answers at once. `read` is the request as
 * readExportRequest read it already (the REST check), not read again.
 */
export async function requestExport(app: App, userId: string, projectId: string, body: unknown, read?: ExportRequestRead) {
  const { project, fps, width, height, webhookUrl } = read ?? (await readExportRequest(app, userId, projectId, body));

  if (project.status === 'uploading') throw badRequest('The project is still uploading');
  if (!wordsOf(project)) throw badRequest('The project is not ready: it has no transcript yet');
  if (project.status === 'exporting') throw badRequest('The project is already exporting');
  if (project.status !== 'completed') throw badRequest(`The project is not ready to export (status ${project.status})`);

  const size = exportSize({ width, height, fps }, project);
  let created: Export | undefined;
  const moved = await move(app, project, 'export', {
    also: async (tx) => {
      created = await tx.export.create({ data: { projectId: project.id, ...size, webhookUrl: webhookUrl ?? null } });
    },
  });
  if (!moved || !created) throw badRequest('The project changed state meanwhile; try again');
  try {
    await enqueueRender(app, { id: created.id, projectId: project.id, userId });
  } catch (err) {
    // the render cannot start: put the project back as it was
    app.log.error({ err }, 'could not enqueue an export');
    await finishExport(app, created.id, { failed: 'The export could not be started' });
    throw new AppError('INTERNAL_SERVER_ERROR', 'Export failed to start');
  }
  return { message: 'Export started', projectId: project.id, status: 'exporting' as const, exportId: created.id };
}

/** One of the user's projects and the export body (NOT_FOUND first; a body problem is BAD_REQUEST naming the parameter). */
export async function readExportRequest(app: App, userId: string, projectId: string, body: unknown) {
  const project = await getProject(app, userId, projectId);
  const errors = new FieldErrors();
  const parsed = readBody(exportBody, body ?? {}, errors);
  throwBadRequest(errors);
  return { project, ...parsed! };
}

/** An export request as readExportRequest read it: handed to requestExport when the REST check read it already. */
export type ExportRequestRead = Awaited<ReturnType<typeof readExportRequest>>;

function throwBadRequest(errors: FieldErrors) {
  if (!errors.size) return;
  const first = errors.list[0];
  throw new AppError('BAD_REQUEST', `Invalid parameter ${first.field}: ${first.message}`, { details: errors.list });
}

/**
 * The render job: builds the plan, runs one ffmpeg pass into storage, then
 * completes the export and the project with the new output. A failed render
 * leaves the project completed with its previous output and reports why.
 * A second run of a finished export does nothing.
 *
 * Two runs of one export may overlap: a run whose lock lapsed (a machine too
 * busy to renew it) goes on while another worker takes the job. Both write the
 * same render to the same keys, and the first outcome recorded stands: the
 * other run's outcome, and its progress, are refused. Once the export has
 * ended, its files stay if it completed and go if it failed; both ends are
 * final, so no run removes files an export it did not end refers to.
 */
export async function runExport(
  app: App,
  exportId: string,
  ctx: { log: Logger; touch(percent: number): Promise<void>; signal?: AbortSignal; lapsed?(): boolean },
) {
  const exp = await app.db.export.findUnique({ where: { id: exportId }, include: { project: true } });
  if (!exp || exp.status === 'completed' || exp.status === 'failed') return;
  const project = exp.project;
  if (project.status !== 'exporting') return;
  // an export another run has ended meanwhile stays as it ended
  const open = await app.db.export.updateMany({ where: { id: exp.id, status: { in: UNFINISHED } }, data: { status: 'rendering' } });
  if (open.count === 0) return;
  const report = progressReporter(app, project, ctx.touch, stillRendering(exp.id));
  const key = `projects/${project.id}/exports/${exp.id}.mp4`;
  const previewKey = `projects/${project.id}/exports/${exp.id}.preview.mp4`;
  try {
    // the render's files are gone before the export is recorded finished; a killed run's, when the next run renders
    const duration = await inWorkDir(app.config.dataDir, `export-${exp.id}`, async (dir) => {
      const { plan } = await buildExportPlan(app, project, exp, dir);
      const graph = buildRenderGraph({ ...plan, preview: true });
      const out = path.join(dir, 'output.mp4');
      const preview = path.join(dir, 'preview.mp4');
      await report('render', 0);
      await renderVideo(
        graph,
        { video: out, preview },
        {
          onProgress: (f) => void report('render', f * 100).catch(() => {}),
          timeoutMs: Math.max(10 * 60_000, graph.duration * 20_000),
          stallMs: app.config.renderStallMs,
          niceness: renderNiceness(app.config),
          signal: ctx.signal,
        },
      );
      await app.storage.put(key, createReadStream(out), { contentType: 'video/mp4' });
      await app.storage.put(previewKey, createReadStream(preview), { contentType: 'video/mp4' });
      return graph.duration;
    });
    await finishExport(app, exp.id, { key, previewKey, duration });
  } catch (e) {
    // stopped: the project is gone with its exports (deleted while its render ran); or lapsed: the run that took the job
    // over, or the job's next run, renders it and records how it ended
    if (ctx.signal?.aborted || ctx.lapsed?.() || !(await app.db.project.count({ where: { id: project.id } }))) throw e;
    ctx.log.error({ err: e, exportId }, 'export failed');
    await finishExport(app, exp.id, { failed: `Export failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` });
  }
  // ended now, by this run or another: a completed export's files are its output; a failed one refers to none
  const ended = await app.db.export.findUnique({ where: { id: exp.id }, select: { status: true } });
  if (ended?.status === 'failed') await Promise.all([key, previewKey].map((k) => app.storage.delete(k).catch(() => {})));
}

/** An export still to be rendered, or being rendered (by one run or, when a lock lapsed, two). */
const UNFINISHED: ExportStatus[] = ['queued', 'rendering'];

/** The project while it is exporting this export: what a run's outcome and progress are recorded on. */
const stillRendering = (exportId: string): Prisma.ProjectWhereInput => ({
  status: 'exporting',
  exports: { some: { id: exportId, status: { in: UNFINISHED } } },
});

/** exporting → completed, with the export's outcome and its webhooks, in one transaction. */
async function finishExport(app: App, exportId: string, outcome: { key: string; previewKey: string; duration: number } | { failed: string }) {
  const hooks: RecordedWebhook[] = [];
  const exp = await app.db.export.findUniqueOrThrow({ where: { id: exportId }, include: { project: { select: { id: true, kind: true } } } });
  const ok = 'key' in outcome;
  const also = async (tx: Prisma.TransactionClient, project: Project) => {
    const updated = await tx.export.update({
      where: { id: exportId },
      data: ok
        ? { status: 'completed', outputKey: outcome.key, previewKey: outcome.previewKey, duration: outcome.duration, progress: 100, completedAt: new Date() }
        : { status: 'failed', failureReason: outcome.failed },
    });
    const url = project.renderedKey ? app.storage.url(project.renderedKey) : null;
    const download = project.renderedKey ? app.storage.url(project.renderedKey, { download: `${project.title}.mp4` }) : null;
    if (updated.webhookUrl) {
      const event = ok ? 'export.completed' : 'export.failed';
      hooks.push(
        await enqueueWebhook(
          app,
          {
            userId: project.userId,
            url: updated.webhookUrl,
            event,
            subjectId: updated.id,
            payload: {
              event,
              projectId: project.id,
              exportId: updated.id,
              status: ok ? 'completed' : 'failed',
              downloadUrl: download,
              directUrl: url,
              width: updated.width,
              height: updated.height,
              fps: updated.fps,
              duration: updated.duration,
              ...(ok ? {} : { failureReason: outcome.failed }),
              timestamp: new Date().toISOString(),
            },
          },
          tx,
        ),
      );
    }
  };
  // the creation webhook fires when processing (autoRender: the render included) finishes
  const webhook = exp.autoRender;
  // the project moves only while this export is unfinished: a late run of an ended one never records over a later export
  const where = stillRendering(exportId);
  if (ok) await move(app, exp.project, 'exported', { where, data: { renderedKey: outcome.key, previewKey: outcome.previewKey }, also, webhook });
  else await move(app, exp.project, 'exportFailed', { where, data: { failureReason: outcome.failed }, also, webhook });
  for (const h of hooks) if (h.created) await dispatchWebhook(app, h.deliveryId);
}

/** The automatic render at the end of the pipeline (autoRender): transcribing → exporting with the default size. */
export async function startAutoRender(app: App, project: Project): Promise<boolean> {
  const size = exportSize({}, project);
  let created: Export | undefined;
  const moved = await move(app, project, 'autoRender', {
    also: async (tx) => {
      created = await tx.export.create({ data: { projectId: project.id, ...size, autoRender: true } });
    },
  });
  if (!moved || !created) return false;
  await enqueueRender(app, { id: created.id, projectId: project.id, userId: project.userId });
  return true;
}

/** The render job of an export, once: a second call for the same export adds nothing. */
async function enqueueRender(app: App, exp: { id: string; projectId: string; userId: string }) {
  await app.jobs.enqueue(JOB_NAMES.renderExport, { exportId: exp.id, projectId: exp.projectId, userId: exp.userId }, { once: { exportId: exp.id } });
}

/**
 * Queues the render of every export still waiting for one: the export row and the
 * project's move to exporting commit together, the job is queued just after, so a
 * process killed in between leaves an export no job will render. The pipeline's next
 * run calls this for its project; the watchdog, for exports queued longer than
 * `olderThanMs` (an API process killed after creating one). Returns how many it queued.
 */
export async function resumeRenders(app: App, { projectId, olderThanMs = 0 }: { projectId?: string; olderThanMs?: number } = {}): Promise<number> {
  const waiting = await app.db.export.findMany({
    where: {
      status: 'queued',
      createdAt: { lte: new Date(Date.now() - olderThanMs) },
      project: { status: 'exporting', ...(projectId ? { id: projectId } : {}) },
    },
    select: { id: true, projectId: true, project: { select: { userId: true } } },
    take: 500,
  });
  for (const exp of waiting) await enqueueRender(app, { id: exp.id, projectId: exp.projectId, userId: exp.project.userId });
  return waiting.length;
}
