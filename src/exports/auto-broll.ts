/**
 * Automatic B-roll (`magicBrolls`): cutaways laid over the talking head on
 * sentence-level windows of the output timeline.
 *
 * Windows. The transcript is split into sentences (a sentence ends at . ! ?,
 * a silence word, or a pause of more than 0.5 s); a sentence shorter than 2 s
 * on the output timeline is joined with the next ones until it lasts 2 s, and a
 * window lasts at most 4 s (from the sentence's start). A window is *eligible*
 * when it starts after the hook (the first 1.5 s of the output), overlaps no
 * explicit item overlay and lies at least 1 s from the previous eligible
 * window and from every item.
 *
 * Percentage. `magicBrollsPercentage` (0-100, default 50) is read as the share
 * of eligible windows that get B-roll: round(p% of them), at least one when
 * p > 0, spread evenly over the video (0 gives none, 100 gives every eligible
 * window). With 2-4 s windows on most sentences this is roughly the share of
 * the output that is covered, without ever cutting inside a sentence.
 *
 * Filling. The user's READY VIDEO and IMAGE library entries first: the entry
 * whose file-name words share the most words with the window's words (unused
 * entries preferred), else the next one round-robin. With an empty library the
 * B-roll generator (src/ai, BROLL_PROVIDER) makes a clip from the window's key
 * words; clips are kept in storage under `projects/<id>/auto-broll/<n>.mp4`
 * (n: the window's number) with a `<n>.json` record of what they were made
 * for, so a re-export reuses them and only a changed window is made again.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { App } from '../app.js';
import type { Project } from '../generated/prisma/client.ts';
import type { RenderOverlay } from '../media/render/graph.js';
import { mapSpan, normalizeWord, outputDuration } from '../media/render/timeline.js';
import type { Segment, TimedWord } from '../media/transcript.js';
import { metaOf } from '../projects/service.js';
import { inWorkDir } from '../jobs/work-dir.js';
import type { LocalFiles } from '../storage/storage.js';

/** the hook: no automatic B-roll in the first seconds of the output */
export const AUTO_BROLL_HOOK_SECONDS = 1.5;
export const AUTO_BROLL_MIN_SECONDS = 2;
export const AUTO_BROLL_MAX_SECONDS = 4;
/** least output time between two B-roll windows (and between one and an item) */
export const AUTO_BROLL_GAP_SECONDS = 1;
/** a pause this long ends a sentence */
const SENTENCE_PAUSE = 0.5;
/** one generated clip never takes longer than this */
const CLIP_TIMEOUT_MS = 5 * 60_000;

export const autoBrollKey = (projectId: string, n: number) => `projects/${projectId}/auto-broll/${n}.mp4`;
const recordKey = (projectId: string, n: number) => `projects/${projectId}/auto-broll/${n}.json`;

/** A window on the output timeline and the spoken words in it. */
export interface BrollWindow extends Segment {
  words: string[];
}

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it its ' +
    'just me my no not now of on or our out so some than that the their them then there these they this to too up us was ' +
    'we were what when where which who why will with would you your yours im its thats dont about also very really here ' +
    'get got going gonna let lets like make one two all more most much over only other again okay ok yeah well want'
  ).split(' '),
);

/** The content words of a text, normalised (no stop words, at least 3 characters). */
export function keyWords(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}']+/u)
    .map(normalizeWord)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

/** Sentences of the transcript as source ranges with their words. */
function sentences(words: readonly TimedWord[]): Array<{ start: number; end: number; words: string[] }> {
  const out: Array<{ start: number; end: number; words: string[] }> = [];
  let cur: { start: number; end: number; words: string[] } | null = null;
  for (const w of words) {
    if (w.type === 'silence') {
      if (w.endTime - w.startTime > SENTENCE_PAUSE || /[.!?]/.test(w.text)) cur = null;
      continue;
    }
    if (w.type === 'punctuation') {
      if (/[.!?]/.test(w.text)) cur = null;
      continue;
    }
    if (!Number.isFinite(w.startTime) || !Number.isFinite(w.endTime)) continue;
    if (!cur || w.startTime - cur.end > SENTENCE_PAUSE) {
      cur = { start: w.startTime, end: w.endTime, words: [] };
      out.push(cur);
    }
    cur.end = Math.max(cur.end, w.endTime);
    cur.words.push(w.text);
    if (/[.!?]["')\]]*$/.test(w.text.trim())) cur = null;
  }
  return out;
}

/**
 * The eligible windows on the output timeline (see the module comment): after
 * the hook, 2-4 s, not overlapping nor within 1 s of `busy` or of each other.
 */
export function eligibleWindows(words: readonly TimedWord[], keep: readonly Segment[], busy: readonly Segment[] = []): BrollWindow[] {
  const total = outputDuration(keep);
  const spans: BrollWindow[] = [];
  for (const s of sentences(words)) {
    const span = mapSpan(keep, s.start, s.end);
    if (span && span.end > span.start) spans.push({ ...span, words: s.words });
  }
  const out: BrollWindow[] = [];
  const free = (w: Segment) =>
    w.start >= AUTO_BROLL_HOOK_SECONDS - 1e-9 &&
    w.end <= total + 1e-9 &&
    busy.every((b) => w.end + AUTO_BROLL_GAP_SECONDS <= b.start + 1e-9 || w.start >= b.end + AUTO_BROLL_GAP_SECONDS - 1e-9) &&
    (!out.length || w.start >= out[out.length - 1].end + AUTO_BROLL_GAP_SECONDS - 1e-9);
  for (let i = 0; i < spans.length; i++) {
    const start = Math.max(spans[i].start, AUTO_BROLL_HOOK_SECONDS);
    let end = spans[i].end;
    const ws = [...spans[i].words];
    let j = i;
    while (end - start < AUTO_BROLL_MIN_SECONDS && j + 1 < spans.length) {
      j++;
      end = spans[j].end;
      ws.push(...spans[j].words);
    }
    if (end - start < AUTO_BROLL_MIN_SECONDS) break; // the rest of the video is too short
    const w = { start, end: Math.min(end, start + AUTO_BROLL_MAX_SECONDS), words: ws };
    if (!free(w)) continue;
    out.push(w);
    i = j; // the joined sentences are used
  }
  return out;
}

/** round(percent % of the eligible windows), at least one when percent > 0, spread evenly. */
export function pickWindows<T>(eligible: readonly T[], percent: number): T[] {
  const n = eligible.length;
  const p = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 50));
  if (!n || p <= 0) return [];
  const k = Math.min(n, Math.max(1, Math.round((p / 100) * n)));
  const picked: T[] = [];
  for (let i = 0; i < k; i++) picked.push(eligible[Math.floor(((i + 0.5) * n) / k)]);
  return picked;
}

interface LibraryEntry {
  id: string;
  type: 'VIDEO' | 'IMAGE';
  fileName: string;
  storageKey: string;
}

/** The library entry for each window: best file-name match (unused first), else round-robin. */
export function matchLibrary<T extends { id: string; fileName: string }>(windows: readonly BrollWindow[], library: readonly T[]): T[] {
  if (!library.length) return [];
  const names = library.map((m) => new Set(keyWords(m.fileName.replace(/\.[^.]+$/, ''))));
  const used = new Map<string, number>();
  let next = 0;
  return windows.map((w) => {
    const said = new Set(keyWords(w.words.join(' ')));
    let best = -1;
    let bestScore = 0;
    library.forEach((m, i) => {
      let hits = 0;
      for (const x of names[i]) if (said.has(x)) hits++;
      if (!hits) return;
      // a match is worth more than variety, but an unused entry wins a tie
      const score = hits * 10 - (used.get(m.id) ?? 0);
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    });
    const pick = best >= 0 ? library[best] : library[next++ % library.length];
    used.set(pick.id, (used.get(pick.id) ?? 0) + 1);
    return pick;
  });
}

/** The prompt of a generated clip: the window's key words (its words when none is a key word). */
export function windowPrompt(w: BrollWindow): string {
  const keys = [...new Set(keyWords(w.words.join(' ')))];
  const text = keys.length ? keys.slice(0, 8).join(' ') : w.words.join(' ');
  return text.slice(0, 2500) || 'b-roll';
}

/**
 * How an export reads an overlay's stored file: a video where it is stored
 * (a remote store's URL: the render reads its first seconds, by range), an
 * image as a local copy (read whole, and looped).
 */
export interface OverlayFiles {
  video: LocalFiles;
  image: LocalFiles;
}

/** The automatic B-roll overlays of an export; `existing` are the item overlays, never covered. */
export async function autoBrollOverlays(
  app: App,
  project: Pick<Project, 'id' | 'userId' | 'magicBrollsPercentage' | 'videoMeta'>,
  words: readonly TimedWord[],
  keep: readonly Segment[],
  existing: readonly RenderOverlay[],
  files: OverlayFiles,
): Promise<RenderOverlay[]> {
  const windows = pickWindows(eligibleWindows(words, keep, existing), project.magicBrollsPercentage ?? 50);
  if (!windows.length) return [];

  const library = (
    await app.db.userMedia.findMany({
      where: { userId: project.userId, status: 'ready', type: { in: ['VIDEO', 'IMAGE'] }, storageKey: { not: null } },
      select: { id: true, type: true, fileName: true, storageKey: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    })
  ).flatMap((m) => (m.storageKey && (m.type === 'VIDEO' || m.type === 'IMAGE') ? [m as LibraryEntry] : []));
  if (library.length) {
    const picks = matchLibrary(windows, library);
    const overlays: RenderOverlay[] = [];
    for (const [i, w] of windows.entries()) {
      try {
        const read = picks[i].type === 'VIDEO' ? files.video : files.image;
        overlays.push({ path: await read(picks[i].storageKey), kind: picks[i].type, start: w.start, end: w.end, layout: 'cover' });
      } catch (e) {
        app.log.warn({ err: e, projectId: project.id, userMediaId: picks[i].id }, 'a library file for automatic B-roll could not be read');
      }
    }
    return overlays;
  }

  const meta = metaOf(project);
  // the renderer scales the clip to the layout: its size need not be the export's; at most 1080 on the long side
  const scale = Math.min(1, 1080 / Math.max(meta?.width ?? 1080, meta?.height ?? 1920));
  const width = Math.round((meta?.width ?? 1080) * scale);
  const height = Math.round((meta?.height ?? 1920) * scale);
  const overlays: RenderOverlay[] = [];
  for (const [n, w] of windows.entries()) {
    const key = autoBrollKey(project.id, n);
    const durationSeconds = Math.round((w.end - w.start) * 1000) / 1000;
    const wanted = { prompt: windowPrompt(w), durationSeconds, width, height };
    try {
      if (!(await cached(app, project.id, n, wanted))) {
        // a killed run's scratch files go when the next run makes the clip
        await inWorkDir(app.config.dataDir, `auto-broll-${project.id}-${n}`, async (workDir) => {
          const file = await app.ai.broll.generate(wanted.prompt, { ...wanted, signal: AbortSignal.timeout(CLIP_TIMEOUT_MS), workDir });
          try {
            await app.storage.put(key, fs.createReadStream(file), { contentType: 'video/mp4' });
          } finally {
            await fs.promises.rm(file, { force: true });
          }
        });
        await app.storage.put(recordKey(project.id, n), Readable.from([Buffer.from(JSON.stringify(wanted))]), { contentType: 'application/json' });
      }
      overlays.push({ path: await files.video(key), kind: 'VIDEO', start: w.start, end: w.end, layout: 'cover' });
    } catch (e) {
      // B-roll is decoration: a clip that cannot be made (or read) leaves its window on the speaker
      app.log.warn({ err: e, projectId: project.id, window: n }, 'automatic B-roll clip could not be made');
    }
  }
  return overlays;
}

/** Whether clip n exists and was made for exactly `wanted`. */
async function cached(app: App, projectId: string, n: number, wanted: object): Promise<boolean> {
  try {
    if (!(await app.storage.stat(autoBrollKey(projectId, n)))) return false;
    const { body } = await app.storage.get(recordKey(projectId, n));
    const chunks: Buffer[] = [];
    for await (const c of body) chunks.push(Buffer.from(c as Buffer));
    return Buffer.concat(chunks).toString('utf8') === JSON.stringify(wanted);
  } catch {
    return false;
  }
}
