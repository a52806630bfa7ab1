import { PROJECT_STEP_JOB_NAMES } from '../jobs/names.js';
import { createProject, editKind, uploadProject } from '../projects/edit-kind.js';
import { getProject, listProjects, metaOf, TITLE_QUERY_MAX, wordsOf } from '../projects/service.js';
import type { Word } from '../media/transcript.js';
import { progressColumn, projectEvent, workAfter, type Progress } from '../projects/state.js';
import { itemsColumn, musicColumn } from '../projects/references.js';
import type { ProjectEvent } from '../pubsub.js';
import { createProjectBody, uploadProjectBody } from '../projects/schemas.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { pageArgs, toConnection } from './connections.js';
import { currentUser, type Context } from './context.js';
import { uploadedFile } from './uploads.js';
import type { Project } from '../generated/prisma/client.ts';
import { projectStyleColumn } from '../themes/columns.js';
import { hookTitleColumn } from '../projects/references.js';
import { captionStyleOf } from '../themes/looks.js';
import { CaptionStyleType } from './catalog.js';
import { CancelledType } from './publishing.js';
import { deleteProject, type ProjectRemoval } from '../projects/removal.js';

export const ProjectStatusEnum = builder.enumType('ProjectStatus', {
  values: ['uploading', 'processing', 'transcribing', 'exporting', 'completed', 'failed'] as const,
});

export const WordType = builder.objectRef<Word>('Word').implement({
  description: 'A caption transcript element; silences have empty text',
  fields: (t) => ({
    id: t.exposeID('id'),
    text: t.exposeString('text'),
    type: t.exposeString('type', { description: 'word, silence or punctuation' }),
    startTime: t.exposeFloat('startTime'),
    endTime: t.exposeFloat('endTime'),
    color: t.string({ nullable: true, description: 'this word’s caption colour, when set', resolve: (w) => w.color ?? null }),
    emphasis: t.boolean({
      nullable: true,
      description: 'emphasised (true) or never (false) over the style’s rules, when set',
      resolve: (w) => w.emphasis ?? null,
    }),
    emoji: t.string({ nullable: true, description: 'an emoji drawn with this word’s page, when set', resolve: (w) => w.emoji ?? null }),
    hidden: t.boolean({ nullable: true, description: 'left out of the captions, when set', resolve: (w) => w.hidden ?? null }),
  }),
});

const VideoMetaDataType = builder.objectRef<{ width: number; height: number; duration: number; fps: number }>('VideoMetaData').implement({
  fields: (t) => ({
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    duration: t.exposeFloat('duration'),
    fps: t.exposeFloat('fps'),
  }),
});

const ProgressType = builder.objectRef<Progress>('ProjectProgress').implement({
  description: 'The running step of a project and how far it is',
  fields: (t) => ({
    stage: t.exposeString('stage'),
    percent: t.exposeFloat('percent'),
    clipsDone: t.exposeInt('clipsDone', { nullable: true, description: 'magic clips: clips ended (completed or failed)' }),
    clipsTotal: t.exposeInt('clipsTotal', { nullable: true, description: 'magic clips: clips being made' }),
  }),
});

export const ProjectKindEnum = builder.enumType('ProjectKind', {
  description: 'edit: a captioned edit of one video; magic_clips: scored clips cut from a long video',
  values: ['edit', 'magic_clips'] as const,
});

export const ProjectType = builder.prismaObject('Project', {
  description: 'A video project: its settings, status, transcript and rendered output',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    language: t.exposeString('language'),
    status: t.field({ type: ProjectStatusEnum, resolve: (p) => p.status }),
    webhookUrl: t.exposeString('webhookUrl', { nullable: true }),
    templateName: t.exposeString('templateName'),
    userThemeId: t.exposeID('userThemeId', { nullable: true }),
    presetId: t.exposeID('presetId', { nullable: true }),
    aiEditTemplate: t.exposeString('aiEditTemplate', { nullable: true }),
    magicZooms: t.exposeBoolean('magicZooms'),
    magicBrolls: t.exposeBoolean('magicBrolls'),
    magicBrollsPercentage: t.exposeInt('magicBrollsPercentage'),
    removeSilencePace: t.exposeString('removeSilencePace', { nullable: true }),
    removeBadTakes: t.exposeBoolean('removeBadTakes'),
    cleanAudio: t.exposeBoolean('cleanAudio'),
    disableCaptions: t.exposeBoolean('disableCaptions'),
    autoRender: t.exposeBoolean('autoRender'),
    captionPositionY: t.exposeFloat('captionPositionY', { nullable: true }),
    captionPositionX: t.exposeFloat('captionPositionX', { nullable: true }),
    reframe: t.exposeString('reframe', {
      nullable: true,
      description: 'face, center or fill: how a picture of another shape fills an export; null: center or fill by how far the shapes differ',
    }),
    speakerLayout: t.exposeString('speakerLayout', {
      nullable: true,
      description: 'auto, follow or split: two people on screen in a picture that follows faces; null: auto',
    }),
    style: t.field({
      type: 'JSON',
      nullable: true,
      description: 'your changes to the template’s or theme’s caption style (a partial caption style), when any',
      resolve: (p) => projectStyleColumn.read(p.captionStyle),
    }),
    captionStyle: t.field({
      type: CaptionStyleType,
      description: 'the whole caption style the captions are drawn in: the template or theme with the project’s changes',
      resolve: (p, _a, ctx) => captionStyleOf(ctx.app, p),
    }),
    hookTitle: t.field({
      type: 'JSON',
      nullable: true,
      description: 'the hook title: its text (derived from the words when not given), template, top (placed off the face when not given) and size',
      resolve: (p) => {
        const hook = hookTitleColumn.read(p.hookTitle);
        if (!hook) return null;
        const { autoTop: _auto, face: _face, ...shown } = hook;
        return shown;
      },
    }),
    music: t.field({
      type: 'JSON',
      nullable: true,
      resolve: (p) => {
        const stored = musicColumn.read(p.music);
        if (!stored) return null;
        const { source: _source, ...music } = stored;
        return music;
      },
    }),
    items: t.field({
      type: 'JSON',
      nullable: true,
      resolve: (p) => itemsColumn.read(p.items)?.map(stripInternal) ?? null,
    }),
    dictionary: t.exposeStringList('dictionary'),
    transcriptionStatus: t.exposeString('transcriptionStatus', { nullable: true, description: 'PROCESSING, COMPLETED or FAILED' }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    videoMetaData: t.field({
      type: VideoMetaDataType,
      nullable: true,
      resolve: (p) => {
        const m = metaOf(p);
        return m ? { width: m.width, height: m.height, duration: m.duration, fps: m.fps } : null;
      },
    }),
    words: t.field({ type: [WordType], nullable: true, resolve: (p) => wordsOf(p) }),
    progress: t.field({ type: ProgressType, nullable: true, resolve: (p) => progressColumn.read(p.progress) }),
    jobId: t.loadable({
      type: 'ID',
      nullable: true,
      description:
        'The background job working on the project now (its pipeline, AI B-roll or a render), else the last one that did; follow it with `jobEvents`',
      // a page of projects asks once
      load: (ids: string[], ctx: Context) => ctx.app.jobs.currentJobIds('projectId', ids, PROJECT_STEP_JOB_NAMES),
      resolve: (p) => p.id,
    }),
    downloadUrl: t.string({
      nullable: true,
      description: 'The rendered video, once exported',
      resolve: (p, _a, ctx) => (p.renderedKey ? ctx.app.storage.url(p.renderedKey, { download: `${p.title}.mp4` }) : null),
    }),
    directUrl: t.string({
      nullable: true,
      description: 'The rendered video, playable in place',
      resolve: (p, _a, ctx) => (p.renderedKey ? ctx.app.storage.url(p.renderedKey) : null),
    }),
    previewUrl: t.string({
      nullable: true,
      description: 'A small, low-frame-rate preview of the rendered video, playable in place',
      resolve: (p, _a, ctx) => (p.previewKey ? ctx.app.storage.url(p.previewKey) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

/**
 * The row again with the relations the selection asks for (one query), when it
 * asks for any; the domain services return plain rows.
 */
async function withQuery(ctx: Context, query: { include?: unknown; select?: unknown }, project: Project) {
  if (!query.include && !query.select) return project;
  return ctx.app.db.project.findUniqueOrThrow({ ...(query as object), where: { id: project.id } });
}

/** what the renderer keeps about an item that callers did not send */
function stripInternal({ mediaType: _mediaType, ...item }: Record<string, unknown>) {
  return item;
}

export const ProjectUpdateType = builder.objectRef<ProjectEvent>('ProjectUpdate').implement({
  description: "A project's status and the progress of its running step",
  fields: (t) => ({
    projectId: t.exposeID('projectId'),
    status: t.exposeString('status'),
    stage: t.exposeString('stage', { nullable: true }),
    percent: t.exposeFloat('percent', { nullable: true }),
    clipsDone: t.exposeInt('clipsDone', { nullable: true, description: 'magic clips: clips ended (completed or failed)' }),
    clipsTotal: t.exposeInt('clipsTotal', { nullable: true, description: 'magic clips: clips being made' }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
  }),
});

builder.queryFields((t) => ({
  project: t.prismaField({
    type: 'Project',
    description: 'One of your projects',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, ctx) => getProject(ctx.app, currentUser(ctx).id, String(id), query),
  }),
  projects: t.connection({
    type: ProjectType,
    description: 'Your projects, newest first; cursors are project ids',
    args: {
      status: t.arg({ type: ProjectStatusEnum, required: false }),
      kind: t.arg({ type: ProjectKindEnum, required: false }),
      q: t.arg.string({ required: false, description: `words of the title, in any case (at most ${TITLE_QUERY_MAX} characters)` }),
    },
    resolve: async (_root, args, ctx) => {
      return toConnection(await listProjects(ctx.app, currentUser(ctx).id, pageArgs(args), { status: args.status, kind: args.kind, q: args.q }));
    },
  }),
}));

const CreateProjectInput = inputFromSchema('CreateProjectInput', createProjectBody, 'The fields of POST /v1/projects');
const UploadProjectInput = inputFromSchema('UploadProjectInput', uploadProjectBody, 'The text fields of POST /v1/projects/upload');

/** The bodies of createProject and uploadProject as the edit kind reads them; the REST routes check theirs with these. */
export const createProjectReader = bodyReader((ctx, { input }: { input: unknown }) => editKind.readBody(ctx.app, currentUser(ctx), input, 'url'));
export const uploadProjectReader = bodyReader((ctx, { input }: { input: unknown }) => editKind.readBody(ctx.app, currentUser(ctx), input, 'upload'));

const DeletedProjectType = builder.objectRef<ProjectRemoval>('DeletedProject').implement({
  description: 'A project as it was when deleted, with what its deletion cancelled',
  fields: (t) => ({
    id: t.id({ resolve: (r) => r.project.id }),
    title: t.string({ resolve: (r) => r.project.title }),
    kind: t.field({ type: ProjectKindEnum, resolve: (r) => r.project.kind }),
    cancelledPublications: t.field({
      type: [CancelledType],
      description: 'its scheduled publications, cancelled with their credits given back',
      resolve: (r) => r.cancelled,
    }),
    removedFiles: t.int({ description: 'stored files removed: source, renders, previews, B-roll', resolve: (r) => r.removedFiles }),
  }),
});

builder.mutationFields((t) => ({
  deleteProject: t.field({
    type: DeletedProjectType,
    description:
      'Deletes a project with its exports, clips, transcript and stored files, stops its jobs and cancels its scheduled publications (credits back); its published posts stay listed with its id and title. Refused (BAD_REQUEST) while a publication of it is being delivered',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteProject(ctx.app, currentUser(ctx).id, String(id)),
  }),
  createProject: t.prismaField({
    type: 'Project',
    description: 'Creates a project from a public mp4 or mov URL; every violated field is reported at once and nothing is stored then',
    args: { input: t.arg({ type: CreateProjectInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) =>
      withQuery(ctx, query, await createProject(ctx.app, currentUser(ctx), input, createProjectReader.kept(ctx))),
  }),
  uploadProject: t.prismaField({
    type: 'Project',
    description: 'Creates a project from an uploaded mp4 or mov file (multipart request); the fields are checked before the file is read',
    args: { input: t.arg({ type: UploadProjectInput, required: true }), file: t.arg({ type: 'Upload', required: true }) },
    resolve: async (query, _root, { input, file }, ctx) =>
      withQuery(ctx, query, await uploadProject(ctx.app, currentUser(ctx), input, await uploadedFile(file), uploadProjectReader.kept(ctx))),
  }),
}));

/** what an event says apart from its instant, to pass over a repeat; computed once per event for all its subscribers */
const movesOfEvent = new WeakMap<ProjectEvent, string>();
function movesOf(e: ProjectEvent): string {
  let moves = movesOfEvent.get(e);
  if (moves === undefined) movesOfEvent.set(e, (moves = JSON.stringify({ ...e, at: undefined })));
  return moves;
}

builder.subscriptionFields((t) => ({
  projectUpdates: t.field({
    type: ProjectUpdateType,
    description:
      "Your project's status and progress, starting with its current state, from whichever process works on it. " +
      'The stream ends after the event that leaves no work running: `completed`, or `failed` with none of its jobs waiting to run ' +
      '(a project already there gives that one event, then ends). With `follow: true` it stays open for what comes next (an export, an update).',
    args: {
      projectId: t.arg.id({ required: true }),
      follow: t.arg.boolean({ required: false, defaultValue: false, description: 'Keep the stream open after completed or failed' }),
    },
    subscribe: async (_root, { projectId, follow }, ctx) => {
      const id = String(projectId);
      const project = await getProject(ctx.app, currentUser(ctx).id, id);
      // listen before reading the state: nothing that happens in between is lost
      const events = ctx.app.pubsub.subscribe('projectUpdated', id)[Symbol.asyncIterator]();
      const first = events.next();
      const current = projectEvent(await ctx.app.db.project.findUniqueOrThrow({ where: { id: project.id } }));
      const ends = async (e: ProjectEvent) => !follow && !(await workAfter(ctx.app, e));
      return (async function* () {
        try {
          yield current;
          if (await ends(current)) return;
          let last = movesOf(current);
          for (let next = await first; !next.done; next = await events.next()) {
            const e = next.value;
            const same = movesOf(e);
            if (same === last || e.at < current.at) continue;
            last = same;
            yield e;
            if (await ends(e)) return;
          }
        } finally {
          await events.return?.();
        }
      })();
    },
    resolve: (e) => e,
  }),
}));
