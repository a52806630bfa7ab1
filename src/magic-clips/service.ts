/**
 * Magic-clips projects (SPEC.md, POST /v1/projects/magic-clips and its
 * upload): a long video in, scored vertical clips out. Creation checks every
 * rule, debits the clip credit in the transaction that stores the project,
 * and queues the pipeline (pipeline.ts); nothing is stored or debited when a
 * request is refused.
 */
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import { debit } from '../credits/ledger.js';
import { paymentRequired } from '../credits/shortfall.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import { JOB_NAMES } from '../jobs/names.js';
import { withUploadedSource } from '../projects/service.js';
import { CLIP_CREDITS_PER_PROJECT, readMagicClipsBody, type MagicClipsSettings } from './creation.js';

type Tx = Prisma.TransactionClient;

function projectData(userId: string, s: MagicClipsSettings): Prisma.ProjectUncheckedCreateInput {
  return {
    userId,
    kind: 'magic_clips',
    title: s.title,
    language: s.language,
    status: 'processing',
    webhookUrl: s.webhookUrl ?? null,
    templateName: s.templateName,
    userThemeId: s.userThemeId ?? null,
    // whole seconds, as stored
    minClipLength: Math.round(s.minClipLength),
    maxClipLength: Math.round(s.maxClipLength),
    faceTracking: s.faceTracking,
    sourceUrl: s.videoshareUrl ?? null,
    dictionary: [],
    progress: { stage: 'queued', percent: 0 },
  };
}

/** Takes the project's clip credit in its creating transaction; none left is 402 and nothing is stored. */
const debitClipCredit = (tx: Tx, userId: string, projectId: string) =>
  debit(
    tx,
    userId,
    { kind: 'clip', amount: CLIP_CREDITS_PER_PROJECT, reason: 'magic clips', subjectId: projectId },
    { shortfall: paymentRequired('clip', CLIP_CREDITS_PER_PROJECT, 'A magic-clips project') },
  );

/** POST /v1/projects/magic-clips: the source is fetched by the pipeline (a file, or a platform page read by yt-dlp). */
export async function createMagicClips(app: App, user: AuthUser, body: unknown): Promise<Project> {
  const settings = await readMagicClipsBody(app, user, body, 'url');
  const id = crypto.randomUUID();
  const project = await app.db.$transaction(async (tx) => {
    await debitClipCredit(tx, user.id, id);
    return tx.project.create({ data: { ...projectData(user.id, settings), id } });
  });
  await app.jobs.enqueue(JOB_NAMES.processMagicClips, { projectId: project.id, userId: user.id });
  return project;
}

/**
 * POST /v1/projects/magic-clips/upload: the fields (and the credit) are
 * checked before a byte of the file is read; the file streams into storage
 * (413 once past MAX_CLIPS_SOURCE_BYTES, 10 GB) and is judged by its content:
 * an mp4 or mov video of at most 120 minutes. A refused or broken upload
 * leaves no project, no file and no debit.
 */
export async function uploadMagicClips(app: App, user: AuthUser, body: unknown, file: { filename: string; stream: Readable }): Promise<Project> {
  let settings: MagicClipsSettings;
  try {
    settings = await readMagicClipsBody(app, user, body, 'upload');
  } catch (e) {
    file.stream.resume(); // the answer goes out now; the rest of the body is not wanted
    throw e;
  }
  const id = crypto.randomUUID();
  return withUploadedSource(app, id, file, app.config.maxClipsSourceBytes, async ({ key, meta }) => {
    const project = await app.db.$transaction(async (tx) => {
      await debitClipCredit(tx, user.id, id);
      return tx.project.create({ data: { ...projectData(user.id, settings), id, sourceKey: key, videoMeta: meta as unknown as Prisma.InputJsonValue } });
    });
    await app.jobs.enqueue(JOB_NAMES.processMagicClips, { projectId: project.id, userId: user.id });
    return project;
  });
}
