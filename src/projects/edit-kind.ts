/**
 * The edit kind (SPEC.md, POST /v1/projects and its upload): one talking
 * video in, a captioned edit out. It reaches a URL at creation, costs the AI
 * credits of its AI B-roll items, shows `transcribing` while its words are
 * made and stores its bad takes with them; the rest is every kind's
 * (source.ts).
 */
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import { JOB_NAMES } from '../jobs/names.js';
import { checkMediaUrl } from '../library/fetch-media.js';
import { badTakesColumn, detectBadTakes } from './bad-takes.js';
import { readCreateBody, type ProjectSettings } from './creation.js';
import { debitAiBroll } from './credits.js';
import { hookTitleColumn, itemsColumn, musicColumn } from './references.js';
import { fetchSource } from './ingest.js';
import { projectStyleColumn } from '../themes/columns.js';
import type { ProjectKindDef } from './kinds.js';
import { createFromUpload, createFromUrl, type UploadedFile } from './source.js';

/** An edit's own fields of its new row, from checked settings. */
function projectData(s: ProjectSettings): Partial<Prisma.ProjectUncheckedCreateInput> {
  return {
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
    reframe: s.reframe ?? null,
    speakerLayout: s.speakerLayout ?? null,
    captionStyle: s.style ? projectStyleColumn.write(s.style) : undefined,
    logo: s.logo ?? undefined,
    colorFilter: s.colorFilter ?? undefined,
    hookTitle: s.hookTitle ? hookTitleColumn.write(s.hookTitle) : undefined,
    music: s.music ? musicColumn.write({ ...s.music }) : undefined,
    items: s.items ? itemsColumn.write(s.items) : undefined,
    dictionary: s.dictionary,
    sourceUrl: s.videoUrl ?? null,
  };
}

const aiBrollCount = (s: { items?: Array<{ type: string }> }) => s.items?.filter((i) => i.type === 'ai-broll').length ?? 0;

export const editKind: ProjectKindDef<ProjectSettings> = {
  kind: 'edit',
  logName: 'project',
  job: JOB_NAMES.processProject,
  maxBytes: (config) => config.maxProjectBytes,
  readBody: (app, user, body, source) => readCreateBody(app, user.id, body, source),
  // reached once, so that an unreachable URL or a web page is refused at once
  async checkUrl(app, settings) {
    settings.videoUrl = (await checkMediaUrl(app, settings.videoUrl, 'videoUrl')).url;
  },
  data: projectData,
  debit: (tx, userId, settings, projectId) => debitAiBroll(tx, userId, aiBrollCount(settings), projectId),
  fetchSource,
  urlField: 'videoUrl',
  transcribing: true,
  async transcribed(app, project, transcript) {
    // found now, by this job, so that reads of the project never call the detector
    const badTakes = project.removeBadTakes ? await detectBadTakes(app, transcript) : null;
    // a hook asked for without its text gets the one derived from the words, stored, so every read shows it and the user can change it
    const hook = hookTitleColumn.read(project.hookTitle);
    const text = hook && !hook.text ? await app.ai.hook.write(transcript, { language: project.language }) : '';
    return {
      ...(badTakes ? { badTakes: badTakesColumn.write(badTakes) } : {}),
      ...(hook && text ? { hookTitle: hookTitleColumn.write({ ...hook, text }) } : {}),
    };
  },
};

/**
 * POST /v1/projects: checks every rule, reaches the video URL once (so an
 * unreachable URL or a web page is refused at once), then stores the project
 * and queues its pipeline. Nothing is stored when anything is refused.
 */
export const createProject = (app: App, user: AuthUser, body: unknown, read?: ProjectSettings): Promise<Project> =>
  createFromUrl(app, editKind, user, body, read);

/**
 * POST /v1/projects/upload: the fields are checked before a byte of the file is
 * read; the file streams into storage (413 as soon as it passes 2 GB) and is
 * judged by its content. A refused or broken upload leaves no project and no file.
 */
export const uploadProject = (app: App, user: AuthUser, body: unknown, file: UploadedFile, read?: ProjectSettings): Promise<Project> =>
  createFromUpload(app, editKind, user, body, file, read);
