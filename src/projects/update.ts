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
import { AppError, badRequest, type FieldErrors } from '../errors.js';
import { Prisma } from '../db/client.js';
import type { Project, ProjectStatus } from '../generated/prisma/client.ts';
import { InputReader, isPlainObject } from '../input.js';
import { newWordId } from '../media/transcription/post-process.js';
import { detectBadTakes, storedBadTakes } from './bad-takes.js';
import { debitAiBroll } from './credits.js';
import { getProject, wordsOf } from './service.js';
import type { Word } from '../media/transcript.js';
import { SILENCE_PACES } from './settings.js';
import { move } from './lifecycle.js';
import { readHookTitle, readItems, readMusic, resolveLibrary, type HookTitle, type Item } from './validate.js';
import { JOB_NAMES } from '../jobs/names.js';

/** The body fields of PUT /v1/projects/{id}; the caption-position names are DECISIONS.md's. */
export const UPDATE_FIELDS = [
  'words', 'removeSilencePace', 'removeBadTakes', 'disableCaptions', 'captionPositionY', 'captionPositionX', 'hookTitle', 'music', 'items',
] as const;

export const WORD_TYPES = ['word', 'silence', 'punctuation'] as const;
/** More than a two-hour video can hold, with silences and punctuation. */
const MAX_WORDS = 100_000;
const MAX_WORD_CHARS = 200;

export const UPDATED_MESSAGE = 'Project updated successfully';
export const ACCEPTED_MESSAGE = 'Project update accepted';

export interface UpdateResult {
  message: string;
  id: string;
  /** the project's status after the update */
  status: ProjectStatus;
}

/** A stored item: an AI B-roll item gets `clipKey` once its clip is in storage. */
export type StoredItem = Item | (Extract<Item, { type: 'ai-broll' }> & { clipKey?: string });

/** completed, or failed after transcription; see the file comment */
const isEditable = (p: Pick<Project, 'status' | 'transcript'>) => p.status === 'completed' || (p.status === 'failed' && wordsOf(p) !== null);

/** The row changed between our read and our write (another update, an export starting): read again. */
class Raced extends Error {}

export async function updateProject(app: App, userId: string, projectId: string, body: unknown): Promise<UpdateResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await updateOnce(app, userId, projectId, body);
    } catch (e) {
      if (!(e instanceof Raced)) throw e;
      if (attempt === 3) throw badRequest('The project changed while it was being updated; send the update again');
    }
  }
}

async function updateOnce(app: App, userId: string, projectId: string, body: unknown): Promise<UpdateResult> {
  const project = await getProject(app, userId, projectId);
  const r = new InputReader(body, UPDATE_FIELDS);
  r.requireSome(UPDATE_FIELDS);
  const e = r.errors;

  const current = wordsOf(project);
  const words = readWords(r.value('words'), current, e);
  const removeSilencePace = r.oneOf('removeSilencePace', SILENCE_PACES) ?? undefined;
  const removeBadTakes = r.boolean('removeBadTakes');
  const disableCaptions = r.boolean('disableCaptions');
  const captionPositionY = r.number('captionPositionY', 0, 80) ?? undefined;
  const captionPositionX = r.number('captionPositionX', 0, 100) ?? undefined;
  const hookTitle = readHookTitle(r.value('hookTitle'), e, 'hookTitle', { allowFalse: true });
  const musicDraft = readMusic(r.value('music'), e);
  const itemDrafts = readItems(r.value('items'), e, 'items', { requireOne: true });

  // library references, all looked up together (as at creation)
  const { music, items } = await resolveLibrary(app, userId, musicDraft, itemDrafts, e);

  e.throwIfAny();

  if (!isEditable(project)) throw notEditable(project);

  // `true` (or an object without text) asks for the default hook: written from the transcript as it will be
  const transcript = words ?? current;
  let hook: HookTitle | null | undefined = hookTitle;
  if (hook && !hook.text && transcript?.length) {
    const text = await app.ai.hook.write(transcript);
    if (text) hook = { ...hook, text };
  }

  // bad takes are stored with the transcript they were found in (src/projects/bad-takes.ts)
  const cutBadTakes = removeBadTakes ?? project.removeBadTakes;
  const badTakes =
    transcript && cutBadTakes && (words || !storedBadTakes(project)) ? await detectBadTakes(app, transcript) : words ? null : undefined;

  const brolls = items?.filter((i) => i.type === 'ai-broll').length ?? 0;
  const data: Prisma.ProjectUpdateManyMutationInput = {
    ...(words ? { transcript: words as unknown as Prisma.InputJsonValue } : {}),
    ...(badTakes === null ? { badTakes: Prisma.DbNull } : badTakes ? { badTakes: badTakes as unknown as Prisma.InputJsonValue } : {}),
    ...(removeSilencePace !== undefined ? { removeSilencePace } : {}),
    ...(removeBadTakes !== undefined ? { removeBadTakes } : {}),
    ...(disableCaptions !== undefined ? { disableCaptions } : {}),
    ...(captionPositionY !== undefined ? { captionPositionY } : {}),
    ...(captionPositionX !== undefined ? { captionPositionX } : {}),
    ...(hook === null ? { hookTitle: Prisma.DbNull } : hook ? { hookTitle: hook as unknown as Prisma.InputJsonValue } : {}),
    ...(music ? { music: { ...music } as unknown as Prisma.InputJsonValue } : {}),
    ...(items ? { items: items as unknown as Prisma.InputJsonValue } : {}),
  };

  // one conditional write: only if the row is still what was checked (status and all)
  const asRead = { status: project.status, updatedAt: project.updatedAt };
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
 * The new transcript: each word by the Word rules of SPEC.md, in order of
 * start time; ids of the current transcript are kept, new words get new ids,
 * silences are stored with empty text.
 */
export function readWords(v: unknown, current: Word[] | null, e: FieldErrors): Word[] | undefined {
  if (v === undefined) return undefined;
  if (!current) return void e.add('words', 'can be edited only after transcription: the project has no transcript yet', null);
  if (!Array.isArray(v)) return void e.add('words', 'must be an array of words {id?, text, type, startTime, endTime}', v);
  if (v.length > MAX_WORDS) return void e.add('words', `must have at most ${MAX_WORDS} words`, v.length);
  const existing = new Set(current.map((w) => w.id));
  const used = new Set<string>();
  const taken = new Set(existing);
  const out: Word[] = [];
  let previousStart: number | null = null;
  let failed = false;
  v.forEach((raw, i) => {
    const at = `words[${i}]`;
    if (!isPlainObject(raw)) {
      failed = true;
      return void e.add(at, 'must be an object {id?, text, type, startTime, endTime}', raw);
    }
    const r = new InputReader(raw, ['id', 'text', 'type', 'startTime', 'endTime']);
    let id: string | undefined;
    if (r.has('id')) {
      const given = r.value('id');
      if (typeof given !== 'string' || !existing.has(given)) r.errors.add('id', 'is not the id of a word of the current transcript (leave id out for a new word)', given);
      else if (used.has(given)) r.errors.add('id', 'is given to more than one word', given);
      else used.add((id = given));
    }
    const type = r.oneOf('type', WORD_TYPES);
    if (!r.has('type')) r.errors.add('type', `is required: one of ${WORD_TYPES.join(', ')}`);
    // a silence's text is ignored (stored empty); a word or punctuation needs one
    const text = type === 'silence' ? '' : r.text('text', { max: MAX_WORD_CHARS, required: true });
    const startTime = r.number('startTime', 0, 24 * 3600, { required: true });
    const endTime = r.number('endTime', 0, 24 * 3600, { required: true });
    if (startTime != null && endTime != null && endTime < startTime) r.errors.add('endTime', 'must be greater than or equal to startTime', endTime);
    if (startTime != null) {
      if (previousStart !== null && startTime < previousStart) {
        r.errors.add('startTime', `must be at least the previous word's startTime (${previousStart}): words are in time order`, startTime);
      }
      previousStart = startTime;
    }
    for (const err of r.errors.list) e.add(`${at}.${err.field}`, err.message, err.value);
    if (r.errors.size) failed = true;
    else out.push({ id: id ?? '', text: text!, type: type!, startTime: startTime!, endTime: endTime! });
  });
  if (failed) return undefined;
  for (const w of out) if (!w.id) w.id = newWordId(taken);
  return out;
}
