/**
 * Reading a magic-clips creation body (POST /v1/projects/magic-clips and its
 * upload): what the caller may do first, the subscription (403) and the clip
 * credit the project will cost (402), so an upload is refused before its file
 * is read; then the schema and what needs the service (the video-platform
 * hosts, the transcription engine, the caller's theme), every problem in one
 * VALIDATION_ERROR. Nothing is written.
 */
import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import { paymentRequired } from '../credits/shortfall.js';
import { forbidden } from '../errors.js';
import { creationSettings, readCreationBody, type CreationSettings } from '../projects/kinds.js';
import type { StyleOverride } from '../catalog/caption-style.js';
import type { HookTitle } from '../projects/references.js';
import { checkStyleFont } from '../themes/fonts.js';
import { findUserTheme } from '../themes/service.js';
import { hookTitleOf } from '../projects/creation.js';
import { onVideoPlatform } from './source.js';
import { CLIP_LENGTH, createMagicClipsBody, uploadMagicClipsBody, type ClipAspectRatio } from './schemas.js';
import type { SpeakerLayout } from '../media/vision/speaker-layout.js';

/** One clip credit per project (SPEC.md, Limits). */
export const CLIP_CREDITS_PER_PROJECT = 1;

export interface MagicClipsSettings extends CreationSettings {
  videoshareUrl?: string;
  minClipLength: number;
  maxClipLength: number;
  faceTracking: boolean;
  /** null: one clip per 3 minutes of source (clipCountFor) */
  clipCount: number | null;
  topic: string | null;
  /** seconds of the source */
  range: { start: number; end: number } | null;
  /** null: 9:16, SPEC.md's shape */
  aspectRatio: ClipAspectRatio | null;
  /** null: auto */
  speakerLayout: SpeakerLayout | null;
  style?: StyleOverride;
  /** the look of every clip's own hook (its text is written per clip); null: none */
  hookTitle: HookTitle | null;
}

/**
 * What the caller may do, before anything of the request is read: the clips
 * subscription of SPEC.md's Authentication (403), then the clip credit a
 * project costs (402; the debit itself comes with the project).
 */
export async function assertMayMakeClips(app: App, user: Pick<AuthUser, 'id' | 'clipsSubscription'>): Promise<void> {
  if (!user.clipsSubscription) throw forbidden('Magic clips need a clips subscription');
  const { clipCredits } = await app.db.user.findUniqueOrThrow({ where: { id: user.id }, select: { clipCredits: true } });
  if (clipCredits < CLIP_CREDITS_PER_PROJECT) throw paymentRequired('clip', CLIP_CREDITS_PER_PROJECT, 'A magic-clips project')(clipCredits);
}

/**
 * Reads and checks a magic-clips body, every rule of SPEC.md at once, once
 * the caller may make clips.
 */
export async function readMagicClipsBody(app: App, user: AuthUser, input: unknown, source: 'url' | 'upload'): Promise<MagicClipsSettings> {
  await assertMayMakeClips(app, user);
  const { errors: e, parsed, fields: body, ok } = readCreationBody(app, input, source, { url: createMagicClipsBody, upload: uploadMagicClipsBody });
  if (ok('videoshareUrl') && !onVideoPlatform(body.videoshareUrl as string, app.config.videoPlatformHosts)) {
    e.add('videoshareUrl', `must be a video page or file on a video platform (${app.config.videoPlatformHosts.join(', ')})`, body.videoshareUrl);
  }
  const userThemeId = ok('userThemeId') ? (body.userThemeId as string) : undefined;
  const [theme] = await Promise.all([
    userThemeId ? findUserTheme(app.db, user.id, userThemeId) : null,
    checkStyleFont(app.db, user.id, body.style, 'style.font.family', e),
  ]);
  if (userThemeId && !theme) e.add('userThemeId', 'is not one of your user themes', userThemeId);
  e.throwIfAny();

  const b = parsed!;
  const minClipLength = b.minClipLength ?? CLIP_LENGTH.defaultMin;
  return {
    ...creationSettings(b),
    videoshareUrl: b.videoshareUrl ? new URL(b.videoshareUrl as string).toString() : undefined,
    minClipLength,
    // a shortest clip above the default longest one raises the longest to it
    maxClipLength: b.maxClipLength ?? Math.max(CLIP_LENGTH.defaultMax, minClipLength),
    faceTracking: b.faceTracking ?? true,
    clipCount: b.clipCount ?? null,
    topic: b.topic?.trim() || null,
    range: b.range ? { start: b.range.startTime, end: b.range.endTime } : null,
    aspectRatio: b.aspectRatio ?? null,
    speakerLayout: b.speakerLayout ?? null,
    style: (b.style ?? undefined) as StyleOverride | undefined,
    hookTitle: hookTitleOf(b.hookTitle as Parameters<typeof hookTitleOf>[0]) ?? null,
  };
}
