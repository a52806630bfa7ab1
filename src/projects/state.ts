import { z } from 'zod';
import type { App } from '../app.js';
import { jsonColumn } from '../db/json.js';
import { logFor, withIds } from '../logger.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import type { ProjectEvent } from '../pubsub.js';
import { PROJECT_JOB_NAMES } from '../jobs/names.js';

export interface Progress {
  stage: string;
  percent: number;
  /** magic clips: clips ended (completed or failed) and clips in all, once the clips are chosen */
  clipsDone?: number;
  clipsTotal?: number;
}

/** Project.progress: null until a step reports */
export const progressColumn = jsonColumn<Progress | null>(
  'Project.progress',
  z.looseObject({ stage: z.string(), percent: z.number(), clipsDone: z.number().optional(), clipsTotal: z.number().optional() }).nullable(),
);

/** The event subscribers get for a project row. */
export function projectEvent(p: Pick<Project, 'id' | 'userId' | 'status' | 'progress' | 'failureReason' | 'updatedAt'>): ProjectEvent {
  const progress = progressColumn.read(p.progress);
  return {
    projectId: p.id,
    userId: p.userId,
    status: p.status,
    stage: progress?.stage ?? null,
    percent: progress?.percent ?? null,
    clipsDone: progress?.clipsDone ?? null,
    clipsTotal: progress?.clipsTotal ?? null,
    failureReason: p.failureReason,
    at: p.updatedAt.toISOString(),
  };
}

/**
 * Whether a project has work to come after this event: not after `completed`,
 * nor after `failed` unless one of its jobs waits to run (a retry, a queued render).
 * The job that reported the failure may still be running: it has nothing left to do.
 */
export async function workAfter(app: Pick<App, 'jobs'>, e: Pick<ProjectEvent, 'projectId' | 'status'>): Promise<boolean> {
  if (e.status === 'completed') return false;
  if (e.status !== 'failed') return true;
  const jobs = await app.jobs.jobsFor({ projectId: e.projectId }, [...PROJECT_JOB_NAMES]);
  return jobs.some((j) => j.waiting);
}

export const publishProject = (app: App, p: Parameters<typeof projectEvent>[0]) => app.pubsub.publish('projectUpdated', p.id, projectEvent(p));

/**
 * Records the running step's progress for late subscribers and tells current ones.
 * Writes at most once a second per project unless the stage changes.
 */
export function progressReporter(
  app: App,
  project: Pick<Project, 'id' | 'userId' | 'status'> & { progress?: Project['progress'] },
  touch?: (percent: number) => Promise<void>,
  /** while the row matches this too: a report of work whose outcome is recorded already writes nothing */
  onlyWhile?: Prisma.ProjectWhereInput,
) {
  let last: Progress | null = null;
  let lastWrite = 0;
  // a stage change is logged (percentages are not); the first report only when the row's stage is known
  let loggedStage = 'progress' in project ? (progressColumn.read(project.progress ?? null)?.stage ?? null) : undefined;
  return async (stage: string, percent: number, clips?: { done: number; total: number }) => {
    const p: Progress = {
      stage,
      percent: Math.max(0, Math.min(100, Math.round(percent))),
      ...(clips ? { clipsDone: clips.done, clipsTotal: clips.total } : {}),
    };
    const now = Date.now();
    if (last && last.stage === p.stage && last.clipsDone === p.clipsDone && (last.percent === p.percent || now - lastWrite < 1000)) return;
    if ((last !== null || loggedStage !== undefined) && p.stage !== (last?.stage ?? loggedStage)) {
      withIds(logFor(app.log), { projectId: project.id }).info({ stage: p.stage }, `project stage ${p.stage}`);
    }
    loggedStage = p.stage;
    last = p;
    lastWrite = now;
    await touch?.(p.percent);
    const row = await app.db.project
      .update({
        where: { ...onlyWhile, id: project.id },
        data: { progress: progressColumn.write(p) },
        select: { id: true, userId: true, status: true, progress: true, failureReason: true, updatedAt: true },
      })
      // P2025: the row no longer matches `onlyWhile`
      .catch((e: unknown) => (onlyWhile && (e as { code?: string }).code === 'P2025' ? null : Promise.reject(e)));
    if (row) publishProject(app, row);
  };
}
