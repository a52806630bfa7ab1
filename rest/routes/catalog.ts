import {
  CaptionTemplateDocument,
  CaptionTemplateNamesDocument,
  HookTitleTemplateDocument,
  HookTitleTemplateNamesDocument,
  LanguagesDocument,
} from '../generated/operations.js';
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
  route({
    method: 'GET',
    url: '/v1/templates/:name',
    summary: 'One caption template: its description, its whole style and a PNG still of it',
    extension: 'one template’s look, beyond SPEC.md’s list of names',
    operation: CaptionTemplateDocument,
    variables: (req) => ({ name: (req.params as { name: string }).name }),
    answer: at('captionTemplate'),
  }),
  route({
    method: 'GET',
    url: '/v1/hook-title/templates/:name',
    summary: 'One hook-title template: its description, its look and a PNG still of it',
    extension: 'one template’s look, beyond SPEC.md’s list of names',
    operation: HookTitleTemplateDocument,
    variables: (req) => ({ name: (req.params as { name: string }).name }),
    answer: at('hookTitleTemplate'),
  }),
];
