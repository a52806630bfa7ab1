import { CaptionTemplateNamesDocument, HookTitleTemplateNamesDocument, LanguagesDocument } from '../generated/operations.js';
import { at, fields } from '../answer.js';
import { noVariables, route } from '../route.js';

export const catalogRoutes = [
  route({
    method: 'GET',
    url: '/v1/languages',
    summary: 'The languages a project can be transcribed in',
    operation: LanguagesDocument,
    variables: noVariables,
    answer: fields({ languages: at('languages') }),
  }),
  route({
    method: 'GET',
    url: '/v1/templates',
    summary: 'The caption templates (templateName); the first is the default',
    operation: CaptionTemplateNamesDocument,
    variables: noVariables,
    answer: fields({ templates: at('captionTemplates[].name') }),
  }),
  route({
    method: 'GET',
    url: '/v1/hook-title/templates',
    summary: 'The hook-title templates (hookTitle.template); the first is the default',
    operation: HookTitleTemplateNamesDocument,
    variables: noVariables,
    answer: fields({ templates: at('hookTitleTemplates[].name') }),
  }),
];
