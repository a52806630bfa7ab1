/**
 * Every magic clip is an edit project of its own: made with the clip, of the
 * clip's window of the long source, so GET, PUT, exports of any size and
 * shape, captions, previews, publishing and deletion work on it as on any
 * project. Nothing is heard again and nothing is copied: its words are the
 * source's words of the window, on the window's timeline; its video is the
 * window of the stored source (VideoMeta.window), read by range as the clip
 * itself is; its look is the magic-clips project's, with the clip's own hook;
 * it follows the face (`reframe: face`) when the clips do. The clip's render
 * is its first export: the project waits in `exporting` until the clip is
 * made, then completes with that render, and the face track the clip was
 * framed by is kept as its own.
 */
import type { Prisma, Project } from '../generated/prisma/client.ts';
import type { App } from '../app.js';
import type { FaceTrack } from '../media/vision/face-track.js';
import type { Word } from '../media/transcript.js';
import { move } from '../projects/lifecycle.js';
import { hookTitleColumn } from '../projects/references.js';
import { keepFaceTrack } from '../projects/reframe.js';
import { transcriptColumn, videoMetaColumn, type VideoMeta } from '../projects/service.js';

type Tx = Prisma.TransactionClient;

const r3 = (t: number) => Math.round(t * 1000) / 1000;

/** The elements lying wholly inside [start, end] of the source, on the source's timeline. */
export const wordsWithin = <W extends Word>(words: readonly W[], start: number, end: number): W[] =>
  words.filter((w) => w.startTime >= start - 1e-6 && w.endTime <= end + 1e-6);

/** The words of the window [start, end] of the source, on the window's timeline (0 at `start`); an element across an edge is cut at it. */
export function wordsOfWindow(words: readonly Word[], start: number, end: number): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    if (w.endTime <= start + 1e-6 || w.startTime >= end - 1e-6) continue;
    // a spoken word is never cut: the window's ends lie in pauses
    if (w.type !== 'silence' && (w.startTime < start - 1e-6 || w.endTime > end + 1e-6)) continue;
    out.push({ ...w, startTime: r3(Math.max(w.startTime, start) - start), endTime: r3(Math.min(w.endTime, end) - start) });
  }
  return out;
}

/** The long source's probe, as the window's own video: its length, its quiet stretches, where it starts in the source. */
function windowMeta(meta: VideoMeta, start: number, end: number): VideoMeta {
  const levels = meta.audioLevels;
  return {
    ...meta,
    duration: r3(end - start),
    window: { start },
    ...(levels
      ? {
          audioLevels: {
            ...levels,
            quiet: levels.quiet
              .filter((q) => q.end > start && q.start < end)
              .map((q) => ({ start: r3(Math.max(q.start, start) - start), end: r3(Math.min(q.end, end) - start) })),
          },
        }
      : {}),
  };
}

export interface ClipWindowDraft {
  start: number;
  end: number;
  title: string;
  /** the clip's own hook text, '' for none */
  hook: string;
}

/**
 * The edit projects of a project's clips, one per draft, stored in `tx`;
 * their ids in the drafts' order.
 */
export async function createClipProjects(
  tx: Tx,
  parent: Project,
  meta: VideoMeta,
  words: readonly Word[],
  drafts: readonly ClipWindowDraft[],
): Promise<string[]> {
  const look = hookTitleColumn.read(parent.hookTitle);
  const rows = drafts.map((d) => ({
    id: crypto.randomUUID(),
    userId: parent.userId,
    kind: 'edit' as const,
    title: d.title,
    language: parent.language,
    // transcribed; its first export (the clip's render) is under way
    status: 'exporting' as const,
    transcriptionStatus: 'COMPLETED' as const,
    progress: { stage: 'render', percent: 0 },
    templateName: parent.templateName,
    userThemeId: parent.userThemeId,
    captionStyle: parent.captionStyle ?? undefined,
    hookTitle: look && d.hook ? hookTitleColumn.write({ ...look, text: d.hook }) : undefined,
    reframe: parent.faceTracking ? 'face' : null,
    speakerLayout: parent.speakerLayout,
    dictionary: parent.dictionary,
    sourceKey: parent.sourceKey,
    videoMeta: videoMetaColumn.write(windowMeta(meta, d.start, d.end)),
    transcript: transcriptColumn.write(wordsOfWindow(words, d.start, d.end)),
  }));
  await tx.project.createMany({ data: rows });
  return rows.map((r) => r.id);
}

/**
 * The clip was made: its project completes with the clip's render as its
 * first export, and keeps the face track the clip was framed by.
 */
export async function clipProjectMade(
  app: App,
  editProjectId: string,
  render: { outputKey: string; previewKey: string; width: number; height: number; fps: number; duration: number },
  track: FaceTrack | null,
): Promise<void> {
  const faceTrackKey = track ? await keepFaceTrack(app, editProjectId, track) : undefined;
  await move(app, { id: editProjectId, kind: 'edit' }, 'exported', {
    data: { renderedKey: render.outputKey, previewKey: render.previewKey, ...(faceTrackKey ? { faceTrackKey } : {}) },
    also: (tx) =>
      tx.export.create({
        data: {
          projectId: editProjectId,
          width: render.width,
          height: render.height,
          fps: render.fps,
          status: 'completed',
          progress: 100,
          outputKey: render.outputKey,
          previewKey: render.previewKey,
          duration: render.duration,
          autoRender: true,
          completedAt: new Date(),
        },
      }),
  });
}

/** The clip could not be made: its project stays, transcribed and editable, without an export; an export of it may be asked for. */
export async function clipProjectNotMade(app: App, editProjectId: string, reason: string): Promise<void> {
  await move(app, { id: editProjectId, kind: 'edit' }, 'exportFailed', { data: { failureReason: reason } });
}
