import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { App } from '../app.js';
import { isAppError } from '../errors.js';
import { formatBytes } from '../format.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import { downloadMedia } from '../library/fetch-media.js';
import type { LongJobContext } from '../jobs/context.js';
import { NotMediaError, probe } from '../media/ffprobe.js';
import { quietRanges, quietThresholdFor, type AudioLevels } from '../media/audio-levels.js';
import { extractAudio } from '../media/transcription/audio.js';
import { postProcess } from '../media/transcription/post-process.js';
import { isFetchError, isTransientFetchError } from '../net/guarded-fetch.js';
import { detectBadTakes } from './bad-takes.js';
import { generateMissingClips } from './broll.js';
import { checkProjectSource, metaOf, wordsOf, type VideoMeta } from './service.js';
import { fail, move } from './lifecycle.js';
import { progressReporter } from './state.js';

/** Every step ends: a project never stays in processing forever (seconds). */
export const STEP_TIMEOUTS = {
  fetch: 30 * 60,
  probe: 60,
  extract: 10 * 60,
  /** at least this, or twice the audio duration */
  transcribe: 10 * 60,
};

/** A failure the caller caused (a bad file, a bad URL): the project fails at once, no retry. */
class ProjectFailure extends Error {}

/**
 * Starts the automatic render of a transcribed project created with
 * autoRender; false when the project was not moved to it. The worker hands in
 * the exports service's, so projects/ does not reach up into exports/.
 */
export type StartAutoRender = (app: App, project: Project) => Promise<boolean>;

/**
 * The pipeline of a created project, run by the `projects.process` job:
 * fetch the source (URL projects), probe it, extract the audio, transcribe,
 * store the words, then complete, or start the render with `startAutoRender`
 * (DESIGN.md's state machine). Each step is skipped when its result is
 * already stored, so a run after a crash picks up where the last one stopped
 * and ends the same way, with one webhook.
 */
export async function runProjectPipeline(app: App, projectId: string, ctx: LongJobContext, startAutoRender: StartAutoRender): Promise<void> {
  let project = await app.db.project.findUnique({ where: { id: projectId } });
  if (!project || (project.status !== 'processing' && project.status !== 'transcribing')) return;
  const report = progressReporter(app, project, ctx.touch);
  const { kind } = project;
  try {
    if (!project.sourceKey) project = await fetchSource(app, project, report);
    let meta = metaOf(project);
    if (!meta) {
      await report('probe', 0);
      meta = await step('probe', STEP_TIMEOUTS.probe, () => probeSource(app, project!.sourceKey!));
      project = await app.db.project.update({ where: { id: project.id }, data: { videoMeta: meta as unknown as Prisma.InputJsonValue } });
    }
    if (project.status === 'processing') {
      project = (await move(app, project, 'transcribe')) ?? project;
      if (project.status !== 'transcribing') return; // another run moved it on
    }
    if (!wordsOf(project)) await transcribe(app, project, meta, report);
    // AI B-roll items of the creation body: their clips, before the render that shows them
    const current = await app.db.project.findUniqueOrThrow({ where: { id: project.id } });
    if (!(await generateMissingClips(app, current, 'transcribing', report))) return;
    // autoRender: the pipeline ends in a render; its end sends the project webhook
    if (project.autoRender) {
      const fresh = await app.db.project.findUniqueOrThrow({ where: { id: project.id } });
      if (await startAutoRender(app, fresh)) return;
    }
    await move(app, project, 'complete');
  } catch (e) {
    const passing = !(e instanceof ProjectFailure) && !isAppError(e) && ctx.attempt < ctx.maxAttempts && isPassing(e);
    if (passing) {
      ctx.log.warn({ err: e, attempt: ctx.attempt }, 'project step failed; the job will try again');
      throw e;
    }
    const reason = failureReason(e);
    if (!(e instanceof ProjectFailure) && !isAppError(e) && !isFetchError(e)) ctx.log.error({ err: e }, 'project pipeline failed');
    await fail(app, { id: projectId, kind }, reason);
  }
}

/** Network trouble and timeouts of our own machinery are worth another try; bad input is not. */
const isPassing = (e: unknown) => (isFetchError(e) ? isTransientFetchError(e) : !(e instanceof NotMediaError));

function failureReason(e: unknown): string {
  if (e instanceof ProjectFailure || isAppError(e)) return e.message;
  if (isFetchError(e)) return `The video could not be downloaded: ${e.message}`;
  if (e instanceof NotMediaError) return 'The file is not an mp4 or mov video';
  return `Processing failed: ${e instanceof Error ? e.message : String(e)}`;
}

/** Runs one step under its time limit; the step gets a signal that fires at the limit. */
async function step<T>(name: string, seconds: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProjectFailure(`The ${name} step timed out after ${seconds} s`));
    }, seconds * 1000);
  });
  try {
    return await Promise.race([fn(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchSource(app: App, project: Project, report: ReturnType<typeof progressReporter>): Promise<Project> {
  await report('fetch', 0);
  const key = `projects/${project.id}/source.mp4`;
  await step('fetch', STEP_TIMEOUTS.fetch, async () => {
    const res = await downloadMedia(app, project.sourceUrl!, app.config.maxProjectBytes);
    const total = Number(res.headers['content-length'] ?? 0);
    let seen = 0;
    // counts what flows to storage; a 'data' listener would start the flow before storage reads
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        seen += chunk.length;
        if (total > 0) void report('fetch', (seen / total) * 100).catch(() => {});
        done(null, chunk);
      },
    });
    res.body.on('error', (err) => counter.destroy(err));
    res.body.pipe(counter);
    await app.storage.put(key, counter, { contentType: 'video/mp4', maxBytes: app.config.maxProjectBytes }).catch((e) => {
      throw isAppError(e) && e.code === 'PAYLOAD_TOO_LARGE' ? new ProjectFailure(`The video is larger than ${formatBytes(app.config.maxProjectBytes)}`) : e;
    });
  });
  return app.db.project.update({ where: { id: project.id }, data: { sourceKey: key } });
}

async function probeSource(app: App, key: string): Promise<VideoMeta> {
  try {
    return checkProjectSource(await probe(app.storage.localPath(key)!));
  } catch (e) {
    if (e instanceof NotMediaError) throw new ProjectFailure('The file at videoUrl is not an mp4 or mov video');
    if (isAppError(e)) throw new ProjectFailure(e.code === 'VALIDATION_ERROR' ? 'The video is longer than 2 hours' : e.message);
    throw e;
  }
}

async function transcribe(app: App, project: Project, meta: VideoMeta, report: ReturnType<typeof progressReporter>) {
  const dir = path.join(app.config.dataDir, 'tmp');
  await fs.mkdir(dir, { recursive: true });
  const wav = path.join(dir, `${project.id}.wav`);
  try {
    await report('extract', 0);
    const sound = await step('audio extraction', STEP_TIMEOUTS.extract, (signal) => extractAudio(app.storage.localPath(project.sourceKey!)!, wav, { signal, source: meta }));
    const quietThreshold = quietThresholdFor(sound.loudness);
    const audioLevels: AudioLevels = {
      loudness: sound.loudness,
      peak: sound.peak,
      quiet: sound.hasAudio ? await quietRanges(wav, quietThreshold) : [],
      quietThreshold,
    };
    await report('transcribe', 0);
    const limit = Math.max(STEP_TIMEOUTS.transcribe, Math.ceil(meta.duration * 2));
    const words = await step('transcription', limit, (signal) =>
      app.transcriber.transcribe(wav, {
        language: project.language,
        dictionary: project.dictionary,
        signal,
        onProgress: (fraction: number) => void report('transcribe', fraction * 100).catch(() => {}),
      }),
    );
    const transcript = postProcess(words, { dictionary: project.dictionary, duration: meta.duration });
    // found now, by this job, so that reads of the project never call the detector
    const badTakes = project.removeBadTakes ? await detectBadTakes(app, transcript) : null;
    await app.db.project.update({
      where: { id: project.id },
      data: {
        transcript: transcript as unknown as Prisma.InputJsonValue,
        ...(badTakes ? { badTakes: badTakes as unknown as Prisma.InputJsonValue } : {}),
        videoMeta: { ...meta, audioLevels } as unknown as Prisma.InputJsonValue,
      },
    });
  } finally {
    await fs.rm(wav, { force: true });
  }
}
