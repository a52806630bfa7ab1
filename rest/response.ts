/**
 * JSON schemas of what /v1 answers, derived from the one source of its data:
 * the named GraphQL operation a route runs, its selection set typed by the
 * GraphQL schema (a non-null field is required, a nullable one may be null,
 * each field keeps its description), and the helpers below that say how an
 * answer reshapes it (rest/answer.ts pairs each with the reshaping itself).
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  ID: { type: 'string' },
  String: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  JSON: {},
};

const NULL: JsonSchema = { type: 'null' };

export const nullable = (s: JsonSchema): JsonSchema => (Object.keys(s).length === 0 ? s : { anyOf: [s, NULL] });

/** The schema inside `nullable`, or the schema itself. */
function present(s: JsonSchema): JsonSchema {
  const any = s.anyOf as JsonSchema[] | undefined;
  if (any?.length === 2 && any[1] === NULL) return any[0];
  return s;
}

function typeSchema(type: GraphQLOutputType, selections: SelectionSetNode | undefined, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
  if (!(type instanceof GraphQLNonNull)) return nullable(typeSchema(new GraphQLNonNull(type), selections, fragments));
  const t = type.ofType;
  if (t instanceof GraphQLList) return { type: 'array', items: typeSchema(t.ofType, selections, fragments) };
  if (t instanceof GraphQLEnumType) return { type: 'string', enum: t.getValues().map((v) => v.value) };
  if (t instanceof GraphQLScalarType) return SCALARS[t.name] ?? {};
  if (t instanceof GraphQLObjectType && selections) return objectSchema(t, selections, fragments);
  throw new Error(`no JSON schema for the GraphQL type ${String(t)}`);
}

/** The fields a selection set picks on `type`, fragments spread in place. */
function objectSchema(type: GraphQLObjectType, selections: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const visit = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) visit(fragments.get(s.name.value)!.selectionSet);
      else if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet);
      else if (s.name.value === '__typename') {
        properties[s.alias?.value ?? '__typename'] = { type: 'string' };
      } else {
        const field = type.getFields()[s.name.value];
        const key = s.alias?.value ?? s.name.value;
        const schema = typeSchema(field.type, s.selectionSet, fragments);
        properties[key] = field.description ? { description: field.description, ...schema } : schema;
        if (field.type instanceof GraphQLNonNull && !required.includes(key)) required.push(key);
      }
    }
  };
  visit(selections);
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The schema of an operation's `data`, as `schema` types its selection set. */
export function operationData(schema: GraphQLSchema, doc: TypedDocumentNode<unknown, unknown>): JsonSchema {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) throw new Error('a route runs one operation');
  const root = schema.getRootType(op.operation)!;
  return objectSchema(root, op.selectionSet, fragments);
}

/**
 * The schema of the part at `path` of what `s` describes: `a.b`, and `list[].name` for the
 * list of the items' names. A nullable step before the last is read as present, as the
 * answer's code reads it.
 */
export const schemaAt = (s: JsonSchema, path: string): JsonSchema => at(s, path.split('.'));

function at(s: JsonSchema, steps: string[]): JsonSchema {
  if (!steps.length) return s;
  const [step, ...rest] = steps;
  const name = step.replace(/\[]$/, '');
  const props = present(s).properties as Record<string, JsonSchema> | undefined;
  if (!props || !(name in props)) throw new Error(`the operation selects no ${name}`);
  if (!step.endsWith('[]')) return rest.length ? at(present(props[name]), rest) : props[name];
  return { type: 'array', items: at(present(present(props[name]).items as JsonSchema), rest) };
}

/** The operation's root field: the name its rate limit and its data go by. */
export function rootField(doc: TypedDocumentNode<unknown, unknown>): string {
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const first = op && op.kind === Kind.OPERATION_DEFINITION ? op.selectionSet.selections[0] : undefined;
  return first?.kind === Kind.FIELD ? first.name.value : '';
}

/** An object of these members, all required but `optional`. */
export const object = (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});

/** Applies `f` to an object, or to the items of a list of objects. */
function onObject(s: JsonSchema, f: (o: JsonSchema) => JsonSchema): JsonSchema {
  if (present(s) !== s) return nullable(onObject(present(s), f));
  if (s.type === 'array') return { ...s, items: onObject(s.items as JsonSchema, f) };
  return f(s);
}

/** `keys` (every member when left out) left out when null: never null, not required. */
export const withoutNulls = (s: JsonSchema, keys?: string[]): JsonSchema =>
  onObject(s, (o) => {
    const props = { ...(o.properties as Record<string, JsonSchema>) };
    const nulls = (keys ?? Object.keys(props)).filter((k) => present(props[k]) !== props[k]);
    for (const k of nulls) props[k] = present(props[k]);
    return { ...o, properties: props, required: (o.required as string[]).filter((k) => !nulls.includes(k)) };
  });

/** `keys` present only when they apply. */
export const optional = (s: JsonSchema, keys: string[]): JsonSchema =>
  onObject(s, (o) => ({ ...o, required: (o.required as string[]).filter((k) => !keys.includes(k)) }));

/** Only `keys` of an object. */
export const pick = (s: JsonSchema, keys: string[]): JsonSchema =>
  onObject(s, (o) => {
    const props = o.properties as Record<string, JsonSchema>;
    return { ...o, properties: Object.fromEntries(keys.map((k) => [k, props[k]])), required: (o.required as string[]).filter((k) => keys.includes(k)) };
  });

/** An object without `keys`. */
export const omit = (s: JsonSchema, keys: string[]): JsonSchema =>
  onObject(s, (o) =>
    pick(
      o,
      Object.keys(o.properties as object).filter((k) => !keys.includes(k)),
    ),
  );

/** An object with more members (required), or members replaced. */
export const extend = (s: JsonSchema, more: Record<string, JsonSchema>): JsonSchema =>
  onObject(s, (o) => ({
    ...o,
    properties: { ...(o.properties as object), ...more },
    required: [...new Set([...(o.required as string[]), ...Object.keys(more)])],
  }));

/** The schema of member `key` of an object, or of the items' members of a list. */
export const member = (s: JsonSchema, key: string): JsonSchema =>
  s.type === 'array' ? member(s.items as JsonSchema, key) : (s.properties as Record<string, JsonSchema>)[key];

/** Applies `f` to member `key` of an object (of each item of a list). */
export const mapMember = (s: JsonSchema, key: string, f: (m: JsonSchema) => JsonSchema): JsonSchema =>
  onObject(s, (o) => ({ ...o, properties: { ...(o.properties as object), [key]: f((o.properties as Record<string, JsonSchema>)[key]) } }));

export const string: JsonSchema = { type: 'string' };
export const boolean: JsonSchema = { type: 'boolean' };

/** One object of the members of all: required where any requires them. */
export function merge(...objects: JsonSchema[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.assign({}, ...objects.map((o) => o.properties)),
    required: [...new Set(objects.flatMap((o) => o.required as string[]))],
    additionalProperties: false,
  };
}

/** Any one of these shapes. */
export const anyOf = (...shapes: JsonSchema[]): JsonSchema => ({ anyOf: shapes });
