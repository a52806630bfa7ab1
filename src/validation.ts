/**
 * The words and the reading of request bodies, for the zod schemas of every
 * domain: each field builder below carries the message a caller reads, and
 * `readBody` turns zod's issues into one FieldErrors, so a caller learns every
 * violated field at once, named by its REST path (`items[1].endTime`).
 * A field that is absent (or `undefined`, as GraphQL passes an input field that
 * was not sent) is left out; an explicit `null` is refused unless the field allows it.
 */
import { z } from 'zod';
import { FieldErrors, type FieldError } from './errors.js';

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Presence {
  required?: boolean;
  nullable?: boolean;
}

type Issue = z.core.$ZodIssue & {
  input?: unknown;
  params?: Record<string, unknown>;
  keys?: string[];
  discriminator?: string;
  errors?: Issue[][];
};

/**
 * A union of a scalar and an object (`hookTitle: true | {...}`): when the value
 * had the object's type, the object's own problems are the ones to name.
 */
function branchOf(iss: Issue): Issue[] | null {
  if (iss.code !== 'invalid_union' || iss.discriminator || !iss.errors) return null;
  const typed = iss.errors.filter((branch) => !branch.some((b) => b.code === 'invalid_type' && b.path.length === 0));
  if (typed.length !== 1) return null;
  return typed[0].map((b) => ({ ...b, path: [...iss.path, ...b.path] }));
}

/** The message of a value that is absent or null, else `rule`. */
const words =
  (rule: string, { required }: Presence = {}) =>
  (iss: { input?: unknown }) =>
    iss.input === undefined ? 'is required' : iss.input === null ? (required ? 'is required' : 'must not be null') : rule;

type Present<T extends z.ZodType, O> = O extends { required: true } ? T : O extends { nullable: true } ? z.ZodOptional<z.ZodNullable<T>> : z.ZodOptional<T>;

function presence<T extends z.ZodType, O extends Presence>(schema: T, { required, nullable }: O): Present<T, O> {
  if (required) return schema as Present<T, O>;
  return (nullable ? schema.nullable().optional() : schema.optional()) as Present<T, O>;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why PostgreSQL cannot store `s` as text, or null when it can: a NUL character,
 * or an unpaired surrogate (it has no UTF-8 form, and a JSON column refuses its escape).
 */
export function unstorable(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (UNPAIRED_SURROGATE.test(s)) return 'must not contain an unpaired surrogate (U+D800-U+DFFF)';
  return null;
}

/** A string PostgreSQL can store, the base of every text field; `error` words a value that is not a string. */
export const storableString = (error: Parameters<typeof z.string>[0]) =>
  z.string(error).check((ctx) => {
    const why = unstorable(ctx.value);
    if (why) ctx.issues.push({ code: 'custom', message: why, input: ctx.value });
  });

/** A text of `min`-`max` characters; `min` 1 also refuses a text of spaces only. */
export function text<O extends Presence & { min?: number } = {}>(max: number, opts: O = {} as O) {
  const min = opts.min ?? 1;
  const rule = min > 0 ? `must be ${min}-${max} characters, not only spaces` : `must be at most ${max} characters`;
  let s = storableString({ error: words('must be a string', opts) }).max(max, rule);
  if (min > 0) s = s.min(min, rule).refine((v) => v.trim() !== '', rule);
  return presence(s, opts);
}

/** Characters as a reader counts them: Unicode code points, so an emoji is one and not two UTF-16 units. */
export const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * A text of 1-`max` characters counted in code points (the platforms' own
 * limits count so), not only spaces; `min` 0 allows an empty text.
 */
export function postText<O extends Presence & { min?: number } = {}>(max: number, opts: O = {} as O) {
  const min = opts.min ?? 1;
  const rule = min > 0 ? `must be ${min}-${max} characters, not only spaces` : `must be at most ${max} characters`;
  let s = storableString({ error: words('must be a string', opts) }).refine((v) => codePoints(v) <= max, rule);
  if (min > 0) s = s.refine((v) => v.trim() !== '', rule);
  return presence(s, opts);
}

/** An ISO 8601 date and time with its offset (`2026-05-01T09:30:00Z`); a date alone is refused, as is a time without an offset. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The instant an ISO 8601 date-time names, or null when `s` is not one (a date alone included). */
export function parseDateTime(s: unknown): Date | null {
  if (typeof s !== 'string' || !ISO_DATE_TIME.test(s)) return null;
  // a calendar day that does not exist (2026-02-30) is refused, not rolled over
  const [y, m, day] = s.slice(0, 10).split('-').map(Number);
  const calendar = new Date(Date.UTC(y, m - 1, day));
  if (calendar.getUTCMonth() !== m - 1 || calendar.getUTCDate() !== day) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * The instants a date the API is given may name (the `from` and `to` of the
 * publication listing and of the statistics, a publication's `scheduledFor`),
 * as they reach PostgreSQL: no data predates 1970, PostgreSQL reads year 0000
 * as no year at all, and after 9999 ISO strings write six-digit years (a
 * statistics window and the one before it stay inside too).
 */
const EARLIEST_DATE = new Date('1970-01-01T00:00:00Z');
const LATEST_DATE = new Date('9999-12-31T00:00:00Z');

/** Why a date given to the API cannot name `t`, or null when it can. */
export const outOfDateRange = (t: Date): string | null =>
  t < EARLIEST_DATE || t >= LATEST_DATE ? `must be from ${EARLIEST_DATE.toISOString()} up to ${LATEST_DATE.toISOString()}` : null;

export const dateTime = <O extends Presence = {}>(opts: O = {} as O) => {
  const rule = 'must be an ISO 8601 date-time with a time and an offset, e.g. 2026-05-01T09:30:00Z';
  return presence(
    storableString({ error: words(rule, opts) }).refine((v) => parseDateTime(v) !== null, rule),
    opts,
  );
};

export const bool = <O extends Presence = {}>(opts: O = {} as O) => presence(z.boolean({ error: words('must be a boolean (true or false)', opts) }), opts);

/** An integer from `min` to `max`. */
export function int<O extends Presence = {}>(min: number, max: number, opts: O = {} as O) {
  const rule = `must be an integer from ${min} to ${max}`;
  // a refinement rather than .int(): zod's integer check stops the object's other checks (unknown fields)
  const n = z
    .number({ error: words(rule, opts) })
    .refine(Number.isInteger, rule)
    .min(min, rule)
    .max(max, rule);
  return presence(n.meta({ graphql: 'Int' }), opts);
}

/** A finite number from `min` to `max`. */
export function num<O extends Presence = {}>(min: number, max: number, opts: O = {} as O) {
  const rule = `must be a number from ${min} to ${max}`;
  return presence(
    z
      .number({ error: words(rule, opts) })
      .min(min, rule)
      .max(max, rule),
    opts,
  );
}

/** One of a fixed list of strings. */
export function oneOf<const T extends readonly [string, ...string[]], O extends Presence = {}>(values: T, opts: O = {} as O) {
  return presence(z.enum(values, { error: words(`must be one of: ${values.join(', ')}`, opts) }), opts);
}

/** A string matching `pattern`, described by `rule` in the error. */
export const matching = <O extends Presence = {}>(pattern: RegExp, rule: string, opts: O = {} as O) =>
  presence(storableString({ error: words(rule, opts) }).regex(pattern, rule), opts);

export const UNKNOWN_FIELD = 'is not a known field';

/**
 * A JSON object of known fields: a field it does not know is refused by name.
 * Its value keeps what was sent as sent, so a rule across fields quotes it whole.
 * `refused` words the refusal of fields a caller may expect here (one that a
 * sibling body takes): why not, and what to do instead. The schema's metadata
 * carries them, so GraphQL's input types give the same words.
 */
export function fields<S extends z.core.$ZodLooseShape>(shape: S, notObject = 'must be a JSON object', refused: Readonly<Record<string, string>> = {}) {
  const schema = z.looseObject(shape, { error: notObject }).superRefine(
    (body, ctx) => {
      if (!isPlainObject(body)) return;
      const unknown = Object.keys(body).filter((k) => !Object.hasOwn(shape, k));
      // a refused field is an unknown field in words of its own (fieldErrorsOf reads them)
      if (unknown.length)
        ctx.addIssue({ code: 'unrecognized_keys', keys: unknown, path: [], message: UNKNOWN_FIELD, params: { refused }, input: body } as never);
    },
    { when: () => true },
  );
  return Object.keys(refused).length ? schema.meta({ refused }) : schema;
}

/** Refuses a body with no field at all. */
export const someOf = (known: readonly string[]) => (body: Record<string, unknown>, ctx: z.RefinementCtx) => {
  if (Object.values(body).every((v) => v === undefined)) {
    ctx.addIssue({ code: 'custom', message: `must contain at least one of: ${known.join(', ')}`, path: [], params: { noValue: true } });
  }
};

/** As the value of an issue: the value the caller sent at the issue's path, as sent. */
export const SENT = Symbol('the value sent');

const sentAt = (input: unknown, path: readonly PropertyKey[]) =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), input);

/** An issue a refinement adds on `path`; `value` is what the caller reads beside it (none when left out). */
export const issue = (path: PropertyKey[], message: string, ...value: [] | [unknown]) => ({
  code: 'custom' as const,
  message,
  path,
  params: value.length ? { value: value[0] } : { noValue: true },
});

/** `items.1.endTime` as the REST body names it: `items[1].endTime`; the body itself is `body`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  const name = path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
  return name || 'body';
}

/**
 * zod's issues as field errors: an unknown field is named by itself (before
 * the other problems of its object, as a reader meets it), a union that matched
 * no shape is named by its discriminator, and each field keeps its first problem.
 */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[], into = new FieldErrors(), input?: unknown): FieldErrors {
  const list: Array<{ path: PropertyKey[]; error: FieldError }> = [];
  const flat = (issues as readonly Issue[]).flatMap((iss) => branchOf(iss) ?? [iss]);
  for (const raw of flat) {
    if (raw.code === 'unrecognized_keys') {
      const at = list.findIndex((e) => raw.path.every((k, i) => e.path[i] === k));
      const refused = (raw.params?.refused ?? {}) as Readonly<Record<string, string>>;
      const unknown = (raw.keys ?? []).map((key) => ({
        path: [...raw.path, key],
        error: withValue(
          { field: fieldPath([...raw.path, key]), message: Object.hasOwn(refused, key) ? refused[key] : raw.message },
          isPlainObject(raw.input) ? raw.input[key] : undefined,
        ),
      }));
      list.splice(at < 0 ? list.length : at, 0, ...unknown);
      continue;
    }
    let value = raw.input;
    if (raw.code === 'invalid_union' && raw.discriminator) value = isPlainObject(raw.input) ? raw.input[raw.discriminator] : undefined;
    if (raw.params?.noValue) value = undefined;
    else if (raw.params && 'value' in raw.params) value = raw.params.value === SENT ? sentAt(input, raw.path) : raw.params.value;
    list.push({ path: [...raw.path], error: withValue({ field: fieldPath(raw.path), message: raw.message }, value) });
  }
  for (const { error } of list) into.add(error.field, error.message, error.value);
  return into;
}

const withValue = (e: FieldError, value: unknown): FieldError => (value === undefined ? e : { ...e, value });

/**
 * Reads `input` with `schema`: the parsed body, or null with every problem in
 * `errors`. A body that is not an object is named `body` and its fields are then
 * read as absent, so required ones are named too.
 */
export function readBody<T extends z.ZodType>(schema: T, input: unknown, errors = new FieldErrors()): z.output<T> | null {
  let body = input;
  if (!isPlainObject(input)) {
    errors.add('body', 'must be a JSON object', input);
    body = {};
  }
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return errors.size ? null : result.data;
  fieldErrorsOf(result.error.issues, errors, body);
  return null;
}

/** True when `input` has no problem at `field` (its own value, not a part of it). */
export const passed = (errors: FieldErrors, field: string) => !errors.has(field);

/**
 * Multipart text parts as the schema's types (every part is text): a boolean
 * field reads `true`/`false`, a number field digits, an object or list field
 * JSON. A part that does not read as its type is passed on as its text, so the
 * schema names it along with every other violated field.
 */
export function fromFormFields(schema: z.ZodObject, form: Record<string, string>): Record<string, unknown> {
  const read = (name: string, textValue: string): unknown => {
    const t = textValue.trim();
    // the schema's own fields only: a part named constructor or toString is a field it does not know
    const kind = Object.hasOwn(schema.shape, name) ? baseType(schema.shape[name] as z.ZodType) : 'string';
    if (kind === 'boolean') return t === 'true' ? true : t === 'false' ? false : textValue;
    if (kind === 'number') return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : textValue;
    if (kind === 'string' || kind === 'enum') return textValue;
    try {
      return JSON.parse(t);
    } catch {
      return textValue;
    }
  };
  // fromEntries keeps a part named __proto__ as a field of the body, not its prototype
  return Object.fromEntries(Object.entries(form).map(([name, textValue]) => [name, read(name, textValue)]));
}

/** The zod type under optional, nullable, default and pipe wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } };
  for (;;) {
    const d = s.def;
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default') && d.innerType) s = d.innerType as typeof s;
    else if (d.type === 'pipe' && d.in) s = d.in as typeof s;
    else return s;
  }
}

export const baseType = (schema: z.ZodType): string => (unwrap(schema) as z.ZodType & { def: { type: string } }).def.type;
