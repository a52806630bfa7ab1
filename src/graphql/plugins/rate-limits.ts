// Counts each rate-limited root field per user, whichever door the call used.
import { Kind, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import { limitHeaders } from '../../limits/rate-limits.js';
import type { Context } from '../context.js';

/** Counts each limited root field of an operation; over the limit, nothing runs and the caller gets 429. */
export function useRateLimits(): Plugin<Context> {
  const check = async (args: { contextValue: unknown; document: unknown; operationName?: string | null }) => {
    const ctx = args.contextValue as Context;
    if (!ctx.user) return null;
    const op = (args.document as DocumentNode).definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!args.operationName || d.name?.value === args.operationName),
    );
    for (const sel of op?.selectionSet.selections ?? []) {
      if (sel.kind !== Kind.FIELD) continue;
      const state = await ctx.app.limits.consume(ctx.user.id, sel.name.value);
      if (!state) continue;
      for (const [k, v] of Object.entries(limitHeaders(state))) ctx.responseHeaders.set(k, v);
      if (!state.allowed) {
        const err = new AppError('RATE_LIMIT_EXCEEDED', `Too many requests: ${state.limit} per hour for ${sel.name.value}; retry in ${state.resetSeconds} s`, {
          retryAfter: state.resetSeconds,
        });
        (err.extensions as Record<string, unknown>).http = { status: 429, headers: limitHeaders(state) };
        return { errors: [err] } satisfies ExecutionResult;
      }
    }
    return null;
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
