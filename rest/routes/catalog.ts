import { CaptionTemplateNamesDocument, HookTitleTemplateNamesDocument, LanguagesDocument } from '../generated/operations.js';
import { noVariables, route } from '../route.js';

export const catalogRoutes = [
  route({
    method: 'GET',
    url: '/v1/languages',
    operation: LanguagesDocument,
    variables: noVariables,
    respond: (d) => ({ languages: d.languages.map(({ name, code }) => ({ name, code })) }),
  }),
  route({
    method: 'GET',
    url: '/v1/templates',
    operation: CaptionTemplateNamesDocument,
    variables: noVariables,
    respond: (d) => ({ templates: d.captionTemplates.map((t) => t.name) }),
  }),
  route({
    method: 'GET',
    url: '/v1/hook-title/templates',
    operation: HookTitleTemplateNamesDocument,
    variables: noVariables,
    respond: (d) => ({ templates: d.hookTitleTemplates.map((t) => t.name) }),
  }),
];
