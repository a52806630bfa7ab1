/**
 * GraphQL input objects made from the zod schemas of the request bodies, so a
 * body has one definition whichever door it comes through: one field per
 * member, its type from the member's (Boolean; Int for an integer, else Float;
 * String, or ID when the schema says so; lists; nested inputs), non-null when
 * the schema requires it, the description from the schema's metadata. A member
 * of several shapes (a boolean or an object, items of two kinds) is JSON, and
 * the zod schema still checks it. An enum whose values are GraphQL names and
 * that the schema names becomes a GraphQL enum; other enums are Strings whose
 * description lists the values.
 */
import type { z } from 'zod';
import { baseType } from '../validation.js';
import { builder } from './builder.js';

interface Meta {
  description?: string;
  /** a scalar (ID, String) or the name of the GraphQL type to make */
  graphql?: string;
  /** fields the body refuses in words of their own (validation.ts, `fields`) */
  refused?: Readonly<Record<string, string>>;
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; out?: z.ZodType; entries?: Record<string, string> };
const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;
const metaOf = (s: z.ZodType): Meta => ((s as unknown as { meta(): Meta | undefined }).meta() ?? {}) as Meta;

/** The member under its wrappers; a pipe (a list read first loosely, then item by item) by its output. */
function shapeOf(schema: z.ZodType): z.ZodType {
  for (let s = schema; ; ) {
    const d = defOf(s);
    if (['optional', 'nullable', 'default'].includes(d.type)) s = d.innerType!;
    else if (d.type === 'pipe') s = d.out!;
    else return s;
  }
}

const required = (s: z.ZodType) => !['optional', 'nullable'].includes(defOf(s).type);
const made = new Map<string, unknown>();

function typeOf(owner: string, key: string, member: z.ZodType): unknown {
  const meta = { ...metaOf(shapeOf(member)), ...metaOf(member) };
  if (meta.graphql === 'ID' || meta.graphql === 'String' || meta.graphql === 'Int') return meta.graphql;
  const s = shapeOf(member);
  const def = defOf(s);
  switch (def.type) {
    case 'boolean':
      return 'Boolean';
    case 'number':
      return 'Float';
    case 'string':
    case 'literal':
      return 'String';
    case 'enum': {
      if (!meta.graphql) return 'String';
      const name = meta.graphql;
      if (!made.has(name)) made.set(name, builder.enumType(name, { values: Object.values(def.entries!) as [string, ...string[]] }));
      return made.get(name);
    }
    case 'object':
      return inputFromSchema(meta.graphql ?? `${owner}${key[0].toUpperCase()}${key.slice(1)}`, s as z.ZodObject, meta.description);
    case 'array': {
      const element = def.element!;
      if (['union', 'unknown'].includes(baseType(element)) && !metaOf(element).graphql) return 'JSON';
      return [typeOf(owner, key.replace(/s$/, ''), element)];
    }
    default:
      return 'JSON';
  }
}

/** Each input type's words for the fields its body refuses by name. */
const refusals = new Map<string, Readonly<Record<string, string>>>();

/** What input type `type` says of `field`, a field it does not have, when its body refuses it in words of its own. */
export function refusalOf(type: string, field: string): string | undefined {
  const refused = refusals.get(type);
  return refused && Object.hasOwn(refused, field) ? refused[field] : undefined;
}

/** The input object of a body's schema, made once per name. */
export function inputFromSchema(name: string, schema: z.ZodObject, description?: string) {
  if (!made.has(name)) {
    const { refused } = metaOf(schema);
    if (refused) refusals.set(name, refused);
    const fields = Object.entries(schema.shape as Record<string, z.ZodType>);
    made.set(
      name,
      builder.inputType(name, {
        description,
        fields: (t) =>
          Object.fromEntries(
            fields.map(([key, member]) => {
              const type = typeOf(name, key, member);
              const meta = { ...metaOf(shapeOf(member)), ...metaOf(member) };
              const isList = Array.isArray(type);
              return [
                key,
                t.field({
                  type: type as never,
                  required: (isList ? { list: required(member), items: true } : required(member)) as never,
                  description: meta.description,
                }),
              ];
            }),
          ),
      }),
    );
  }
  return made.get(name) as ReturnType<typeof builder.inputType>;
}
