/**
 * One clip of a magic-clips project, run by the `magic-clips.render-clip`
 * job: the face analysis of its window (kept on the clip, so a second run
 * skips it), then its render into storage, then the clip's end. When the last
 * clip of a project ends, the project completes (at least one clip made) or
 * fails with its credit given back (none made), sending its webhook once: both
 * are conditional moves, so two runs finishing together cannot end it twice,
 * and a run that finds its clip ended (its first run died between the clip's
 * end and the project's) ends the project in its place.
 */
import { createReadStream } from 'node:fs';
import { z } from 'zod';
import type { App } from '../app.js';
import type { MagicClip, Project } from '../generated/prisma/client.ts';
import { jsonColumn } from '../db/json.js';
import type { LongJobContext } from '../jobs/context.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { fail, move } from '../projects/lifecycle.js';
import { isPassingFailure } from '../projects/ingest.js';
import { metaOf } from '../projects/service.js';
import { progressReporter } from '../projects/state.js';
import { cropSize } from '../media/vision/crop-path.js';
import { followPath, type SpeakerLayout, type Turn } from '../media/vision/speaker-layout.js';
import type { TimedWord } from '../media/transcript.js';
import { transcribedSource } from '../projects/source.js';
import { sentencesOf } from './sentences.js';
import { clipFrame } from './settings.js';
import { trackFaces, type FaceTrack } from '../media/vision/face-track.js';
import { clipProjectMade, clipProjectNotMade } from './edit-projects.js';
import { clipFps, renderClip } from './render.js';
import type { CropPath } from './types.js';

/** MagicClip.cropPath: the face analysis of the clip's window, `{ none: true }` when it found no face, null before it ran */
export const cropPathColumn = jsonColumn<CropPath | { none: true } | null>(
  'MagicClip.cropPath',
  z
    .union([
      z.looseObject({ none: z.literal(true) }),
      z.looseObject({ width: z.number(), height: z.number(), keys: z.array(z.looseObject({ t: z.number(), x: z.number(), y: z.number() })) }),
    ])
    .nullable(),
);

/** Frames a second the face analysis samples. */
export const FACE_SAMPLE_FPS = 3;

const clipKeys = (clip: Pick<MagicClip, 'id' | 'projectId'>) => ({
  outputKey: `projects/${clip.projectId}/clips/${clip.id}.mp4`,
  previewKey: `projects/${clip.projectId}/clips/${clip.id}.preview.mp4`,
});

/**
 * How long a step of a clip run (its face analysis, its render) may read the
 * source through a remote store's URL: longer than the longest clip's render
 * may last (300 s at 20 s a second). Each step asks for its own URL.
 */
const SOURCE_URL_SECONDS = 2 * 3600;

export async function runClip(app: App, clipId: string, ctx: LongJobContext): Promise<void> {
  const clip = await app.db.magicClip.findUnique({ where: { id: clipId }, include: { project: true } });
  if (clip?.project.status !== 'processing') return;
  const { project } = clip;
  // ended already: by a run whose worker died before it could end the clip's project or the project, which this run does now
  if (clip.status !== 'processing') {
    await settleClipProject(app, project, clip, null);
    return settleProject(app, project);
  }
  const keys = clipKeys(clip);
  // what the render made, for the clip's project (set inside the work folder's callback)
  let made = null as (Parameters<typeof clipProjectMade>[2] & { track: FaceTrack | null }) | null;
  try {
    await inWorkDir(app.config.dataDir, `clip-${clip.id}`, async (dir) => {
      // the face analysis and the render seek to the clip's window: on a remote store they read its ranges, not the whole source
      const source = () => app.storage.mediaSource(project.sourceKey!, SOURCE_URL_SECONDS);
      const { crop, track } = await cropFor(app, project, clip, source, ctx);
      const t0 = performance.now();
      const out = await renderClip(app, project, clip, await source(), crop, dir, { onProgress: (f) => void ctx.touch(f * 100).catch(() => {}) });
      const t1 = performance.now();
      await app.storage.put(keys.outputKey, createReadStream(out.video), { contentType: 'video/mp4' });
      await app.storage.put(keys.previewKey, createReadStream(out.preview), { contentType: 'video/mp4' });
      made = { ...keys, width: out.width, height: out.height, fps: out.fps, duration: out.duration, track };
      ctx.log.info(
        { clipId, projectId: project.id, seconds: out.duration, renderMs: Math.round(t1 - t0), storeMs: Math.round(performance.now() - t1) },
        'clip rendered',
      );
    });
    await app.db.magicClip.updateMany({ where: { id: clip.id, status: 'processing' }, data: { status: 'completed', ...keys, failureReason: null } });
  } catch (e) {
    if (ctx.lapsed?.()) throw e; // the run that took the job over, or its next run, records the outcome
    if (ctx.attempt < ctx.maxAttempts && isPassingFailure(e)) {
      ctx.log.warn({ err: e, clipId, attempt: ctx.attempt }, 'clip render failed; the job will try again');
      throw e;
    }
    ctx.log.error({ err: e, clipId }, 'clip render failed');
    const reason = `The clip could not be rendered: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    await app.db.magicClip.updateMany({ where: { id: clip.id, status: 'processing' }, data: { status: 'failed', failureReason: reason } });
  }
  // ended now, by this run or another whose lock had lapsed, and for good: a completed clip's files are its own; a failed one refers to none
  const ended = await app.db.magicClip.findUnique({ where: { id: clip.id } });
  if (ended?.status === 'failed') await Promise.all(Object.values(keys).map((k) => app.storage.delete(k).catch(() => {})));
  if (ended) await settleClipProject(app, project, { ...clip, ...ended }, made);
  await settleProject(app, project);
}

/**
 * The clip's crop path: analysed once (faceTracking) and kept; null when the
 * project does without, or no face was found. `track`: the faces found by
 * this run's analysis (null when it ran before), kept by the clip's project.
 */
async function cropFor(
  app: App,
  project: Project,
  clip: MagicClip,
  source: () => Promise<string>,
  ctx: LongJobContext,
): Promise<{ crop: CropPath | null; track: FaceTrack | null }> {
  const none = { crop: null, track: null };
  if (!project.faceTracking) return none;
  const stored = cropPathColumn.read(clip.cropPath);
  if (stored) return 'none' in stored ? none : { crop: stored, track: null };
  const meta = metaOf(project)!;
  const frame = clipFrame(project.aspectRatio);
  const outputAspect = frame.width / frame.height;
  // a shape as wide as the source's (or wider) shows all of it: nothing to follow
  if (cropSize(meta.width, meta.height, outputAspect).width >= meta.width - 1) return none;
  const duration = clip.endTime - clip.startTime;
  const t0 = performance.now();
  const track = await trackFaces({ path: await source(), start: clip.startTime, duration, width: meta.width, height: meta.height }, { fps: FACE_SAMPLE_FPS });
  const { samples, shotChanges } = track;
  const faces = samples.filter((s) => s.face).length;
  ctx.log.info(
    {
      clipId: clip.id,
      projectId: project.id,
      seconds: duration,
      samples: samples.length,
      faces,
      shotChanges: shotChanges.length,
      ms: Math.round(performance.now() - t0),
    },
    'faces tracked',
  );
  await ctx.touch(0);
  const found = faces > 0;
  let path: CropPath | null = null;
  if (found) {
    const t1 = performance.now();
    const followed = await followPath({
      track,
      source: { path: await source(), start: clip.startTime, duration },
      sourceWidth: meta.width,
      sourceHeight: meta.height,
      output: frame,
      turns: clipTurns(transcribedSource(project).words, clip),
      layout: project.speakerLayout as SpeakerLayout | null,
    });
    path = followed.path;
    const { plan } = followed;
    if (plan) {
      const split = plan.shots.filter((s) => s.show === 'split').reduce((sum, s) => sum + s.end - s.start, 0);
      ctx.log.info(
        { clipId: clip.id, projectId: project.id, ms: Math.round(performance.now() - t1), shots: plan.shots.length, splitSeconds: Math.round(split * 10) / 10 },
        'two speakers laid out',
      );
    }
  }
  await app.db.magicClip.update({ where: { id: clip.id }, data: { cropPath: cropPathColumn.write(path ?? { none: true }) } });
  return { crop: path, track };
}

/** The sentences inside the clip's window, on the clip's timeline. */
function clipTurns(words: readonly TimedWord[], clip: Pick<MagicClip, 'startTime' | 'endTime'>): Turn[] {
  return sentencesOf(words)
    .filter((s) => s.end > clip.startTime && s.start < clip.endTime)
    .map((s) => ({ start: Math.max(0, s.start - clip.startTime), end: Math.min(clip.endTime, s.end) - clip.startTime }));
}

/**
 * The clip's edit project, once the clip has ended: its render is the
 * project's first export (a conditional move from `exporting`, so once,
 * whichever run gets there), or the project stays without one when the clip
 * failed. `made`: what this run rendered; a later run reads it from the clip.
 */
async function settleClipProject(
  app: App,
  project: Project,
  clip: MagicClip,
  made: (Parameters<typeof clipProjectMade>[2] & { track: FaceTrack | null }) | null,
): Promise<void> {
  if (!clip.editProjectId) return;
  if (clip.status === 'failed') return clipProjectNotMade(app, clip.editProjectId, clip.failureReason ?? 'The clip could not be rendered');
  if (clip.status !== 'completed' || !clip.outputKey || !clip.previewKey) return;
  const frame = clipFrame(project.aspectRatio);
  const render = made ?? { outputKey: clip.outputKey, previewKey: clip.previewKey, ...frame, fps: clipFps(metaOf(project)?.fps), duration: clip.duration };
  await clipProjectMade(app, clip.editProjectId, render, made?.track ?? null);
}

/**
 * Tells subscribers how many clips have ended, and ends the project when all
 * have: completed with at least one clip, else failed with its credit back.
 */
export async function settleProject(app: App, project: Pick<Project, 'id' | 'kind' | 'userId' | 'status'>): Promise<void> {
  const counts = await app.db.magicClip.groupBy({ by: ['status'], where: { projectId: project.id }, _count: { _all: true } });
  const count = (s: string) => counts.find((c) => c.status === s)?._count._all ?? 0;
  const total = counts.reduce((n, c) => n + c._count._all, 0);
  const done = count('completed') + count('failed');
  if (done < total) {
    await progressReporter(app, project)('clips', (done / total) * 100, { done, total });
    return;
  }
  if (count('completed') > 0) await move(app, project, 'complete', { data: { progress: { stage: 'done', percent: 100, clipsDone: done, clipsTotal: total } } });
  else await fail(app, project, `None of the ${total} clips could be rendered`);
}
