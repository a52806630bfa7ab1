/**
 * What a caller reads of a magic clip: the SPEC.md record, with its files as
 * the service's signed URLs. It is part of its project's record and webhook,
 * which the lifecycle sends whatever the kind, so it sits with projects.
 */
import type { ViralityScores } from '../ai/clip-scoring.js';
import { z } from 'zod';
import { jsonColumn } from '../db/json.js';
import type { MagicClip } from '../generated/prisma/client.ts';
import type { Storage } from '../storage/storage.js';
import { magicClipPayload } from '../webhooks/events.js';

export interface ClipUrls {
  previewUrl: string | null;
  downloadUrl: string | null;
  directUrl: string | null;
}

/** The clip's files once rendered (null before). */
export function clipUrls(storage: Pick<Storage, 'url'>, clip: Pick<MagicClip, 'title' | 'outputKey' | 'previewKey'>): ClipUrls {
  return {
    previewUrl: clip.previewKey ? storage.url(clip.previewKey) : null,
    downloadUrl: clip.outputKey ? storage.url(clip.outputKey, { download: `${clip.title}.mp4` }) : null,
    directUrl: clip.outputKey ? storage.url(clip.outputKey) : null,
  };
}

/** MagicClip.viralityScores: the scores the record and its webhook show, in the webhook's schema */
export const viralityScoresColumn = jsonColumn<ViralityScores>('MagicClip.viralityScores', magicClipPayload.shape.viralityScores);

/** MagicClip.hookTitle: the clip's own hook, written from its words; the render places it off the face and the captions */
export const clipHookColumn = jsonColumn<{ text: string } | null>('MagicClip.hookTitle', z.object({ text: z.string().min(1) }).nullable());

export const scoresOf = (clip: Pick<MagicClip, 'viralityScores'>) => viralityScoresColumn.read(clip.viralityScores);

/** The Magic clip record of SPEC.md (the completion webhook, GET /v1/projects/{id}). */
export function clipRecord(storage: Pick<Storage, 'url'>, clip: MagicClip) {
  return {
    id: clip.id,
    title: clip.title,
    duration: clip.duration,
    viralityScores: scoresOf(clip),
    projectId: clip.editProjectId,
    viralityReasons: clip.viralityReasons,
    rank: clip.rank,
    startTime: clip.startTime,
    endTime: clip.endTime,
    hookTitle: clipHookColumn.read(clip.hookTitle)?.text ?? null,
    status: clip.status,
    ...clipUrls(storage, clip),
  };
}
