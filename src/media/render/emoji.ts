/**
 * Emoji for captions, offline: keywords to emoji from the npm package
 * `emojilib` (MIT), and each emoji's colour picture from
 * `emoji-datasource-google` (64 px PNGs of Noto Color Emoji, Apache-2.0).
 * libass draws glyphs in one colour, so an emoji is laid over the frame as a
 * picture (graph.ts, stickers) rather than typed into the ASS text.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Keywords too general to stand for a word (every face has "face"). */
const TOO_GENERAL = new Set([
  'face',
  'open',
  'mouth',
  'eye',
  'eyes',
  'hand',
  'person',
  'man',
  'woman',
  'symbol',
  'sign',
  'button',
  'mark',
  'word',
  'like',
  'with',
  'and',
  'the',
  'for',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'hundred',
  'thousand',
  'year',
  'full',
  'business',
]);

let images: Map<string, string> | null = null;
let keywords: Map<string, string> | null = null;

const hexOf = (emoji: string) => [...emoji].map((c) => c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')).join('-');

/** Emoji (by unified code points, with and without variation selectors) to their picture's file. */
function imageTable(): Map<string, string> {
  if (images) return images;
  const dir = path.join(path.dirname(require.resolve('emoji-datasource-google/package.json')), 'img', 'google', '64');
  const data = require('emoji-datasource-google/emoji.json') as { unified: string; non_qualified: string | null; image: string; has_img_google: boolean }[];
  images = new Map();
  for (const e of data) {
    if (!e.has_img_google) continue;
    const file = path.join(dir, e.image);
    images.set(e.unified, file);
    if (e.non_qualified) images.set(e.non_qualified, file);
  }
  return images;
}

/** The PNG of an emoji (64 x 64, transparent), or null for text that is not one emoji the package draws. */
export function emojiImage(emoji: string): string | null {
  const table = imageTable();
  const hex = hexOf(emoji);
  const file = table.get(hex) ?? table.get(hex.replace(/-FE0F/g, ''));
  return file && fs.existsSync(file) ? file : null;
}

/** Whether `text` is one emoji that can be drawn. */
export const isDrawableEmoji = (text: string) => text.length <= 16 && emojiImage(text) !== null;

/**
 * Keyword to emoji, best first: an emoji named by the word ("fire" → 🔥), then
 * one whose name holds it (the shortest name: "money" → 💰 money_bag), then
 * one tagged with it (the emoji listing it earliest among its keywords); only
 * emoji with a picture; no keycaps and no number words (a spoken number is
 * not a key).
 */
function keywordTable(): Map<string, string> {
  if (keywords) return keywords;
  const lib = require('emojilib') as Record<string, string[]>;
  const best = new Map<string, { emoji: string; rank: number }>();
  const offer = (k: string, emoji: string, rank: number) => {
    const cur = best.get(k);
    if (!cur || rank < cur.rank) best.set(k, { emoji, rank });
  };
  for (const [emoji, words] of Object.entries(lib)) {
    if (emoji.includes('\u20E3') || !emojiImage(emoji)) continue;
    const [name = '', ...rest] = words;
    const tokens = name.split('_');
    if (tokens.length === 1) offer(name, emoji, 0);
    else for (const t of tokens) if (/^[a-z]{3,}$/.test(t)) offer(t, emoji, 100 + tokens.length);
    rest.forEach((k, i) => {
      if (/^[a-z]{3,}$/.test(k)) offer(k, emoji, 1000 + i);
    });
  }
  keywords = new Map([...best].filter(([k]) => !TOO_GENERAL.has(k)).map(([k, v]) => [k, v.emoji]));
  return keywords;
}

/** The word's letters, lower-cased, and its singular when it reads as a plural. */
function forms(word: string): string[] {
  const w = word.toLowerCase().replace(/[^\p{L}]/gu, '');
  if (w.length < 3) return [];
  const out = [w];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  return out;
}

/** The emoji for a spoken word, or undefined when the table has none. */
export function emojiFor(word: string): string | undefined {
  const table = keywordTable();
  for (const f of forms(word)) {
    if (TOO_GENERAL.has(f)) continue;
    const e = table.get(f);
    if (e) return e;
  }
  return undefined;
}
