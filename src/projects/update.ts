/**
 * PUT /v1/projects/{id} (SPEC.md): changes some settings of a transcribed
 * project. Every field is checked first (one VALIDATION_ERROR naming every
 * violated field, library references looked up in one query), then everything
 * is written in one transaction, so a failing `words` edit applies nothing
 * else. AI B-roll items are debited in that transaction and move the project
 * completed → processing; the `projects.generate-broll` job renders them and
 * moves it back (workers/jobs/generate-broll.ts).
 *
 * Which projects can be edited (SPEC.md leaves it open beyond "transcribed"):
 * a `completed` project, or a `failed` project that has a transcript (a B-roll
 * generation that failed, say). A project still in its pipeline, exporting or
 * uploading answers 400 BAD_REQUEST. `words` on a project with no transcript
 * yet is a VALIDATION_ERROR on `words`, whatever its status.
 */
import type { App } from '../app.js';
import { type AppError, badRequest, FieldErrors } from '../errors.js';
import { Prisma } from '../db/client.js';
import type { z } from 'zod';
import type { Project, ProjectStatus } from '../generated/prisma/client.ts';
import { newWordId } from '../media/transcription/post-process.js';
import { isPlainObject, readBody } from '../validation.js';
import { badTakesColumn, detectBadTakes, storedBadTakes } from './bad-takes.js';
import { debitAiBroll } from './credits.js';
import { hookTitleOf, musicDraftOf } from './creation.js';
import { checkStyleFont } from '../themes/fonts.js';
import { hookTitleColumn, itemsColumn, musicColumn, resolveLibrary, type HookTitle } from './references.js';
import { readableItems, updateProjectBody, type WordDraft } from './schemas.js';
import { getProject, transcriptColumn, wordsOf } from './service.js';
import type { Word, WordLook } from '../media/transcript.js';
import { mergeOverrides, type StyleOverride } from '../catalog/caption-style.js';
import { projectStyleColumn } from '../themes/columns.js';
import { findUserTheme } from '../themes/service.js';
import { move } from './lifecycle.js';
import { JOB_NAMES } from '../jobs/names.js';

export const UPDATED_MESSAGE = 'Project updated successfully';
export const ACCEPTED_MESSAGE = 'Project update accepted';

export interface UpdateResult {
  message: string;
  id: string;
  /** the project's status after the update */
  status: ProjectStatus;
}

/** completed, or failed after transcription; see the file comment */
const isEditable = (p: Pick<Project, 'status' | 'transcript'>) => p.status === 'completed' || (p.status === 'failed' && wordsOf(p) !== null);

/** The row changed between our read and our write (another update, an export starting): read again. */
class Raced extends Error {}

/** `read` is the body as readProjectUpdate read it already (the REST check): the first attempt takes it; a raced one reads again. */
export async function updateProject(app: App, userId: string, projectId: string, body: unknown, read?: ProjectUpdateRead): Promise<UpdateResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await updateOnce(app, userId, projectId, body, attempt === 1 ? read : undefined);
    } catch (e) {
      if (!(e instanceof Raced)) throw e;
      if (attempt === 3) throw badRequest('The project changed while it was being updated; send the update again');
    }
  }
}

/** One of the user's projects and the update body read against it (NOT_FOUND first, then every violated field). */
export async function readProjectUpdate(app: App, userId: string, projectId: string, input: unknown, e = new FieldErrors(), schema = updateProjectBody) {
  const project = await getProject(app, userId, projectId);
  return { project, ...(await readUpdateBody(app, userId, project, input, e, schema)) };
}

export type ProjectUpdateRead = Awaited<ReturnType<typeof readProjectUpdate>>;

async function updateOnce(app: App, userId: string, projectId: string, input: unknown, read?: ProjectUpdateRead): Promise<UpdateResult> {
  const checked = read ?? (await readProjectUpdate(app, userId, projectId, input));
  const { project, items } = checked;
  if (!isEditable(project)) throw notEditable(project);
  const data = await updateData(app, checked);

  // one conditional write: only if the row is still what was checked (status and all)
  const asRead = { status: project.status, updatedAt: project.updatedAt };
  const brolls = items?.filter((i) => i.type === 'ai-broll').length ?? 0;
  if (brolls > 0) {
    // AI B-roll: the project moves to processing, its items' credits debited in the same transaction
    const moved = await move(app, project, 'updateBroll', { data, where: asRead, also: (tx) => debitAiBroll(tx, userId, brolls, project.id) });
    if (!moved) throw new Raced();
    await app.jobs.enqueue(JOB_NAMES.generateBroll, { projectId: project.id, userId });
    return { message: ACCEPTED_MESSAGE, id: moved.id, status: moved.status };
  }
  const { count } = await app.db.project.updateMany({ where: { id: project.id, ...asRead }, data });
  if (count === 0) throw new Raced();
  return { message: UPDATED_MESSAGE, id: project.id, status: project.status };
}

/**
 * The project as an update read against it would leave it, in memory only:
 * what a preview draws before the user saves (src/exports/preview.ts).
 */
export async function withUpdate(app: App, read: ProjectUpdateRead): Promise<Project> {
  const data = await updateData(app, read);
  const changed: Record<string, unknown> = { ...read.project };
  for (const [k, v] of Object.entries(data)) changed[k] = v === Prisma.DbNull ? null : v;
  return changed as Project;
}

/** The row changes of an update read against its project: derived hook text and bad takes included. */
async function updateData(app: App, read: ProjectUpdateRead): Promise<Prisma.ProjectUpdateManyMutationInput> {
  const { project, body, words, hookTitle, music, items } = read;
  const {
    removeSilencePace,
    removeBadTakes,
    magicZooms,
    cleanAudio,
    disableCaptions,
    captionPositionY,
    captionPositionX,
    reframe,
    speakerLayout,
    templateName,
    userThemeId,
    style,
  } = body;
  const current = wordsOf(project);

  // `true` (or an object without text) asks for the default hook: written from the transcript as it will be
  const transcript = words ?? current;
  let hook: HookTitle | null | undefined = hookTitle;
  if (hook && !hook.text && transcript?.length) {
    const text = await app.ai.hook.write(transcript, { language: project.language });
    if (text) hook = { ...hook, text };
  }

  // bad takes are stored with the transcript they were found in (src/projects/bad-takes.ts)
  const cutBadTakes = removeBadTakes ?? project.removeBadTakes;
  const badTakes = transcript && cutBadTakes && (words || !storedBadTakes(project)) ? await detectBadTakes(app, transcript) : words ? null : undefined;

  return {
    ...(words ? { transcript: transcriptColumn.write(words) } : {}),
    ...(badTakes === null ? { badTakes: Prisma.DbNull } : badTakes ? { badTakes: badTakesColumn.write(badTakes) } : {}),
    ...(removeSilencePace !== undefined ? { removeSilencePace } : {}),
    ...(removeBadTakes !== undefined ? { removeBadTakes } : {}),
    ...(magicZooms !== undefined ? { magicZooms } : {}),
    ...(cleanAudio !== undefined ? { cleanAudio } : {}),
    ...(disableCaptions !== undefined ? { disableCaptions } : {}),
    ...(captionPositionY !== undefined ? { captionPositionY } : {}),
    ...(captionPositionX !== undefined ? { captionPositionX } : {}),
    ...(reframe !== undefined ? { reframe } : {}),
    ...(speakerLayout !== undefined ? { speakerLayout } : {}),
    // a template replaces the theme and a theme the template; the project's own style changes stay until cleared
    ...(templateName !== undefined ? { templateName, userThemeId: null } : {}),
    ...(userThemeId !== undefined ? { userThemeId } : {}),
    ...(style === null
      ? { captionStyle: Prisma.DbNull }
      : style
        ? { captionStyle: projectStyleColumn.write(mergeOverrides(projectStyleColumn.read(project.captionStyle), style as StyleOverride)) }
        : {}),
    ...(hook === null ? { hookTitle: Prisma.DbNull } : hook ? { hookTitle: hookTitleColumn.write(hook) } : {}),
    ...(music ? { music: musicColumn.write({ ...music }) } : {}),
    ...(items ? { items: itemsColumn.write(items) } : {}),
  };
}

function notEditable(p: Pick<Project, 'status'>): AppError {
  const why: Record<string, string> = {
    uploading: 'is still uploading',
    processing: 'is processing (its pipeline or AI B-roll generation is running)',
    transcribing: 'is being transcribed',
    exporting: 'is being exported',
    failed: 'failed before it was transcribed',
  };
  return badRequest(`Project cannot be updated now: it ${why[p.status] ?? `is ${p.status}`}; a project can be updated once it is completed`);
}

/**
 * Reads a PUT body against the project: the schema, then the word ids against
 * the current transcript and the library references, every problem in one
 * VALIDATION_ERROR. A body with `words` before transcription is refused on `words`.
 */
async function readUpdateBody(app: App, userId: string, project: Project, input: unknown, e: FieldErrors, schema: z.ZodType) {
  const current = wordsOf(project);
  const raw = isPlainObject(input) ? input : {};
  const early = raw.words !== undefined && !current;
  if (early) e.add('words', 'can be edited only after transcription: the project has no transcript yet', null);
  // words that cannot apply are not read further
  const parsed = readBody(schema, early ? { ...raw, words: [] } : input, e) as z.output<typeof updateProjectBody> | null;
  if (current && Array.isArray(raw.words)) checkWordIds(raw.words, current, e);

  // the look: a theme of the user's, and not over the captions of the preset the project was made with
  const themeId = typeof raw.userThemeId === 'string' && !e.has('userThemeId') ? raw.userThemeId : undefined;
  const [theme, preset] = await Promise.all([
    themeId ? findUserTheme(app.db, userId, themeId) : null,
    project.presetId && ['templateName', 'userThemeId', 'style'].some((f) => raw[f] !== undefined)
      ? app.db.preset.findFirst({ where: { id: project.presetId, userId }, select: { captions: true } })
      : null,
  ]);
  if (themeId && !theme) e.add('userThemeId', 'is not one of your user themes', themeId);
  if (preset?.captions) {
    for (const f of ['templateName', 'userThemeId', 'style'])
      if (raw[f] !== undefined) e.add(f, "cannot be combined with the captions of the project's preset (its captions toggle is on)", raw[f]);
  }

  // library references, all looked up together (as at creation)
  const drafts = Array.isArray(raw.items) && raw.items.length > 0 ? readableItems(raw.items) : undefined;
  const [{ music, items }] = await Promise.all([
    resolveLibrary(app, userId, musicDraftOf(raw.music, e), drafts, e),
    checkStyleFont(app.db, userId, raw.style, 'style.font.family', e),
  ]);
  e.throwIfAny();
  const body = parsed!;
  return { body, words: body.words && newTranscript(body.words, current!), hookTitle: hookTitleOf(body.hookTitle), music, items };
}

/** Ids of the current transcript, each given to one word at most; a word without id is new. */
function checkWordIds(words: unknown[], current: Word[], e: FieldErrors) {
  const existing = new Set(current.map((w) => w.id));
  const used = new Set<string>();
  words.forEach((w, i) => {
    if (!isPlainObject(w) || w.id === undefined) return;
    const id = w.id;
    if (typeof id !== 'string' || !existing.has(id))
      e.add(`words[${i}].id`, 'is not the id of a word of the current transcript (leave id out for a new word)', id);
    else if (used.has(id)) e.add(`words[${i}].id`, 'is given to more than one word', id);
    else used.add(id);
  });
}

/** The look a word keeps: each field given (null clears it), else the one it had. */
function lookOf(w: WordDraft, before: Word | undefined): WordLook {
  const look: WordLook = {};
  for (const key of ['color', 'emphasis', 'emoji', 'hidden'] as const) {
    const given = w[key];
    const value = given === undefined ? before?.[key] : given;
    if (value !== null && value !== undefined) (look as Record<string, unknown>)[key] = value;
  }
  return look;
}

/**
 * The new transcript: ids of the current one kept, new words get new ids,
 * silences stored with empty text. A word keeps the engine's confidence only
 * while its text is the one the engine heard: a word the user wrote is sure.
 * A kept word keeps the look set on it (colour, emphasis, emoji, hidden) unless
 * the edit sets it anew.
 */
function newTranscript(words: WordDraft[], current: Word[]): Word[] {
  const taken = new Set(current.map((w) => w.id));
  const heard = new Map(current.map((w) => [w.id, w]));
  return words.map((w) => {
    const text = w.type === 'silence' ? '' : (w.text as string);
    const before = typeof w.id === 'string' ? heard.get(w.id) : undefined;
    const confidence = before?.confidence !== undefined && w.type === 'word' && before.type === 'word' && before.text === text ? before.confidence : undefined;
    return {
      id: typeof w.id === 'string' ? w.id : newWordId(taken),
      text,
      type: w.type,
      startTime: w.startTime,
      endTime: w.endTime,
      ...(confidence !== undefined ? { confidence } : {}),
      ...(w.type === 'word' ? lookOf(w, before) : {}),
    };
  });
}
