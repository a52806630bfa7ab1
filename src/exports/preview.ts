/**
 * One frame of a project as it would export, with changes not saved yet:
 * POST /v1/projects/{id}/preview and GraphQL's previewFrame, the editor's
 * live view of a style, hook or transcript change.
 *
 * The body is a PUT /v1/projects/{id} body (any of its fields, none needed)
 * plus `time` (a second of the output) and the frame's `width` and `height`
 * (the source's size when left out, as an export's). The changes are read
 * and checked as an update reads them, then laid over the project in memory
 * (src/projects/update.ts withUpdate): nothing is saved.
 *
 * The frame is the export's own graph (graph.ts) over a window of two frames
 * of the source at the instant `time` shows, with the output's clock started
 * at `time` (RenderPlan.startAt): captions, hook, zooms, items, logo and
 * colour look land exactly where the export puts them, and only those two
 * frames are decoded after the seek. What a still leaves out is what only a
 * whole render makes (buildExportPlan `still`): sound, automatic B-roll
 * (chosen at export), a hook's first placement.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { App } from '../app.js';
import type { Project } from '../generated/prisma/client.ts';
import { badRequest, FieldErrors } from '../errors.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { inputOptions } from '../media/input.js';
import { runProgram } from '../media/program.js';
import { buildRenderGraph, type ReframePath } from '../media/render/graph.js';
import { outputDuration } from '../media/render/timeline.js';
import type { Segment } from '../media/transcript.js';
import { readProjectUpdate, withUpdate } from '../projects/update.js';
import { metaOf } from '../projects/service.js';
import { themeOrTemplate, updateShape } from '../projects/schemas.js';
import { fields, int, isPlainObject, num } from '../validation.js';
import { buildExportPlan } from './plan.js';

/** The body of POST /v1/projects/{id}/preview: an update's fields, the instant and the frame's size. */
export const previewBody = fields({
  ...updateShape,
  time: num(0, 86_400, { required: true }).meta({ description: 'the second of the output to draw (after cuts), 0 to its duration' }),
  width: int(100, 4000).meta({ description: '100-4000; the source width when left out (as an export)' }),
  height: int(100, 4000).meta({ description: '100-4000; the source height when left out (as an export)' }),
}).superRefine(themeOrTemplate, { when: () => true });

export interface PreviewFrame {
  png: Buffer;
  width: number;
  height: number;
  /** the output second drawn (time, kept inside the output) */
  time: number;
}

const even = (n: number) => Math.max(2, 2 * Math.floor(n / 2));

/** The source second the output second `t` shows, with the kept segment it lies in. */
function sourceInstant(keep: readonly Segment[], t: number): { at: number; segment: Segment } {
  let before = 0;
  for (const s of keep) {
    const len = s.end - s.start;
    if (t < before + len || s === keep[keep.length - 1]) return { at: Math.min(s.end, s.start + Math.max(0, t - before)), segment: s };
    before += len;
  }
  throw new Error('nothing is kept');
}

/** A preview body read against the project: the project with the changes laid over it, the frame's size and instant. */
export interface PreviewRead {
  project: Project;
  width: number;
  height: number;
  fps: number;
  time: number;
}

/** Reads a preview body against one of the user's projects: NOT_FOUND first, then every refused field at once. */
export async function readPreview(app: App, userId: string, projectId: string, input: unknown): Promise<PreviewRead> {
  const { time, width, height } = isPlainObject(input) ? input : {};
  const read = await readProjectUpdate(app, userId, projectId, input, new FieldErrors(), previewBody);
  if (read.project.kind !== 'edit') throw badRequest('A magic-clips project has no single render to preview');
  if (!read.project.transcript || !read.project.sourceKey) throw badRequest('The project has no transcript yet: preview it once it is transcribed');
  if (read.items?.some((i) => i.type === 'ai-broll'))
    throw badRequest('AI B-roll items are made when the project is saved: save them, then preview once their clips exist');
  const project = await withUpdate(app, read);
  const meta = metaOf(project)!;
  return {
    project,
    width: even(typeof width === 'number' ? width : meta.width),
    height: even(typeof height === 'number' ? height : meta.height),
    fps: meta.fps && meta.fps > 0 ? Math.min(60, meta.fps) : 30,
    time: Number(time),
  };
}

export async function previewFrame(app: App, userId: string, projectId: string, input: unknown, checked?: PreviewRead): Promise<PreviewFrame> {
  const { project, width: W, height: H, fps, time } = checked ?? (await readPreview(app, userId, projectId, input));
  const meta = metaOf(project)!;
  return inWorkDir(app.config.dataDir, `preview-${project.id}-${process.hrtime.bigint()}`, async (dir) => {
    const { plan } = await buildExportPlan(app, project, { width: W, height: H, fps }, dir, { still: true });
    const duration = outputDuration(plan.keep);
    // the last frame of the output at most
    const t = Math.max(0, Math.min(time, duration - 1 / fps));
    const { at } = sourceInstant(plan.keep, t);
    const span = 2 / fps;
    const start = Math.max(0, Math.min(at, meta.duration - span));
    // only what shows at that instant: no other item or sticker is opened
    const shows = (a: number, b: number) => a <= t + span && b >= t;
    const graph = buildRenderGraph({
      ...plan,
      overlays: plan.overlays?.filter((o) => shows(o.start, o.end)),
      stickers: plan.stickers?.filter((k) => k.windows.some((w) => shows(w.start, w.end))),
      // the project's own window of a long source, when it is one, sets where its seconds are
      source: { ...plan.source, window: { start: (meta.window?.start ?? 0) + start, duration: span } },
      ...(plan.reframe ? { reframe: pathFrom(plan.reframe, start) } : {}),
      keep: [{ start: 0, end: span }],
      startAt: t - (at - start),
      videoOnly: true,
      preview: false,
    });
    const script = path.join(dir, 'still.graph.txt');
    const out = path.join(dir, 'still.png');
    await fs.writeFile(script, graph.filterScript);
    await runProgram(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-threads', '0'],
        ...graph.inputs.flatMap((i) => [...inputOptions(i.path), ...i.args, '-i', i.path]),
        ...['-filter_complex_script', script, '-map', '[vout]', '-frames:v', '1', '-c:v', 'png', '-compression_level', '1', out],
      ],
      { timeoutMs: 60_000, stdout: 'ignore' },
    );
    return { png: await fs.readFile(out), width: W, height: H, time: t };
  });
}

/** A crop path timed from `start` of its timeline: the key in force then at 0, the later ones after it. */
function pathFrom(reframe: ReframePath, start: number): ReframePath {
  const held = reframe.keys.filter((k) => k.t <= start + 1e-9).at(-1) ?? reframe.keys[0];
  const later = reframe.keys.filter((k) => k.t > start + 1e-9).map((k) => ({ ...k, t: k.t - start }));
  return { ...reframe, keys: [{ ...held, t: 0 }, ...later] };
}
