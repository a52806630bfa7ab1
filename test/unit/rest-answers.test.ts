/**
 * rest/answer.ts: each piece makes a body and the schema of that body from one declaration.
 * Every piece is run on values of an input schema and its body is checked against the schema
 * the same piece says it makes, besides the body itself being the one SPEC.md's records want.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  at,
  constant,
  either,
  extended,
  fields,
  leftOutWhen,
  member,
  merged,
  only,
  pageOf,
  pipe,
  same,
  without,
  withoutNulls,
  type Answer,
} from '../../rest/answer.js';
import { nullable, object, type JsonSchema } from '../../rest/response.js';

const int: JsonSchema = { type: 'integer' };
const str: JsonSchema = { type: 'string' };
const bool: JsonSchema = { type: 'boolean' };

/** The schema of an operation's data, as operationData makes it: every member required, nullable ones may be null. */
const item = object({ id: str, score: nullable(int), tags: { type: 'array', items: str } });
const data = object({
  thing: nullable(object({ id: str, note: nullable(str), on: bool, items: { type: 'array', items: item } })),
  list: { type: 'array', items: item },
  page: object({ hasNextPage: bool, endCursor: nullable(str) }),
});

const thing = { id: 't1', note: null, on: false, items: [{ id: 'i1', score: null, tags: [] }] };
const values = [
  { thing, list: [], page: { hasNextPage: false, endCursor: null } },
  {
    thing: { ...thing, note: 'n', on: true },
    list: [
      { id: 'a', score: 3, tags: ['x'] },
      { id: 'b', score: null, tags: [] },
    ],
    page: { hasNextPage: true, endCursor: 'c2' },
  },
];

const ajv = new Ajv2020({ strict: false, allErrors: true });
const req = {} as FastifyRequest;
const reply = {} as FastifyReply;

/** The piece's body of each value, each checked against the piece's schema. */
function bodies(answer: Answer): unknown[] {
  const validate = ajv.compile(answer.schema(data));
  return values.map((v) => {
    const body = answer.body(v, req, reply);
    if (!validate(body)) throw new Error(`${JSON.stringify(body)} does not fit its schema: ${ajv.errorsText(validate.errors)}`);
    return body;
  });
}

describe('an answer declared once', () => {
  it('reads the part at a path, a list mapped by []', () => {
    expect(bodies(at('list[].id'))).toEqual([[], ['a', 'b']]);
    expect(bodies(at('thing.items[].tags'))).toEqual([[[]], [[]]]);
    expect(bodies(same)).toEqual(values);
  });

  it('refuses a path the operation does not select, when the reference is built', () => {
    expect(() => at('thing.missing').schema(data)).toThrow(/selects no missing/);
  });

  it('builds objects of parts, leaving out an optional part that makes nothing', () => {
    expect(bodies(fields({ data: at('list[].id'), first: at('thing.id') }))).toEqual([
      { data: [], first: 't1' },
      { data: ['a', 'b'], first: 't1' },
    ]);
    expect(fields({ n: at('thing.missing') }, ['n']).body(values[0], req, reply)).toEqual({});
  });

  it('leaves null members out and says they are never null, on an object and on each item of a list', () => {
    expect(bodies(at('thing', pipe(only(['id', 'note']), withoutNulls())))).toEqual([{ id: 't1' }, { id: 't1', note: 'n' }]);
    expect(bodies(at('list', withoutNulls(['score'])))).toEqual([
      [],
      [
        { id: 'a', score: 3, tags: ['x'] },
        { id: 'b', tags: [] },
      ],
    ]);
    const schema = at('list', withoutNulls(['score'])).schema(data) as { items: { required: string[]; properties: Record<string, JsonSchema> } };
    expect(schema.items.required).toEqual(['id', 'tags']);
    expect(schema.items.properties.score).toEqual(int);
  });

  it('leaves a member out by its rule, and marks it optional', () => {
    const answer = at('thing', pipe(without(['items']), withoutNulls(), leftOutWhen({ on: (on) => on === false })));
    expect(bodies(answer)).toEqual([{ id: 't1' }, { id: 't1', note: 'n', on: true }]);
    // thing is nullable: its object is the first of anyOf, and stays nullable
    const [shape, none] = (answer.schema(data) as { anyOf: Array<{ required?: string[] }> }).anyOf;
    expect([shape.required, none]).toEqual([['id'], { type: 'null' }]);
  });

  it('reshapes one member, extends, merges and picks a shape by the value', () => {
    expect(bodies(at('thing', pipe(only(['id', 'items']), member('items', withoutNulls(['score'])))))).toEqual([
      { id: 't1', items: [{ id: 'i1', tags: [] }] },
      { id: 't1', items: [{ id: 'i1', tags: [] }] },
    ]);
    expect(bodies(at('thing', pipe(only(['id']), extended({ done: constant(true, { const: true }) }))))).toEqual([
      { id: 't1', done: true },
      { id: 't1', done: true },
    ]);
    expect(bodies(merged(fields({ ids: at('list[].id') }), pageOf('page')))).toEqual([
      { ids: [], hasMore: false },
      { ids: ['a', 'b'], hasMore: true, nextCursor: 'c2' },
    ]);
    const either_ = at(
      'thing',
      either((t) => t.on === true, only(['id', 'on']), pipe(only(['id', 'note']), withoutNulls())),
    );
    expect(bodies(either_)).toEqual([{ id: 't1' }, { id: 't1', on: true }]);
  });

  it('catches a body its schema does not describe', () => {
    const wrong: Answer = { body: (v) => ({ ...v.thing, note: null }), schema: (s) => at('thing', withoutNulls(['note'])).schema(s) };
    expect(() => bodies(wrong)).toThrow(/does not fit its schema/);
  });
});
