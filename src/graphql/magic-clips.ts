import { createMagicClips, magicClipsKind, uploadMagicClips } from '../magic-clips/service.js';
import { clipScoreCalibration, MIN_CLIPS, type ClipScoreCalibration, type RankCorrelation } from '../magic-clips/calibration.js';
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
import type { Word } from '../media/transcript.js';
import { transcriptText } from '../ai/hook.js';
import { wordsWithin } from '../magic-clips/edit-projects.js';
import { wordsOf } from '../projects/service.js';
import { clipRangeColumn } from '../magic-clips/settings.js';
import { clipHookColumn } from '../projects/clip-records.js';

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

const ClipRangeType = builder.objectRef<{ startTime: number; endTime: number }>('ClipRange').implement({
  description: 'A part of a source video, in seconds',
  fields: (t) => ({ startTime: t.exposeFloat('startTime'), endTime: t.exposeFloat('endTime') }),
});

/** A project's words, read once per request however many of its clips ask. */
const wordsByRequest = new WeakMap<Context, Map<string, Promise<Word[]>>>();
function projectWords(ctx: Context, projectId: string): Promise<Word[]> {
  let byProject = wordsByRequest.get(ctx);
  if (!byProject) wordsByRequest.set(ctx, (byProject = new Map()));
  let words = byProject.get(projectId);
  if (!words) {
    words = ctx.app.db.project.findUnique({ where: { id: projectId }, select: { transcript: true } }).then((p) => (p ? (wordsOf(p) ?? []) : []));
    byProject.set(projectId, words);
  }
  return words;
}

/** The text of the words inside a clip's window. */
const clipText = (words: readonly Word[], clip: { startTime: number; endTime: number }) => transcriptText(wordsWithin(words, clip.startTime, clip.endTime));

export const MagicClipType = builder.prismaObject('MagicClip', {
  description: 'One clip of a magic-clips project: a scored, captioned vertical video of one moment of the source',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    startTime: t.exposeFloat('startTime', { description: 'where the clip starts in the source, seconds' }),
    endTime: t.exposeFloat('endTime', { description: 'where the clip ends in the source, seconds' }),
    duration: t.exposeFloat('duration', { description: 'seconds' }),
    viralityScores: t.field({ type: ViralityScoresType, resolve: (c) => scoresOf(c) }),
    projectId: t.exposeID('editProjectId', {
      nullable: true,
      description:
        'the edit project made of the clip: its words, style and cuts can be changed and it can be exported in any shape (an extension of SPEC.md); null once that project is deleted',
    }),
    project: t.relation('editProject', { nullable: true, description: 'the edit project made of the clip' }),
    viralityReasons: t.exposeStringList('viralityReasons', {
      description: 'why the clip scored as it did: two to four short sentences naming what the scores were made from (an extension of SPEC.md)',
    }),
    rank: t.exposeInt('rank', {
      description: "1 = the project's best clip: about the topic first when one was given, then by total score (an extension of SPEC.md)",
    }),
    topicMatch: t.exposeFloat('topicMatch', { nullable: true, description: 'how much the clip is about the project’s topic, 0-1; null without a topic' }),
    hookTitle: t.string({
      nullable: true,
      description: 'the hook title drawn over the clip’s first seconds, written from its words; null when the project asks for none',
      resolve: (c) => clipHookColumn.read(c.hookTitle)?.text ?? null,
    }),
    transcript: t.string({
      description: 'the words the clip holds, as one text',
      resolve: async (c, _a, ctx) => clipText(await projectWords(ctx, c.projectId), c),
    }),
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
  clipCount: t.exposeInt('clipCount', { nullable: true, description: 'magic clips: how many clips were asked for; null: one per 3 minutes of source' }),
  topic: t.exposeString('clipTopic', { nullable: true, description: 'magic clips: what the clips should be about' }),
  range: t.field({
    type: ClipRangeType,
    nullable: true,
    description: 'magic clips: the part of the source the clips come from; null: all of it',
    resolve: (p) => {
      const range = clipRangeColumn.read(p.clipRange);
      return range ? { startTime: range.start, endTime: range.end } : null;
    },
  }),
  aspectRatio: t.exposeString('aspectRatio', {
    nullable: true,
    description: 'magic clips: the clips’ shape asked for, 1:1, 4:5, 16:9 or 9:16; null: 9:16, as SPEC.md makes them',
  }),
  clipsNote: t.exposeString('clipsNote', {
    nullable: true,
    description: 'magic clips: what the clips could not be as asked (fewer moments than clipCount), in words',
  }),
  // only a magic-clips project has clips: an edit project's read (the one clients poll) makes no query for them. A page of
  // projects reads its magic-clips projects' clips in one query: Prisma batches the findUnique calls of one tick.
  magicClips: t.prismaField({
    type: ['MagicClip'],
    description: 'magic clips: the clips, in the order of the source',
    resolve: async (query, project, _args, ctx) =>
      project.kind === 'magic_clips'
        ? ((await ctx.app.db.project.findUnique({ where: { id: project.id } }).magicClips({ ...query, orderBy: [{ startTime: 'asc' }, { id: 'asc' }] })) ?? [])
        : [],
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

const RankCorrelationType = builder.objectRef<RankCorrelation>('RankCorrelation').implement({
  description: "Spearman's rank correlation between the clips' predicted total and a measure of how they did",
  fields: (t) => ({
    clips: t.exposeInt('clips', { description: 'clips counted' }),
    rho: t.exposeFloat('rho', { nullable: true, description: `-1 to 1; null under ${MIN_CLIPS} clips, or when a side does not vary` }),
  }),
});

const ClipScoreCalibrationType = builder.objectRef<ClipScoreCalibration>('ClipScoreCalibration').implement({
  description: 'How well the predicted total ranks your published clips (their edit projects published), by views and by engagement rate',
  fields: (t) => ({
    publishedClips: t.exposeInt('publishedClips', { description: 'clips whose edit project was published' }),
    views: t.field({ type: RankCorrelationType, resolve: (c) => c.views }),
    engagementRate: t.field({
      type: RankCorrelationType,
      description: '(likes + comments + shares) / views, over the clips with views',
      resolve: (c) => c.engagementRate,
    }),
  }),
});

builder.queryFields((t) => ({
  clipScoreCalibration: t.field({
    type: ClipScoreCalibrationType,
    description: "How well your clips' predicted scores rank them once published: Spearman's rho by views and by engagement rate (an extension of SPEC.md)",
    resolve: (_root, _args, ctx) => clipScoreCalibration(ctx.app, currentUser(ctx).id),
  }),
}));

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
