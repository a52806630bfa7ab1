// Limits on the size of a document (tokens, nesting) checked before it is parsed, and on every
// field of it (depth, breadth, complexity), introspection and __typename included, checked
// before GraphQL's own validation. Each refusal is 400 BAD_REQUEST, counted in /metrics.
import {
  Kind,
  Lexer,
  SchemaMetaFieldDef,
  Source,
  TokenKind,
  TypeMetaFieldDef,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type NamedTypeNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import { graphqlLimitRejections } from '../../metrics.js';

export interface QueryLimits {
  /** levels of fields below the root (GRAPHQL_MAX_DEPTH) */
  depth: number;
  /** levels below `__schema` and `__type` */
  introspectionDepth: number;
  /** fields in all, fragments counted where they are spread */
  breadth: number;
  /** fields below `__schema` and `__type`, those included */
  introspectionBreadth: number;
  /** the schema's field costs, lists multiplied (GRAPHQL_MAX_COMPLEXITY) */
  complexity: number;
  /** lexical tokens of the document */
  tokens: number;
  /** open brackets of any kind */
  nesting: number;
}

/**
 * Breadth 200, 20,000 tokens and nesting 100 leave room for any query of this schema (the
 * schema nests 5 levels; 200 fields with arguments are a few thousand tokens). The standard
 * introspection query (graphql-js `getIntrospectionQuery()`, which GraphiQL and the code
 * generator's URL loader send) is 15 levels deep, its `ofType` chain stopping at 9, and
 * 213 to 232 fields wide depending on its options: room for one, not two.
 */
export const QUERY_LIMITS = { introspectionDepth: 15, breadth: 200, introspectionBreadth: 300, tokens: 20_000, nesting: 100 } as const;

/** Fields and fragments nested in one another past this are refused before they are walked further. */
const MAX_LEVELS = 64;

type Limit = 'tokens' | 'nesting' | 'depth' | 'introspection_depth' | 'breadth' | 'introspection_breadth' | 'complexity';

function refuse(limit: Limit, message: string): AppError {
  graphqlLimitRejections.inc({ limit });
  const err = new AppError('BAD_REQUEST', message);
  // not `spec`: Yoga answers GraphQL's own validation errors 200 to application/json clients, a refusal is 400
  (err.extensions as Record<string, unknown>).http = { status: 400, spec: false };
  return err;
}

export function useQueryLimits(schema: GraphQLSchema, limits: QueryLimits): Plugin {
  assertStaticCosts(schema);
  return {
    // before parsing: graphql-js parses recursively (its stack overflows near 2,000 levels)
    // and a document of megabytes costs seconds; one pass of the lexer, stopped at a limit, is cheap
    onParse({ params }) {
      const size = sizeOf(params.source, limits);
      if (size.tokens > limits.tokens) throw refuse('tokens', `The document has more than ${limits.tokens} tokens`);
      if (size.nesting > limits.nesting) throw refuse('nesting', `The document is nested too deep: more than ${limits.nesting} levels of brackets`);
    },
    // before validation: a refused document costs one walk, not the validation rules
    onValidate({ params, setResult }) {
      const refusal = check(params.schema, params.documentAST, limits);
      if (refusal) setResult([refusal]);
    },
  };
}

/** Tokens and bracket nesting of `source`, counted until one is past its limit; what does not lex is left to the parser to report. */
function sizeOf(source: string | Source, limits: QueryLimits): { tokens: number; nesting: number } {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  const size = { tokens: 0, nesting: 0 };
  let depth = 0;
  try {
    for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) {
      if (++size.tokens > limits.tokens) break;
      if (t.kind === TokenKind.BRACE_L || t.kind === TokenKind.BRACKET_L || t.kind === TokenKind.PAREN_L) {
        size.nesting = Math.max(size.nesting, ++depth);
        if (size.nesting > limits.nesting) break;
      } else if (t.kind === TokenKind.BRACE_R || t.kind === TokenKind.BRACKET_R || t.kind === TokenKind.PAREN_R) depth--;
    }
  } catch {
    return { tokens: 0, nesting: 0 };
  }
  return size;
}

interface Measure {
  depth: number;
  /** depth below __schema / __type */
  introspectionDepth: number;
  breadth: number;
  introspectionBreadth: number;
  complexity: number;
}

const NONE: Measure = { depth: 0, introspectionDepth: 0, breadth: 0, introspectionBreadth: 0, complexity: 0 };

/** The first limit an operation of the document exceeds, as the error to answer. */
function check(schema: GraphQLSchema, document: DocumentNode, limits: QueryLimits): AppError | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const walker = new Walker(schema, fragments);
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    let m: Measure;
    try {
      m = walker.selections(d.selectionSet, schema.getRootType(d.operation) ?? undefined, 0, true);
    } catch (e) {
      if (e !== TOO_DEEP) throw e;
      return refuse('depth', `Query depth exceeds the limit of ${limits.depth}: fields and fragments nest more than ${MAX_LEVELS} levels`);
    }
    if (m.depth > limits.depth) return refuse('depth', `Query depth ${m.depth} exceeds the limit of ${limits.depth}`);
    if (m.introspectionDepth > limits.introspectionDepth) {
      return refuse('introspection_depth', `Introspection depth ${m.introspectionDepth} exceeds the limit of ${limits.introspectionDepth}`);
    }
    if (m.breadth > limits.breadth) return refuse('breadth', `Query breadth ${m.breadth} exceeds the limit of ${limits.breadth}`);
    if (m.introspectionBreadth > limits.introspectionBreadth) {
      return refuse('introspection_breadth', `Introspection breadth ${m.introspectionBreadth} exceeds the limit of ${limits.introspectionBreadth}`);
    }
    if (m.complexity > limits.complexity) return refuse('complexity', `Query complexity ${m.complexity} exceeds the limit of ${limits.complexity}`);
  }
  return null;
}

const TOO_DEEP = new Error('nested past MAX_LEVELS');

/**
 * Measures selections the way the complexity plugin of the schema builder does (a field
 * costs its `complexity`, its selections times its multiplier, 10 for lists), but over
 * every field: __typename, and the introspection below `__schema` and `__type`, where
 * each field costs 1. The document is not validated yet: unknown fields cost 1 and are
 * walked for depth, unknown or cyclic fragment spreads count nothing.
 */
class Walker {
  private readonly done = new Map<string, Measure>();
  private readonly active = new Set<string>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
  ) {}

  /** The type a fragment's selections are read on: its condition's, else the enclosing one. */
  private on(condition: NamedTypeNode | undefined, type: GraphQLNamedType | undefined): GraphQLNamedType | undefined {
    return (condition && this.schema.getType(condition.name.value)) ?? type;
  }

  /** `level` counts the fields and fragments above, to stop a walk that would overflow the stack */
  selections(set: SelectionSetNode, type: GraphQLNamedType | undefined, level: number, root = false, introspection = false): Measure {
    if (level > MAX_LEVELS) throw TOO_DEEP;
    const m = { ...NONE };
    for (const sel of set.selections) {
      let part: Measure;
      if (sel.kind === Kind.FIELD) part = this.field(sel, type, level, root, introspection);
      else if (sel.kind === Kind.INLINE_FRAGMENT) part = this.selections(sel.selectionSet, this.on(sel.typeCondition, type), level + 1, root, introspection);
      else part = this.fragment(sel.name.value, type, level, root, introspection);
      m.depth = Math.max(m.depth, part.depth);
      m.introspectionDepth = Math.max(m.introspectionDepth, part.introspectionDepth);
      m.breadth += part.breadth;
      m.introspectionBreadth += part.introspectionBreadth;
      m.complexity += part.complexity;
    }
    return m;
  }

  /** A named fragment is measured once and counted wherever it is spread. */
  private fragment(name: string, parent: GraphQLNamedType | undefined, level: number, root: boolean, introspection: boolean): Measure {
    const fragment = this.fragments.get(name);
    if (!fragment) return NONE;
    const type = this.on(fragment.typeCondition, parent);
    const key = `${name}\0${type?.name ?? ''}\0${root}\0${introspection}`;
    const known = this.done.get(key);
    if (known) return known;
    if (this.active.has(name)) return NONE;
    this.active.add(name);
    const m = this.selections(fragment.selectionSet, type, level + 1, root, introspection);
    this.active.delete(name);
    this.done.set(key, m);
    return m;
  }

  private field(node: FieldNode, parent: GraphQLNamedType | undefined, level: number, root: boolean, introspection: boolean): Measure {
    const name = node.name.value;
    const enters = root && (name === SchemaMetaFieldDef.name || name === TypeMetaFieldDef.name);
    const def = enters ? (name === SchemaMetaFieldDef.name ? SchemaMetaFieldDef : TypeMetaFieldDef) : fieldOf(parent, name);
    const inside = introspection || enters;
    const below = node.selectionSet ? this.selections(node.selectionSet, def && getNamedType(def.type), level + 1, false, inside) : NONE;
    const [cost, multiplier] = inside ? [1, 1] : costOf(def);
    const depth = 1 + Math.max(below.depth, below.introspectionDepth);
    return {
      depth: inside ? 0 : depth,
      introspectionDepth: inside ? depth : 0,
      breadth: (inside ? 0 : 1) + below.breadth,
      introspectionBreadth: (inside ? 1 : 0) + below.introspectionBreadth,
      complexity: cost + (def ? below.complexity * Math.max(multiplier, 0) : below.complexity),
    };
  }
}

function fieldOf(type: GraphQLNamedType | undefined, name: string): GraphQLField<unknown, unknown> | undefined {
  return type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[name] : undefined;
}

type Cost = number | { field?: number; multiplier?: number } | undefined;

/** A field's cost and multiplier, as the complexity plugin of the schema builder stores them. */
function costOf(def: GraphQLField<unknown, unknown> | undefined): [number, number] {
  const cost = def?.extensions?.complexity as Cost;
  const listMultiplier = def && isList(def.type) ? 10 : 1;
  if (typeof cost === 'number') return [cost, listMultiplier];
  return [cost?.field ?? 1, cost?.multiplier ?? listMultiplier];
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/** Costs are measured from the document alone, before variables are known: a cost computed from arguments is refused at start. */
function assertStaticCosts(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (typeof field.extensions?.complexity === 'function') {
        throw new Error(`${type.name}.${field.name}: a complexity computed from arguments cannot be checked before validation`);
      }
    }
  }
}
