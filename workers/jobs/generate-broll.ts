import fs from 'node:fs';
import { backoffStrategies } from 'agenda';
import type { App } from '../../src/app.js';
import { brollGeneratorFor } from '../../src/ai/index.js';
import type { Prisma } from '../../src/generated/prisma/client.ts';
import type { Logger } from '../../src/logger.js';
import { metaOf } from '../../src/projects/service.js';
import { progressReporter, transition } from '../../src/projects/state.js';
import { GENERATE_BROLL_JOB, type StoredItem } from '../../src/projects/update.js';
import type { JobDefinition } from '../registry.js';

const MAX_ATTEMPTS = 3;
const LOCK_MS = 2 * 60_000;
/** one clip never takes longer than this */
const CLIP_TIMEOUT_MS = 5 * 60_000;

/** The storage key of the clip of the item at `index` of project.items. */
export const brollKey = (projectId: string, index: number) => `projects/${projectId}/broll/${index}.mp4`;

/**
 * Renders the clips of a project's AI B-roll items after an accepted update
 * (src/projects/update.ts): each clip goes to storage and its key onto the item
 * (`clipKey`) as soon as it exists, so a run after a crash makes only the
 * missing ones. Then processing → completed. A run that cannot finish after
 * its retries moves the project to failed with the reason; the transcript and
 * settings stay, so the project can be updated again.
 */
export async function runBrollGeneration(app: App, projectId: string, ctx: { log: Logger; attempt: number; maxAttempts: number; touch(percent: number): Promise<void> }) {
  const project = await app.db.project.findUnique({ where: { id: projectId } });
  if (!project || project.status !== 'processing') return;
  const items = (Array.isArray(project.items) ? project.items : []) as unknown as StoredItem[];
  const todo = items.flatMap((item, index) => (item.type === 'ai-broll' && !('clipKey' in item && item.clipKey) ? [{ item, index }] : []));
  const meta = metaOf(project);
  const report = progressReporter(app, project, ctx.touch);
  try {
    const generator = brollGeneratorFor(app);
    let done = 0;
    for (const { item, index } of todo) {
      if (item.type !== 'ai-broll') continue;
      const file = await generator.generate(item.prompt, {
        durationSeconds: Math.round((item.endTime - item.startTime) * 1000) / 1000,
        width: meta?.width ?? 1080,
        height: meta?.height ?? 1920,
        signal: AbortSignal.timeout(CLIP_TIMEOUT_MS),
      });
      const key = brollKey(projectId, index);
      try {
        await app.storage.put(key, fs.createReadStream(file), { contentType: 'video/mp4' });
      } finally {
        await fs.promises.rm(file, { force: true });
      }
      // the project is in processing: updates are refused, so nobody else writes items meanwhile
      const recorded = await app.db.$transaction(async (tx) => {
        const row = await tx.project.findUnique({ where: { id: projectId }, select: { status: true, items: true } });
        if (row?.status !== 'processing' || !Array.isArray(row.items)) return false;
        const next = (row.items as unknown as StoredItem[]).map((it, i) => (i === index && it.type === 'ai-broll' ? { ...it, clipKey: key } : it));
        await tx.project.update({ where: { id: projectId }, data: { items: next as unknown as Prisma.InputJsonValue } });
        return true;
      });
      if (!recorded) return; // moved on meanwhile
      done++;
      await report('broll', (done / todo.length) * 100);
    }
    await transition(app, projectId, ['processing'], { status: 'completed', failureReason: null, progress: { stage: 'done', percent: 100 } });
  } catch (e) {
    if (ctx.attempt < ctx.maxAttempts) {
      ctx.log.warn({ err: e, attempt: ctx.attempt }, 'AI B-roll generation failed; the job will try again');
      throw e;
    }
    ctx.log.error({ err: e }, 'AI B-roll generation failed');
    const reason = `AI B-roll generation failed: ${e instanceof Error ? e.message : String(e)}`;
    await transition(app, projectId, ['processing'], { status: 'failed', failureReason: reason, progress: { stage: 'failed', percent: 0 } });
  }
}

/** The AI B-roll clips of an accepted project update. */
export const generateBrollJob: JobDefinition<{ projectId: string; userId: string }> = {
  name: GENERATE_BROLL_JOB,
  concurrency: 1,
  lockLifetime: LOCK_MS,
  backoff: backoffStrategies.exponential({ delay: 5000, factor: 3, maxRetries: MAX_ATTEMPTS - 1, jitter: 0.2 }),
  async handler(job, { app, log, progress }) {
    let last = 0;
    const heartbeat = setInterval(() => void progress(last).catch(() => {}), LOCK_MS / 4);
    try {
      await runBrollGeneration(app, job.attrs.data.projectId, {
        log,
        attempt: (job.attrs.failCount ?? 0) + 1,
        maxAttempts: MAX_ATTEMPTS,
        touch: (percent) => {
          last = percent;
          return progress(percent);
        },
      });
    } finally {
      clearInterval(heartbeat);
    }
  },
};
