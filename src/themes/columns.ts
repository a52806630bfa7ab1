/** The JSON columns holding caption styles: a theme's changes to its template, a project's changes to its look. */
import type { z } from 'zod';
import { styleSchema, type StyleOverride } from '../catalog/caption-style.js';
import { jsonColumn } from '../db/json.js';

const override = styleSchema as unknown as z.ZodType<StyleOverride>;

/** UserTheme.style: what the theme changes of its template ({} for nothing) */
export const themeStyleColumn = jsonColumn<StyleOverride>('UserTheme.style', override);

/** Project.captionStyle: the project's own changes to its template's or theme's style, null when none */
export const projectStyleColumn = jsonColumn<StyleOverride | null>('Project.captionStyle', (styleSchema as unknown as z.ZodType<StyleOverride>).nullable());
