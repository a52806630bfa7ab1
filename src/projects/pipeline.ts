import type { App } from '../app.js';
import type { Project } from '../generated/prisma/client.ts';
import type { LongJobContext } from '../jobs/context.js';
import { generateMissingClips } from './broll.js';
import { editKind } from './edit-kind.js';
import { hookToPlace, placeHook } from './hook-placement.js';
import { hookTitleColumn } from './references.js';
import { captionStyleOf } from '../themes/looks.js';
import { move } from './lifecycle.js';
import { pipelineFailed, withTranscribedSource } from './source.js';
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
    // the hook's place, off the face: found while the source is at hand
    // (only when there is a hook to place: on a remote store, the source is copied for it)
    const transcribed = await withTranscribedSource(app, project, editKind, report, async (p, meta, files) =>
      hookToPlace(hookTitleColumn.read(p.hookTitle)) ? placeHook(app, p, await files(p.sourceKey!), meta, await captionStyleOf(app, p)) : p,
    );
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
    await pipelineFailed(app, ctx, editKind, { id: projectId, kind }, e);
  }
}
