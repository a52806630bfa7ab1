import { z } from 'zod';
import type { App } from '../app.js';
import { jsonColumn } from '../db/json.js';
import { AppError, FieldErrors, notFound, validationError } from '../errors.js';
import type { Project } from '../generated/prisma/client.ts';
import { isUuid } from '../ids.js';
import type { ProbeResult } from '../media/ffprobe.js';
import type { AudioLevels } from '../media/audio-levels.js';
import type { Word } from '../media/transcript.js';
import { keysetPage, modelSource, type Page, type PageRequest } from '../pagination.js';
import { MAX_PROJECT_SECONDS } from './settings.js';

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
  /**
   * the project's video is `duration` seconds of its stored source from
   * `start` (a magic clip's project shares its long source): every time of the
   * project (words, items, keys) is on that window's timeline
   */
  window?: { start: number };
}

const segment = z.looseObject({ start: z.number(), end: z.number() });

/** Project.videoMeta; a source transcribed before levels were measured has no audioLevels (see VideoMeta) */
export const videoMetaColumn = jsonColumn<VideoMeta | null>(
  'Project.videoMeta',
  z
    .looseObject({
      width: z.number(),
      height: z.number(),
      duration: z.number(),
      fps: z.number(),
      rotation: z.number(),
      hasAudio: z.boolean(),
      size: z.number(),
      formatName: z.string(),
      audioLevels: z
        .looseObject({ loudness: z.number().nullable(), peak: z.number().nullable(), quiet: z.array(segment), quietThreshold: z.number() })
        .optional(),
      window: z.looseObject({ start: z.number().min(0) }).optional(),
    })
    .nullable(),
);

/** Project.transcript: the words with their stable ids, null until transcribed */
export const transcriptColumn = jsonColumn<Word[] | null>(
  'Project.transcript',
  z
    .array(
      z.looseObject({
        id: z.string(),
        text: z.string(),
        type: z.enum(['word', 'silence', 'punctuation']),
        startTime: z.number(),
        endTime: z.number(),
        confidence: z.number().optional(),
      }),
    )
    .nullable(),
);

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

/** One of the user's projects; a missing, foreign or malformed id is NOT_FOUND. */
export async function getProject(app: App, userId: string, id: string, query: { include?: unknown; select?: unknown } = {}): Promise<Project> {
  // the relations a GraphQL selection asks for come in the same read
  const project = isUuid(id) ? await app.db.project.findFirst({ ...(query as object), where: { id, userId } }) : null;
  if (!project) throw notFound('Project');
  return project;
}

/** Text matched literally by LIKE: its wildcards and the escape character escaped (Prisma's `contains` leaves them as they are). */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The user's projects, newest first, in keyset pages. */
/** The longest title query of a project listing. */
export const TITLE_QUERY_MAX = 200;

export interface ProjectFilters {
  status?: Project['status'] | null;
  kind?: Project['kind'] | null;
  /** text the title contains, in any case */
  q?: string | null;
}

/** The user's projects, newest first, keyset pages; VALIDATION_ERROR on a title query too long. */
export function listProjects(app: App, userId: string, page: PageRequest, filters: ProjectFilters = {}): Promise<Page<Project>> {
  const { status, kind } = filters;
  const q = filters.q?.trim();
  if (q && q.length > TITLE_QUERY_MAX) {
    const e = new FieldErrors();
    e.add('q', `must be at most ${TITLE_QUERY_MAX} characters`, filters.q);
    e.throwIfAny();
  }
  const where = {
    userId,
    ...(status ? { status } : {}),
    ...(kind ? { kind } : {}),
    ...(q ? { title: { contains: likeEscaped(q), mode: 'insensitive' as const } } : {}),
  };
  return keysetPage(modelSource<Project>(app.db.project as never, { scope: { userId }, where }), page);
}

export const wordsOf = (p: Pick<Project, 'transcript'>): Word[] | null => transcriptColumn.read(p.transcript);
export const metaOf = (p: Pick<Project, 'videoMeta'>): VideoMeta | null => videoMetaColumn.read(p.videoMeta);
