import fs from 'node:fs';
import type { App } from '../app.js';
import type { Project, ProjectStatus } from '../generated/prisma/client.ts';
import type { LongJobContext } from '../jobs/context.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { metaOf } from './service.js';
import { fail, move } from './lifecycle.js';
import { progressReporter } from './state.js';
import { itemsColumn } from './references.js';

/** one clip never takes longer than this */
const CLIP_TIMEOUT_MS = 5 * 60_000;

/** The storage key of the clip of the item at `index` of project.items. */
export const brollKey = (projectId: string, index: number) => `projects/${projectId}/broll/${index}.mp4`;

/**
 * Renders the clip of every AI B-roll item that has none yet; each clip goes to
 * storage and its key onto the item (`clipKey`) as soon as it exists, so a run
 * after a crash makes only the missing ones. Runs while the project is in
 * `status` (nobody else writes its items then); returns false when the project
 * moved on meanwhile.
 */
export async function generateMissingClips(
  app: App,
  project: Project,
  status: ProjectStatus,
  report: (stage: string, percent: number) => Promise<void>,
): Promise<boolean> {
  const items = itemsColumn.read(project.items) ?? [];
  const todo = items.flatMap((item, index) => (item.type === 'ai-broll' && !('clipKey' in item && item.clipKey) ? [{ item, index }] : []));
  if (todo.length === 0) return true;
  const meta = metaOf(project);
  let done = 0;
  for (const { item, index } of todo) {
    if (item.type !== 'ai-broll') continue;
    const key = brollKey(project.id, index);
    // the scratch files of the clip are gone before its key is recorded; a killed run's, when the next run makes it
    await inWorkDir(app.config.dataDir, `broll-${project.id}-${index}`, async (workDir) => {
      const file = await app.ai.broll.generate(item.prompt, {
        durationSeconds: Math.round((item.endTime - item.startTime) * 1000) / 1000,
        width: meta?.width ?? 1080,
        height: meta?.height ?? 1920,
        signal: AbortSignal.timeout(CLIP_TIMEOUT_MS),
        workDir,
      });
      try {
        await app.storage.put(key, fs.createReadStream(file), { contentType: 'video/mp4' });
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    });
    const recorded = await app.db.$transaction(async (tx) => {
      const row = await tx.project.findUnique({ where: { id: project.id }, select: { status: true, items: true } });
      const stored = row?.status === status ? itemsColumn.read(row.items) : null;
      if (!stored) return false;
      const next = stored.map((it, i) => (i === index && it.type === 'ai-broll' ? { ...it, clipKey: key } : it));
      await tx.project.update({ where: { id: project.id }, data: { items: itemsColumn.write(next) } });
      return true;
    });
    if (!recorded) return false;
    done++;
    await report('broll', (done / todo.length) * 100);
  }
  return true;
}

/**
 * The AI B-roll of an accepted project update (src/projects/update.ts): the
 * missing clips, then processing → completed (with the project's completed
 * webhook). A run that cannot finish after its retries moves the project to
 * failed with the reason, gives back the credits of the clips not made and
 * sends the failed webhook; the transcript and settings stay, so the project
 * can be updated again.
 */
export async function runBrollGeneration(app: App, projectId: string, ctx: LongJobContext) {
  const project = await app.db.project.findUnique({ where: { id: projectId } });
  if (project?.status !== 'processing') return;
  const report = progressReporter(app, project, ctx.touch);
  try {
    if (!(await generateMissingClips(app, project, 'processing', report))) return; // moved on meanwhile
    await move(app, project, 'brollMade');
  } catch (e) {
    if (ctx.lapsed?.()) throw e; // the run that took the job over, or its next run, records the outcome
    if (ctx.attempt < ctx.maxAttempts) {
      ctx.log.warn({ err: e, attempt: ctx.attempt }, 'AI B-roll generation failed; the job will try again');
      throw e;
    }
    ctx.log.error({ err: e }, 'AI B-roll generation failed');
    await fail(app, project, `AI B-roll generation failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}
