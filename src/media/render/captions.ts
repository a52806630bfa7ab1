/**
 * Caption files from a transcript on the cut timeline: the ASS file burned in
 * by the renderer (word pages drawn in a caption style: active word, page
 * entrance, emphasis, per-word overrides; the hook title), the emoji laid
 * over it, and SRT/VTT side files. Pure: no ffmpeg here.
 */
import type { CaptionStyle } from '../../catalog/caption-style.js';
import { safeAreaOf } from '../../catalog/caption-templates.js';
import type { HookTitleTemplate } from '../../catalog/hook-title-templates.js';
import { emojiFor, emojiImage } from './emoji.js';
import type { RenderSticker } from './graph.js';
import { emphasizedWords } from './emphasis.js';
import { mapSpan, outputDuration } from './timeline.js';
import type { Segment, TimedWord, WordLook } from '../transcript.js';

export interface HookTitle {
  text: string;
  template: HookTitleTemplate;
  /** vertical position of the title's top edge, 0-80 percent from the top (default 50) */
  top?: number;
  /** 0-80 (default 30); see hookFontSize */
  size?: number;
  /** output second the title appears (default 0) */
  start?: number;
}

/** A word of the captions as the transcript holds it: its times and what a creator set on it. */
export type CaptionSourceWord = TimedWord & WordLook;

export interface BuildAssOptions {
  words: readonly CaptionSourceWord[];
  /** kept source segments (keepSegments); captions are timed on the output */
  keep: readonly Segment[];
  /** the resolved look (template, theme and project override laid over one another) */
  style: CaptionStyle;
  /** output frame size */
  width: number;
  height: number;
  /** centre of the caption block, percent from the top (0-80); default the style's layout.positionY */
  positionY?: number | null;
  /** centre of the caption block, percent from the left (0-100, 50 = centred); default the middle of the safe area (SAFE_AREA) */
  positionX?: number | null;
  /** false: no word captions (disableCaptions); the hook title is still drawn */
  captions?: boolean;
  hook?: HookTitle | null;
  /** indexes into `words` of the transcript's most salient words (the `salient` emphasis rule; src/ai/salience.ts) */
  salient?: ReadonlySet<number>;
}

/** An emoji drawn above a page (libass draws no colour glyphs: the renderer lays an image there). */
export interface EmojiSticker {
  emoji: string;
  /** centre, output pixels */
  x: number;
  y: number;
  /** width and height, output pixels */
  size: number;
  /** output seconds */
  start: number;
  end: number;
}

export interface Captions {
  ass: string;
  emoji: EmojiSticker[];
}

/** A page starts anew after a pause at least this long (output seconds). */
export const PAGE_PAUSE = 0.6;
/** A page stays on screen until the next one when the gap between them is shorter than this. */
export const PAGE_BRIDGE = 0.3;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/u;
/** Languages written without spaces between words: a word the engine gives is cut into words with Intl.Segmenter, and words are joined without spaces. */
export const UNSPACED_LANGUAGES = new Set(['ja', 'zh', 'th', 'lo', 'km', 'my', 'bo']);
const unspaced = (language?: string) => !!language && UNSPACED_LANGUAGES.has(language.toLowerCase().split(/[-_]/)[0]);

// ---------------------------------------------------------------------------
// pages

export interface CaptionWord {
  text: string;
  /** output seconds */
  start: number;
  end: number;
  /** index of the transcript word it comes from */
  index: number;
  /** what the creator set on the word */
  look: WordLook;
}

export interface CaptionPage {
  /** the page's lines, each of at most wordsPerLine words */
  lines: CaptionWord[][];
  /** every word of the page, in order */
  words: CaptionWord[];
  /** output seconds, from the first word's start to the last word's end */
  start: number;
  end: number;
}

export interface PageOptions {
  wordsPerLine: number;
  /** default 1 */
  linesPerPage?: number;
  /** the transcript's language: those without spaces are cut into words (UNSPACED_LANGUAGES) */
  language?: string;
}

const clean = (text: string) =>
  text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The look fields a word may carry (its own, as stored), without the rest. */
const lookOf = (w: CaptionSourceWord): WordLook => ({
  ...(w.color ? { color: w.color } : {}),
  ...(w.emphasis !== undefined ? { emphasis: w.emphasis } : {}),
  ...(w.emoji ? { emoji: w.emoji } : {}),
  ...(w.hidden ? { hidden: true } : {}),
});

/** A word of a language without spaces, cut into its words (Intl.Segmenter), its time shared by their letters. */
function segmented(word: CaptionWord, segmenter: Intl.Segmenter): CaptionWord[] {
  const parts = [...segmenter.segment(word.text)].map((s) => s.segment).filter((s) => s.trim());
  if (parts.length < 2) return [word];
  const letters = parts.reduce((n, p) => n + [...p].length, 0);
  const out: CaptionWord[] = [];
  let at = word.start;
  for (const part of parts) {
    const len = ((word.end - word.start) * [...part].length) / letters;
    // punctuation stays with the word before it
    if (out.length && !/[\p{L}\p{N}]/u.test(part)) out[out.length - 1].text += part;
    else out.push({ ...word, text: part, start: at, end: at + len });
    at += len;
  }
  if (out.length) out[out.length - 1].end = word.end;
  return out;
}

/**
 * Groups the spoken words into pages on the output timeline. Words wholly cut
 * and words the creator hid are dropped; a word straddling a cut spans its
 * kept parts. Punctuation is glued to the word before it (to the next one when
 * it comes first); silence words carry no text. A page holds
 * `wordsPerLine` x `linesPerPage` words and ends early after a sentence end or
 * before a pause of PAGE_PAUSE seconds or more.
 */
export function captionPages(words: readonly CaptionSourceWord[], keep: readonly Segment[], opts: PageOptions | number): CaptionPage[] {
  const o: PageOptions = typeof opts === 'number' ? { wordsPerLine: opts } : opts;
  const perLine = Math.max(1, Math.floor(o.wordsPerLine) || 1);
  const perPage = perLine * Math.max(1, Math.floor(o.linesPerPage ?? 1) || 1);
  const ordered = words.map((w, i) => ({ w, i })).sort((a, b) => a.w.startTime - b.w.startTime || a.i - b.i);
  let cw: CaptionWord[] = [];
  let prefix = '';
  let last: { word: CaptionWord; alive: boolean } | null = null;
  for (const { w, i } of ordered) {
    if (w.type === 'silence') continue;
    const text = clean(w.text ?? '');
    if (!text) continue;
    if (w.type === 'punctuation') {
      if (last) {
        if (last.alive) last.word.text += text;
      } else prefix += text;
      continue;
    }
    const span = w.hidden ? null : mapSpan(keep, w.startTime, Math.max(w.startTime, w.endTime));
    const word: CaptionWord = { text: prefix + text, start: span?.start ?? 0, end: span?.end ?? 0, index: i, look: lookOf(w) };
    prefix = '';
    last = { word, alive: span !== null };
    if (span) cw.push(word);
  }
  if (unspaced(o.language)) {
    const segmenter = new Intl.Segmenter(o.language, { granularity: 'word' });
    cw = cw.flatMap((w) => segmented(w, segmenter));
  }
  const pages: CaptionPage[] = [];
  let cur: CaptionWord[] = [];
  const flush = () => {
    if (!cur.length) return;
    const lines: CaptionWord[][] = [];
    for (let k = 0; k < cur.length; k += perLine) lines.push(cur.slice(k, k + perLine));
    pages.push({ lines, words: cur, start: cur[0].start, end: Math.max(...cur.map((x) => x.end)) });
    cur = [];
  };
  for (const word of cw) {
    const prev = cur[cur.length - 1];
    if (prev && word.start - prev.end >= PAGE_PAUSE) flush();
    cur.push(word);
    if (cur.length >= perPage || SENTENCE_END.test(word.text)) flush();
  }
  flush();
  // a short gap between pages would flicker: keep the page up until the next one
  for (let i = 0; i + 1 < pages.length; i++) {
    const gap = pages[i + 1].start - pages[i].end;
    if (gap > 0 && gap < PAGE_BRIDGE) pages[i].end = pages[i + 1].start;
  }
  return pages;
}

// ---------------------------------------------------------------------------
// ASS building blocks

/** #RRGGBB or #RRGGBBAA (AA = opacity, FF opaque) as ASS &HAABBGGRR (AA = transparency, 00 opaque). */
export function assColor(hex: string): string {
  const m = /^#?([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex.trim());
  if (!m) throw new Error(`bad colour ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => m[1].slice(i, i + 2).toUpperCase());
  const alpha = 255 - (m[2] ? parseInt(m[2], 16) : 255);
  return `&H${alpha.toString(16).padStart(2, '0').toUpperCase()}${b}${g}${r}`;
}

/** The colour part of an inline override (\1c&HBBGGRR&). */
const inlineColor = (hex: string) => `&H${assColor(hex).slice(4)}&`;
/** The alpha part of an inline override (\1a&HAA&). */
const inlineAlpha = (hex: string) => `&H${assColor(hex).slice(2, 4)}&`;

/**
 * User text made safe for an ASS event: braces escaped (\{ \}), a backslash
 * that would start \N, \n, \h, \{ or \} followed by a word joiner, line breaks
 * turned into `lineBreak` (a space for words, \N for the hook title).
 */
export function escapeAssText(text: string, lineBreak = ' '): string {
  return text
    .replace(/\\(?=[Nnh{}])/g, '\\\u2060')
    .replace(/[{}]/g, (c) => `\\${c}`)
    .replace(/\r\n|[\r\n]/g, lineBreak);
}

/** ASS time H:MM:SS.cc */
export function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor(cs / 6000) % 60;
  const s = Math.floor(cs / 100) % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

const STYLE_FORMAT =
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding';

interface StyleSpec {
  name: string;
  font: string;
  size: number;
  primary: string;
  /** the colour before a karaoke sweep; default primary */
  secondary?: string;
  outline: string;
  back: string;
  bold: boolean;
  /** 1 outline + shadow, 3 opaque box (OutlineColour) */
  borderStyle: 1 | 3;
  outlineWidth: number;
  shadow: number;
  alignment: number;
  /** left and right margins: libass wraps lines between them, \pos or not */
  marginL: number;
  marginR: number;
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const styleLine = (s: StyleSpec) =>
  `Style: ${s.name.replace(/,/g, ' ')},${s.font.replace(/,/g, ' ')},${r2(s.size)},${assColor(s.primary)},${assColor(s.secondary ?? s.primary)},${assColor(s.outline)},${assColor(s.back)},${s.bold ? -1 : 0},0,0,0,100,100,0,0,${s.borderStyle},${r2(s.outlineWidth)},${r2(s.shadow)},${s.alignment},${Math.round(s.marginL)},${Math.round(s.marginR)},0,-1`;

const dialogue = (layer: number, start: number, end: number, style: string, text: string) =>
  `Dialogue: ${layer},${assTime(start)},${assTime(end)},${style},,0,0,0,,${text}`;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The weight as an override (\b900); none for plain bold and regular, which the style's Bold field says. */
const weightTag = (weight: number) => (weight === 400 || weight === 700 ? '' : `\\b${Math.round(weight)}`);

/** Hook font size in pixels for a frame whose short side is 1080: size 0 → 24 px, 30 (default) → 84 px, 80 → 184 px. */
export const hookFontSize = (size: number) => 24 + 2 * clamp(size, 0, 80);

/** A line's height on screen as a share of the font size (libass: ascent plus descent of the common families). */
export const LINE_HEIGHT = 1.2;
/** An emoji's size as a share of the font size, and its gap to the page's top. */
const EMOJI = { size: 1.05, gap: 0.15 };

const cased = (style: CaptionStyle, text: string) =>
  style.font.case === 'upper' ? text.toLocaleUpperCase() : style.font.case === 'lower' ? text.toLocaleLowerCase() : text;

/** ms from the event's start, never negative */
const msFrom = (t: number, t0: number) => Math.max(0, Math.round((t - t0) * 1000));

interface PageDraw {
  style: CaptionStyle;
  page: CaptionPage;
  emphasized: ReadonlySet<number>;
  /** the event's start (output seconds): tag times are counted from it */
  t0: number;
  /** the word drawn as active in a one-event-per-word page (underline, box); -1: none */
  active?: number;
  /** draw the page's entrance (the page's first event only) */
  entering: boolean;
  joiner: string;
}

/**
 * The text of one caption event: each word with its own tags (its colour:
 * the creator's, else the emphasis colour, else its line's fill; its size;
 * the active word's timed colour and pop; the entrance's reveal, pop or
 * karaoke sweep), lines joined by \N. Every word sets its colour and size
 * itself, so a timed change of one word never spills into the next.
 */
function pageText(d: PageDraw): string {
  const { style, page, emphasized, t0 } = d;
  const entrance = d.entering ? style.entrance : { effect: 'none' as const, duration: 0 };
  const hl = inlineColor(style.activeWord.color);
  const effect = style.activeWord.effect;
  const popMs = 90;
  const all = page.words;
  const pops = effect === 'pop' && d.active === undefined;
  // sizes are written only on pages where a word's size differs or moves
  const sized = pops || entrance.effect === 'pop' || all.some((w) => (w.look.emphasis ?? emphasized.has(w.index)) && style.emphasis.scale !== 100);
  // what the text's colour and size are where the next word starts (null: moved by a timed change); only changes are written
  let colour: string | null = inlineColor(style.fill);
  let size: number | null = 100;
  const lines = page.lines.map((line, li) =>
    line
      .map((w, k) => {
        const n = all.indexOf(w);
        const next = all[n + 1];
        const emph = w.look.emphasis ?? emphasized.has(w.index);
        const baseHex = w.look.color ?? (emph ? style.emphasis.color : li % 2 === 1 && style.alternateFill ? style.alternateFill : style.fill);
        const base = inlineColor(baseHex);
        const scale = emph ? style.emphasis.scale : 100;
        const on = msFrom(w.start, t0);
        const off = Math.max(on + 1, msFrom(next ? next.start : page.end, t0));
        const text = escapeAssText(cased(style, w.text));
        if (entrance.effect === 'karaoke') {
          // \kf sweeps from the secondary colour (the word's own) to the primary (the active colour) over the word's time
          const lead = k === 0 && li === 0 ? Math.round(on / 10) : 0;
          const dur = Math.max(1, Math.round((off - on) / 10));
          const sizeTag = sized || scale !== 100 ? `\\fscx${scale}\\fscy${scale}` : '';
          return `${lead ? `{\\k${lead}}` : ''}{\\2c${base}\\1c${hl}${sizeTag}\\kf${dur}}${text}`;
        }
        const tags: string[] = [];
        const colours = d.active === undefined && (effect === 'color' || effect === 'pop');
        const first = colours && on === 0 ? hl : base;
        if (first !== colour) tags.push(`\\1c${first}`);
        colour = first;
        // sizes: the entrance's pop grows each word from 70 % of its size; the active word's pop grows it by activeWord.scale
        if (entrance.effect === 'pop') {
          const from = Math.round(scale * 0.7);
          tags.push(`\\fscx${from}\\fscy${from}\\t(0,${Math.max(1, entrance.duration)},\\fscx${scale}\\fscy${scale})`);
          size = scale;
        } else if (size !== scale) {
          tags.push(`\\fscx${scale}\\fscy${scale}`);
          size = scale;
        }
        if (entrance.effect === 'reveal' && on > 0) tags.push(`\\alpha&HFF&\\t(${on},${on + 1},\\alpha&H00&)`);
        // a page revealed word by word, drawn one event per word: the words not yet said stay hidden in the later events too
        else if (style.entrance.effect === 'reveal' && d.active !== undefined && n > d.active) tags.push('\\alpha&HFF&');
        if (colours) {
          if (on > 0) tags.push(`\\t(${on},${on + 1},\\1c${hl})`);
          if (next) tags.push(`\\t(${off},${off + 1},\\1c${base})`);
          colour = null;
        }
        if (pops) {
          const big = Math.round((scale * style.activeWord.scale) / 100);
          tags.push(`\\t(${on},${on + popMs},\\fscx${big}\\fscy${big})`);
          if (next) tags.push(`\\t(${off},${off + popMs},\\fscx${scale}\\fscy${scale})`);
          size = null;
        }
        let tail = '';
        if (d.active === n && effect === 'underline') {
          tags.push(`\\u1\\1c${hl}`);
          tail = '{\\u0}';
          colour = hl;
        }
        return `${tags.length ? `{${tags.join('')}}` : ''}${text}${tail}`;
      })
      .join(d.joiner),
  );
  return lines.join('\\N');
}

/** The box highlight's layer: the same layout with only the active word's box visible. */
function boxLayerText(d: PageDraw): string {
  const hidden = '\\1a&HFF&\\3a&HFF&\\4a&HFF&';
  const shown = `\\1a&HFF&\\3a${inlineAlpha(d.style.activeWord.color)}`;
  const all = d.page.words;
  return d.page.lines
    .map((line) =>
      line
        .map((w) => {
          const emph = w.look.emphasis ?? d.emphasized.has(w.index);
          const scale = emph ? d.style.emphasis.scale : 100;
          return `{${all.indexOf(w) === d.active ? shown : hidden}${scale !== 100 ? `\\fscx${scale}\\fscy${scale}` : ''}}${escapeAssText(cased(d.style, w.text))}`;
        })
        .join(d.joiner),
    )
    .join('\\N');
}

/**
 * The captions of one render: the ASS file (PlayRes = output size; style
 * `Caption`, `CaptionBox` for the box highlight, `Hook` for the hook title)
 * and the emoji drawn above pages. Per page: one event with timed \t steps
 * for the colour and pop highlights, the reveal and the karaoke sweep; one
 * event per active word for the underline and box highlights (\u and boxes
 * cannot be animated). The entrance (fade, pop, slide up) plays on a page's
 * first event. Every caption event is placed with \an5 at the block's centre
 * and carries the font weight. Sizes scale with the frame's short side; lines
 * wrap inside the safe area's sides, and the default positions are inside it
 * (SAFE_AREA).
 */
export function buildCaptions(o: BuildAssOptions & { language?: string }): Captions {
  const { width, height, style } = o;
  const scale = Math.min(width, height) / 1080;
  const size = style.font.size * scale;
  const safe = safeAreaOf(width, height);
  const margins = { marginL: width * safe.left, marginR: width * safe.right };
  const safeCentreX = (safe.left + 1 - safe.right) / 2;
  const band = style.box;
  const karaoke = style.entrance.effect === 'karaoke';
  const styles: StyleSpec[] = [
    {
      name: 'Caption',
      font: style.font.family,
      size,
      primary: karaoke ? style.activeWord.color : style.fill,
      secondary: style.fill,
      outline: band ? band.color : style.outline.color,
      back: band ? band.color : style.shadow.color,
      bold: style.font.weight >= 600,
      borderStyle: band ? 3 : 1,
      outlineWidth: band ? Math.max(2, band.padding) * scale : style.outline.width * scale,
      shadow: band ? 0 : style.shadow.depth * scale,
      alignment: 5,
      ...margins,
    },
  ];
  const effect = style.activeWord.effect;
  if (effect === 'box') {
    styles.push({
      name: 'CaptionBox',
      font: style.font.family,
      size,
      primary: style.activeWord.color,
      outline: style.activeWord.color,
      back: '#00000000',
      bold: style.font.weight >= 600,
      borderStyle: 3,
      outlineWidth: Math.max(6, style.outline.width * 2) * scale,
      shadow: 0,
      alignment: 5,
      ...margins,
    });
  }
  const hook = o.hook?.text.trim() ? o.hook : null;
  if (hook) {
    const ht = hook.template;
    const hsize = hookFontSize(hook.size ?? 30) * scale;
    styles.push({
      name: 'Hook',
      font: ht.font,
      size: hsize,
      primary: ht.textColor,
      outline: ht.backgroundColor ?? ht.outlineColor,
      back: ht.backgroundColor ?? '#000000A0',
      bold: ht.bold,
      borderStyle: ht.backgroundColor ? 3 : 1,
      outlineWidth: ht.backgroundColor ? hsize * 0.3 : ht.outlineWidth * scale,
      shadow: ht.backgroundColor ? 0 : (ht.shadow ?? 0) * scale,
      alignment: 8,
      ...margins,
    });
  }

  // a position the user set is kept as given; the defaults sit in the safe area
  const x = Math.round((o.positionX === null || o.positionX === undefined ? safeCentreX : clamp(o.positionX, 0, 100) / 100) * width);
  const y = Math.round((clamp(o.positionY ?? style.layout.positionY, 0, 100) / 100) * height);
  const glow = style.outline.glow > 0 && !band ? `\\blur${r2(style.outline.glow * scale)}` : '';
  const weight = weightTag(style.font.weight);
  const events: string[] = [];
  const emoji: EmojiSticker[] = [];

  if (o.captions !== false) {
    const pages = captionPages(o.words, o.keep, { wordsPerLine: style.layout.wordsPerLine, linesPerPage: style.layout.linesPerPage, language: o.language });
    const emphasized = emphasizedWords(o.words, style.emphasis, o.salient);
    const joiner = unspaced(o.language) ? '' : ' ';
    const rise = Math.round(size * 0.35);
    /** the placement tags of an event: the entrance's slide or the fixed position, its fade, the weight and glow */
    const place = (entering: boolean) => {
      const e = style.entrance;
      const d = Math.max(1, e.duration);
      const at = entering && e.effect === 'slideUp' ? `\\an5\\move(${x},${y + rise},${x},${y},0,${d})` : `\\an5\\pos(${x},${y})`;
      const fade = entering && (e.effect === 'fade' || e.effect === 'slideUp') ? `\\fad(${d},0)` : '';
      return `${at}${fade}${weight}${glow}`;
    };
    let lastEmoji = '';
    for (const page of pages) {
      const start = Math.round(page.start * 100) / 100;
      const end = Math.max(start + 0.01, page.end);
      const draw = { style, page, emphasized, joiner };
      if (effect === 'underline' || effect === 'box') {
        page.words.forEach((w, i) => {
          const next = page.words[i + 1];
          const a = i === 0 ? start : w.start;
          const b = next ? next.start : end;
          if (b - a < 0.005) return;
          const d: PageDraw = { ...draw, t0: a, active: i, entering: i === 0 };
          if (effect === 'box') events.push(dialogue(0, a, b, 'CaptionBox', `{${place(i === 0)}}${boxLayerText(d)}`));
          events.push(dialogue(1, a, b, 'Caption', `{${place(i === 0)}}${pageText(d)}`));
        });
      } else {
        events.push(dialogue(1, start, end, 'Caption', `{${place(true)}}${pageText({ ...draw, t0: start, entering: true })}`));
      }
      // one emoji a page: the creator's, else the first emphasised keyword that has one (not the previous page's again)
      const chosen =
        page.words.map((w) => w.look.emoji).find(Boolean) ??
        (style.emoji === 'keywords'
          ? page.words
              .filter((w) => w.look.emphasis ?? emphasized.has(w.index))
              .map((w) => emojiFor(w.text))
              .find((e) => e && e !== lastEmoji)
          : undefined);
      if (chosen) {
        const es = Math.round(size * EMOJI.size);
        const blockTop = y - (page.lines.length * size * LINE_HEIGHT) / 2 - (band ? band.padding * scale : 0);
        let ey = Math.round(blockTop - size * EMOJI.gap - es / 2);
        // no room above the page: below it
        if (ey - es / 2 < 0) ey = Math.round(2 * y - ey);
        emoji.push({ emoji: chosen, x, y: ey, size: es, start, end });
        lastEmoji = chosen;
      } else lastEmoji = '';
    }
  }

  if (hook) {
    const ht = hook.template;
    const total = o.keep.length ? outputDuration(o.keep) : Infinity;
    const start = Math.max(0, hook.start ?? 0);
    const end = Math.min(start + ht.duration, total);
    if (end > start) {
      const fade = Math.round(Math.min(ht.fade, (end - start) / 2) * 1000);
      const top = clamp(hook.top ?? 50, 0, 80);
      const hsize = hookFontSize(hook.size ?? 30) * scale;
      const pad = ht.backgroundColor ? hsize * 0.3 : 0;
      const hy = Math.round(Math.max((top / 100) * height, pad + 4 * scale));
      const txt = escapeAssText(ht.uppercase ? hook.text.toLocaleUpperCase() : hook.text, '\\N');
      events.push(
        dialogue(
          2,
          start,
          end,
          'Hook',
          `{\\an8\\pos(${Math.round(width * safeCentreX)},${hy})${weightTag(ht.fontWeight)}${ht.glow ? `\\blur${r2(ht.glow * scale)}` : ''}\\fad(${fade},${fade})}${txt}`,
        ),
      );
    }
  }

  const ass = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: None',
    '',
    '[V4+ Styles]',
    STYLE_FORMAT,
    ...styles.map(styleLine),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
  return { ass, emoji };
}

/** The caption block's box on a `width` x `height` frame: its lines (the style's lines per page), band padding and emoji, about its centre. */
export function captionBlock(style: CaptionStyle, width: number, height: number, position: { x?: number | null; y?: number | null } = {}) {
  const scale = Math.min(width, height) / 1080;
  const size = style.font.size * scale;
  const safe = safeAreaOf(width, height);
  const cx = (position.x === null || position.x === undefined ? (safe.left + 1 - safe.right) / 2 : clamp(position.x, 0, 100) / 100) * width;
  const cy = (clamp(position.y ?? style.layout.positionY, 0, 100) / 100) * height;
  const pad = style.box ? style.box.padding * scale : style.outline.width * scale;
  const h = style.layout.linesPerPage * size * LINE_HEIGHT + 2 * pad;
  const emoji = style.emoji === 'keywords' ? size * (EMOJI.size + EMOJI.gap) : 0;
  const w = width * (1 - safe.left - safe.right);
  return { x: cx - w / 2, y: cy - h / 2 - emoji, w, h: h + emoji };
}

/** A hook title's height in pixels on a `width` x `height` frame: its lines (long text wraps inside the safe area) and its card's padding. */
export function hookHeight(hook: Pick<HookTitle, 'text' | 'template' | 'size'>, width: number, height: number): number {
  const scale = Math.min(width, height) / 1080;
  const hsize = hookFontSize(hook.size ?? 30) * scale;
  const safe = safeAreaOf(width, height);
  const room = width * (1 - safe.left - safe.right);
  // about half an em a letter
  const lines = Math.max(1, Math.ceil(([...hook.text].length * 0.55 * hsize) / room));
  const pad = hook.template.backgroundColor ? hsize * 0.3 : hook.template.outlineWidth * scale;
  return lines * hsize * LINE_HEIGHT + 2 * pad;
}

/**
 * The emoji of a render as the stickers the graph lays over it: one per
 * picture and place, shown in each of its windows; emoji the picture package
 * lacks are left out.
 */
export function emojiStickers(emoji: readonly EmojiSticker[]): RenderSticker[] {
  const byPicture = new Map<string, RenderSticker>();
  for (const e of emoji) {
    const file = emojiImage(e.emoji);
    if (!file) continue;
    const id = `${file}@${e.x},${e.y},${e.size}`;
    const sticker = byPicture.get(id) ?? { path: file, x: e.x, y: e.y, size: e.size, windows: [] };
    sticker.windows.push({ start: e.start, end: e.end });
    byPicture.set(id, sticker);
  }
  return [...byPicture.values()];
}

/** The ASS file alone (buildCaptions without the emoji). */
export const buildAss = (o: BuildAssOptions & { language?: string }): string => buildCaptions(o).ass;

// ---------------------------------------------------------------------------
// SRT / VTT

/** The burned-in pages' size and language: a cue holds one page. */
export type CaptionFileOptions = PageOptions;

const clock = (seconds: number, sep: ',' | '.') => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3600000);
  const m = Math.floor(ms / 60000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${sep}${String(ms % 1000).padStart(3, '0')}`;
};

const cues = (words: readonly TimedWord[], keep: readonly Segment[], opts: CaptionFileOptions) =>
  captionPages(words, keep, opts).map((p) => ({
    start: p.start,
    end: Math.max(p.end, p.start + 0.001),
    text: p.lines.map((line) => line.map((w) => w.text).join(unspaced(opts.language) ? '' : ' ')).join('\n'),
  }));

/** SubRip captions on the cut timeline, one cue per burned-in page. */
export function toSrt(words: readonly TimedWord[], keep: readonly Segment[], opts: CaptionFileOptions): string {
  return cues(words, keep, opts)
    .map((c, i) => `${i + 1}\n${clock(c.start, ',')} --> ${clock(c.end, ',')}\n${c.text}\n`)
    .join('\n');
}

/** WebVTT captions on the cut timeline, one cue per burned-in page. */
export function toVtt(words: readonly TimedWord[], keep: readonly Segment[], opts: CaptionFileOptions): string {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = cues(words, keep, opts).map((c) => `${clock(c.start, '.')} --> ${clock(c.end, '.')}\n${esc(c.text)}\n`);
  return ['WEBVTT\n', ...body].join('\n');
}
