import { CaptionTemplateNamesDocument, HookTitleTemplateNamesDocument, LanguagesDocument } from '../generated/operations.js';
import { object } from '../response.js';
import { noVariables, route } from '../route.js';

export const catalogRoutes = [
  route({
    method: 'GET',
    url: '/v1/languages',
    summary: 'The languages a project can be transcribed in',
    operation: LanguagesDocument,
    variables: noVariables,
    respond: (d) => ({ languages: d.languages.map(({ name, code }) => ({ name, code })) }),
    response: (d) => object({ languages: d.at('languages') }),
  }),
  route({
    method: 'GET',
    url: '/v1/templates',
    summary: 'The caption templates (templateName); the first is the default',
    operation: CaptionTemplateNamesDocument,
    variables: noVariables,
    respond: (d) => ({ templates: d.captionTemplates.map((t) => t.name) }),
    response: (d) => object({ templates: d.at('captionTemplates[].name') }),
  }),
  route({
    method: 'GET',
    url: '/v1/hook-title/templates',
    summary: 'The hook-title templates (hookTitle.template); the first is the default',
    operation: HookTitleTemplateNamesDocument,
    variables: noVariables,
    respond: (d) => ({ templates: d.hookTitleTemplates.map((t) => t.name) }),
    response: (d) => object({ templates: d.at('hookTitleTemplates[].name') }),
  }),
];
