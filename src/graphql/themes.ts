import { DEFAULT_CAPTION_TEMPLATE } from '../catalog/caption-templates.js';
import { themeStyleColumn } from '../themes/columns.js';
import { createUserTheme, deleteUserTheme, listUserThemes, readTheme, readThemeUpdate, themeStyle, updateUserTheme, userTheme } from '../themes/service.js';
import { bodyReader } from './body-reads.js';
import { updateThemeBody } from '../themes/schemas.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { currentUser } from './context.js';

export const UserThemeType = builder.prismaObject('UserTheme', {
  description: 'Your caption style, usable as `userThemeId`: a caption template with your changes laid over it',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    basedOn: t.string({ description: 'the caption template the theme starts from', resolve: (theme) => theme.basedOn ?? DEFAULT_CAPTION_TEMPLATE.name }),
    style: t.field({
      type: 'JSON',
      description: 'the whole caption style the theme draws (its template with its changes)',
      resolve: (theme) => themeStyle(theme),
    }),
    changes: t.field({
      type: 'JSON',
      description: 'what the theme changes of its template: a partial caption style',
      resolve: (theme) => themeStyleColumn.read(theme.style),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// One input for creation and update, every field optional: the service checks
// what each needs (name on creation, at least one field on update).
const UserThemeInput = inputFromSchema(
  'UserThemeInput',
  updateThemeBody,
  'A caption theme: a name, the template it starts from and the style it changes; on creation only `name` is required',
);

/** The /v1 checks of theme bodies: the service's reading of the raw body, before GraphQL coerces it. */
export const createThemeReader = bodyReader((ctx, { input }: { input: unknown }) => readTheme(ctx.app.db, currentUser(ctx).id, input, true));
export const updateThemeReader = bodyReader((ctx, { id, input }: { id: string | number; input: unknown }) =>
  readThemeUpdate(ctx.app.db, currentUser(ctx).id, String(id), input),
);

builder.queryFields((t) => ({
  userThemes: t.prismaField({
    type: ['UserTheme'],
    description: 'Your caption themes, newest first',
    resolve: (query, _root, _args, ctx) => listUserThemes(ctx.app.db, currentUser(ctx).id, query),
  }),
  userTheme: t.prismaField({
    type: 'UserTheme',
    description: 'One of your caption themes',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => userTheme(ctx.app.db, currentUser(ctx).id, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createUserTheme: t.prismaField({
    type: 'UserTheme',
    args: { input: t.arg({ type: UserThemeInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createUserTheme(ctx.app.db, currentUser(ctx).id, input),
  }),
  updateUserTheme: t.prismaField({
    type: 'UserTheme',
    description: 'Changes some fields of one of your themes (at least one)',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UserThemeInput, required: true }) },
    resolve: (_query, _root, { id, input }, ctx) => updateUserTheme(ctx.app.db, currentUser(ctx).id, String(id), input),
  }),
  deleteUserTheme: t.prismaField({
    type: 'UserTheme',
    description: 'Deletes one of your themes and returns it; projects that used it fall back to their template',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => deleteUserTheme(ctx.app.db, currentUser(ctx).id, String(id)),
  }),
}));
