import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { App } from '../app.js';
import { AppError, notFound, validationError } from '../errors.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import { isUuid } from '../ids.js';
import { NotMediaError, probe, type ProbeResult } from '../media/ffprobe.js';
import type { AudioLevels } from '../media/audio-levels.js';
import type { Word } from '../media/transcript.js';
import { keysetPage, modelSource, type Page, type PageRequest } from '../pagination.js';
import { checkMediaUrl } from '../library/fetch-media.js';
import { debitAiBroll } from './credits.js';
import { MAX_PROJECT_SECONDS } from './settings.js';
import { readCreateBody, type ProjectSettings } from './creation.js';
import { JOB_NAMES } from '../jobs/names.js';
import { inWorkDir } from '../jobs/work-dir.js';

/** width, height (display size), duration, fps of the source, plus what rendering needs */
export interface VideoMeta {
  width: number;
  height: number;
  duration: number;
  fps: number;
  rotation: number;
  hasAudio: boolean;
  size: number;
  formatName: string;
  /** measured at transcription (absent on sources transcribed before levels were measured) */
  audioLevels?: AudioLevels;
}

/** Only mp4 and mov (the QuickTime family that ffprobe names "mov,mp4,m4a,3gp,3g2,mj2"). */
const PROJECT_FORMAT = /(^|,)(mov|mp4)(,|$)/;

/** Judges a probed source file: a video in mp4 or mov, at most 2 hours. */
export function checkProjectSource(p: ProbeResult): VideoMeta {
  if (p.kind !== 'VIDEO' || !p.video || !PROJECT_FORMAT.test(p.formatName)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file is not an mp4 or mov video');
  }
  const duration = p.duration ?? 0;
  if (!(duration > 0)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The video has no duration: it is not a playable mp4 or mov file');
  if (duration > MAX_PROJECT_SECONDS) {
    throw validationError([{ field: 'file', message: `is ${Math.round(duration / 60)} minutes long; at most 120 minutes are accepted`, value: duration }]);
  }
  return {
    width: p.video.width,
    height: p.video.height,
    duration: Math.round(duration * 1000) / 1000,
    fps: Math.round((p.video.fps ?? 30) * 1000) / 1000,
    rotation: p.video.rotation,
    hasAudio: p.audio !== null,
    size: p.size,
    formatName: p.formatName,
  };
}

/** Prisma data of a new project from checked settings. */
function projectData(userId: string, s: ProjectSettings): Prisma.ProjectUncheckedCreateInput {
  return {
    userId,
    kind: 'edit',
    title: s.title,
    language: s.language,
    status: 'processing',
    webhookUrl: s.webhookUrl ?? null,
    templateName: s.templateName,
    userThemeId: s.userThemeId ?? null,
    presetId: s.presetId ?? null,
    aiEditTemplate: s.aiEditTemplate ?? null,
    magicZooms: s.magicZooms,
    magicBrolls: s.magicBrolls,
    magicBrollsPercentage: Math.round(s.magicBrollsPercentage),
    removeSilencePace: s.removeSilencePace ?? null,
    removeBadTakes: s.removeBadTakes,
    cleanAudio: s.cleanAudio,
    disableCaptions: s.disableCaptions,
    autoRender: s.autoRender,
    captionPositionY: s.captionPositionY ?? null,
    captionPositionX: s.captionPositionX ?? null,
    hookTitle: (s.hookTitle as unknown as Prisma.InputJsonValue) ?? undefined,
    music: s.music ? ({ ...s.music } as unknown as Prisma.InputJsonValue) : undefined,
    items: s.items ? (s.items as unknown as Prisma.InputJsonValue) : undefined,
    dictionary: s.dictionary,
    sourceUrl: s.videoUrl ?? null,
    progress: { stage: 'queued', percent: 0 },
  };
}

const aiBrollCount = (s: { items?: Array<{ type: string }> }) => s.items?.filter((i) => i.type === 'ai-broll').length ?? 0;

/**
 * POST /v1/projects: checks every rule, reaches the video URL once (so an
 * unreachable URL or a web page is refused at once), then stores the project
 * and queues its pipeline. Nothing is stored when anything is refused.
 */
export async function createProject(app: App, userId: string, body: unknown): Promise<Project> {
  const settings = await readCreateBody(app, userId, body, 'url');
  const checked = await checkMediaUrl(app, settings.videoUrl, 'videoUrl');
  settings.videoUrl = checked.url;
  const id = crypto.randomUUID();
  const project = await app.db.$transaction(async (tx) => {
    await debitAiBroll(tx, userId, aiBrollCount(settings), id);
    return tx.project.create({ data: { ...projectData(userId, settings), id } });
  });
  await app.jobs.enqueue(JOB_NAMES.processProject, { projectId: project.id, userId });
  return project;
}

/**
 * Stores an uploaded source video of project `id` (413 once past `maxBytes`)
 * and judges it by its content: an mp4 or mov video of at most 2 hours (415 or
 * VALIDATION_ERROR otherwise). `create` stores the project that owns it; when
 * anything fails, the file is gone and the rest of the request is drained.
 */
export async function withUploadedSource<T>(
  app: App,
  id: string,
  file: { filename: string; stream: Readable },
  maxBytes: number,
  create: (source: { key: string; meta: VideoMeta }) => Promise<T>,
): Promise<T> {
  const ext = path.extname(file.filename).toLowerCase() === '.mov' ? '.mov' : '.mp4';
  const key = `projects/${id}/source${ext}`;
  try {
    await app.storage.put(key, file.stream, { contentType: ext === '.mov' ? 'video/quicktime' : 'video/mp4', maxBytes });
    let probed: ProbeResult;
    try {
      // a remote store's object is read through a scratch copy, gone with the request
      probed = await inWorkDir(app.config.dataDir, `upload-${id}`, async (dir) => probe(await app.storage.readableFile(key, dir)));
    } catch (e) {
      if (e instanceof NotMediaError) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file is not an mp4 or mov video');
      throw e;
    }
    return await create({ key, meta: checkProjectSource(probed) });
  } catch (e) {
    file.stream.resume();
    await app.storage.delete(key).catch(() => {});
    throw e;
  }
}

/**
 * POST /v1/projects/upload: the fields are checked before a byte of the file is
 * read; the file streams into storage (413 as soon as it passes 2 GB) and is
 * judged by its content. A refused or broken upload leaves no project and no file.
 */
export async function uploadProject(app: App, userId: string, body: unknown, file: { filename: string; stream: Readable }): Promise<Project> {
  let settings: ProjectSettings;
  try {
    settings = await readCreateBody(app, userId, body, 'upload');
  } catch (e) {
    file.stream.resume(); // the answer goes out now; the rest of the body is not wanted
    throw e;
  }
  const id = crypto.randomUUID();
  return withUploadedSource(app, id, file, app.config.maxProjectBytes, async ({ key, meta }) => {
    const project = await app.db.$transaction(async (tx) => {
      await debitAiBroll(tx, userId, aiBrollCount(settings), id);
      return tx.project.create({
        data: { ...projectData(userId, settings), id, sourceKey: key, videoMeta: meta as unknown as Prisma.InputJsonValue },
      });
    });
    await app.jobs.enqueue(JOB_NAMES.processProject, { projectId: project.id, userId });
    return project;
  });
}

/** One of the user's projects; a missing, foreign or malformed id is NOT_FOUND. */
export async function getProject(app: App, userId: string, id: string): Promise<Project> {
  const project = isUuid(id) ? await app.db.project.findFirst({ where: { id, userId } }) : null;
  if (!project) throw notFound('Project');
  return project;
}

/** The user's projects, newest first, in keyset pages. */
export function listProjects(app: App, userId: string, page: PageRequest, status?: Project['status'] | null): Promise<Page<Project>> {
  return keysetPage(modelSource<Project>(app.db.project as never, { scope: { userId }, where: { userId, ...(status ? { status } : {}) } }), page);
}

export const wordsOf = (p: Pick<Project, 'transcript'>): Word[] | null => (Array.isArray(p.transcript) ? (p.transcript as unknown as Word[]) : null);
export const metaOf = (p: Pick<Project, 'videoMeta'>): VideoMeta | null => (p.videoMeta ? (p.videoMeta as unknown as VideoMeta) : null);
