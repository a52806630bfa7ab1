import { ACTIVE_WORD_EFFECTS, EMOJI_MODES, EMPHASIS_RULES, PAGE_ENTRANCES, TEXT_CASES, type CaptionStyle } from '../catalog/caption-style.js';
import { CAPTION_TEMPLATES, findCaptionTemplate, type CaptionTemplate } from '../catalog/caption-templates.js';
import { findHookTitleTemplate } from '../catalog/hook-title-templates.js';
import { previewLink } from '../themes/previews.js';
import { notFound } from '../errors.js';
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

type Style = CaptionStyle;
const obj = <T extends object>(name: string, description: string, fields: (t: any) => Record<string, unknown>) =>
  builder.objectRef<T>(name).implement({ description, fields: fields as never });

const CaptionFontType = obj<Style['font']>('CaptionFont', 'The words’ font', (t) => ({
  family: t.exposeString('family'),
  weight: t.exposeInt('weight', { description: 'CSS weight, 100-900' }),
  size: t.exposeInt('size', { description: 'line height in pixels of a frame whose short side is 1080' }),
  case: t.exposeString('case', { description: TEXT_CASES.join(', ') }),
}));
const CaptionOutlineType = obj<Style['outline']>('CaptionOutline', 'The outline around the letters', (t) => ({
  color: t.exposeString('color'),
  width: t.exposeInt('width'),
  glow: t.exposeInt('glow', { description: 'blur of the outline into a halo' }),
}));
const CaptionShadowType = obj<Style['shadow']>('CaptionShadow', 'The shadow under the letters', (t) => ({
  color: t.exposeString('color'),
  depth: t.exposeInt('depth'),
}));
const CaptionBoxType = obj<NonNullable<Style['box']>>('CaptionBox', 'A band behind each line', (t) => ({
  color: t.exposeString('color'),
  padding: t.exposeInt('padding'),
}));
const CaptionLayoutType = obj<Style['layout']>('CaptionLayout', 'How words fill a page and where it sits', (t) => ({
  wordsPerLine: t.exposeInt('wordsPerLine'),
  linesPerPage: t.exposeInt('linesPerPage'),
  positionY: t.exposeInt('positionY', { description: 'centre of the block, percent from the top' }),
}));
const CaptionActiveWordType = obj<Style['activeWord']>('CaptionActiveWord', 'How the word being said stands out', (t) => ({
  effect: t.exposeString('effect', { description: ACTIVE_WORD_EFFECTS.join(', ') }),
  color: t.exposeString('color'),
  scale: t.exposeInt('scale', { description: 'percent size of a popped word' }),
}));
const CaptionEntranceType = obj<Style['entrance']>('CaptionEntrance', 'How a page comes on screen', (t) => ({
  effect: t.exposeString('effect', { description: PAGE_ENTRANCES.join(', ') }),
  duration: t.exposeInt('duration', { description: 'milliseconds' }),
}));
const CaptionEmphasisType = obj<Style['emphasis']>('CaptionEmphasis', 'Which words are emphasised, and how', (t) => ({
  rules: t.exposeStringList('rules', { description: EMPHASIS_RULES.join(', ') }),
  words: t.exposeStringList('words'),
  color: t.exposeString('color'),
  scale: t.exposeInt('scale', { description: 'percent of the font size' }),
}));

export const CaptionStyleType = obj<CaptionStyle>(
  'CaptionStyle',
  'A whole caption style (src/catalog/caption-style.ts; sizes for a frame whose short side is 1080)',
  (t) => ({
    font: t.field({ type: CaptionFontType, resolve: (s: Style) => s.font }),
    fill: t.exposeString('fill'),
    alternateFill: t.exposeString('alternateFill', { nullable: true, description: 'every second line’s colour' }),
    outline: t.field({ type: CaptionOutlineType, resolve: (s: Style) => s.outline }),
    shadow: t.field({ type: CaptionShadowType, resolve: (s: Style) => s.shadow }),
    box: t.field({ type: CaptionBoxType, nullable: true, resolve: (s: Style) => s.box }),
    layout: t.field({ type: CaptionLayoutType, resolve: (s: Style) => s.layout }),
    activeWord: t.field({ type: CaptionActiveWordType, resolve: (s: Style) => s.activeWord }),
    entrance: t.field({ type: CaptionEntranceType, resolve: (s: Style) => s.entrance }),
    emphasis: t.field({ type: CaptionEmphasisType, resolve: (s: Style) => s.emphasis }),
    emoji: t.exposeString('emoji', { description: EMOJI_MODES.join(', ') }),
  }),
);

export const CaptionTemplateType = builder.objectRef<CaptionTemplate>('CaptionTemplate').implement({
  description: 'A built-in caption style, named',
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    style: t.field({ type: CaptionStyleType, resolve: (tpl) => tpl.style }),
    previewUrl: t.string({
      description:
        'A PNG still of the template on a 540x960 frame, with a word being said and an emphasised word: a link of the service, rendered on its first fetch and kept',
      resolve: (tpl, _a, ctx) => previewLink(ctx.app, 'caption', tpl.name),
    }),
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
    shadow: t.exposeInt('shadow', { description: 'drop shadow depth in pixels' }),
    glow: t.exposeInt('glow', { description: 'blur of the outline into a halo' }),
    duration: t.exposeFloat('duration'),
    fade: t.exposeFloat('fade'),
    previewUrl: t.string({
      description: 'A PNG still of the template on a 540x960 frame: a link of the service, rendered on its first fetch and kept',
      resolve: (tpl, _a, ctx) => previewLink(ctx.app, 'hook', tpl.name),
    }),
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
  captionTemplate: t.field({
    type: CaptionTemplateType,
    description: 'One caption template by name (NOT_FOUND for another name)',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, { name }) => findCaptionTemplate(name) ?? Promise.reject(notFound('Caption template')),
  }),
  hookTitleTemplate: t.field({
    type: HookTitleTemplateType,
    description: 'One hook-title template by name (NOT_FOUND for another name)',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, { name }) => findHookTitleTemplate(name) ?? Promise.reject(notFound('Hook-title template')),
  }),
  hookTitleTemplates: t.field({
    type: [HookTitleTemplateType],
    description: 'Hook-title templates accepted as `hookTitle.template`; the first is the default',
    resolve: () => HOOK_TITLE_TEMPLATES,
  }),
}));
