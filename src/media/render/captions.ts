/**
 * Caption files from a transcript on the cut timeline: the ASS file burned in
 * by the renderer (word pages, active-word highlight, hook title), and SRT/VTT
 * side files. Pure: no ffmpeg here.
 */
import { HIGHLIGHT_STYLES, safeAreaOf, type CaptionTemplate, type HighlightStyle } from '../../catalog/caption-templates.js';
import type { HookTitleTemplate } from '../../catalog/hook-title-templates.js';
import { mapSpan, outputDuration } from './timeline.js';
import type { Segment, TimedWord } from '../transcript.js';

/** The UserTheme columns that override a caption template (null/undefined: the template's value). */
export interface CaptionTheme {
  font?: string | null;
  fontSize?: number | null;
  primaryColor?: string | null;
  highlightColor?: string | null;
  outlineColor?: string | null;
  backgroundColor?: string | null;
  highlightStyle?: string | null;
  wordsPerLine?: number | null;
  uppercase?: boolean | null;
}

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

export interface BuildAssOptions {
  words: readonly TimedWord[];
  /** kept source segments (keepSegments); captions are timed on the output */
  keep: readonly Segment[];
  template: CaptionTemplate;
  theme?: CaptionTheme | null;
  /** output frame size */
  width: number;
  height: number;
  /** centre of the caption block, percent from the top (0-80); default the template's positionY */
  positionY?: number | null;
  /** centre of the caption block, percent from the left (0-100, 50 = centred); default the middle of the safe area (SAFE_AREA) */
  positionX?: number | null;
  /** false: no word captions (disableCaptions); the hook title is still drawn */
  captions?: boolean;
  hook?: HookTitle | null;
}

/** A page starts anew after a pause at least this long (output seconds). */
export const PAGE_PAUSE = 0.6;
/** A page stays on screen until the next one when the gap between them is shorter than this. */
export const PAGE_BRIDGE = 0.3;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/u;

// ---------------------------------------------------------------------------
// pages

export interface CaptionWord {
  text: string;
  /** output seconds */
  start: number;
  end: number;
}

export interface CaptionPage {
  words: CaptionWord[];
  /** output seconds, from the first word's start to the last word's end */
  start: number;
  end: number;
}

const clean = (text: string) =>
  text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Groups the spoken words into pages on the output timeline. Words wholly cut
 * are dropped; a word straddling a cut spans its kept parts. Punctuation is
 * glued to the word before it (to the next one when it comes first); silence
 * words carry no text. A page ends after `wordsPerLine` words, after a
 * sentence end, or before a pause of PAGE_PAUSE seconds or more.
 */
export function captionPages(words: readonly TimedWord[], keep: readonly Segment[], wordsPerLine: number): CaptionPage[] {
  const perPage = Math.max(1, Math.floor(wordsPerLine) || 1);
  const ordered = words
    .map((w, i) => ({ w, i }))
    .sort((a, b) => a.w.startTime - b.w.startTime || a.i - b.i)
    .map((x) => x.w);
  const cw: CaptionWord[] = [];
  let prefix = '';
  let last: { word: CaptionWord; alive: boolean } | null = null;
  for (const w of ordered) {
    if (w.type === 'silence') continue;
    const text = clean(w.text ?? '');
    if (!text) continue;
    if (w.type === 'punctuation') {
      if (last) {
        if (last.alive) last.word.text += text;
      } else prefix += text;
      continue;
    }
    const span = mapSpan(keep, w.startTime, Math.max(w.startTime, w.endTime));
    const word: CaptionWord = { text: prefix + text, start: span?.start ?? 0, end: span?.end ?? 0 };
    prefix = '';
    last = { word, alive: span !== null };
    if (span) cw.push(word);
  }
  const pages: CaptionPage[] = [];
  let cur: CaptionWord[] = [];
  const flush = () => {
    if (cur.length) pages.push({ words: cur, start: cur[0].start, end: Math.max(...cur.map((x) => x.end)) });
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
  `Style: ${s.name.replace(/,/g, ' ')},${s.font.replace(/,/g, ' ')},${r2(s.size)},${assColor(s.primary)},${assColor(s.primary)},${assColor(s.outline)},${assColor(s.back)},${s.bold ? -1 : 0},0,0,0,100,100,0,0,${s.borderStyle},${r2(s.outlineWidth)},${r2(s.shadow)},${s.alignment},${Math.round(s.marginL)},${Math.round(s.marginR)},0,1`;

const dialogue = (layer: number, start: number, end: number, style: string, text: string) =>
  `Dialogue: ${layer},${assTime(start)},${assTime(end)},${style},,0,0,0,,${text}`;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The weight as an override (\b900); none for plain bold and regular, which the style's Bold field says. */
const weightTag = (weight: number) => (weight === 400 || weight === 700 ? '' : `\\b${Math.round(weight)}`);

/** Hook font size in pixels for a frame whose short side is 1080: size 0 → 24 px, 30 (default) → 84 px, 80 → 184 px. */
export const hookFontSize = (size: number) => 24 + 2 * clamp(size, 0, 80);

/** The caption look once a user theme's non-null fields replace the template's. */
export function resolveCaptionStyle(template: CaptionTemplate, theme?: CaptionTheme | null) {
  const t = theme ?? {};
  const style =
    t.highlightStyle && (HIGHLIGHT_STYLES as readonly string[]).includes(t.highlightStyle) ? (t.highlightStyle as HighlightStyle) : template.highlightStyle;
  return {
    font: t.font || template.font,
    fontSize: t.fontSize && t.fontSize > 0 ? t.fontSize : template.fontSize,
    primaryColor: t.primaryColor || template.primaryColor,
    highlightColor: t.highlightColor || template.highlightColor,
    outlineColor: t.outlineColor || template.outlineColor,
    backgroundColor: t.backgroundColor === undefined || t.backgroundColor === null ? template.backgroundColor : t.backgroundColor || null,
    highlightStyle: style,
    wordsPerLine: t.wordsPerLine && t.wordsPerLine > 0 ? t.wordsPerLine : template.wordsPerLine,
    uppercase: t.uppercase ?? template.uppercase,
    bold: template.bold,
    fontWeight: template.fontWeight,
    outlineWidth: template.outlineWidth,
    shadow: template.shadow,
  };
}

// ---------------------------------------------------------------------------
// the ASS file

/**
 * The ASS file for one render: PlayRes = output size; style `Caption` (and
 * `CaptionBox` for the `box` highlight), `Hook` for the hook title; one
 * Dialogue per page with timed \t colour steps for the `color` highlight, one
 * Dialogue per active word for `underline` and `box` (\u and boxes cannot be
 * animated); every caption event is placed with \an5\pos(x,y) and carries
 * the font weight (\b900: a style's Bold field is only bold or not). Sizes
 * scale with the frame's short side; lines wrap inside the safe area's sides,
 * and the default positions are inside it (SAFE_AREA).
 */
export function buildAss(o: BuildAssOptions): string {
  const { width, height } = o;
  const scale = Math.min(width, height) / 1080;
  const look = resolveCaptionStyle(o.template, o.theme);
  const size = look.fontSize * scale;
  const safe = safeAreaOf(width, height);
  const margins = { marginL: width * safe.left, marginR: width * safe.right };
  const safeCentreX = (safe.left + 1 - safe.right) / 2;
  const hasBand = !!look.backgroundColor;
  const styles: StyleSpec[] = [
    {
      name: 'Caption',
      font: look.font,
      size,
      primary: look.primaryColor,
      outline: hasBand ? look.backgroundColor! : look.outlineColor,
      back: hasBand ? look.backgroundColor! : '#00000080',
      bold: look.bold,
      borderStyle: hasBand ? 3 : 1,
      outlineWidth: hasBand ? Math.max(look.outlineWidth, 10) * scale : look.outlineWidth * scale,
      shadow: hasBand ? 0 : look.shadow * scale,
      alignment: 5,
      ...margins,
    },
  ];
  if (look.highlightStyle === 'box') {
    styles.push({
      name: 'CaptionBox',
      font: look.font,
      size,
      primary: look.highlightColor,
      outline: look.highlightColor,
      back: '#00000000',
      bold: look.bold,
      borderStyle: 3,
      outlineWidth: Math.max(6, look.outlineWidth * 2) * scale,
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
      back: ht.backgroundColor ?? '#00000000',
      bold: ht.bold,
      borderStyle: ht.backgroundColor ? 3 : 1,
      outlineWidth: ht.backgroundColor ? hsize * 0.3 : ht.outlineWidth * scale,
      shadow: 0,
      alignment: 8,
      ...margins,
    });
  }

  // a position the user set is kept as given; the defaults sit in the safe area
  const x = Math.round((o.positionX === null || o.positionX === undefined ? safeCentreX : clamp(o.positionX, 0, 100) / 100) * width);
  const y = Math.round((clamp(o.positionY ?? o.template.positionY, 0, 100) / 100) * height);
  const pos = `\\an5\\pos(${x},${y})${weightTag(look.fontWeight)}`;
  const events: string[] = [];

  if (o.captions !== false) {
    const pages = captionPages(o.words, o.keep, look.wordsPerLine);
    const text = (w: CaptionWord) => escapeAssText(look.uppercase ? w.text.toLocaleUpperCase() : w.text);
    const hl = inlineColor(look.highlightColor);
    const base = inlineColor(look.primaryColor);
    for (const page of pages) {
      const start = Math.round(page.start * 100) / 100;
      const end = Math.max(start + 0.01, page.end);
      if (look.highlightStyle === 'color' || look.highlightStyle === 'none') {
        const body = page.words
          .map((w, i) => {
            if (look.highlightStyle === 'none') return text(w);
            const on = Math.max(0, Math.round((w.start - start) * 1000));
            const next = page.words[i + 1];
            const off = Math.max(on + 1, Math.round(((next ? next.start : end) - start) * 1000));
            const tags = on === 0 ? [`\\1c${hl}`] : [`\\1c${base}`, `\\t(${on},${on + 1},\\1c${hl})`];
            if (next) tags.push(`\\t(${off},${off + 1},\\1c${base})`);
            return `{${tags.join('')}}${text(w)}{\\1c${base}}`;
          })
          .join(' ');
        events.push(dialogue(1, start, end, 'Caption', `{${pos}}${body}`));
        continue;
      }
      // underline / box: one event per active word
      page.words.forEach((w, i) => {
        const next = page.words[i + 1];
        const a = i === 0 ? start : w.start;
        const b = next ? next.start : end;
        if (b - a < 0.005) return;
        if (look.highlightStyle === 'underline') {
          const body = page.words.map((v, k) => (k === i ? `{\\u1\\1c${hl}}${text(v)}{\\u0\\1c${base}}` : text(v))).join(' ');
          events.push(dialogue(1, a, b, 'Caption', `{${pos}}${body}`));
          return;
        }
        // box: the same layout drawn below with only the active word (and its box) visible
        const hidden = '\\1a&HFF&\\3a&HFF&\\4a&HFF&';
        const shown = `\\1a&HFF&\\3a${inlineAlpha(look.highlightColor)}`;
        const boxBody = page.words.map((v, k) => (k === i ? `{${shown}}${text(v)}{${hidden}}` : text(v))).join(' ');
        events.push(dialogue(0, a, b, 'CaptionBox', `{${pos}${hidden}}${boxBody}`));
        events.push(dialogue(1, a, b, 'Caption', `{${pos}}${page.words.map(text).join(' ')}`));
      });
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
        dialogue(2, start, end, 'Hook', `{\\an8\\pos(${Math.round(width * safeCentreX)},${hy})${weightTag(ht.fontWeight)}\\fad(${fade},${fade})}${txt}`),
      );
    }
  }

  return [
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
}

// ---------------------------------------------------------------------------
// SRT / VTT

export interface CaptionFileOptions {
  /** words per cue at most: the burned-in pages' (resolveCaptionStyle(template, theme).wordsPerLine) */
  wordsPerLine: number;
}

const clock = (seconds: number, sep: ',' | '.') => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3600000);
  const m = Math.floor(ms / 60000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${sep}${String(ms % 1000).padStart(3, '0')}`;
};

const cues = (words: readonly TimedWord[], keep: readonly Segment[], opts: CaptionFileOptions) =>
  captionPages(words, keep, opts.wordsPerLine).map((p) => ({
    start: p.start,
    end: Math.max(p.end, p.start + 0.001),
    text: p.words.map((w) => w.text).join(' '),
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
