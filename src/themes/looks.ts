/**
 * A project's look, resolved: its template or theme, its own style changes
 * laid over (Project.captionStyle), and the captions layer of a render made
 * from them (the ASS file, the fonts folder, the emoji pictures).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { App } from '../app.js';
import { salientWords } from '../ai/salience.js';
import { overStyle, type CaptionStyle } from '../catalog/caption-style.js';
import { DEFAULT_CAPTION_TEMPLATE, findCaptionTemplate } from '../catalog/caption-templates.js';
import type { Project } from '../generated/prisma/client.ts';
import { buildCaptions, emojiStickers, type CaptionSourceWord, type HookTitle, type PageOptions } from '../media/render/captions.js';
import { fontsDir } from '../media/render/fonts.js';
import type { RenderSticker } from '../media/render/graph.js';
import type { Segment } from '../media/transcript.js';
import { projectStyleColumn } from './columns.js';
import { themeStyle } from './service.js';

type Looked = Pick<Project, 'userId' | 'templateName' | 'userThemeId' | 'captionStyle'>;

/** The caption style a project's captions are drawn in: its theme's (or template's), with the project's own changes. */
export async function captionStyleOf(app: App, project: Looked): Promise<CaptionStyle> {
  const theme = project.userThemeId ? await app.db.userTheme.findFirst({ where: { id: project.userThemeId, userId: project.userId } }) : null;
  const base = theme ? themeStyle(theme) : (findCaptionTemplate(project.templateName) ?? DEFAULT_CAPTION_TEMPLATE).style;
  return overStyle(base, projectStyleColumn.read(project.captionStyle));
}

/** The burned-in pages' size and language: the SRT and VTT cues are the same pages. */
export async function captionPagesOf(app: App, project: Looked & Pick<Project, 'language'>): Promise<PageOptions> {
  const style = await captionStyleOf(app, project);
  return { wordsPerLine: style.layout.wordsPerLine, linesPerPage: style.layout.linesPerPage, language: project.language };
}

export interface CaptionLayer {
  assPath: string;
  fontsDir: string;
  stickers: RenderSticker[];
}

export interface CaptionLayerOptions {
  words: readonly CaptionSourceWord[];
  keep: readonly Segment[];
  width: number;
  height: number;
  language: string;
  positionX?: number | null;
  positionY?: number | null;
  captions?: boolean;
  hook?: HookTitle | null;
}

/**
 * Writes the captions of one render into `dir`: the ASS file in `style`, a
 * fonts folder with its family (and the script fallbacks, and `fontFiles`:
 * the library's files of a family the system lacks, libraryFontFiles), and
 * the emoji as stickers (those the picture package lacks are left out).
 */
export async function captionLayer(style: CaptionStyle, o: CaptionLayerOptions, dir: string, fontFiles: readonly string[] = []): Promise<CaptionLayer> {
  const salient = style.emphasis.rules.includes('salient') && o.captions !== false ? await salientWords(o.words, o.language) : undefined;
  const captions = buildCaptions({ ...o, style, salient });
  const assPath = path.join(dir, 'captions.ass');
  await fs.writeFile(assPath, captions.ass);
  return { assPath, fontsDir: fontsDir(dir, [style.font.family], fontFiles, captions.ass), stickers: emojiStickers(captions.emoji) };
}
