/**
 * Caption templates: data the renderer turns into an ASS style. Sizes are in
 * pixels for a 1080-pixel-wide frame and scale with the output width; colours
 * are #RRGGBB (#RRGGBBAA for translucent boxes). The first entry is the default
 * `templateName`.
 */
/** How the word being spoken stands out on its page. */
export const HIGHLIGHT_STYLES = ['color', 'box', 'underline', 'none'] as const;
export type HighlightStyle = (typeof HIGHLIGHT_STYLES)[number];

export interface CaptionTemplate {
  name: string;
  description: string;
  font: string;
  fontSize: number;
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
  /** default vertical position, percent from the top */
  positionY: number;
}

export const CAPTION_TEMPLATES: readonly CaptionTemplate[] = [
  {
    name: 'classic',
    description: 'White bold words with a dark outline; the spoken word turns yellow.',
    font: 'Open Sans',
    fontSize: 72,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#FFD400',
    outlineColor: '#000000',
    outlineWidth: 4,
    shadow: 1,
    backgroundColor: null,
    highlightStyle: 'color',
    wordsPerLine: 3,
    positionY: 70,
  },
  {
    name: 'spotlight',
    description: 'Upper-case words; the spoken word sits on a bright box.',
    font: 'Roboto',
    fontSize: 76,
    bold: true,
    uppercase: true,
    primaryColor: '#FFFFFF',
    highlightColor: '#7B2CFF',
    outlineColor: '#000000',
    outlineWidth: 3,
    shadow: 0,
    backgroundColor: null,
    highlightStyle: 'box',
    wordsPerLine: 2,
    positionY: 65,
  },
  {
    name: 'subtitle',
    description: 'Quiet sentence-style subtitles on a translucent band.',
    font: 'Lato',
    fontSize: 54,
    bold: false,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#FFFFFF',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    backgroundColor: '#000000A0',
    highlightStyle: 'none',
    wordsPerLine: 7,
    positionY: 82,
  },
  {
    name: 'neon',
    description: 'Cyan glow outline; the spoken word turns magenta.',
    font: 'Roboto',
    fontSize: 70,
    bold: true,
    uppercase: true,
    primaryColor: '#E8FFFF',
    highlightColor: '#FF3EC8',
    outlineColor: '#00C8FF',
    outlineWidth: 5,
    shadow: 2,
    backgroundColor: null,
    highlightStyle: 'color',
    wordsPerLine: 3,
    positionY: 70,
  },
  {
    name: 'underline',
    description: 'Clean white words; the spoken word is underlined.',
    font: 'Lato',
    fontSize: 68,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#FFFFFF',
    outlineColor: '#111111',
    outlineWidth: 3,
    shadow: 1,
    backgroundColor: null,
    highlightStyle: 'underline',
    wordsPerLine: 4,
    positionY: 72,
  },
  {
    name: 'karaoke',
    description: 'Full lines that fill with colour word by word.',
    font: 'Open Sans',
    fontSize: 64,
    bold: true,
    uppercase: false,
    primaryColor: '#FFFFFF',
    highlightColor: '#3EE07A',
    outlineColor: '#000000',
    outlineWidth: 4,
    shadow: 0,
    backgroundColor: null,
    highlightStyle: 'color',
    wordsPerLine: 5,
    positionY: 75,
  },
];

export const DEFAULT_CAPTION_TEMPLATE = CAPTION_TEMPLATES[0];

export const findCaptionTemplate = (name: string) => CAPTION_TEMPLATES.find((t) => t.name === name);
