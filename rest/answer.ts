/**
 * What a /v1 route answers, said once. Each piece below makes a part of the body from the
 * operation's data and, from the JSON schema of that data, the schema of the part it makes:
 * a route declares its answer with them, and the body it sends and the one the API reference
 * describes come from that one declaration.
 *
 * Like the schema helpers of response.ts, the pieces that reshape an object reshape each item
 * of a list of objects the same way, and leave null alone (a nullable value stays nullable).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as schema from './response.js';
import type { JsonSchema } from './response.js';

/** One part of an answer: its value from its input, and its schema from its input's schema. */
export interface Answer {
  // a piece reads whatever part of the operation's data it is given, as the data comes
  body(value: any, req: FastifyRequest, reply: FastifyReply): unknown;
  schema(of: JsonSchema): JsonSchema;
}

type Obj = Record<string, unknown>;

/** Applies `f` to an object, or to each object of a list; null stays null. */
function onValue(v: unknown, f: (o: Obj) => Obj): unknown {
  if (v == null) return v;
  if (Array.isArray(v)) return v.map((item) => onValue(item, f));
  return f(v as Obj);
}

function valueAt(v: unknown, steps: string[]): unknown {
  if (!steps.length || v == null) return v;
  const [step, ...rest] = steps;
  const next = (v as Obj)[step.replace(/\[]$/, '')];
  if (!step.endsWith('[]')) return valueAt(next, rest);
  return (next as unknown[] | null)?.map((item) => valueAt(item, rest));
}

/** The input as it is. */
export const same: Answer = { body: (v) => v, schema: (s) => s };

/**
 * The part at `path` of the input (`a.b`; `list[].name` is the list of the items' names),
 * made into what `then` makes of it.
 */
export const at = (path: string, then: Answer = same): Answer => ({
  body: (v, req, reply) => then.body(valueAt(v, path.split('.')), req, reply),
  schema: (s) => then.schema(schema.schemaAt(s, path)),
});

/** Each piece applied to the one before's output. */
export const pipe = (...pieces: Answer[]): Answer => ({
  body: (v, req, reply) => pieces.reduce((value, p) => p.body(value, req, reply), v),
  schema: (s) => pieces.reduce((of, p) => p.schema(of), s),
});

/** An object of these members, each made from the same input; an `optional` member is left out when it makes undefined. */
export const fields = (members: Record<string, Answer>, optional: string[] = []): Answer => ({
  body: (v, req, reply) => {
    const out: Obj = {};
    for (const [key, piece] of Object.entries(members)) {
      const value = piece.body(v, req, reply);
      if (value !== undefined || !optional.includes(key)) out[key] = value;
    }
    return out;
  },
  schema: (s) => schema.object(Object.fromEntries(Object.entries(members).map(([key, piece]) => [key, piece.schema(s)])), optional),
});

/** The members of all these objects, made from the same input, in one object. */
export const merged = (...pieces: Answer[]): Answer => ({
  body: (v, req, reply) => Object.assign({}, ...pieces.map((p) => p.body(v, req, reply))),
  schema: (s) => schema.merge(...pieces.map((p) => p.schema(s))),
});

/** The input object with more members (or members replaced), each made from the input. */
export const extended = (members: Record<string, Answer>): Answer => ({
  body: (v, req, reply) => onValue(v, (o) => ({ ...o, ...Object.fromEntries(Object.entries(members).map(([k, p]) => [k, p.body(o, req, reply)])) })),
  schema: (s) => schema.extend(s, Object.fromEntries(Object.entries(members).map(([k, p]) => [k, p.schema(s)]))),
});

/** Always `value`, of schema `of`. */
export const constant = (value: unknown, of: JsonSchema): Answer => ({ body: () => value, schema: () => of });

/** Only these members of the object. */
export const only = (keys: readonly string[]): Answer => ({
  body: (v) => onValue(v, (o) => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]))),
  schema: (s) => schema.pick(s, [...keys]),
});

/** The object without these members. */
export const without = (keys: readonly string[]): Answer => ({
  body: (v) => onValue(v, (o) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)))),
  schema: (s) => schema.omit(s, [...keys]),
});

/** `keys` (every member when left out) left out when null: never null, so not required. */
export const withoutNulls = (keys?: readonly string[]): Answer => ({
  body: (v) => onValue(v, (o) => Object.fromEntries(Object.entries(o).filter(([k, m]) => m != null || (keys !== undefined && !keys.includes(k))))),
  schema: (s) => schema.withoutNulls(s, keys && [...keys]),
});

/** Each member left out when its rule says so (given the member and its object): present only when it applies. */
export const leftOutWhen = (rules: Record<string, (member: unknown, object: Obj) => boolean>): Answer => ({
  body: (v) => onValue(v, (o) => Object.fromEntries(Object.entries(o).filter(([k, m]) => !rules[k]?.(m, o)))),
  schema: (s) => schema.optional(s, Object.keys(rules)),
});

/** Member `key` of the object made into what `then` makes of it. */
export const member = (key: string, then: Answer): Answer => ({
  body: (v, req, reply) => onValue(v, (o) => ({ ...o, [key]: then.body(o[key], req, reply) })),
  schema: (s) => schema.mapMember(s, key, then.schema),
});

/** What `yes` makes when `test` holds for the input, else what `no` makes: either shape. */
export const either = (test: (value: Obj) => boolean, yes: Answer, no: Answer): Answer => ({
  body: (v, req, reply) => (test(v) ? yes : no).body(v, req, reply),
  schema: (s) => schema.anyOf(yes.schema(s), no.schema(s)),
});

/** A Relay page's pageInfo (at `path`) as /v1 pages it: hasMore, and nextCursor only when there is more (SPEC.md). */
export const pageOf = (path: string): Answer => ({
  body: (v) => {
    const info = valueAt(v, path.split('.')) as { hasNextPage: boolean; endCursor?: string | null };
    return { hasMore: info.hasNextPage, ...(info.hasNextPage && info.endCursor ? { nextCursor: info.endCursor } : {}) };
  },
  schema: (s) => {
    schema.schemaAt(s, path);
    return schema.object({ hasMore: schema.boolean, nextCursor: { ...schema.string, description: 'present only when hasMore' } }, ['nextCursor']);
  },
});

/**
 * An answer no piece above says: its body and its schema given side by side, for the rare
 * route whose answer is not JSON made from the data (the captions file).
 */
export const custom = (body: Answer['body'], of: (s: JsonSchema) => JsonSchema): Answer => ({ body, schema: of });
