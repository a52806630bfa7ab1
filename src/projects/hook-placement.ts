/**
 * A hook title placed where it reads: its top where the user set it; else off
 * the speaker's face and the caption block (DECISIONS.md, Looks). The face is
 * found once, on the source's frames of the hook's seconds (face-track.ts, the
 * magic clips' tracker), and kept with the hook, so every export places the
 * title for its own frame without looking again; the top for the source's own
 * size (the default export) is stored, so reads show it.
 */
import type { App } from '../app.js';
import type { CaptionStyle } from '../catalog/caption-style.js';
import { DEFAULT_HOOK_TITLE_TEMPLATE, findHookTitleTemplate } from '../catalog/hook-title-templates.js';
import type { Project } from '../generated/prisma/client.ts';
import { captionBlock, hookHeight } from '../media/render/captions.js';
import { hookTop, outputBox, type Box } from '../media/render/hook-placement.js';
import type { RenderPlan } from '../media/render/graph.js';
import { trackFaces } from '../media/vision/face-track.js';
import { hookTitleColumn, type HookTitle } from './references.js';
import type { VideoMeta } from './service.js';

/** Seconds of the source whose faces count: about the hook's time on screen. */
const HOOK_SECONDS = 3.5;
/** A face box is the face; the head around it (hair, chin) is this much more above and below, as a share of its height. */
const HEAD_MARGIN = 0.25;

/** The speaker's head over the first seconds (from `from`, seconds of the project's video): the union of the faces found, in source display pixels; null when none. */
export async function hookFace(source: string, meta: Pick<VideoMeta, 'width' | 'height' | 'duration' | 'window'>, from = 0): Promise<Box | null> {
  const duration = Math.min(HOOK_SECONDS, meta.duration - from);
  if (!(duration > 0)) return null;
  const start = (meta.window?.start ?? 0) + from;
  const { samples } = await trackFaces({ path: source, start, duration, width: meta.width, height: meta.height }, { fps: 2 });
  const faces = samples.flatMap((s) => (s.face ? [s.face] : []));
  if (!faces.length) return null;
  const x0 = Math.min(...faces.map((f) => f.x));
  const x1 = Math.max(...faces.map((f) => f.x + f.w));
  const y0 = Math.min(...faces.map((f) => f.y - HEAD_MARGIN * f.h));
  const y1 = Math.max(...faces.map((f) => f.y + f.h * (1 + HEAD_MARGIN)));
  const r = (v: number) => Math.round(v * 10) / 10;
  return { x: r(x0), y: r(Math.max(0, y0)), w: r(x1 - x0), h: r(Math.min(meta.height, y1) - Math.max(0, y0)) };
}

/** The hook's top (percent) on a `width` x `height` export: the user's, else off the face and the captions. */
export function hookTopFor(
  hook: HookTitle & { text: string },
  o: {
    style: CaptionStyle;
    captions: boolean;
    source: { width: number; height: number };
    out: { width: number; height: number };
    positionX?: number | null;
    positionY?: number | null;
    /** how the picture fills the frame (the render's `output.fit`); left out, as the renderer picks */
    fit?: RenderPlan['output']['fit'];
  },
): number {
  if (!hook.autoTop) return hook.top;
  const { width, height } = o.out;
  const template = findHookTitleTemplate(hook.template) ?? DEFAULT_HOOK_TITLE_TEMPLATE;
  const face = hook.face ? outputBox(hook.face, o.source, o.out, o.fit) : null;
  const captions = o.captions ? captionBlock(o.style, width, height, { x: o.positionX, y: o.positionY }) : null;
  return hookTop({ width, height, titleHeight: hookHeight({ ...hook, template }, width, height), avoid: [face, captions] });
}

/** Whether a hook has its top to place and its face not looked for yet (a derived text is needed first). */
export const hookToPlace = (hook: HookTitle | null): boolean => !!hook?.autoTop && hook.face === undefined && !!hook.text;

/**
 * Finds the face of a hook whose top is the service's to place and that has
 * not been looked at yet (hookToPlace), and stores it with the top for the source's own
 * size; the project as stored after.
 */
export async function placeHook(
  app: App,
  project: Project,
  source: string,
  meta: VideoMeta,
  style: CaptionStyle,
  hook: HookTitle | null = hookTitleColumn.read(project.hookTitle),
): Promise<Project> {
  if (!hook || !hookToPlace(hook)) return project;
  const face = await hookFace(source, meta);
  const size = { width: meta.width, height: meta.height };
  const placed = { ...hook, text: hook.text ?? '', face };
  const top = hookTopFor(placed, {
    style,
    captions: !project.disableCaptions,
    source: size,
    out: size,
    positionX: project.captionPositionX,
    positionY: project.captionPositionY,
  });
  return app.db.project.update({ where: { id: project.id }, data: { hookTitle: hookTitleColumn.write({ ...placed, top }) } });
}
