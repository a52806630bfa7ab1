/**
 * The built-in caption templates: named, complete caption styles
 * (caption-style.ts), written as data: each one is what it changes of BASE.
 * The first entry is the default `templateName`: its capitals are at least
 * 5 % of a vertical frame's height (96 px of 1920), for a phone held at arm's
 * length (test/integration/caption-frames.test.ts measures every template).
 */
import { overStyle, type CaptionStyle, type StyleOverride } from './caption-style.js';

export interface CaptionTemplate {
  name: string;
  description: string;
  style: CaptionStyle;
}

/**
 * Where the short-video platforms draw their own buttons and text over a
 * vertical (9:16) video, as fractions of the frame: the default positions of
 * captions and hook titles keep out of it (a position the user sets is kept).
 * Published figures for 1080x1920: Meta's Reels safe zone keeps 14 % at the
 * top and 35 % at the bottom (with an ad's call-to-action button) and 6 % at
 * the sides (Meta Business Help Center, Reels ads safe zones); TikTok keeps
 * about 150 px at the top (8 %), 440 px at the bottom (23 %) and 150 px on
 * the right (14 %) for its button column (TikTok Ads Manager's safe-zone
 * templates, as summarised in its ad-spec guides); YouTube Shorts covers about
 * the bottom 25 % (title, channel, subscribe) and the right button column.
 * Here: the widest top and right of the organic players, and the bottom of
 * Shorts (the 35 % is for ads). Square and wide frames have no button column:
 * a plain title-safe margin.
 */
export const SAFE_AREA = {
  vertical: { top: 0.14, bottom: 0.25, left: 0.06, right: 0.14 },
  other: { top: 0.06, bottom: 0.1, left: 0.06, right: 0.06 },
} as const;

/** The safe area of a frame: `vertical` for a portrait frame (taller than 4:3 wide), `other` otherwise. */
export const safeAreaOf = (width: number, height: number) => (height * 3 > width * 4 ? SAFE_AREA.vertical : SAFE_AREA.other);

/** What every template starts from: heavy white words, a dark outline, two a page, the spoken word yellow. */
const BASE: CaptionStyle = {
  font: { family: 'Lato', weight: 900, size: 150, case: 'asSpoken' },
  fill: '#FFFFFF',
  alternateFill: null,
  outline: { color: '#000000', width: 8, glow: 0 },
  shadow: { color: '#00000080', depth: 3 },
  box: null,
  layout: { wordsPerLine: 2, linesPerPage: 1, positionY: 66 },
  activeWord: { effect: 'color', color: '#FFD400', scale: 100 },
  entrance: { effect: 'none', duration: 0 },
  emphasis: { rules: [], words: [], color: '#4DE1FF', scale: 100 },
  emoji: 'off',
};

const TEMPLATES: readonly { name: string; description: string; style: StyleOverride }[] = [
  {
    name: 'classic',
    description: 'Big heavy white words with a thick dark outline, two at a time; the spoken word turns yellow.',
    style: { font: { size: 176 }, outline: { width: 10 }, shadow: { depth: 4 } },
  },
  {
    name: 'spotlight',
    description: 'Upper-case words; the spoken word sits on a bright violet box.',
    style: { font: { family: 'Roboto', case: 'upper' }, activeWord: { effect: 'box', color: '#7B2CFF' }, shadow: { depth: 2 } },
  },
  {
    name: 'subtitle',
    description: 'Quiet sentence-style subtitles on a translucent band, two lines a page.',
    style: {
      font: { size: 112, weight: 700 },
      outline: { width: 0 },
      shadow: { depth: 0 },
      box: { color: '#000000B0', padding: 12 },
      layout: { wordsPerLine: 5, linesPerPage: 2, positionY: 68 },
      activeWord: { effect: 'none' },
    },
  },
  {
    name: 'neon',
    description: 'Upper-case words in a cyan glow; the spoken word turns magenta.',
    style: {
      font: { family: 'Roboto', case: 'upper' },
      fill: '#E8FFFF',
      outline: { color: '#00C8FF', width: 6, glow: 8 },
      shadow: { depth: 0 },
      activeWord: { color: '#FF3EC8' },
    },
  },
  {
    name: 'underline',
    description: 'Clean heavy white words, three at a time; the spoken word is underlined.',
    style: { outline: { color: '#111111' }, layout: { wordsPerLine: 3 }, activeWord: { effect: 'underline', color: '#FFFFFF' } },
  },
  {
    name: 'karaoke',
    description: 'Lines of three words that fill with green as each word is said.',
    style: {
      font: { family: 'Open Sans', weight: 800, size: 140 },
      outline: { width: 9 },
      layout: { wordsPerLine: 3 },
      activeWord: { effect: 'none', color: '#3EE07A' },
      entrance: { effect: 'karaoke' },
    },
  },
  {
    name: 'pop',
    description: 'One word at a time, very big, popping in as it is said.',
    style: {
      font: { family: 'Bebas Neue', weight: 700, size: 210, case: 'upper' },
      outline: { width: 10 },
      shadow: { depth: 5 },
      layout: { wordsPerLine: 1 },
      activeWord: { effect: 'none' },
      entrance: { effect: 'pop', duration: 160 },
    },
  },
  {
    name: 'highlight',
    description: 'Heavy upper-case words; the spoken word turns yellow and grows.',
    style: {
      font: { family: 'League Spartan', weight: 900, size: 140, case: 'upper' },
      outline: { width: 9 },
      activeWord: { effect: 'pop', color: '#FFE600', scale: 120 },
    },
  },
  {
    name: 'boxed-karaoke',
    description: 'A dark band behind three words that sweep to yellow as they are said.',
    style: {
      font: { family: 'Open Sans', weight: 800, size: 132 },
      outline: { width: 0 },
      shadow: { depth: 0 },
      box: { color: '#101010E0', padding: 16 },
      layout: { wordsPerLine: 3 },
      activeWord: { effect: 'none', color: '#FFD400' },
      entrance: { effect: 'karaoke' },
    },
  },
  {
    name: 'minimal',
    description: 'Plain words in two lines with a soft shadow, fading in.',
    style: {
      font: { family: 'Open Sans', weight: 600, size: 128 },
      outline: { width: 2, color: '#00000099' },
      shadow: { depth: 2 },
      layout: { wordsPerLine: 3, linesPerPage: 2, positionY: 66 },
      activeWord: { effect: 'none' },
      entrance: { effect: 'fade', duration: 200 },
    },
  },
  {
    name: 'emoji',
    description: 'Classic words with the key ones in yellow and an emoji above them.',
    style: {
      font: { size: 160 },
      activeWord: { color: '#FFFFFF' },
      emphasis: { rules: ['numbers', 'names', 'salient'], color: '#FFD400', scale: 110 },
      emoji: 'keywords',
    },
  },
  {
    name: 'handwritten',
    description: 'Flowing script letters with a soft shadow, each word appearing as it is said.',
    style: {
      font: { family: 'Dancing Script', weight: 700, size: 150 },
      outline: { width: 4, color: '#2B1A00' },
      shadow: { depth: 4 },
      layout: { wordsPerLine: 3 },
      activeWord: { effect: 'none' },
      entrance: { effect: 'reveal' },
    },
  },
  {
    name: 'outlined',
    description: 'Tall upper-case letters with a very thick black outline; the spoken word turns red.',
    style: {
      font: { family: 'Bebas Neue', weight: 700, size: 190, case: 'upper' },
      outline: { width: 16 },
      shadow: { depth: 0 },
      layout: { wordsPerLine: 3 },
      activeWord: { color: '#FF3B30' },
    },
  },
  {
    name: 'two-tone',
    description: 'Two lines a page, white above and yellow below, heavy upper-case.',
    style: {
      font: { family: 'Roboto', size: 120, case: 'upper' },
      alternateFill: '#FFD400',
      layout: { wordsPerLine: 2, linesPerPage: 2 },
      activeWord: { effect: 'pop', color: '#FFFFFF', scale: 112 },
    },
  },
  {
    name: 'slide',
    description: 'Pages slide up into place; the spoken word turns orange.',
    style: {
      font: { family: 'Open Sans', weight: 800, size: 140 },
      layout: { wordsPerLine: 3 },
      activeWord: { color: '#FF9F1C' },
      entrance: { effect: 'slideUp', duration: 180 },
    },
  },
  {
    name: 'fade',
    description: 'Two soft lines fading in, the spoken word in pale blue.',
    style: {
      font: { family: 'Lato', weight: 700, size: 116 },
      outline: { width: 5 },
      layout: { wordsPerLine: 4, linesPerPage: 2 },
      activeWord: { color: '#8FD3FF' },
      entrance: { effect: 'fade', duration: 250 },
    },
  },
  {
    name: 'headline',
    description: 'White words on a black band; the spoken word turns yellow.',
    style: {
      font: { family: 'Roboto', weight: 900, size: 120 },
      outline: { width: 0 },
      shadow: { depth: 0 },
      box: { color: '#000000', padding: 18 },
      layout: { wordsPerLine: 3 },
    },
  },
  {
    name: 'alert',
    description: 'Upper-case words; the spoken word sits on a red box.',
    style: { font: { family: 'League Spartan', size: 152, case: 'upper' }, activeWord: { effect: 'box', color: '#E8303A' } },
  },
  {
    name: 'glow',
    description: 'Soft pink glow around white words; the spoken word pops.',
    style: {
      font: { family: 'Open Sans', weight: 800, size: 140 },
      outline: { color: '#FF4FA3', width: 5, glow: 10 },
      shadow: { depth: 0 },
      activeWord: { effect: 'pop', color: '#FFFFFF', scale: 118 },
    },
  },
  {
    name: 'typewriter',
    description: 'Monospaced words typed out one by one on a dark band.',
    style: {
      font: { family: 'DejaVu Sans Mono', weight: 700, size: 110 },
      outline: { width: 0 },
      shadow: { depth: 0 },
      box: { color: '#000000C0', padding: 14 },
      layout: { wordsPerLine: 3, linesPerPage: 2 },
      activeWord: { effect: 'none' },
      entrance: { effect: 'reveal' },
    },
  },
  {
    name: 'script',
    description: 'Bold script letters popping in, the spoken word in coral.',
    style: {
      font: { family: 'Lobster Two', weight: 700, size: 170 },
      outline: { width: 7, color: '#3A0A1E' },
      layout: { wordsPerLine: 2 },
      activeWord: { color: '#FF7A6B' },
      entrance: { effect: 'pop', duration: 150 },
    },
  },
  {
    name: 'comic',
    description: 'Rounded comic letters in yellow with a thick outline; the spoken word turns white.',
    style: {
      font: { family: 'Comic Neue', weight: 700, size: 150 },
      fill: '#FFE14D',
      outline: { width: 11, color: '#1A1A1A' },
      activeWord: { color: '#FFFFFF' },
    },
  },
  {
    name: 'numbers',
    description: 'Numbers and key words big and green; the rest plain white.',
    style: {
      font: { size: 140 },
      layout: { wordsPerLine: 3 },
      activeWord: { effect: 'none' },
      emphasis: { rules: ['numbers', 'salient'], color: '#3EE07A', scale: 125 },
    },
  },
  {
    name: 'lowercase',
    description: 'Relaxed lower-case words with a shadow, three at a time.',
    style: {
      font: { family: 'Lato', weight: 700, size: 130, case: 'lower' },
      outline: { width: 3 },
      shadow: { depth: 5, color: '#000000A0' },
      layout: { wordsPerLine: 3 },
      activeWord: { color: '#B8F35A' },
    },
  },
  {
    name: 'bold-underline',
    description: 'Geometric upper-case words; the spoken word is underlined in orange.',
    style: {
      font: { family: 'League Spartan', weight: 800, size: 150, case: 'upper' },
      layout: { wordsPerLine: 3 },
      activeWord: { effect: 'underline', color: '#FF8A00' },
    },
  },
  {
    name: 'cinema',
    description: 'Film-style subtitles in warm white, low in the frame, two lines, no highlight.',
    style: {
      font: { family: 'Open Sans', weight: 600, size: 124 },
      fill: '#FFF6D8',
      outline: { width: 3 },
      shadow: { depth: 2 },
      layout: { wordsPerLine: 4, linesPerPage: 2, positionY: 67 },
      activeWord: { effect: 'none' },
      entrance: { effect: 'fade', duration: 120 },
    },
  },
  {
    name: 'sunset',
    description: 'Two-tone orange and pink lines with a deep purple outline.',
    style: {
      font: { family: 'Roboto', weight: 900, size: 125, case: 'upper' },
      fill: '#FFB23F',
      alternateFill: '#FF5C8A',
      outline: { color: '#2A0845', width: 9 },
      layout: { wordsPerLine: 2, linesPerPage: 2 },
      activeWord: { color: '#FFFFFF' },
    },
  },
  {
    name: 'mint',
    description: 'Dark words; the spoken word sits on a mint box, everything on a white band.',
    style: {
      font: { family: 'Roboto', weight: 900, size: 124 },
      fill: '#111111',
      outline: { width: 0 },
      shadow: { depth: 0 },
      box: { color: '#FFFFFF', padding: 16 },
      layout: { wordsPerLine: 3 },
      activeWord: { effect: 'color', color: '#00A676' },
      emphasis: { color: '#E8303A' },
    },
  },
  {
    name: 'emoji-pop',
    description: 'One big word at a time popping in, with an emoji above the key ones.',
    style: {
      font: { family: 'League Spartan', weight: 900, size: 170, case: 'upper' },
      outline: { width: 10 },
      layout: { wordsPerLine: 1 },
      activeWord: { effect: 'none' },
      entrance: { effect: 'pop', duration: 140 },
      emphasis: { rules: ['numbers', 'salient'], color: '#FFD400', scale: 100 },
      emoji: 'keywords',
    },
  },
  {
    name: 'story',
    description: 'Friendly rounded words on a translucent band, revealed as they are said.',
    style: {
      font: { family: 'Comic Neue', weight: 700, size: 138 },
      outline: { width: 0 },
      shadow: { depth: 0 },
      box: { color: '#1B1F3BCC', padding: 16 },
      layout: { wordsPerLine: 4, linesPerPage: 2 },
      activeWord: { effect: 'color', color: '#7FDBFF' },
      entrance: { effect: 'reveal' },
    },
  },
];

export const CAPTION_TEMPLATES: readonly CaptionTemplate[] = TEMPLATES.map((t) => ({
  name: t.name,
  description: t.description,
  style: overStyle(BASE, t.style),
}));

export const DEFAULT_CAPTION_TEMPLATE = CAPTION_TEMPLATES[0];

export const findCaptionTemplate = (name: string) => CAPTION_TEMPLATES.find((t) => t.name === name);
