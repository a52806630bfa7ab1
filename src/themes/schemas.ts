/** The request body of user themes: one for creation and update. A theme is a caption style laid over a template. */
import { CAPTION_TEMPLATES, findCaptionTemplate } from '../catalog/caption-templates.js';
import { styleSchema } from '../catalog/caption-style.js';
import { fields, someOf, text } from '../validation.js';

const basedOn = text(50)
  .refine((t) => t === undefined || !!findCaptionTemplate(t), 'is not a caption template (see GET /v1/templates)')
  .meta({ description: `the caption template the theme starts from (${CAPTION_TEMPLATES[0].name} when left out)` });
const style = styleSchema.optional().meta({
  description: 'what the theme changes of its template: any fields of a caption style; on update, laid over the theme’s own',
  graphql: 'CaptionStyleInput',
});

/** On creation only `name` is required. */
export const createThemeBody = fields({ name: text(100, { required: true }).meta({ description: '1-100 characters' }), basedOn, style });
const updateShape = { name: text(100).meta({ description: '1-100 characters' }), basedOn, style };
/** An update changes at least one field. */
export const updateThemeBody = fields(updateShape).superRefine(someOf(Object.keys(updateShape)));
