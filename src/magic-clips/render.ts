import path from 'node:path';
import type { App } from '../app.js';
import type { MagicClip, Project } from '../generated/prisma/client.ts';
import { captionLayer, captionStyleOf } from '../themes/looks.js';
import { libraryFontFiles } from '../themes/fonts.js';
import { localFiles } from '../storage/storage.js';
import { renderNiceness } from '../media/cpu.js';
import { renderVideo } from '../media/render/ffmpeg.js';
import { buildRenderGraph, type RenderPlan } from '../media/render/graph.js';
import { keepSegments } from '../media/render/timeline.js';
import { renderSource, transcribedSource } from '../projects/source.js';
import type { CropPath } from './types.js';
import { CLIP_FRAMES, clipFrame } from './settings.js';
import { clipHookColumn } from '../projects/clip-records.js';
import type { CaptionStyle } from '../catalog/caption-style.js';
import { DEFAULT_HOOK_TITLE_TEMPLATE, findHookTitleTemplate } from '../catalog/hook-title-templates.js';
import type { HookTitle } from '../media/render/captions.js';
import { hookFace, hookTopFor } from '../projects/hook-placement.js';
import { hookTitleColumn } from '../projects/references.js';
import { metaOf } from '../projects/service.js';

/** SPEC.md's clips are vertical full HD (9:16), at the source's frame rate (30 when it has none); a project may ask for another shape (settings.ts). */
export const CLIP_SIZE = CLIP_FRAMES['9:16'];
/** libx264's CRF of a clip (exports use 20). */
export const CLIP_CRF = 23;
/** The preview's longer side: 360x640. */
export const CLIP_PREVIEW_LONG_SIDE = 640;

export const clipFps = (sourceFps: number | null | undefined) => (sourceFps && sourceFps > 0 ? Math.min(60, sourceFps) : 30);

export interface ClipRender {
  /** the rendered clip and its preview, in `dir` */
  video: string;
  preview: string;
  duration: number;
  /** its frame and rate */
  width: number;
  height: number;
  fps: number;
}

/**
 * Renders `clip` of `project` from `source` (its source video: a local file,
 * or a remote store's URL, Storage.mediaSource) into `dir`; `crop` is its face
 * path (null: the renderer's centred crop or blurred fill).
 */
export async function renderClip(
  app: App,
  project: Project,
  clip: Pick<MagicClip, 'startTime' | 'endTime' | 'hookTitle'>,
  source: string,
  crop: CropPath | null,
  dir: string,
  opts: { onProgress?: (fraction: number) => void } = {},
): Promise<ClipRender> {
  const { meta, words } = transcribedSource(project);
  const fps = clipFps(meta.fps);
  const start = clip.startTime;
  const length = clip.endTime - clip.startTime;
  const { width, height } = clipFrame(project.aspectRatio);

  // the source's words, timed on the clip: the window is the one kept stretch
  const style = await captionStyleOf(app, project);
  const hook = await clipHook(project, clip, source, crop, style, { width, height });
  const captions = await captionLayer(
    style,
    { words, keep: [{ start, end: clip.endTime }], width, height, language: project.language, captions: true, hook },
    dir,
    await libraryFontFiles(app.db, project.userId, style.font.family, localFiles(app.storage, dir)),
  );

  const plan: RenderPlan = {
    source: { ...renderSource(source, meta), window: { start, duration: length } },
    // x264's default quality: a clip is re-encoded by the platform it is posted to
    output: { width, height, fps, preset: app.config.renderPreset, crf: CLIP_CRF, fit: crop ? 'path' : 'auto' },
    ...(crop ? { reframe: crop } : {}),
    keep: keepSegments(length, [], fps),
    ...captions,
    audio: { clean: false },
    preview: true,
    previewLongSide: CLIP_PREVIEW_LONG_SIDE,
  };
  const graph = buildRenderGraph(plan);
  const video = path.join(dir, 'clip.mp4');
  const preview = path.join(dir, 'preview.mp4');
  await renderVideo(
    graph,
    { video, preview },
    {
      onProgress: opts.onProgress,
      timeoutMs: Math.max(10 * 60_000, graph.duration * 20_000),
      stallMs: app.config.renderStallMs,
      niceness: renderNiceness(app.config),
    },
  );
  return { video, preview, duration: graph.duration, width, height, fps };
}

/**
 * The clip's own hook in the project's hook look, its top placed off the
 * speaker's head over the clip's first seconds (as the frame shows it: through
 * the crop when the face is followed) and off the captions; null without one.
 */
async function clipHook(
  project: Project,
  clip: Pick<MagicClip, 'startTime' | 'hookTitle'>,
  source: string,
  crop: CropPath | null,
  style: CaptionStyle,
  out: { width: number; height: number },
): Promise<HookTitle | null> {
  const look = hookTitleColumn.read(project.hookTitle);
  const text = clipHookColumn.read(clip.hookTitle)?.text;
  if (!look || !text) return null;
  const meta = metaOf(project)!;
  const face = look.autoTop ? await hookFace(source, meta, clip.startTime) : null;
  // through a crop, the frame shows the crop's window at the clip's start
  const key = crop?.keys[0];
  const seen = crop && key ? { width: crop.width, height: crop.height } : { width: meta.width, height: meta.height };
  const box = face && crop && key ? { ...face, x: face.x - key.x, y: face.y - key.y } : face;
  const top = hookTopFor({ ...look, text, ...(box ? { face: box } : { face: null }) }, { style, captions: true, source: seen, out });
  return { text, template: findHookTitleTemplate(look.template ?? '') ?? DEFAULT_HOOK_TITLE_TEMPLATE, top, size: look.size };
}
