import { createThemeReader, updateThemeReader } from '../../src/graphql/themes.js';
import { createThemeBody, updateThemeBody } from '../../src/themes/schemas.js';
import {
  CreateUserThemeDocument,
  DeleteUserThemeDocument,
  UpdateUserThemeDocument,
  UserThemeDocument,
  UserThemesDocument,
  type UserThemeInput,
} from '../generated/operations.js';
import { at, constant, extended, fields } from '../answer.js';
import { noVariables, route } from '../route.js';

type Params = { id: string };
const EXTENSION = 'user themes through /v1, beyond SPEC.md (which shows them only as userThemeId)';

export const themeRoutes = [
  route({
    method: 'GET',
    url: '/v1/themes',
    summary: 'Your caption themes, newest first',
    extension: EXTENSION,
    operation: UserThemesDocument,
    variables: noVariables,
    answer: fields({ themes: at('userThemes') }),
  }),
  route({
    method: 'GET',
    url: '/v1/themes/:id',
    summary: 'One of your caption themes: its template, its changes and the whole style it draws',
    extension: EXTENSION,
    operation: UserThemeDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('userTheme'),
  }),
  route({
    method: 'POST',
    url: '/v1/themes',
    summary: 'Makes a caption theme: a template (basedOn) with your changes to its style',
    extension: EXTENSION,
    operation: CreateUserThemeDocument,
    body: createThemeBody,
    variables: (req) => ({ input: (req.body ?? {}) as UserThemeInput }),
    check: createThemeReader.check,
    answer: at('createUserTheme'),
    status: 201,
  }),
  route({
    method: 'PUT',
    url: '/v1/themes/:id',
    summary: "Changes a theme: its name, its template, and its style (the fields given laid over the theme's own)",
    extension: EXTENSION,
    operation: UpdateUserThemeDocument,
    body: updateThemeBody,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as UserThemeInput }),
    check: updateThemeReader.check,
    answer: at('updateUserTheme'),
  }),
  route({
    method: 'DELETE',
    url: '/v1/themes/:id',
    summary: 'Deletes a theme; projects that used it fall back to their template',
    extension: EXTENSION,
    operation: DeleteUserThemeDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('deleteUserTheme', extended({ deleted: constant(true, { const: true }) })),
  }),
];
