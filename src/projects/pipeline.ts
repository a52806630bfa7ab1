import type { App } from '../app.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import type { LongJobContext } from '../jobs/context.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { localFiles, type LocalFiles } from '../storage/storage.js';
import { detectBadTakes } from './bad-takes.js';
import { generateMissingClips } from './broll.js';
import { failureReason, fetchSource, isOwnFailure, isPassingFailure, probeSource, transcribeSource, type IngestReport } from './ingest.js';
import { fail, move } from './lifecycle.js';
import { metaOf, wordsOf, type VideoMeta } from './service.js';
import { progressReporter } from './state.js';

/**
 * Starts the automatic render of a transcribed project created with
 * autoRender; false when the project was not moved to it. The worker hands in
 * the exports service's, so projects/ does not reach up into exports/.
 */
export type StartAutoRender = (app: App, project: Project) => Promise<boolean>;

/**
 * The pipeline of a created project, run by the `projects.process` job:
 * fetch the source (URL projects), probe it, extract the audio, transcribe,
 * store the words, then complete, or start the render with `startAutoRender`
 * (DESIGN.md's state machine). Each step is skipped when its result is
 * already stored, so a run after a crash picks up where the last one stopped
 * and ends the same way, with one webhook.
 */
export async function runProjectPipeline(app: App, projectId: string, ctx: LongJobContext, startAutoRender: StartAutoRender): Promise<void> {
  let project = await app.db.project.findUnique({ where: { id: projectId } });
  if (!project || (project.status !== 'processing' && project.status !== 'transcribing')) return;
  const report = progressReporter(app, project, ctx.touch);
  const { kind } = project;
  try {
    if (!project.sourceKey) {
      const sourceKey = await fetchSource(app, { projectId, url: project.sourceUrl!, maxBytes: app.config.maxProjectBytes, report });
      project = await app.db.project.update({ where: { id: project.id }, data: { sourceKey } });
    }
    const transcribed = await probeAndTranscribe(app, project, report);
    if (!transcribed) return; // another run moved it on
    project = transcribed;
    // AI B-roll items of the creation body: their clips, before the render that shows them
    const current = await app.db.project.findUniqueOrThrow({ where: { id: project.id } });
    if (!(await generateMissingClips(app, current, 'transcribing', report))) return;
    // autoRender: the pipeline ends in a render; its end sends the project webhook
    if (project.autoRender) {
      const fresh = await app.db.project.findUniqueOrThrow({ where: { id: project.id } });
      if (await startAutoRender(app, fresh)) return;
    }
    await move(app, project, 'complete');
  } catch (e) {
    if (ctx.attempt < ctx.maxAttempts && isPassingFailure(e)) {
      ctx.log.warn({ err: e, attempt: ctx.attempt }, 'project step failed; the job will try again');
      throw e;
    }
    if (isOwnFailure(e)) ctx.log.error({ err: e }, 'project pipeline failed');
    await fail(app, { id: projectId, kind }, failureReason(e));
  }
}

/**
 * Probes the stored source and transcribes it, each step skipped when its
 * result is stored already; one local copy of the source (a remote store's)
 * serves both, gone when this returns. Null when another run moved the
 * project on.
 */
async function probeAndTranscribe(app: App, stored: Project, report: IngestReport): Promise<Project | null> {
  let project = stored;
  return inWorkDir(app.config.dataDir, `source-${project.id}`, async (dir) => {
    const files = localFiles(app.storage, dir);
    let meta = metaOf(project);
    if (!meta) {
      meta = await probeSource({ key: project.sourceKey!, files, report });
      project = await app.db.project.update({ where: { id: project.id }, data: { videoMeta: meta as unknown as Prisma.InputJsonValue } });
    }
    if (project.status === 'processing') {
      project = (await move(app, project, 'transcribe')) ?? project;
      if (project.status !== 'transcribing') return null;
    }
    if (!wordsOf(project)) await transcribe(app, project, meta, files, report);
    return project;
  });
}

/** Transcribes the source and stores the words, their bad takes and the sound's levels at once. */
async function transcribe(app: App, project: Project, meta: VideoMeta, files: LocalFiles, report: IngestReport) {
  const { transcript, audioLevels } = await transcribeSource(app, {
    projectId: project.id,
    key: project.sourceKey!,
    files,
    meta,
    language: project.language,
    dictionary: project.dictionary,
    transcriber: app.transcriber,
    report,
  });
  // found now, by this job, so that reads of the project never call the detector
  const badTakes = project.removeBadTakes ? await detectBadTakes(app, transcript) : null;
  await app.db.project.update({
    where: { id: project.id },
    data: {
      transcript: transcript as unknown as Prisma.InputJsonValue,
      ...(badTakes ? { badTakes: badTakes as unknown as Prisma.InputJsonValue } : {}),
      videoMeta: { ...meta, audioLevels } as unknown as Prisma.InputJsonValue,
    },
  });
}
