import { CAPTION_TEMPLATES, type CaptionTemplate } from '../catalog/caption-templates.js';
import { HOOK_TITLE_TEMPLATES, type HookTitleTemplate } from '../catalog/hook-title-templates.js';
import { languagesFor, type Language } from '../catalog/languages.js';
import { builder } from './builder.js';

export const LanguageType = builder.objectRef<Language>('Language').implement({
  description: 'A language the configured transcription engine can transcribe',
  fields: (t) => ({
    code: t.exposeString('code'),
    name: t.exposeString('name'),
  }),
});

export const CaptionTemplateType = builder.objectRef<CaptionTemplate>('CaptionTemplate').implement({
  description: 'A caption style: font, colours, sizes (pixels for a frame whose short side is 1080), highlight style and words per line',
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    font: t.exposeString('font'),
    fontSize: t.exposeInt('fontSize'),
    fontWeight: t.exposeInt('fontWeight', { description: '400 regular, 700 bold, 800 extra bold, 900 black' }),
    bold: t.exposeBoolean('bold'),
    uppercase: t.exposeBoolean('uppercase'),
    primaryColor: t.exposeString('primaryColor'),
    highlightColor: t.exposeString('highlightColor'),
    outlineColor: t.exposeString('outlineColor'),
    outlineWidth: t.exposeInt('outlineWidth'),
    shadow: t.exposeInt('shadow'),
    backgroundColor: t.exposeString('backgroundColor', { nullable: true }),
    highlightStyle: t.exposeString('highlightStyle'),
    wordsPerLine: t.exposeInt('wordsPerLine'),
    positionY: t.exposeInt('positionY'),
  }),
});

export const HookTitleTemplateType = builder.objectRef<HookTitleTemplate>('HookTitleTemplate').implement({
  description: 'The look of a hook title',
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    font: t.exposeString('font'),
    fontWeight: t.exposeInt('fontWeight', { description: '400 regular, 700 bold, 800 extra bold, 900 black' }),
    bold: t.exposeBoolean('bold'),
    uppercase: t.exposeBoolean('uppercase'),
    textColor: t.exposeString('textColor'),
    backgroundColor: t.exposeString('backgroundColor', { nullable: true }),
    outlineColor: t.exposeString('outlineColor'),
    outlineWidth: t.exposeInt('outlineWidth'),
    duration: t.exposeFloat('duration'),
    fade: t.exposeFloat('fade'),
  }),
});

builder.queryFields((t) => ({
  languages: t.field({
    type: [LanguageType],
    description: 'Languages accepted as `language` by project creation',
    resolve: (_root, _args, ctx) => languagesFor(ctx.app.config.transcriber, (code) => ctx.app.transcriber.supports(code)),
  }),
  captionTemplates: t.field({
    type: [CaptionTemplateType],
    description: 'Caption templates accepted as `templateName`; the first is the default',
    resolve: () => CAPTION_TEMPLATES,
  }),
  hookTitleTemplates: t.field({
    type: [HookTitleTemplateType],
    description: 'Hook-title templates accepted as `hookTitle.template`; the first is the default',
    resolve: () => HOOK_TITLE_TEMPLATES,
  }),
}));
