import { createMagicClips, magicClipsKind, uploadMagicClips } from '../magic-clips/service.js';
import { clipUrls, scoresOf } from '../projects/clip-records.js';
import { createMagicClipsBody, uploadMagicClipsBody } from '../magic-clips/schemas.js';
import type { ViralityScores } from '../magic-clips/types.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { currentUser, type Context } from './context.js';
import { inputFromSchema } from './inputs.js';
import { ProjectKindEnum, ProjectType } from './projects.js';
import { uploadedFile } from './uploads.js';
import type { Project } from '../generated/prisma/client.ts';

const ViralityScoresType = builder.objectRef<ViralityScores>('ViralityScores').implement({
  description: 'How likely a clip is to do well, each score 0-100 (the README lists the rules)',
  fields: (t) => ({
    total: t.exposeInt('total', { description: 'the weighted sum of the four others' }),
    shareability: t.exposeInt('shareability', { description: 'self-contained and quotable' }),
    hook_strength: t.exposeInt('hook_strength', { description: 'how strongly its first seconds catch' }),
    story_quality: t.exposeInt('story_quality', { description: 'setup and payoff in complete sentences' }),
    emotional_impact: t.exposeInt('emotional_impact', { description: 'strength of feeling in the words and the voice' }),
  }),
});

export const MagicClipType = builder.prismaObject('MagicClip', {
  description: 'One clip of a magic-clips project: a scored, captioned vertical video of one moment of the source',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    startTime: t.exposeFloat('startTime', { description: 'where the clip starts in the source, seconds' }),
    endTime: t.exposeFloat('endTime', { description: 'where the clip ends in the source, seconds' }),
    duration: t.exposeFloat('duration', { description: 'seconds' }),
    viralityScores: t.field({ type: ViralityScoresType, resolve: (c) => scoresOf(c) }),
    status: t.exposeString('status', { description: 'processing, completed or failed' }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    previewUrl: t.string({ nullable: true, description: 'a small 360x640 preview', resolve: (c, _a, ctx) => clipUrls(ctx.app.storage, c).previewUrl }),
    downloadUrl: t.string({ nullable: true, description: 'the clip, as a download', resolve: (c, _a, ctx) => clipUrls(ctx.app.storage, c).downloadUrl }),
    directUrl: t.string({ nullable: true, description: 'the clip, playable in place', resolve: (c, _a, ctx) => clipUrls(ctx.app.storage, c).directUrl }),
  }),
});

builder.prismaObjectFields(ProjectType, (t) => ({
  kind: t.field({ type: ProjectKindEnum, resolve: (p) => p.kind }),
  minClipLength: t.exposeInt('minClipLength', { nullable: true, description: 'magic clips: the shortest clip, seconds' }),
  maxClipLength: t.exposeInt('maxClipLength', { nullable: true, description: 'magic clips: the longest clip, seconds' }),
  faceTracking: t.exposeBoolean('faceTracking', { nullable: true, description: "magic clips: the speaker's face kept in frame" }),
  magicClips: t.relation('magicClips', {
    description: 'magic clips: the clips, in the order of the source',
    query: { orderBy: [{ startTime: 'asc' }, { id: 'asc' }] },
  }),
}));

/** The row again with the relations the selection asks for (one query), when it asks for any. */
async function withQuery(ctx: Context, query: { include?: unknown; select?: unknown }, project: Project) {
  if (!query.include && !query.select) return project;
  return ctx.app.db.project.findUniqueOrThrow({ ...(query as object), where: { id: project.id } });
}

const CreateMagicClipsInput = inputFromSchema('CreateMagicClipsInput', createMagicClipsBody, 'The fields of POST /v1/projects/magic-clips');
const UploadMagicClipsInput = inputFromSchema('UploadMagicClipsInput', uploadMagicClipsBody, 'The text fields of POST /v1/projects/magic-clips/upload');

/** The bodies of createMagicClips and uploadMagicClips as the kind reads them (subscription first); the REST routes check theirs with these. */
export const createMagicClipsReader = bodyReader((ctx, { input }: { input: unknown }) => magicClipsKind.readBody(ctx.app, currentUser(ctx), input, 'url'));
export const uploadMagicClipsReader = bodyReader((ctx, { input }: { input: unknown }) => magicClipsKind.readBody(ctx.app, currentUser(ctx), input, 'upload'));

builder.mutationFields((t) => ({
  createMagicClips: t.prismaField({
    type: 'Project',
    description:
      'Makes scored vertical clips of a long video on a video platform (a page or a file); needs a clips subscription and costs 1 clip credit, given back when the clips cannot be made for a reason that is not yours',
    authScopes: { clipsSubscription: true },
    args: { input: t.arg({ type: CreateMagicClipsInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) =>
      withQuery(ctx, query, await createMagicClips(ctx.app, currentUser(ctx), input, createMagicClipsReader.kept(ctx))),
  }),
  uploadMagicClips: t.prismaField({
    type: 'Project',
    description: 'Makes scored vertical clips of an uploaded mp4 or mov (multipart request, at most 10 GB and 120 minutes); same rules as createMagicClips',
    authScopes: { clipsSubscription: true },
    args: { input: t.arg({ type: UploadMagicClipsInput, required: true }), file: t.arg({ type: 'Upload', required: true }) },
    resolve: async (query, _root, { input, file }, ctx) =>
      withQuery(ctx, query, await uploadMagicClips(ctx.app, currentUser(ctx), input, await uploadedFile(file), uploadMagicClipsReader.kept(ctx))),
  }),
}));
