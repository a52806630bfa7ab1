// Counts each rate-limited root field per user, whichever door the call used.
import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  isAbstractType,
  typeFromAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import { limitHeaders, type LimitState } from '../../limits/rate-limits.js';
import { graphqlLimitRejections } from '../../metrics.js';
import type { Context } from '../context.js';

/**
 * Spends one call per root field the operation will execute (fragments and aliases
 * included), all or nothing: over a limit, nothing runs, nothing is spent and the
 * caller gets 429.
 */
export function useRateLimits(): Plugin<Context> {
  const check = async (args: ExecutionArgs): Promise<ExecutionResult | null> => {
    const ctx = args.contextValue as Context;
    if (!ctx.user) return null;
    const calls = rootCalls(args);
    if (!calls.size) return null;
    const states = await ctx.app.limits.spend(ctx.user.id, calls);
    if (!states.length) return null;
    const refused = states.find((s) => !s.allowed);
    const shown = refused ?? states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    for (const [k, v] of Object.entries(limitHeaders(shown))) ctx.responseHeaders.set(k, v);
    if (!refused) return null;
    graphqlLimitRejections.inc({ limit: 'rate' });
    const err = new AppError('RATE_LIMIT_EXCEEDED', refusal(refused), { retryAfter: refused.resetSeconds });
    (err.extensions as Record<string, unknown>).http = { status: 429, headers: limitHeaders(refused) };
    return { errors: [err] };
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refused = await check(args);
      if (refused) setResultAndStopExecution(refused);
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refused = await check(args);
      if (refused) setResultAndStopExecution(refused);
    },
  };
}

function refusal(s: LimitState): string {
  const asked = s.calls > 1 ? `; this request makes ${s.calls} calls and ${s.remaining} are left` : '';
  return `Too many requests: ${s.limit} per hour for ${s.operation}${asked}; retry in ${s.resetSeconds} s`;
}

/**
 * How many times the operation runs each root field: one call per response key, as
 * execution groups them (GraphQL spec, CollectFields). An unknown operation runs nothing.
 * Variables that do not coerce still count (the REST adapter checks its raw body after
 * the limits, as a resolver would), and so does a field whose @skip/@include they cannot
 * decide.
 */
export function rootCalls(args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName' | 'variableValues'>): Map<string, number> {
  const calls = new Map<string, number>();
  const op = getOperationAST(args.document as DocumentNode, args.operationName);
  const root = op && args.schema.getRootType(op.operation);
  if (!op || !root) return calls;
  const raw = args.variableValues ?? {};
  const vars = getVariableValues(args.schema, op.variableDefinitions ?? [], raw);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of (args.document as DocumentNode).definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const keys = new Map<string, string>();
  collect(args.schema, fragments, vars.coerced ?? raw, root, op.selectionSet, keys, new Set());
  for (const field of keys.values()) calls.set(field, (calls.get(field) ?? 0) + 1);
  return calls;
}

function collect(
  schema: GraphQLSchema,
  fragments: Record<string, FragmentDefinitionNode>,
  vars: Record<string, unknown>,
  type: GraphQLObjectType,
  set: SelectionSetNode,
  keys: Map<string, string>,
  visited: Set<string>,
): void {
  for (const sel of set.selections) {
    if (!included(sel, vars)) continue;
    if (sel.kind === Kind.FIELD) {
      const key = sel.alias?.value ?? sel.name.value;
      if (!keys.has(key)) keys.set(key, sel.name.value);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (applies(schema, sel.typeCondition, type)) collect(schema, fragments, vars, type, sel.selectionSet, keys, visited);
    } else {
      const name = sel.name.value;
      const fragment = fragments[name];
      if (visited.has(name) || !fragment) continue;
      visited.add(name);
      if (applies(schema, fragment.typeCondition, type)) collect(schema, fragments, vars, type, fragment.selectionSet, keys, visited);
    }
  }
}

function included(node: Parameters<typeof getDirectiveValues>[1], vars: Record<string, unknown>): boolean {
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, vars)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false;
  } catch {
    return true;
  }
}

function applies(schema: GraphQLSchema, condition: Parameters<typeof typeFromAST>[1] | undefined, type: GraphQLObjectType): boolean {
  if (!condition) return true;
  const conditionType = typeFromAST(schema, condition);
  if (conditionType === type) return true;
  return !!conditionType && isAbstractType(conditionType) && schema.isSubType(conditionType, type);
}
