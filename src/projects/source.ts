/**
 * The one way a project of any kind gets its source and transcript: created
 * from a URL or an upload (the body read, the cost taken and the project
 * stored in one transaction, its pipeline queued), then, in its pipeline, the
 * source fetched, probed and transcribed; and the source its renders read.
 * What a kind differs in comes with it (kinds.ts).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import { AppError } from '../errors.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import type { LongJobContext } from '../jobs/context.js';
import { NotMediaError, probe, type ProbeResult } from '../media/ffprobe.js';
import type { RenderPlan } from '../media/render/graph.js';
import type { Word } from '../media/transcript.js';
import type { LocalFiles } from '../storage/storage.js';
import { reusingTranscripts } from './transcript-reuse.js';
import { failureReason, isOwnFailure, isPassingFailure, probeSource, ProjectFailure, transcribeSource, type IngestReport } from './ingest.js';
import type { CreationSettings, ProjectKindDef } from './kinds.js';
import { fail, move } from './lifecycle.js';
import { checkProjectSource, metaOf, transcriptColumn, videoMetaColumn, wordsOf, type VideoMeta } from './service.js';

export interface UploadedFile {
  filename: string;
  stream: Readable;
}

/**
 * A project of `kind` from a URL: every rule checked (and the URL reached,
 * for a kind that reaches it at once), then the project stored with its cost
 * and its pipeline queued. Nothing is stored when anything is refused. `read`
 * is the body as kind.readBody read it already (the REST check), not read again.
 */
export async function createFromUrl<S extends CreationSettings>(app: App, kind: ProjectKindDef<S>, user: AuthUser, body: unknown, read?: S): Promise<Project> {
  const settings = read ?? (await kind.readBody(app, user, body, 'url'));
  await kind.checkUrl?.(app, settings);
  return store(app, kind, user.id, settings, crypto.randomUUID());
}

/**
 * A project of `kind` from an upload: the fields (and what the caller may do)
 * are checked before a byte of the file is read; the file streams into
 * storage (413 once past the kind's maxBytes) and is judged by its content. A
 * refused or broken upload leaves no project, no file and no debit.
 */
export async function createFromUpload<S extends CreationSettings>(
  app: App,
  kind: ProjectKindDef<S>,
  user: AuthUser,
  body: unknown,
  file: UploadedFile,
  read?: S,
): Promise<Project> {
  let settings: S;
  try {
    settings = read ?? (await kind.readBody(app, user, body, 'upload'));
  } catch (e) {
    file.stream.resume(); // the answer goes out now; the rest of the body is not wanted
    throw e;
  }
  const id = crypto.randomUUID();
  return withUploadedSource(app, id, file, kind.maxBytes(app.config), ({ key, meta }) =>
    store(app, kind, user.id, settings, id, { sourceKey: key, videoMeta: videoMetaColumn.write(meta) }),
  );
}

/** Stores the project with its cost taken in the same transaction, then queues its pipeline. */
async function store<S extends CreationSettings>(
  app: App,
  kind: ProjectKindDef<S>,
  userId: string,
  settings: S,
  id: string,
  source: Pick<Prisma.ProjectUncheckedCreateInput, 'sourceKey' | 'videoMeta'> = {},
) {
  const project = await app.db.$transaction(async (tx) => {
    await kind.debit(tx, userId, settings, id);
    return tx.project.create({
      data: {
        id,
        userId,
        kind: kind.kind,
        title: settings.title,
        language: settings.language,
        status: 'processing',
        webhookUrl: settings.webhookUrl ?? null,
        templateName: settings.templateName,
        userThemeId: settings.userThemeId ?? null,
        progress: { stage: 'queued', percent: 0 },
        ...kind.data(settings),
        ...source,
      },
    });
  });
  await app.jobs.enqueue(kind.job, { projectId: project.id, userId });
  return project;
}

/** How long the upload's probe may read the stored source through its URL: past its own time limit. */
const UPLOAD_PROBE_URL_SECONDS = 120;

/**
 * Stores an uploaded source video of project `id` (413 once past `maxBytes`)
 * and judges it by its content: an mp4 or mov video of at most 2 hours (415 or
 * VALIDATION_ERROR otherwise). `create` stores the project that owns it; when
 * anything fails, the file is gone and the rest of the request is drained.
 */
async function withUploadedSource<T>(
  app: App,
  id: string,
  file: UploadedFile,
  maxBytes: number,
  create: (source: { key: string; meta: VideoMeta }) => Promise<T>,
): Promise<T> {
  const ext = path.extname(file.filename).toLowerCase() === '.mov' ? '.mov' : '.mp4';
  const key = `projects/${id}/source${ext}`;
  try {
    await app.storage.put(key, file.stream, { contentType: ext === '.mov' ? 'video/quicktime' : 'video/mp4', maxBytes });
    let probed: ProbeResult;
    try {
      // read where it is stored: on a remote store through a presigned URL, by range (the header and
      // the index), not copied back whole
      probed = await probe(await app.storage.mediaSource(key, UPLOAD_PROBE_URL_SECONDS));
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
 * A pipeline's first steps for a project of `kind`: its source fetched (URL
 * projects), probed and transcribed, each skipped when its result is stored
 * already, so a run after a crash picks up where the last one stopped. Every
 * step reads the source where it is stored, never a copy on this machine (a
 * remote store's through a presigned URL, by range: the probe its header and
 * index, the sound one pass or only the window); so does `then`, which goes on
 * with the transcribed project (a hook's placement, the frames it looks at).
 * Null when another run moved the project on.
 */
export async function withTranscribedSource<T>(
  app: App,
  stored: Project,
  kind: ProjectKindDef,
  report: IngestReport,
  then: (project: Project, meta: VideoMeta, source: LocalFiles) => Promise<T>,
  opts: { inspectAudio?: (wavPath: string) => Promise<void>; window?: { start: number; end: number } | null } = {},
): Promise<T | null> {
  let project = stored;
  if (!project.sourceKey) {
    const sourceKey = await kind.fetchSource(app, { projectId: project.id, url: project.sourceUrl!, maxBytes: kind.maxBytes(app.config), report });
    project = await app.db.project.update({ where: { id: project.id }, data: { sourceKey } });
  }
  const inPlace: LocalFiles = (key) => app.storage.mediaSource(key, SOURCE_URL_SECONDS);
  let meta = metaOf(project);
  if (!meta) {
    meta = await probeSource({ key: project.sourceKey!, files: inPlace, report, field: kind.urlField });
    project = await app.db.project.update({ where: { id: project.id }, data: { videoMeta: videoMetaColumn.write(meta) } });
  }
  if (kind.transcribing) {
    if (project.status === 'processing') project = (await move(app, project, 'transcribe')) ?? project;
    if (project.status !== 'transcribing') return null;
  }
  if (!wordsOf(project)) project = await transcribe(app, project, kind, meta, inPlace, report, opts);
  return then(project, meta, inPlace);
}

/** How long the probe and the sound extraction may read the source through its URL: past their own time limits. */
const SOURCE_URL_SECONDS = 3600;

/** Transcribes the source and stores the words, what the kind stores with them and the sound's levels at once. */
async function transcribe(
  app: App,
  project: Project,
  kind: ProjectKindDef,
  meta: VideoMeta,
  files: LocalFiles,
  report: IngestReport,
  { inspectAudio, window }: { inspectAudio?: (wavPath: string) => Promise<void>; window?: { start: number; end: number } | null },
): Promise<Project> {
  const { transcript, audioLevels } = await transcribeSource(app, {
    projectId: project.id,
    key: project.sourceKey!,
    files,
    meta,
    language: project.language,
    dictionary: project.dictionary,
    transcriber: reusingTranscripts(app, project.userId, app.transcriber),
    report,
    inspectAudio,
    ...(window ? { window } : {}),
  });
  return app.db.project.update({
    where: { id: project.id },
    data: {
      transcript: transcriptColumn.write(transcript),
      ...(await kind.transcribed(app, project, transcript)),
      videoMeta: videoMetaColumn.write({ ...meta, audioLevels }),
    },
  });
}

/**
 * Where a pipeline's failure goes: back to the job for another run when it
 * may pass and runs are left, otherwise the project fails with its reason (a
 * failure the caller caused keeps what the project was paid).
 */
export async function pipelineFailed(app: App, ctx: LongJobContext, kind: ProjectKindDef, project: Pick<Project, 'id' | 'kind'>, e: unknown): Promise<void> {
  if (ctx.lapsed?.()) throw e; // the run that took the job over, or its next run, records the outcome
  if (ctx.attempt < ctx.maxAttempts && isPassingFailure(e)) {
    ctx.log.warn({ err: e, attempt: ctx.attempt }, `${kind.logName} step failed; the job will try again`);
    throw e;
  }
  if (isOwnFailure(e)) ctx.log.error({ err: e }, `${kind.logName} pipeline failed`);
  await fail(app, project, failureReason(e), e instanceof ProjectFailure && e.byCaller ? 'caller' : 'service');
}

/** A transcribed project's probe, words and stored source; rendering one that is not transcribed is a bug. */
export function transcribedSource(project: Project): { meta: VideoMeta; words: Word[]; sourceKey: string } {
  const meta = metaOf(project);
  const words = wordsOf(project);
  if (!meta || !words || !project.sourceKey) throw new Error('the project is not transcribed');
  return { meta, words, sourceKey: project.sourceKey };
}

/** The render's source: the local file (or URL) `file` of the probed source; only the project's window of it when it has one. */
export function renderSource(file: string, meta: VideoMeta): RenderPlan['source'] {
  return {
    path: file,
    width: meta.width,
    height: meta.height,
    fps: meta.fps,
    rotation: meta.rotation,
    hasAudio: meta.hasAudio,
    duration: meta.duration,
    ...(meta.window ? { window: { start: meta.window.start, duration: meta.duration } } : {}),
  };
}
