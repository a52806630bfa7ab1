/**
 * Caption templates: data the renderer turns into an ASS style. Sizes are in
 * pixels for a frame whose short side is 1080 (1080x1920 vertical, 1920x1080
 * wide) and scale with the short side; `fontSize` is the ASS size, the font's
 * line height (a capital letter is about 0.6 of it). Colours are #RRGGBB
 * (#RRGGBBAA for translucent boxes). The first entry is the default
 * `templateName`: its capitals are at least 5 % of a vertical frame's height
 * (96 px of 1920; test/integration/caption-frames.test.ts measures them), for a phone held
 * at arm's length.
 */
/** How the word being spoken stands out on its page. */
export const HIGHLIGHT_STYLES = ['color', 'box', 'underline', 'none'] as const;
export type HighlightStyle = (typeof HIGHLIGHT_STYLES)[number];

export interface CaptionTemplate {
  name: string;
  description: string;
  font: string;
  fontSize: number;
  /** CSS-style weight (400 regular, 700 bold, 800 extra bold, 900 black): libass picks the family's nearest face */
  fontWeight: number;
  bold: boolean;
  uppercase: boolean;
  primaryColor: string;
  highlightColor: string;
  outlineColor: string;
  outlineWidth: number;
  shadow: number;
  /** box behind the line; null for none */
  backgroundColor: string | null;
  highlightStyle: HighlightStyle;
  wordsPerLine: number;
  /** default vertical position of the caption block's centre, percent from the top (inside SAFE_AREA for two lines) */
  positionY: number;
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

export const CAPTION_TEMPLATES: readonly CaptionTemplate[] = [
  {
    name: 'classic',
    description: 'Big heavy white words with a thick dark outline, two at a time; the spoken word turns yellow.',
    font: 'Lato',
    fontSize: 176,
    fontWeight: 900,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#FFD400',
    outlineColor: '#000000',
    outlineWidth: 10,
    shadow: 4,
    backgroundColor: null,
    highlightStyle: 'color',
    wordsPerLine: 2,
    positionY: 66,
  },
  {
    name: 'spotlight',
    description: 'Upper-case words; the spoken word sits on a bright box.',
    font: 'Roboto',
    fontSize: 150,
    fontWeight: 900,
    bold: true,
    uppercase: true,
    primaryColor: '#FFFFFF',
    highlightColor: '#7B2CFF',
    outlineColor: '#000000',
    outlineWidth: 8,
    shadow: 2,
    backgroundColor: null,
    highlightStyle: 'box',
    wordsPerLine: 2,
    positionY: 66,
  },
  {
    name: 'subtitle',
    description: 'Quiet sentence-style subtitles on a translucent band.',
    font: 'Lato',
    fontSize: 116,
    fontWeight: 700,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#FFFFFF',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    backgroundColor: '#000000B0',
    highlightStyle: 'none',
    wordsPerLine: 5,
    positionY: 68,
  },
  {
    name: 'neon',
    description: 'Cyan glow outline; the spoken word turns magenta.',
    font: 'Roboto',
    fontSize: 150,
    fontWeight: 900,
    bold: true,
    uppercase: true,
    primaryColor: '#E8FFFF',
    highlightColor: '#FF3EC8',
    outlineColor: '#00C8FF',
    outlineWidth: 8,
    shadow: 3,
    backgroundColor: null,
    highlightStyle: 'color',
    wordsPerLine: 2,
    positionY: 66,
  },
  {
    name: 'underline',
    description: 'Clean heavy white words; the spoken word is underlined.',
    font: 'Lato',
    fontSize: 150,
    fontWeight: 900,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#FFFFFF',
    outlineColor: '#111111',
    outlineWidth: 8,
    shadow: 3,
    backgroundColor: null,
    highlightStyle: 'underline',
    wordsPerLine: 3,
    positionY: 66,
  },
  {
    name: 'karaoke',
    description: 'Lines of three words that fill with colour word by word.',
    font: 'Open Sans',
    fontSize: 160,
    fontWeight: 800,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#3EE07A',
    outlineColor: '#000000',
    outlineWidth: 9,
    shadow: 3,
    backgroundColor: null,
    highlightStyle: 'color',
    wordsPerLine: 3,
    positionY: 66,
  },
];

export const DEFAULT_CAPTION_TEMPLATE = CAPTION_TEMPLATES[0];

export const findCaptionTemplate = (name: string) => CAPTION_TEMPLATES.find((t) => t.name === name);
