/** The request body of user themes: one for creation and update, every style field optional. */
import { CAPTION_TEMPLATES, HIGHLIGHT_STYLES } from '../catalog/caption-templates.js';
import { bool, fields, int, matching, oneOf, someOf, text } from '../validation.js';

/** Fonts a theme may use: those of the caption templates and the ones the README installs. */
export const THEME_FONTS = [...new Set([...CAPTION_TEMPLATES.map((t) => t.font), 'Open Sans', 'Roboto', 'Lato', 'DejaVu Sans'])] as [string, ...string[]];

const COLOR = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;
const COLOR_RULE = 'must be a colour #RRGGBB or #RRGGBBAA';
const color = (description: string, nullable = false) => matching(COLOR, COLOR_RULE, { nullable }).meta({ description });

const style = {
  font: oneOf(THEME_FONTS).meta({ description: 'a font of the caption templates, or Open Sans, Roboto, Lato, DejaVu Sans' }),
  fontSize: int(16, 200).meta({ description: '16-200' }),
  primaryColor: color('#RRGGBB or #RRGGBBAA'),
  highlightColor: color('#RRGGBB or #RRGGBBAA'),
  outlineColor: color('#RRGGBB or #RRGGBBAA'),
  backgroundColor: color('#RRGGBB or #RRGGBBAA; null for no box', true),
  highlightStyle: oneOf(HIGHLIGHT_STYLES).meta({ description: `${HIGHLIGHT_STYLES.slice(0, -1).join(', ')} or ${HIGHLIGHT_STYLES.at(-1)}` }),
  wordsPerLine: int(1, 12).meta({ description: '1-12' }),
  uppercase: bool(),
};

/** On creation only `name` is required (unset style fields keep the caption template's). */
export const createThemeBody = fields({ name: text(100, { required: true }).meta({ description: '1-100 characters' }), ...style });
const updateShape = { name: text(100).meta({ description: '1-100 characters' }), ...style };
/** An update changes at least one field. */
export const updateThemeBody = fields(updateShape).superRefine(someOf(Object.keys(updateShape)));
