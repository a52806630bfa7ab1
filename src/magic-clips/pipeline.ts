/**
 * The pipeline of a magic-clips project, run by the `magic-clips.process`
 * job: get the source (a file, or a platform page read by yt-dlp), probe it,
 * transcribe it while measuring the voice, find and score the moments, store
 * the chosen clips, then queue one render job per clip (clips.ts), so several
 * workers share one project's clips. Each step is skipped when its result is
 * already stored, so a run after a crash picks up where the last one stopped.
 * The project stays `processing` until its clips have ended (SPEC.md).
 */
import type { App } from '../app.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import type { LongJobContext } from '../jobs/context.js';
import { JOB_NAMES } from '../jobs/names.js';
import { extractAudio } from '../media/transcription/audio.js';
import { failureReason, isOwnFailure, isPassingFailure, probeSource, ProjectFailure, transcribeSource, type IngestReport } from '../projects/ingest.js';
import { fail, type Cause } from '../projects/lifecycle.js';
import { metaOf, wordsOf, type VideoMeta } from '../projects/service.js';
import { MAX_PROJECT_SECONDS } from '../projects/settings.js';
import { progressReporter } from '../projects/state.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { localFiles, type LocalFiles } from '../storage/storage.js';
import { readAudioFeatures } from './audio-features.js';
import { findMoments } from './moments.js';
import { fetchClipSource } from './source.js';
import type { AudioFeatures } from './types.js';
import type { Word } from '../media/transcript.js';

type Reporter = ReturnType<typeof progressReporter>;

/** Spoken words: what a clip can be made of. */
const spoken = (words: readonly Word[]) => words.filter((w) => w.type === 'word' && w.text.trim() !== '');

export async function runMagicClipsPipeline(app: App, projectId: string, ctx: LongJobContext): Promise<void> {
  let project = await app.db.project.findUnique({ where: { id: projectId } });
  if (!project || project.kind !== 'magic_clips' || project.status !== 'processing') return;
  const report = progressReporter(app, project, ctx.touch);
  try {
    if (!project.sourceKey) {
      const sourceKey = await fetchClipSource(app, { projectId, url: project.sourceUrl!, maxBytes: app.config.maxClipsSourceBytes, maxSeconds: MAX_PROJECT_SECONDS, report });
      project = await app.db.project.update({ where: { id: projectId }, data: { sourceKey } });
    }
    const chosen = await probeTranscribeAndChoose(app, project, report);
    if (!chosen) return;
    await queueClips(app, chosen, report);
  } catch (e) {
    if (ctx.attempt < ctx.maxAttempts && isPassingFailure(e)) {
      ctx.log.warn({ err: e, attempt: ctx.attempt }, 'magic-clips step failed; the job will try again');
      throw e;
    }
    if (isOwnFailure(e)) ctx.log.error({ err: e }, 'magic-clips pipeline failed');
    const cause: Cause = e instanceof ProjectFailure && e.byCaller ? 'caller' : 'service';
    await fail(app, { id: projectId, kind: 'magic_clips' }, failureReason(e), cause);
  }
}

/**
 * Probes and transcribes the stored source and chooses the clips, each step
 * skipped when its result is stored already; one local copy of the source (a
 * remote store's) serves the probe, the transcription and the voice, gone
 * when this returns. Null when the project failed.
 */
async function probeTranscribeAndChoose(app: App, stored: Project, report: Reporter): Promise<Project | null> {
  let project = stored;
  return inWorkDir(app.config.dataDir, `source-${project.id}`, async (dir) => {
    const files = localFiles(app.storage, dir);
    let meta = metaOf(project);
    if (!meta) {
      meta = await probeSource({ key: project.sourceKey!, files, report, field: 'videoshareUrl' });
      project = await app.db.project.update({ where: { id: project.id }, data: { videoMeta: meta as unknown as Prisma.InputJsonValue } });
    }
    let audio: AudioFeatures | null = null;
    if (!wordsOf(project)) ({ project, audio } = await transcribe(app, project, meta, files, report));
    if ((await app.db.magicClip.count({ where: { projectId: project.id } })) > 0) return project;
    const chosen = await chooseClips(app, project, meta, wordsOf(project)!, audio ?? (await measureVoice(app, project, meta, files)), report);
    return chosen ? project : null;
  });
}

/** Transcribes the source, measuring the voice on the way, and stores the words and the sound's levels. */
async function transcribe(app: App, project: Project, meta: VideoMeta, files: LocalFiles, report: IngestReport) {
  let audio: AudioFeatures | null = null;
  const { transcript, audioLevels } = await transcribeSource(app, {
    projectId: project.id,
    key: project.sourceKey!,
    files,
    meta,
    language: project.language,
    dictionary: project.dictionary,
    transcriber: app.transcriber,
    report,
    inspectAudio: async (wav) => {
      const t0 = performance.now();
      audio = await readAudioFeatures(wav);
      app.log.info({ projectId: project.id, ms: Math.round(performance.now() - t0) }, 'voice measured');
    },
  });
  const updated = await app.db.project.update({
    where: { id: project.id },
    data: {
      transcript: transcript as unknown as Prisma.InputJsonValue,
      transcriptionStatus: 'COMPLETED',
      videoMeta: { ...meta, audioLevels } as unknown as Prisma.InputJsonValue,
    },
  });
  return { project: updated, audio: audio as AudioFeatures | null };
}

/** The voice's features again (a run after a crash between transcription and scoring): one audio extraction. */
async function measureVoice(app: App, project: Project, meta: VideoMeta, files: LocalFiles): Promise<AudioFeatures | null> {
  if (!meta.hasAudio) return null;
  const source = await files(project.sourceKey!);
  return inWorkDir(app.config.dataDir, `voice-${project.id}`, async (dir) => {
    const wav = `${dir}/audio.wav`;
    await extractAudio(source, wav, { source: meta });
    return readAudioFeatures(wav);
  });
}

/**
 * Finds, scores and stores the clips; fails the project (its credit given
 * back) when there is no speech, or too little for the shortest clip.
 * Returns false when the project failed.
 */
async function chooseClips(app: App, project: Project, meta: VideoMeta, words: Word[], audio: AudioFeatures | null, report: Reporter): Promise<boolean> {
  const minLength = project.minClipLength!;
  const speech = spoken(words);
  if (!speech.length) {
    await fail(app, project, 'The video has no speech to make clips of');
    return false;
  }
  const speechSeconds = speech[speech.length - 1].endTime - speech[0].startTime;
  if (speechSeconds < minLength) {
    await fail(app, project, `The speech lasts ${speechSeconds.toFixed(1)} s, shorter than minClipLength (${minLength} s)`);
    return false;
  }
  await report('score', 0);
  const moments = await findMoments(words, audio, {
    minLength,
    maxLength: project.maxClipLength!,
    duration: meta.duration,
    scorer: app.ai.clips,
    language: project.language,
  });
  if (!moments.length) {
    await fail(app, project, `No stretch of whole sentences lasts between ${minLength} and ${project.maxClipLength} s`);
    return false;
  }
  // one set of clips per project, whichever run gets here first
  await app.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Project" WHERE id = ${project.id}::uuid FOR UPDATE`;
    if ((await tx.magicClip.count({ where: { projectId: project.id } })) > 0) return;
    await tx.magicClip.createMany({
      data: moments.map((m) => padded(m, speech, meta.duration)).map((m) => ({
        projectId: project.id,
        title: m.title,
        startTime: m.start,
        endTime: m.end,
        duration: Math.round((m.end - m.start) * 1000) / 1000,
        viralityScores: m.scores as unknown as Prisma.InputJsonValue,
      })),
    });
  });
  return true;
}

/** Breath before a clip's first word and after its last, at most half the pause to the next word (seconds). */
const LEAD_IN = 0.1;
const TAIL = 0.25;

/** A moment with a little of the pauses around it, so its first and last words are not clipped. */
function padded<M extends { start: number; end: number }>(m: M, speech: readonly Word[], duration: number): M {
  const before = speech.filter((w) => w.endTime <= m.start + 1e-6).at(-1)?.endTime ?? 0;
  const after = speech.find((w) => w.startTime >= m.end - 1e-6)?.startTime ?? duration;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { ...m, start: r(Math.max(0, m.start - Math.min(LEAD_IN, (m.start - before) / 2))), end: r(Math.min(duration, m.end + Math.min(TAIL, (after - m.end) / 2))) };
}

/** One render job per clip not yet ended; a clip job that finds its clip ended does nothing. */
async function queueClips(app: App, project: Project, report: Reporter) {
  const clips = await app.db.magicClip.findMany({ where: { projectId: project.id }, select: { id: true, status: true } });
  const ended = clips.filter((c) => c.status !== 'processing').length;
  await report('clips', (ended / clips.length) * 100, { done: ended, total: clips.length });
  for (const clip of clips) {
    // once per clip: a run of the pipeline after a crash does not queue a second render of a clip
    if (clip.status === 'processing') await app.jobs.enqueue(JOB_NAMES.renderClip, { clipId: clip.id, projectId: project.id, userId: project.userId }, { once: { clipId: clip.id } });
  }
}
