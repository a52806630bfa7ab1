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
    duration: 3,
    fade: 0.2,
  },
];

export const DEFAULT_HOOK_TITLE_TEMPLATE = HOOK_TITLE_TEMPLATES[0];

export const findHookTitleTemplate = (name: string) => HOOK_TITLE_TEMPLATES.find((t) => t.name === name);
