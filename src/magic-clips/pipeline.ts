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
import type { Project } from '../generated/prisma/client.ts';
import type { LongJobContext } from '../jobs/context.js';
import { JOB_NAMES } from '../jobs/names.js';
import { extractAudio } from '../media/transcription/audio.js';
import { fail } from '../projects/lifecycle.js';
import { clipHookColumn, viralityScoresColumn } from '../projects/clip-records.js';
import { wordsOf, type VideoMeta } from '../projects/service.js';
import { pipelineFailed, withTranscribedSource } from '../projects/source.js';
import { progressReporter } from '../projects/state.js';
import { inWorkDir } from '../jobs/work-dir.js';
import type { LocalFiles } from '../storage/storage.js';
import { readAudioFeatures } from './audio-features.js';
import { findMoments } from './moments.js';
import { magicClipsKind } from './service.js';
import type { AudioFeatures } from './types.js';
import type { Word } from '../media/transcript.js';
import { hookTitleColumn } from '../projects/references.js';
import { clipRangeColumn } from './settings.js';
import { createClipProjects, wordsWithin } from './edit-projects.js';

type Reporter = ReturnType<typeof progressReporter>;

/** Spoken words: what a clip can be made of. */
const spoken = (words: readonly Word[]) => words.filter((w) => w.type === 'word' && w.text.trim() !== '');

export async function runMagicClipsPipeline(app: App, projectId: string, ctx: LongJobContext): Promise<void> {
  const project = await app.db.project.findUnique({ where: { id: projectId } });
  if (project?.kind !== 'magic_clips' || project.status !== 'processing') return;
  const report = progressReporter(app, project, ctx.touch);
  try {
    let audio: AudioFeatures | null = null;
    // the voice is measured on the sound extracted for the transcription
    const range = clipRangeColumn.read(project.clipRange);
    const measure = async (wav: string) => {
      const t0 = performance.now();
      audio = { ...(await readAudioFeatures(wav)), offset: range?.start ?? 0 };
      app.log.info({ projectId, ms: Math.round(performance.now() - t0) }, 'voice measured');
    };
    const chosen = await withTranscribedSource(
      app,
      project,
      magicClipsKind,
      report,
      async (transcribed, meta, files) => {
        // chosen once: a run after a crash finds them stored
        if ((await app.db.magicClip.count({ where: { projectId } })) > 0) return transcribed;
        const voice = audio ?? (await measureVoice(app, transcribed, meta, files));
        return (await chooseClips(app, transcribed, meta, wordsOf(transcribed)!, voice, report)) ? transcribed : null;
      },
      { inspectAudio: measure, window: range },
    );
    if (!chosen) return;
    await queueClips(app, chosen, report);
  } catch (e) {
    await pipelineFailed(app, ctx, magicClipsKind, { id: projectId, kind: 'magic_clips' }, e);
  }
}

/** The voice's features again (a run after a crash between transcription and scoring): one audio extraction. */
async function measureVoice(app: App, project: Project, meta: VideoMeta, files: LocalFiles): Promise<AudioFeatures | null> {
  if (!meta.hasAudio) return null;
  const source = await files(project.sourceKey!);
  const range = clipRangeColumn.read(project.clipRange);
  return inWorkDir(app.config.dataDir, `voice-${project.id}`, async (dir) => {
    const wav = `${dir}/audio.wav`;
    await extractAudio(source, wav, { source: meta, ...(range ? { window: { start: range.start, duration: range.end - range.start } } : {}) });
    return { ...(await readAudioFeatures(wav)), offset: range?.start ?? 0 };
  });
}

/**
 * Finds, scores, ranks and stores the clips, with their reasons and, when the
 * project asks for hooks, each clip's own hook written from its words; fails
 * the project (its credit given back) when there is no speech, or too little
 * for the shortest clip. Returns false when the project failed.
 */
async function chooseClips(app: App, project: Project, meta: VideoMeta, words: Word[], audio: AudioFeatures | null, report: Reporter): Promise<boolean> {
  const minLength = project.minClipLength!;
  const range = clipRangeColumn.read(project.clipRange);
  const bounds = { start: range?.start ?? 0, end: Math.min(range?.end ?? meta.duration, meta.duration) };
  const where = range ? ` between ${bounds.start} s and ${bounds.end} s` : '';
  const speech = spoken(words);
  if (!speech.length) {
    await fail(app, project, `The video has no speech${where} to make clips of`);
    return false;
  }
  const speechSeconds = speech[speech.length - 1].endTime - speech[0].startTime;
  if (speechSeconds < minLength) {
    await fail(app, project, `The speech${where} lasts ${speechSeconds.toFixed(1)} s, shorter than minClipLength (${minLength} s)`);
    return false;
  }
  await report('score', 0);
  const { clips: moments, note } = await findMoments(words, audio, {
    minLength,
    maxLength: project.maxClipLength!,
    duration: bounds.end - bounds.start,
    count: project.clipCount,
    topic: project.clipTopic,
    scorer: app.ai.clips,
    language: project.language,
  });
  if (!moments.length) {
    await fail(app, project, `No stretch of whole sentences${where} lasts between ${minLength} and ${project.maxClipLength} s`);
    return false;
  }
  const clips = moments.map((m) => padded(m, speech, bounds));
  // each clip's own hook, from its own words (written before the transaction: a chat model may answer slowly)
  const hooks = hookTitleColumn.read(project.hookTitle)
    ? await Promise.all(clips.map((c) => app.ai.hook.write(wordsWithin(words, c.start, c.end), { language: project.language })))
    : clips.map(() => '');
  // one set of clips per project, whichever run gets here first
  await app.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Project" WHERE id = ${project.id}::uuid FOR UPDATE`;
    if ((await tx.magicClip.count({ where: { projectId: project.id } })) > 0) return;
    // every clip is an edit project of its own, of its window of the source
    const editProjectIds = await createClipProjects(
      tx,
      project,
      meta,
      words,
      clips.map((m, i) => ({ start: m.start, end: m.end, title: m.title, hook: hooks[i] })),
    );
    await tx.magicClip.createMany({
      data: clips.map((m, i) => ({
        projectId: project.id,
        editProjectId: editProjectIds[i],
        title: m.title,
        startTime: m.start,
        endTime: m.end,
        duration: Math.round((m.end - m.start) * 1000) / 1000,
        viralityScores: viralityScoresColumn.write(m.scores),
        viralityReasons: m.reasons,
        rank: m.rank,
        topicMatch: m.topicMatch,
        hookTitle: hooks[i] ? clipHookColumn.write({ text: hooks[i] }) : undefined,
      })),
    });
    await tx.project.update({ where: { id: project.id }, data: { clipsNote: note } });
  });
  return true;
}

/** Breath before a clip's first word and after its last, at most half the pause to the next word (seconds). */
const LEAD_IN = 0.1;
const TAIL = 0.25;

/** A moment with a little of the pauses around it, so its first and last words are not clipped; within `bounds` (the analysed part of the source). */
function padded<M extends { start: number; end: number }>(m: M, speech: readonly Word[], bounds: { start: number; end: number }): M {
  const before = speech.filter((w) => w.endTime <= m.start + 1e-6).at(-1)?.endTime ?? bounds.start;
  const after = speech.find((w) => w.startTime >= m.end - 1e-6)?.startTime ?? bounds.end;
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    ...m,
    start: r(Math.max(bounds.start, m.start - Math.min(LEAD_IN, (m.start - before) / 2))),
    end: r(Math.min(bounds.end, m.end + Math.min(TAIL, (after - m.end) / 2))),
  };
}

/** One render job per clip not yet ended; a clip job that finds its clip ended does nothing. */
async function queueClips(app: App, project: Project, report: Reporter) {
  const clips = await app.db.magicClip.findMany({ where: { projectId: project.id }, select: { id: true, status: true } });
  const ended = clips.filter((c) => c.status !== 'processing').length;
  await report('clips', (ended / clips.length) * 100, { done: ended, total: clips.length });
  for (const clip of clips) {
    // once per clip: a run of the pipeline after a crash does not queue a second render of a clip
    if (clip.status === 'processing')
      await app.jobs.enqueue(JOB_NAMES.renderClip, { clipId: clip.id, projectId: project.id, userId: project.userId }, { once: { clipId: clip.id } });
  }
}
