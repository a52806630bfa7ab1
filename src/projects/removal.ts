/**
 * DELETE /v1/projects/{id}: a project goes with everything that is only its
 * own. In one transaction that holds the project's row: its scheduled
 * publications are cancelled with their credits given back, and the project's
 * row is deleted with its exports, clips and transcript (they cascade). Its
 * published posts stay in the publication listing with the project's id and
 * the title it had (Publication.projectTitle). Then its jobs are removed:
 * those waiting never run; one at work stops within seconds, whichever
 * process runs it (workers/agenda.ts). Then its stored files go: the source,
 * renders, previews, B-roll, all under `projects/<id>/`; a second sweep a few
 * minutes later removes what a run stopping at that moment may still have
 * written.
 *
 * Refused while a publication of the project is being delivered (its posts
 * upload the project's render): BAD_REQUEST, nothing changes.
 *
 * A magic-clips project goes with its clips' edit projects (each a window of
 * its source), their publications treated as its own; deleting a clip's edit
 * project leaves the magic-clips project and its clip.
 */
import type { App } from '../app.js';
import { badRequest, notFound } from '../errors.js';
import type { Project } from '../generated/prisma/client.ts';
import { isUuid } from '../ids.js';
import { JOB_NAMES } from '../jobs/names.js';
import { publishPublicationEvent } from '../publishing/events.js';
import { dropScheduled } from '../publishing/publish.js';

/** When the second sweep of a deleted project's files runs: after any stopped run has written its last file. */
export const LATE_SWEEP_MS = 5 * 60 * 1000;

/** Where a project's stored files live: one folder, removed as one. */
export const projectFolder = (projectId: string) => `projects/${projectId}`;

export interface ProjectRemoval {
  project: Project;
  /** the scheduled publications cancelled, with the API credits each gave back */
  cancelled: Array<{ id: string; refundedCredits: number }>;
  removedFiles: number;
}

export async function deleteProject(app: App, userId: string, id: string): Promise<ProjectRemoval> {
  if (!isUuid(id)) throw notFound('Project');
  const { project, cancelled, ids } = await app.db.$transaction(async (tx) => {
    const [held] = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Project" WHERE id = ${id}::uuid AND "userId" = ${userId}::uuid FOR UPDATE`;
    if (!held) throw notFound('Project');
    // a magic-clips project goes with its clips' edit projects: they are windows of its source
    const clips = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT p.id::text AS id FROM "MagicClip" c JOIN "Project" p ON p.id = c."editProjectId"
      WHERE c."projectId" = ${id}::uuid ORDER BY p.id FOR UPDATE OF p`;
    const ids = [id, ...clips.map((c) => c.id)];
    // the publications that are not over yet, held as a cancellation holds them (a scheduled one fires or goes, never both)
    const open = await tx.$queryRaw<Array<{ id: string; status: string }>>`
      SELECT id, status::text AS status FROM "Publication"
      WHERE "projectId" = ANY(${ids}::uuid[]) AND status IN ('scheduled', 'processing') ORDER BY id FOR UPDATE`;
    const delivering = open.filter((p) => p.status === 'processing').map((p) => p.id);
    if (delivering.length) throw badRequest(`The project is being published (${delivering.join(', ')}): delete it once those posts are published or failed`);
    const cancelled: ProjectRemoval['cancelled'] = [];
    for (const p of open) cancelled.push({ id: p.id, refundedCredits: await dropScheduled(tx, userId, p.id) });
    const project = await tx.project.delete({ where: { id } });
    if (ids.length > 1) await tx.project.deleteMany({ where: { id: { in: ids.slice(1) } } });
    return { project, cancelled, ids };
  });

  // the rows are gone: nothing starts over the projects any more, and a second DELETE is 404
  let removedJobs = 0;
  let removedFiles = 0;
  for (const gone of ids) {
    removedJobs += await app.jobs.removeJobs({ projectId: gone });
    removedFiles += await app.storage.deleteFolder(projectFolder(gone));
    await app.jobs
      .enqueue(JOB_NAMES.removeProjectFiles, { deletedProjectId: gone, userId }, { at: new Date(Date.now() + LATE_SWEEP_MS) })
      .catch((err) => app.log.warn({ err, projectId: gone }, 'could not queue the late sweep of a deleted project; its folder was removed once'));
  }
  for (const c of cancelled) await publishPublicationEvent(app, c.id, { userId });
  app.log.info(
    {
      projectId: id,
      userId,
      clipProjects: ids.length - 1,
      removedFiles,
      removedJobs,
      cancelledPublications: cancelled.length,
      refundedCredits: cancelled.reduce((n, c) => n + c.refundedCredits, 0),
    },
    'project deleted',
  );
  return { project, cancelled, removedFiles };
}

/** The late sweep: a deleted project's folder, once more (a project of that id that exists again is left alone). */
export async function sweepDeletedProject(app: Pick<App, 'db' | 'storage'>, projectId: string): Promise<number> {
  if (await app.db.project.count({ where: { id: projectId } })) return 0;
  return app.storage.deleteFolder(projectFolder(projectId));
}
