/**
 * The catalogue's preview stills: one PNG per caption template (a page with
 * a word being said and an emphasised word, and the emoji the template draws)
 * and per hook-title template, on a 540x960 frame. Each is rendered on first
 * request, stored under a key naming its look (a changed template gets a new
 * one), and served from storage after that, to every instance.
 */
import crypto from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { App } from '../app.js';
import type { CaptionStyle } from '../catalog/caption-style.js';
import type { CaptionTemplate } from '../catalog/caption-templates.js';
import { DEFAULT_CAPTION_TEMPLATE } from '../catalog/caption-templates.js';
import type { HookTitleTemplate } from '../catalog/hook-title-templates.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { buildCaptions, emojiStickers, type HookTitle } from '../media/render/captions.js';
import { fontsDir } from '../media/render/fonts.js';
import { renderStill } from '../media/render/still.js';
import type { TimedWord, WordLook } from '../media/transcript.js';
import type { Storage } from '../storage/storage.js';

export const PREVIEW_FRAME = { width: 540, height: 960 } as const;
/** Raise to render every stored preview again (a renderer change that alters pictures). */
const PREVIEW_VERSION = 1;

/** The words of a caption preview: the first is emphasised, the second is being said at PREVIEW_AT. */
export const PREVIEW_WORDS = ['Money', 'comes', 'fast', 'in', '30', 'days', 'with', 'ideas'];
const WORD_SECONDS = 0.5;
const FIRST_WORD_AT = 0.4;

/** The preview's words, evenly timed, the first emphasised by the creator's word setting. */
export function previewWords(): (TimedWord & WordLook)[] {
  return PREVIEW_WORDS.map((text, i) => ({
    text,
    type: 'word' as const,
    startTime: FIRST_WORD_AT + i * WORD_SECONDS,
    endTime: FIRST_WORD_AT + i * WORD_SECONDS + WORD_SECONDS * 0.9,
    ...(i === 0 ? { emphasis: true } : {}),
  }));
}

/** The second shown: the second word being said, past any entrance; a one-word page shows the emphasised first word. */
export function previewAt(style: CaptionStyle): number {
  const word = style.layout.wordsPerLine * style.layout.linesPerPage > 1 ? 1 : 0;
  return FIRST_WORD_AT + word * WORD_SECONDS + Math.max(0.3, style.entrance.duration / 1000 + 0.05) * (word === 0 ? 1 : 0.6);
}

/** Per store (one per app; several apps may share a process, as tests do): stills being rendered, and stills known to be stored. */
const known = new WeakMap<Storage, { rendering: Map<string, Promise<void>>; stored: Set<string> }>();

/** The URL of the stored still `key`, rendering it first when it is not stored yet (once per process and store at a time). */
async function storedStill(app: App, key: string, render: (out: string, dir: string) => Promise<void>): Promise<string> {
  let mine = known.get(app.storage);
  if (!mine) known.set(app.storage, (mine = { rendering: new Map(), stored: new Set() }));
  const { rendering, stored } = mine;
  // a list of templates with their previews asks storage nothing after the first time
  if (!stored.has(key) && !(await app.storage.stat(key))) {
    let pending = rendering.get(key);
    if (!pending) {
      pending = inWorkDir(app.config.dataDir, `preview-${path.basename(key, '.png')}`, async (dir) => {
        const out = path.join(dir, 'still.png');
        await render(out, dir);
        await app.storage.put(key, createReadStream(out), { contentType: 'image/png' });
      }).finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    await pending;
  }
  stored.add(key);
  return app.storage.url(key);
}

const keyOf = (kind: string, name: string, look: unknown) =>
  `catalog/previews/${kind}-${name}-${crypto
    .createHash('sha256')
    .update(JSON.stringify([PREVIEW_VERSION, look]))
    .digest('hex')
    .slice(0, 12)}.png`;

/** Renders the still of a caption style to `out` (work files in `dir`; `fontFiles`: the library's files of its family, themes/fonts.ts). */
export async function renderStylePreview(
  style: CaptionStyle,
  out: string,
  dir: string,
  hook: HookTitle | null = null,
  fontFiles: readonly string[] = [],
): Promise<void> {
  const { width, height } = PREVIEW_FRAME;
  const words = previewWords();
  const captions = buildCaptions({ words, keep: [{ start: 0, end: 10 }], style, width, height, captions: !hook, hook });
  const assPath = path.join(dir, 'still.ass');
  await fs.writeFile(assPath, captions.ass);
  const stickers = emojiStickers(captions.emoji);
  await renderStill({
    width,
    height,
    background: null,
    at: hook ? 1.2 : previewAt(style),
    assPath,
    fontsDir: fontsDir(dir, [style.font.family], fontFiles, captions.ass),
    stickers,
    out,
  });
}

/** The URL of a caption template's preview still. */
export function captionTemplatePreview(app: App, template: CaptionTemplate): Promise<string> {
  return storedStill(app, keyOf('caption', template.name, template.style), (out, dir) => renderStylePreview(template.style, out, dir));
}

/** Where a template's still is served: a link of the service that renders it on its first fetch (registerPreviewRoutes). */
export function previewLink(app: Pick<App, 'config'>, kind: 'caption' | 'hook', name: string): string {
  return `${app.config.publicUrl}/previews/${kind}/${encodeURIComponent(name)}.png`;
}

/** The hook text of the hook-title previews. */
export const PREVIEW_HOOK = 'The one habit that changed my whole year';

/** The URL of a hook-title template's preview still. */
export function hookTemplatePreview(app: App, template: HookTitleTemplate): Promise<string> {
  const hook: HookTitle = { text: PREVIEW_HOOK, template, top: 38 };
  return storedStill(app, keyOf('hook', template.name, template), (out, dir) => renderStylePreview(DEFAULT_CAPTION_TEMPLATE.style, out, dir, hook));
}
