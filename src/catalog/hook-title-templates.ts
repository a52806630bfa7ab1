/**
 * Hook-title templates: the look of the title shown over the first seconds.
 * The first entry is the default hook template. Sizes are for a frame whose
 * short side is 1080 (as caption templates).
 */
export interface HookTitleTemplate {
  name: string;
  description: string;
  font: string;
  /** CSS-style weight (700 bold, 800 extra bold, 900 black) */
  fontWeight: number;
  bold: boolean;
  uppercase: boolean;
  textColor: string;
  /** box behind the text; null for none */
  backgroundColor: string | null;
  outlineColor: string;
  outlineWidth: number;
  /** drop shadow depth in pixels (0: none) */
  shadow: number;
  /** blur of the outline into a halo (0: none) */
  glow: number;
  /** seconds the title stays on screen */
  duration: number;
  /** seconds of fade in and out */
  fade: number;
}

export const HOOK_TITLE_TEMPLATES: readonly HookTitleTemplate[] = [
  {
    name: 'headline',
    description: 'Black bold text on a white card.',
    font: 'Roboto',
    fontWeight: 900,
    bold: true,
    uppercase: false,
    textColor: '#111111',
    backgroundColor: '#FFFFFF',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.25,
  },
  {
    name: 'banner',
    description: 'White upper-case text on a bold colour band.',
    font: 'Open Sans',
    fontWeight: 800,
    bold: true,
    uppercase: true,
    textColor: '#FFFFFF',
    backgroundColor: '#E8303A',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.2,
  },
  {
    name: 'outline',
    description: 'Large white text with a thick black outline, no card.',
    font: 'Lato',
    fontWeight: 900,
    bold: true,
    uppercase: false,
    textColor: '#FFFFFF',
    backgroundColor: null,
    outlineColor: '#000000',
    outlineWidth: 8,
    shadow: 0,
    glow: 0,
    duration: 3.5,
    fade: 0.3,
  },
  {
    name: 'sticker',
    description: 'Yellow card with dark text, like a sticky note.',
    font: 'Open Sans',
    fontWeight: 800,
    bold: true,
    uppercase: false,
    textColor: '#1A1A1A',
    backgroundColor: '#FFE14D',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.2,
  },
  {
    name: 'dark',
    description: 'White text on a translucent black card.',
    font: 'Roboto',
    fontWeight: 700,
    bold: true,
    uppercase: false,
    textColor: '#FFFFFF',
    backgroundColor: '#000000B8',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.25,
  },
  {
    name: 'neon',
    description: 'Upper-case white letters in a cyan glow.',
    font: 'Roboto',
    fontWeight: 900,
    bold: true,
    uppercase: true,
    textColor: '#E8FFFF',
    backgroundColor: null,
    outlineColor: '#00C8FF',
    outlineWidth: 5,
    shadow: 0,
    glow: 8,
    duration: 3,
    fade: 0.3,
  },
  {
    name: 'script',
    description: 'Bold script letters in white with a dark outline and shadow.',
    font: 'Lobster Two',
    fontWeight: 700,
    bold: true,
    uppercase: false,
    textColor: '#FFFFFF',
    backgroundColor: null,
    outlineColor: '#2B1030',
    outlineWidth: 6,
    shadow: 4,
    glow: 0,
    duration: 3.5,
    fade: 0.3,
  },
  {
    name: 'marker',
    description: 'Tall upper-case letters with a very thick black outline.',
    font: 'Bebas Neue',
    fontWeight: 700,
    bold: true,
    uppercase: true,
    textColor: '#FFFFFF',
    backgroundColor: null,
    outlineColor: '#000000',
    outlineWidth: 10,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.2,
  },
  {
    name: 'ocean',
    description: 'White upper-case text on a deep blue card.',
    font: 'League Spartan',
    fontWeight: 800,
    bold: true,
    uppercase: true,
    textColor: '#FFFFFF',
    backgroundColor: '#1F4FD8',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.2,
  },
  {
    name: 'comic',
    description: 'Rounded dark letters on a light blue card.',
    font: 'Comic Neue',
    fontWeight: 700,
    bold: true,
    uppercase: false,
    textColor: '#10233F',
    backgroundColor: '#BFE6FF',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3,
    fade: 0.2,
  },
  {
    name: 'typewriter',
    description: 'Monospaced dark letters on a cream card.',
    font: 'DejaVu Sans Mono',
    fontWeight: 700,
    bold: true,
    uppercase: false,
    textColor: '#2A2118',
    backgroundColor: '#F6EBD2',
    outlineColor: '#000000',
    outlineWidth: 0,
    shadow: 0,
    glow: 0,
    duration: 3.5,
    fade: 0.25,
  },
  {
    name: 'yellow',
    description: 'Heavy yellow upper-case letters with a black outline and shadow.',
    font: 'League Spartan',
    fontWeight: 900,
    bold: true,
    uppercase: true,
    textColor: '#FFD400',
    backgroundColor: null,
    outlineColor: '#000000',
    outlineWidth: 8,
    shadow: 4,
    glow: 0,
    duration: 3,
    fade: 0.2,
  },
];

export const DEFAULT_HOOK_TITLE_TEMPLATE = HOOK_TITLE_TEMPLATES[0];

export const findHookTitleTemplate = (name: string) => HOOK_TITLE_TEMPLATES.find((t) => t.name === name);
