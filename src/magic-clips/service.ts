/**
 * Magic-clips projects (SPEC.md, POST /v1/projects/magic-clips and its
 * upload): a long video in, scored vertical clips out. What the kind differs
 * in: its body and the clip credit it costs (debited in the transaction that
 * stores the project), its own pipeline (pipeline.ts), sources up to
 * MAX_CLIPS_SOURCE_BYTES fetched from a video platform's page, and no
 * `transcribing` status; the rest is every kind's (src/projects/source.ts).
 * Nothing is stored or debited when a request is refused.
 */
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import { debit } from '../credits/ledger.js';
import { paymentRequired } from '../credits/shortfall.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import { JOB_NAMES } from '../jobs/names.js';
import type { ProjectKindDef } from '../projects/kinds.js';
import { MAX_PROJECT_SECONDS } from '../projects/settings.js';
import { createFromUpload, createFromUrl, type UploadedFile } from '../projects/source.js';
import { CLIP_CREDITS_PER_PROJECT, readMagicClipsBody, type MagicClipsSettings } from './creation.js';
import { fetchClipSource } from './source.js';
import { clipRangeColumn } from './settings.js';
import { hookTitleColumn } from '../projects/references.js';
import { projectStyleColumn } from '../themes/columns.js';

type Tx = Prisma.TransactionClient;

/** A magic-clips project's own fields of its new row, from checked settings. */
function projectData(s: MagicClipsSettings): Partial<Prisma.ProjectUncheckedCreateInput> {
  return {
    // whole seconds, as stored
    minClipLength: Math.round(s.minClipLength),
    maxClipLength: Math.round(s.maxClipLength),
    faceTracking: s.faceTracking,
    sourceUrl: s.videoshareUrl ?? null,
    dictionary: [],
    clipCount: s.clipCount,
    clipTopic: s.topic,
    clipRange: s.range ? clipRangeColumn.write(s.range) : undefined,
    aspectRatio: s.aspectRatio,
    speakerLayout: s.speakerLayout,
    captionStyle: s.style ? projectStyleColumn.write(s.style) : undefined,
    hookTitle: s.hookTitle ? hookTitleColumn.write(s.hookTitle) : undefined,
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

export const magicClipsKind: ProjectKindDef<MagicClipsSettings> = {
  kind: 'magic_clips',
  logName: 'magic-clips',
  job: JOB_NAMES.processMagicClips,
  maxBytes: (config) => config.maxClipsSourceBytes,
  readBody: readMagicClipsBody,
  data: projectData,
  debit: (tx, userId, _settings, projectId) => debitClipCredit(tx, userId, projectId),
  // a file, or a platform page read by yt-dlp; a page's video known to be too long fails before a byte is fetched
  fetchSource: (app, input) => fetchClipSource(app, { ...input, maxSeconds: MAX_PROJECT_SECONDS }),
  urlField: 'videoshareUrl',
  transcribing: false,
  // the project stays processing until its clips have ended; its transcription is done
  transcribed: async () => ({ transcriptionStatus: 'COMPLETED' }),
};

/** POST /v1/projects/magic-clips: the source is fetched by the pipeline (a file, or a platform page read by yt-dlp). */
export const createMagicClips = (app: App, user: AuthUser, body: unknown, read?: MagicClipsSettings): Promise<Project> =>
  createFromUrl(app, magicClipsKind, user, body, read);

/**
 * POST /v1/projects/magic-clips/upload: the fields (and the credit) are
 * checked before a byte of the file is read; the file streams into storage
 * (413 once past MAX_CLIPS_SOURCE_BYTES, 10 GB) and is judged by its content:
 * an mp4 or mov video of at most 120 minutes. A refused or broken upload
 * leaves no project, no file and no debit.
 */
export const uploadMagicClips = (app: App, user: AuthUser, body: unknown, file: UploadedFile, read?: MagicClipsSettings): Promise<Project> =>
  createFromUpload(app, magicClipsKind, user, body, file, read);
