import { createUserTheme, deleteUserTheme, listUserThemes, updateUserTheme } from '../themes/service.js';
import { updateThemeBody } from '../themes/schemas.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { currentUser } from './context.js';

export const UserThemeType = builder.prismaObject('UserTheme', {
  description: "Your caption style, usable as `userThemeId`; a null style field keeps the caption template's",
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    font: t.exposeString('font', { nullable: true }),
    fontSize: t.exposeInt('fontSize', { nullable: true, description: 'pixels at 1080 wide, 16-200' }),
    primaryColor: t.exposeString('primaryColor', { nullable: true, description: '#RRGGBB or #RRGGBBAA' }),
    highlightColor: t.exposeString('highlightColor', { nullable: true }),
    outlineColor: t.exposeString('outlineColor', { nullable: true }),
    backgroundColor: t.exposeString('backgroundColor', { nullable: true, description: 'box behind the line; null for none' }),
    highlightStyle: t.exposeString('highlightStyle', { nullable: true }),
    wordsPerLine: t.exposeInt('wordsPerLine', { nullable: true }),
    uppercase: t.exposeBoolean('uppercase', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// One input for creation and update, every field optional: the service checks
// what each needs (name on creation, at least one field on update).
const UserThemeInput = inputFromSchema('UserThemeInput', updateThemeBody, 'A caption style; on creation only `name` is required');

builder.queryFields((t) => ({
  userThemes: t.prismaField({
    type: ['UserTheme'],
    description: 'Your caption themes, newest first',
    resolve: (query, _root, _args, ctx) => listUserThemes(ctx.app.db, currentUser(ctx).id, query),
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
