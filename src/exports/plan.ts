import fs from 'node:fs/promises';
import path from 'node:path';
import type { App } from '../app.js';
import { isAppError } from '../errors.js';
import { DEFAULT_HOOK_TITLE_TEMPLATE, findHookTitleTemplate } from '../catalog/hook-title-templates.js';
import type { Export, Prisma, Project } from '../generated/prisma/client.ts';
import type { HookTitle } from '../media/render/captions.js';
import { measureLoudness, normalizingGain } from '../media/audio-levels.js';
import { lut3dFilter, type OverlayLayout, type RenderOverlay, type RenderPlan, type RenderSticker, type RenderZoom } from '../media/render/graph.js';
import { autoBrollOverlays, type OverlayFiles } from './auto-broll.js';
import { keepSegments, mapSpan, mergeSegments, outputDuration, silenceCuts } from '../media/render/timeline.js';
import type { SilencePace } from '../catalog/silence-paces.js';
import type { Segment, Word } from '../media/transcript.js';
import { localFiles, type LocalFiles } from '../storage/storage.js';
import { badTakesColumn, badTakesForRead, detectBadTakes, storedBadTakes } from '../projects/bad-takes.js';
import { metaOf } from '../projects/service.js';
import { renderSource, transcribedSource } from '../projects/source.js';
import { reframing } from '../projects/reframe.js';
import { colorFilterColumn, hookTitleColumn, itemsColumn, logoColumn, musicColumn } from '../projects/references.js';
import { colorFilterChain } from '../catalog/color-filters.js';
import { libraryFontFiles } from '../themes/fonts.js';
import { readCube, writeCube } from '../library/assets.js';
import { probe } from '../media/ffprobe.js';
import { captionLayer, captionStyleOf } from '../themes/looks.js';
import { hookToPlace, hookTopFor, placeHook } from '../projects/hook-placement.js';
import type { CaptionStyle } from '../catalog/caption-style.js';
import type { VideoMeta } from '../projects/service.js';

/** A magic zoom: a 12 % punch-in held for this long at a sentence start. */
const ZOOM_SCALE = 1.12;
const ZOOM_SECONDS = 1.6;
/** at most one zoom in this many output seconds, so it reads as emphasis, not motion */
const ZOOM_SPACING = 4;

export interface ExportPlan {
  plan: RenderPlan;
}

/**
 * The kept source ranges: silence removal at the project's pace (the
 * transcript's pauses, trimmed to where the measured sound is quiet), then bad
 * takes (as stored with the transcript: see src/projects/bad-takes.ts).
 */
export async function keptSegments(project: Project, words: Word[], duration: number, fps: number): Promise<Segment[]> {
  const cuts: Segment[] = [];
  if (project.removeSilencePace) {
    const quiet = metaOf(project)?.audioLevels?.quiet;
    cuts.push(...silenceCuts(words, { pace: project.removeSilencePace as SilencePace, duration, fps, quiet }));
  }
  if (project.removeBadTakes) cuts.push(...(await badTakesForRead(project, words)));
  return keepSegments(duration, mergeSegments(cuts), fps);
}

/** A word said this many times slower per letter than the transcript's median is stressed. */
const STRESS_FACTOR = 1.6;
/** shorter words are not judged by their pace */
const STRESS_MIN_LETTERS = 4;

/**
 * Stressed words: exclaimed ("now!"), or drawn out: at least STRESS_FACTOR
 * times the transcript's median seconds per letter, with STRESS_MIN_LETTERS
 * letters or more.
 */
export function stressedWords(words: readonly Word[]): Set<Word> {
  const letters = (w: Word) => w.text.replace(/[^\p{L}\p{N}]/gu, '').length;
  const spoken = words.filter((w) => w.type === 'word' && letters(w) > 0 && w.endTime > w.startTime);
  const paces = spoken.map((w) => (w.endTime - w.startTime) / letters(w)).sort((x, y) => x - y);
  const median = paces.length ? paces[Math.floor(paces.length / 2)] : 0;
  const stressed = new Set<Word>();
  words.forEach((w, i) => {
    if (w.type !== 'word') return;
    const next = words[i + 1];
    const exclaimed = /!$/.test(w.text) || (next?.type === 'punctuation' && next.text.startsWith('!'));
    const n = letters(w);
    const slow = median > 0 && n >= STRESS_MIN_LETTERS && (w.endTime - w.startTime) / n >= STRESS_FACTOR * median;
    if (exclaimed || slow) stressed.add(w);
  });
  return stressed;
}

/**
 * Zooms on emphasis: sentence starts (the first word after a pause or a
 * sentence's end) and stressed words, on the output timeline, spaced so they
 * never jitter (the earlier one wins).
 */
export function emphasisZooms(words: Word[], keep: Segment[]): RenderZoom[] {
  const stressed = stressedWords(words);
  const zooms: RenderZoom[] = [];
  let previous: Word | undefined;
  for (const w of words) {
    if (w.type !== 'word') {
      if (w.type === 'silence' || /[.!?]$/.test(w.text)) previous = w;
      continue;
    }
    const startsSentence = !previous || previous.type === 'silence' || /[.!?]$/.test(previous.text) || w.startTime - previous.endTime > 0.5;
    previous = w;
    if (!startsSentence && !stressed.has(w)) continue;
    const span = mapSpan(keep, w.startTime, w.startTime + ZOOM_SECONDS);
    if (!span || span.end - span.start < 0.8) continue;
    if (zooms.length && span.start - zooms[zooms.length - 1].end < ZOOM_SPACING) continue;
    zooms.push({ start: span.start, end: span.end, scale: ZOOM_SCALE });
  }
  return zooms;
}

/** How long an export may read the project's source through a remote store's URL: longer than any render of it lasts. */
const SOURCE_URL_SECONDS = 6 * 3600;

/** A project transcribed before bad takes were stored gets them detected and stored at its first export. */
async function withBadTakes(app: App, project: Project, words: Word[]): Promise<Project> {
  if (!project.removeBadTakes || storedBadTakes(project)) return project;
  const badTakes = await detectBadTakes(app, words);
  // the transcript cannot change meanwhile: an exporting project is not editable
  await app.db.project.update({ where: { id: project.id }, data: { badTakes: badTakesColumn.write(badTakes) } });
  return { ...project, badTakes: badTakes as unknown as Prisma.JsonValue };
}

/**
 * Everything the renderer needs for one export of a project, and the captions
 * file. `dir` is the export's work folder: the source and the videos shown as
 * items (library videos, B-roll clips) are read where they are stored (by range
 * through a remote store's URL); the other stored inputs (images, the logo, a
 * LUT, music, fonts) through local copies in its `inputs`, the fonts linked in
 * a folder of their own.
 *
 * What a render of `stored` at the export's size draws. `still`: for one frame
 * of it (src/exports/preview.ts): the same picture, less what only a whole
 * render needs or what would be made for it (sound and music, automatic
 * B-roll, a hook's first placement or derived text: a still uses the stored ones).
 */
export async function buildExportPlan(
  app: App,
  stored: Project,
  exp: Pick<Export, 'width' | 'height' | 'fps'>,
  dir: string,
  { still = false }: { still?: boolean } = {},
): Promise<ExportPlan> {
  const files = localFiles(app.storage, path.join(dir, 'inputs'));
  // what a render reads only part of is read where it is stored (a remote store's URL, read by range), never copied whole
  const inPlace: LocalFiles = (key) => app.storage.mediaSource(key, still ? 600 : SOURCE_URL_SECONDS);
  const { meta, words, sourceKey } = transcribedSource(stored);
  const project = await withBadTakes(app, stored, words);
  const fps = exp.fps;
  const keep = await keptSegments(project, words, meta.duration, fps);

  const style = await captionStyleOf(app, project);
  // the source is read where it is stored (a remote store's URL, read by range), never copied: a still reads
  // its two frames, a project that is a window of a long source (a magic clip's) only its window, and a whole
  // render streams it as it encodes instead of waiting for a copy on this machine's disk
  const source = await inputFile(inPlace, sourceKey, "The project's source video");
  const { fit, reframe } = await reframing(app, project, meta, source, exp, { still });
  const hook = await exportHook(app, project, words, source, meta, style, { ...exp, fit }, still);
  const captions = await captionLayer(
    style,
    {
      words,
      keep,
      width: exp.width,
      height: exp.height,
      language: project.language,
      positionY: project.captionPositionY,
      positionX: project.captionPositionX,
      captions: !project.disableCaptions,
      hook: hook?.text ? hook : null,
    },
    dir,
    await libraryFontFiles(app.db, project.userId, style.font.family, files),
  );

  // an item's video is read for its seconds on screen, from its start: by range, like the window of a long source
  const overlayFiles: OverlayFiles = { video: inPlace, image: files };
  const overlays = await itemOverlays(app, project, keep, overlayFiles);
  if (project.magicBrolls && !still) overlays.push(...(await autoBrollOverlays(app, project, words, keep, overlays, overlayFiles)));
  const music = still ? null : await musicInput(app, project, files);
  const logo = await logoSticker(app, project, files, exp, outputDuration(keep));
  const look = await colorLook(app, project, files, dir);
  // clean audio: one fixed gain to the target loudness (measured at transcription, else now)
  const loudness =
    still || !project.cleanAudio || !meta.hasAudio ? null : meta.audioLevels ? meta.audioLevels.loudness : (await measureLoudness(source)).loudness;
  return {
    plan: {
      source: renderSource(source, meta),
      output: { width: exp.width, height: exp.height, fps, preset: app.config.renderPreset, fit },
      ...(reframe ? { reframe } : {}),
      keep,
      zooms: project.magicZooms ? emphasisZooms(words, keep) : [],
      ...captions,
      stickers: [...captions.stickers, ...(logo ? [logo] : [])],
      ...(look ? { colorFilter: look } : {}),
      overlays,
      audio: { clean: project.cleanAudio, gainDb: normalizingGain(loudness), music },
    },
  };
}

/**
 * The hook title of an export: its text (the stored one, else derived now, for
 * a project stored before hooks were derived in its pipeline), placed for the
 * export's frame (hook-placement.ts; its face looked for once, and stored).
 */
async function exportHook(
  app: App,
  stored: Project,
  words: Word[],
  source: string,
  meta: VideoMeta,
  style: CaptionStyle,
  out: { width: number; height: number; fit: RenderPlan['output']['fit'] },
  still: boolean,
): Promise<HookTitle | null> {
  let project = stored;
  let setting = hookTitleColumn.read(project.hookTitle);
  if (!setting) return null;
  const text = setting.text || (still ? '' : await app.ai.hook.write(words, { language: project.language }));
  if (!text) return null;
  if (hookToPlace({ ...setting, text }) && !still) {
    project = await placeHook(app, project, source, meta, style, { ...setting, text });
    setting = hookTitleColumn.read(project.hookTitle) ?? setting;
  }
  const top = hookTopFor(
    { ...setting, text },
    { style, captions: !project.disableCaptions, source: meta, out, fit: out.fit, positionX: project.captionPositionX, positionY: project.captionPositionY },
  );
  return { text, template: findHookTitleTemplate(setting.template ?? '') ?? DEFAULT_HOOK_TITLE_TEMPLATE, top, size: setting.size };
}

/**
 * The project's logo (a preset's saved logo) as a sticker over the whole
 * video: its width a share of the frame's, its height by its own aspect, in
 * its corner at its margin, at its opacity. A logo no longer in the library
 * (deleted, or not ready) is left out.
 */
async function logoSticker(
  app: App,
  project: Project,
  files: LocalFiles,
  out: { width: number; height: number },
  duration: number,
): Promise<RenderSticker | null> {
  const logo = logoColumn.read(project.logo);
  if (!logo) return null;
  const media = await app.db.userMedia.findFirst({ where: { id: logo.userMediaId, userId: project.userId, status: 'ready', type: 'IMAGE' } });
  if (!media?.storageKey) return null;
  const file = await inputFile(files, media.storageKey, 'The logo');
  const { video } = await probe(file);
  if (!video) return null;
  const w = Math.max(2, Math.round((out.width * logo.sizePercent) / 100));
  const h = Math.max(2, Math.round((w * video.height) / video.width));
  const m = (Math.min(out.width, out.height) * logo.marginPercent) / 100;
  const x = logo.position.endsWith('left') ? m + w / 2 : out.width - m - w / 2;
  const y = logo.position.startsWith('top') ? m + h / 2 : out.height - m - h / 2;
  return { path: file, x, y, size: w, height: h, opacity: logo.opacity / 100, windows: [{ start: 0, end: duration }] };
}

/**
 * The project's colour look as a filter chain: a named look's filters, or a
 * LUT of the library at its intensity (the table itself softened, written to
 * `dir`: library/assets.ts writeCube). A LUT no longer in the library is
 * left out, as a deleted logo is.
 */
async function colorLook(app: App, project: Project, files: LocalFiles, dir: string): Promise<string | null> {
  const look = colorFilterColumn.read(project.colorFilter);
  if (!look) return null;
  if ('name' in look) return colorFilterChain(look.name, look.intensity);
  const media = await app.db.userMedia.findFirst({ where: { id: look.userMediaId, userId: project.userId, status: 'ready', type: 'LUT' } });
  if (!media?.storageKey) return null;
  const lut = readCube(await fs.readFile(await inputFile(files, media.storageKey, 'The colour LUT'), 'latin1'));
  const cube = path.join(dir, 'look.cube');
  await fs.writeFile(cube, writeCube(lut, look.intensity));
  return lut3dFilter(cube);
}

/** A stored input's local file; one missing from storage fails the export naming what it was. */
async function inputFile(files: LocalFiles, key: string, what: string): Promise<string> {
  try {
    return await files(key);
  } catch (e) {
    if (isAppError(e) && e.code === 'NOT_FOUND') throw new Error(`${what} is missing from storage`);
    throw e;
  }
}

/** Items on the output timeline: ready library files and generated B-roll clips. */
async function itemOverlays(app: App, project: Project, keep: Segment[], files: OverlayFiles): Promise<RenderOverlay[]> {
  const items = itemsColumn.read(project.items) ?? [];
  const ids = items.flatMap((i) => (i.type === 'user-media' ? [i.userMediaId] : []));
  const media = ids.length
    ? await app.db.userMedia.findMany({
        where: { id: { in: ids }, userId: project.userId, status: 'ready' },
        select: { id: true, type: true, storageKey: true },
      })
    : [];
  const byId = new Map(media.map((m) => [m.id, m]));
  const overlays: RenderOverlay[] = [];
  for (const [n, item] of items.entries()) {
    const span = mapSpan(keep, item.startTime, item.endTime);
    if (!span || span.end - span.start <= 0) continue; // the whole window was cut
    let key: string | null = null;
    let kind: 'VIDEO' | 'IMAGE' = 'VIDEO';
    if (item.type === 'user-media') {
      const m = byId.get(item.userMediaId);
      if (!m?.storageKey || (m.type !== 'VIDEO' && m.type !== 'IMAGE')) continue;
      key = m.storageKey;
      kind = m.type;
    } else if (item.clipKey) {
      key = item.clipKey;
    }
    if (!key) continue;
    overlays.push({
      path: await inputFile(
        kind === 'VIDEO' ? files.video : files.image,
        key,
        `The ${item.type === 'user-media' ? 'library file' : 'B-roll clip'} of items[${n}]`,
      ),
      kind,
      start: span.start,
      end: span.end,
      layout: (item.layout as OverlayLayout | undefined) ?? 'cover',
    });
  }
  return overlays;
}

async function musicInput(app: App, project: Project, files: LocalFiles) {
  const music = musicColumn.read(project.music);
  if (!music) return null;
  const key =
    music.source === 'library'
      ? (await app.db.userMedia.findFirst({ where: { id: music.userMediaId, userId: project.userId, status: 'ready' }, select: { storageKey: true } }))
          ?.storageKey
      : (await app.db.musicTrack.findFirst({ where: { id: music.userMediaId, status: 'ready' }, select: { storageKey: true } }))?.storageKey;
  return key ? { path: await inputFile(files, key, 'The music'), volume: music.volume, startFrom: music.startFromTime, fade: music.fade, duck: true } : null;
}
