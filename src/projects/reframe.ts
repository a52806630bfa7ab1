/**
 * How a project's picture fills an export's frame of another shape
 * (`reframe`): `face` moves a crop of the frame's shape along the speaker's
 * face (the magic clips' crop path, media/vision/crop-path.ts), `center` crops
 * the middle, `fill` shows the whole picture over a blurred copy; without a
 * setting, the renderer picks center or fill by how far the shapes differ.
 *
 * The face is looked for once per project, over its whole video, and kept as
 * a JSON file in storage (`faceTrackKey`): every export of any shape reads
 * the same track, and a magic clip's project starts with the track its clip
 * was framed by. A still never looks: it uses the track when one is kept.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { App } from '../app.js';
import type { Project } from '../generated/prisma/client.ts';
import type { RenderPlan } from '../media/render/graph.js';
import { cropSize } from '../media/vision/crop-path.js';
import { sentencesOf } from '../media/sentences.js';
import { followPath, type SpeakerLayout } from '../media/vision/speaker-layout.js';
import { DEFAULT_TRACK_FPS, trackFaces, type FaceTrack } from '../media/vision/face-track.js';
import { wordsOf, type VideoMeta } from './service.js';

const box = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
const faceTrackFile = z.object({
  samples: z.array(
    z.object({
      t: z.number(),
      face: box.extend({ score: z.number().optional() }).nullable(),
      faces: z.array(box.extend({ score: z.number(), motion: z.number() })).optional(),
    }),
  ),
  shotChanges: z.array(z.number()),
});

export const faceTrackKeyOf = (projectId: string) => `projects/${projectId}/faces.json`;

/** Stores a project's face track and notes it on the row. */
export async function keepFaceTrack(app: App, projectId: string, track: FaceTrack): Promise<string> {
  const key = faceTrackKeyOf(projectId);
  await app.storage.put(key, Readable.from([JSON.stringify(track)]), { contentType: 'application/json' });
  return key;
}

async function readFaceTrack(app: App, key: string): Promise<FaceTrack | null> {
  try {
    const { body } = await app.storage.get(key);
    let text = '';
    for await (const chunk of body) text += chunk;
    return faceTrackFile.parse(JSON.parse(text)) as FaceTrack;
  } catch {
    // a track that cannot be read is looked for again
    return null;
  }
}

/**
 * The project's face track: the kept one, else (unless `lookNow` is false)
 * looked for now over the project's video in `source` and kept.
 */
export async function faceTrackOf(app: App, project: Project, meta: VideoMeta, source: string, lookNow: boolean): Promise<FaceTrack | null> {
  const kept = project.faceTrackKey ? await readFaceTrack(app, project.faceTrackKey) : null;
  if (kept || !lookNow) return kept;
  const t0 = performance.now();
  const track = await trackFaces(
    { path: source, start: meta.window?.start ?? 0, duration: meta.duration, width: meta.width, height: meta.height },
    { fps: DEFAULT_TRACK_FPS },
  );
  const key = await keepFaceTrack(app, project.id, track);
  await app.db.project.update({ where: { id: project.id }, data: { faceTrackKey: key } });
  app.log.info({ projectId: project.id, seconds: meta.duration, ms: Math.round(performance.now() - t0) }, 'faces tracked for reframing');
  return track;
}

/** The frame's fill of a render of the project at `out`: the plan's `output.fit` and, for a face that is followed, its crop path. */
export async function reframing(
  app: App,
  project: Project,
  meta: VideoMeta,
  source: string,
  out: { width: number; height: number },
  { still }: { still: boolean },
): Promise<Pick<RenderPlan, 'reframe'> & { fit: NonNullable<RenderPlan['output']['fit']> }> {
  if (project.reframe === 'center') return { fit: 'crop' };
  if (project.reframe === 'fill') return { fit: 'blur' };
  if (project.reframe !== 'face') return { fit: 'auto' };
  const outputAspect = out.width / out.height;
  // a frame as wide as the picture (or wider) shows all of it: nothing to follow
  if (cropSize(meta.width, meta.height, outputAspect).width >= meta.width - 1) return { fit: 'auto' };
  const track = await faceTrackOf(app, project, meta, source, !still);
  if (!track?.samples.some((s) => s.face)) return { fit: 'crop' };
  const { path: reframe } = await followPath({
    track,
    source: { path: source, start: meta.window?.start ?? 0, duration: meta.duration },
    sourceWidth: meta.width,
    sourceHeight: meta.height,
    output: out,
    turns: sentencesOf(wordsOf(project) ?? []),
    layout: project.speakerLayout as SpeakerLayout | null,
  });
  return { fit: 'path', reframe };
}
