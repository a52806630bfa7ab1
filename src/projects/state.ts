import type { App } from '../app.js';
import type { Prisma, Project, ProjectStatus } from '../generated/prisma/client.ts';
import type { ProjectEvent } from '../pubsub.js';
import { dispatchWebhook, enqueueWebhook, type RecordedWebhook } from '../webhooks/service.js';
import { refundAiBroll } from './credits.js';

export interface Progress {
  stage: string;
  percent: number;
}

/** The event subscribers get for a project row. */
export function projectEvent(p: Pick<Project, 'id' | 'userId' | 'status' | 'progress' | 'failureReason' | 'updatedAt'>): ProjectEvent {
  const progress = (p.progress ?? null) as Progress | null;
  return {
    projectId: p.id,
    userId: p.userId,
    status: p.status,
    stage: progress?.stage ?? null,
    percent: progress?.percent ?? null,
    failureReason: p.failureReason,
    at: p.updatedAt.toISOString(),
  };
}

export const publishProject = (app: App, p: Parameters<typeof projectEvent>[0]) => app.pubsub.publish('projectUpdated', p.id, projectEvent(p));

/**
 * One move of the state machine (DESIGN.md): a single conditional UPDATE that
 * happens only when the project is in one of `from`, so two workers (a job run
 * twice) cannot both make it; `also` runs in the same transaction (webhooks,
 * credits). Returns the updated row, or null when the move did not apply.
 */
export async function transition(
  app: App,
  projectId: string,
  from: ProjectStatus[],
  data: Prisma.ProjectUpdateManyMutationInput,
  also?: (tx: Prisma.TransactionClient, project: Project) => Promise<unknown>,
): Promise<Project | null> {
  const updated = await app.db.$transaction(async (tx) => {
    const { count } = await tx.project.updateMany({ where: { id: projectId, status: { in: from } }, data });
    if (count === 0) return null;
    const project = await tx.project.findUniqueOrThrow({ where: { id: projectId } });
    if (also) await also(tx, project);
    return project;
  });
  if (updated) publishProject(app, updated);
  return updated;
}

/**
 * Records the running step's progress for late subscribers and tells current ones.
 * Writes at most once a second per project unless the stage changes.
 */
export function progressReporter(app: App, project: Pick<Project, 'id' | 'userId' | 'status'>, touch?: (percent: number) => Promise<void>) {
  let last: Progress | null = null;
  let lastWrite = 0;
  return async (stage: string, percent: number) => {
    const p = { stage, percent: Math.max(0, Math.min(100, Math.round(percent))) };
    const now = Date.now();
    if (last && last.stage === p.stage && (last.percent === p.percent || now - lastWrite < 1000)) return;
    last = p;
    lastWrite = now;
    await touch?.(p.percent);
    const row = await app.db.project.update({
      where: { id: project.id },
      data: { progress: p },
      select: { id: true, userId: true, status: true, progress: true, failureReason: true, updatedAt: true },
    });
    publishProject(app, row);
  };
}

export type ProjectWebhookEvent = 'project.completed' | 'project.failed';

/**
 * Records a project's webhook (payload of DECISIONS.md) inside the transaction
 * of the move that causes it (a conditional transition, so exactly once per
 * move); nothing when the project has no webhookUrl.
 */
export async function projectWebhook(app: App, tx: Prisma.TransactionClient, p: Project, event: ProjectWebhookEvent): Promise<RecordedWebhook | undefined> {
  if (!p.webhookUrl) return undefined;
  const rendered = p.renderedKey;
  return enqueueWebhook(
    app,
    {
      userId: p.userId,
      url: p.webhookUrl,
      event,
      subjectId: p.id,
      // one per move: a project completes again after an update's AI B-roll is made
      dedupeKey: `${event}:${p.id}:${p.updatedAt.getTime()}`,
      payload: {
        event,
        projectId: p.id,
        status: event === 'project.completed' ? 'completed' : 'failed',
        downloadUrl: rendered ? app.storage.url(rendered, { download: `${p.title}.mp4` }) : null,
        directUrl: rendered ? app.storage.url(rendered) : null,
        ...(p.failureReason ? { failureReason: p.failureReason } : {}),
        timestamp: new Date().toISOString(),
      },
    },
    tx,
  );
}

type Hook = (tx: Prisma.TransactionClient, p: Project, event: ProjectWebhookEvent) => Promise<unknown>;

/**
 * Runs a move that may record the project's webhook (through `hook`) and sends
 * it once the move has committed (a crash in between is covered by the sweeper).
 */
export async function withWebhook(app: App, run: (hook: Hook) => Promise<unknown>) {
  let recorded: RecordedWebhook | undefined;
  await run(async (tx, p, event) => {
    recorded = await projectWebhook(app, tx, p, event);
  });
  if (recorded?.created) await dispatchWebhook(app, recorded.deliveryId);
}

/** How many AI B-roll items of a project have no clip yet. */
export function missingClips(p: Pick<Project, 'items'>): number {
  const items = (Array.isArray(p.items) ? p.items : []) as Array<{ type?: string; clipKey?: string } | null>;
  return items.filter((i) => i?.type === 'ai-broll' && !i.clipKey).length;
}

/**
 * Any step (the pipeline, AI B-roll generation) → failed, in one transaction
 * with the reason, the failed webhook and the AI credits of the B-roll clips
 * that will not be made. A project that was transcribed keeps its
 * transcription COMPLETED (a later step failed, not the transcription).
 */
export async function fail(app: App, projectId: string, reason: string) {
  await withWebhook(app, (hook) =>
    transition(
      app,
      projectId,
      ['processing', 'transcribing'],
      { status: 'failed', failureReason: reason, progress: { stage: 'failed', percent: 0 } },
      async (tx, p) => {
        if (p.transcriptionStatus !== 'COMPLETED') {
          p.transcriptionStatus = 'FAILED';
          await tx.project.update({ where: { id: p.id }, data: { transcriptionStatus: 'FAILED' } });
        }
        await refundAiBroll(tx, p.userId, missingClips(p), p.id);
        await hook(tx, p, 'project.failed');
      },
    ),
  );
}
