/**
 * The caption style language: one declarative look for burned-in captions.
 * A built-in template is a complete style; a user theme, a project's `style`
 * and a preset's saved captions are partial styles laid over one (DESIGN.md,
 * "Looks are data in three layers"); per-word overrides (colour, emphasis,
 * emoji, hidden) live in the transcript's words. The zod schema below is the
 * partial style every door reads (REST bodies, GraphQL inputs, the OpenAPI
 * document derive from it); `CaptionStyle` is the complete one the renderer
 * draws.
 *
 * Sizes are pixels of a frame whose short side is 1080, scaled with the short
 * side; `font.size` is the font's line height (a capital is about 0.7 of it).
 */
import { z } from 'zod';
import { fields, int, isPlainObject, matching, oneOf, text } from '../validation.js';

/** How the words are cased on screen. */
export const TEXT_CASES = ['asSpoken', 'upper', 'lower'] as const;
/** How the word being spoken stands out: its colour, a box behind it, an underline, a scale "pop" (with its colour), or not at all. */
export const ACTIVE_WORD_EFFECTS = ['color', 'box', 'underline', 'pop', 'none'] as const;
/** How a page of words comes on screen; `reveal` shows each word as it is said, `karaoke` sweeps the colour through each word over its spoken time. */
export const PAGE_ENTRANCES = ['none', 'fade', 'pop', 'slideUp', 'reveal', 'karaoke'] as const;
/** Which words are emphasised (a second colour and size): numbers, names, the words listed in the style, the transcript's most salient words. */
export const EMPHASIS_RULES = ['numbers', 'names', 'listed', 'salient'] as const;
/** Emoji: none, or one after an emphasised keyword that has one (drawn in colour above the page). */
export const EMOJI_MODES = ['off', 'keywords'] as const;

export type TextCase = (typeof TEXT_CASES)[number];
export type ActiveWordEffect = (typeof ACTIVE_WORD_EFFECTS)[number];
export type PageEntrance = (typeof PAGE_ENTRANCES)[number];
export type EmphasisRule = (typeof EMPHASIS_RULES)[number];
export type EmojiMode = (typeof EMOJI_MODES)[number];

export interface CaptionStyle {
  font: {
    family: string;
    /** CSS weight, 100-900: libass picks the family's nearest face */
    weight: number;
    size: number;
    case: TextCase;
  };
  /** the words' colour, #RRGGBB or #RRGGBBAA */
  fill: string;
  /** every second line of a page in this colour (a two-tone page); null: all lines in `fill` */
  alternateFill: string | null;
  /** `glow` blurs the outline into a halo */
  outline: { color: string; width: number; glow: number };
  shadow: { color: string; depth: number };
  /** a band behind each line; null for none */
  box: { color: string; padding: number } | null;
  /** `positionY`: the block's centre, percent from the top */
  layout: { wordsPerLine: number; linesPerPage: number; positionY: number };
  /** `scale`: percent the word grows to for `pop` */
  activeWord: { effect: ActiveWordEffect; color: string; scale: number };
  /** `duration`: milliseconds of the fade, pop or slide */
  entrance: { effect: PageEntrance; duration: number };
  /** `words`: the words of the `listed` rule; `scale`: percent of the font size */
  emphasis: { rules: EmphasisRule[]; words: string[]; color: string; scale: number };
  emoji: EmojiMode;
}

/** A style laid over another: any field may be left out. */
export type StyleOverride = {
  [K in keyof CaptionStyle]?: CaptionStyle[K] extends infer O | null
    ? O extends Record<string, unknown>
      ? Partial<O> | (null extends CaptionStyle[K] ? null : never)
      : CaptionStyle[K]
    : CaptionStyle[K];
};

/**
 * The font families a style may name: those of the built-in templates and the
 * script families chosen by language (all from Debian packages: README,
 * Prerequisites). A font uploaded to the library is named by its family too.
 */
export const STYLE_FONTS = [
  'Lato',
  'Open Sans',
  'Roboto',
  'DejaVu Sans',
  'DejaVu Sans Mono',
  'Bebas Neue',
  'League Spartan',
  'Dancing Script',
  'Lobster Two',
  'Comic Neue',
] as const;

/** Limits of the numbers of a style: every door says them in its errors. */
export const STYLE_LIMITS = {
  weight: [100, 900],
  size: [16, 240],
  outlineWidth: [0, 30],
  glow: [0, 20],
  shadowDepth: [0, 20],
  boxPadding: [0, 60],
  wordsPerLine: [1, 12],
  linesPerPage: [1, 3],
  positionY: [0, 80],
  scale: [100, 180],
  entranceMs: [0, 1000],
  listedWords: 50,
} as const;

const COLOR = /^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$/;
const color = (description: string, nullable = false) =>
  matching(COLOR, 'must be a colour #RRGGBB or #RRGGBBAA', { nullable }).meta({ description: `${description}: #RRGGBB or #RRGGBBAA` });
const between = (limits: readonly [number, number], description: string) =>
  int(limits[0], limits[1]).meta({ description: `${description}, ${limits[0]}-${limits[1]}` });
const L = STYLE_LIMITS;

/** A built-in family, or the family of a FONT in the user's library: the service checks which (themes/fonts.ts). */
const fontFamily = text(100).meta({ description: `${STYLE_FONTS.join(', ')}, or the family of a FONT in your library` });

const listedWords = z
  .array(z.string({ error: 'must be a word' }).min(1, 'must be a word').max(50, 'must be at most 50 characters'), {
    error: 'must be a list of words',
  })
  .max(L.listedWords, `must have at most ${L.listedWords} words`)
  .optional()
  .meta({ description: `words of the listed rule, at most ${L.listedWords}` });

const emphasisRules = z
  .array(z.enum(EMPHASIS_RULES, { error: `must be one of: ${EMPHASIS_RULES.join(', ')}` }), {
    error: `must be a list of rules (${EMPHASIS_RULES.join(', ')})`,
  })
  .optional()
  .meta({ description: 'which words are emphasised; empty: none' });

/**
 * A partial caption style, as a request carries it: every member optional,
 * `alternateFill` and `box` nullable (null: none). Unknown members are refused
 * by name, and every rule is reported at once.
 */
export const styleSchema = fields(
  {
    font: fields(
      {
        family: fontFamily,
        weight: between(L.weight, 'CSS weight'),
        size: between(L.size, 'line height in pixels of a 1080-wide frame'),
        case: oneOf(TEXT_CASES).meta({ description: TEXT_CASES.join(', ') }),
      },
      'must be an object {family, weight, size, case}',
    )
      .optional()
      .meta({ graphql: 'CaptionFontInput' }),
    fill: color('the words’ colour'),
    alternateFill: color('every second line’s colour; null: as fill', true),
    outline: fields(
      { color: color('outline colour'), width: between(L.outlineWidth, 'pixels'), glow: between(L.glow, 'blur of the outline') },
      'must be an object {color, width, glow}',
    )
      .optional()
      .meta({ graphql: 'CaptionOutlineInput' }),
    shadow: fields({ color: color('shadow colour'), depth: between(L.shadowDepth, 'pixels') }, 'must be an object {color, depth}')
      .optional()
      .meta({ graphql: 'CaptionShadowInput' }),
    box: fields({ color: color('band colour'), padding: between(L.boxPadding, 'pixels') }, 'must be an object {color, padding} or null')
      .nullable()
      .optional()
      .meta({ description: 'a band behind each line; null for none', graphql: 'CaptionBoxInput' }),
    layout: fields(
      {
        wordsPerLine: between(L.wordsPerLine, 'words per line'),
        linesPerPage: between(L.linesPerPage, 'lines per page'),
        positionY: between(L.positionY, 'centre of the block, percent from the top'),
      },
      'must be an object {wordsPerLine, linesPerPage, positionY}',
    )
      .optional()
      .meta({ graphql: 'CaptionLayoutInput' }),
    activeWord: fields(
      {
        effect: oneOf(ACTIVE_WORD_EFFECTS).meta({ description: ACTIVE_WORD_EFFECTS.join(', ') }),
        color: color('the spoken word’s colour (the box’s for box)'),
        scale: between(L.scale, 'percent size of a popped word'),
      },
      'must be an object {effect, color, scale}',
    )
      .optional()
      .meta({ graphql: 'CaptionActiveWordInput' }),
    entrance: fields(
      {
        effect: oneOf(PAGE_ENTRANCES).meta({ description: PAGE_ENTRANCES.join(', ') }),
        duration: between(L.entranceMs, 'milliseconds'),
      },
      'must be an object {effect, duration}',
    )
      .optional()
      .meta({ graphql: 'CaptionEntranceInput' }),
    emphasis: fields(
      { rules: emphasisRules, words: listedWords, color: color('emphasised words’ colour'), scale: between(L.scale, 'percent of the font size') },
      'must be an object {rules, words, color, scale}',
    )
      .optional()
      .meta({ graphql: 'CaptionEmphasisInput' }),
    emoji: oneOf(EMOJI_MODES).meta({ description: 'off, or keywords: an emoji after emphasised keywords' }),
  },
  'must be an object: a caption style',
);

/** A style as read from a request (validated), with what was left out absent. */
export type StyleInput = z.output<typeof styleSchema>;

/**
 * `over` laid over `base`, group by group: a group's members given replace
 * the base's, the others stay; null clears a nullable group; undefined keeps
 * the base's. The one rule of every layer (template, theme, project, update).
 */
export function mergeOverrides(base: StyleOverride | null | undefined, over: StyleOverride | null | undefined): StyleOverride {
  const out: Record<string, unknown> = { ...(base ?? {}) };
  for (const [key, value] of Object.entries(over ?? {})) {
    if (value === undefined) continue;
    const current = out[key];
    out[key] = isPlainObject(value) && isPlainObject(current) ? { ...current, ...withoutUndefined(value) } : value;
  }
  return out as StyleOverride;
}

/** A whole style with `over` laid on it (mergeOverrides). */
export const overStyle = (base: CaptionStyle, over: StyleOverride | null | undefined): CaptionStyle => mergeOverrides(base, over) as CaptionStyle;

const withoutUndefined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** A stored override (a JSON column) read back: what the schema accepts, anything else dropped. */
export function storedOverride(value: unknown): StyleOverride | null {
  if (!isPlainObject(value)) return null;
  const read = styleSchema.safeParse(value);
  return read.success ? (read.data as StyleOverride) : null;
}
