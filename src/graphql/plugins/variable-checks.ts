// The in-process REST adapter's check of its raw body, where a resolver's own check would run.
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isAppError } from '../../errors.js';
import type { Context } from '../context.js';

/**
 * A caller that hands raw variables (a REST body: any JSON) has them checked by
 * the domain's own reading before GraphQL coerces them into the typed inputs,
 * after authentication and rate limits as a resolver's check would be: so a body
 * of wrong types is still refused whole, every violated field in the service's
 * words, and a body that passes is one the typed inputs take as it is. The
 * check is the operation's body reader (body-reads.ts): what it read stays on
 * the context, and the resolver hands it to the service, which reads no more.
 */
export function useVariableChecks(): Plugin<Context> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      if (!ctx.checkVariables || !ctx.user) return;
      try {
        await ctx.checkVariables(ctx, (args.variableValues ?? {}) as Record<string, unknown>);
      } catch (e) {
        if (!isAppError(e)) throw e;
        setResultAndStopExecution({ errors: [e] } satisfies ExecutionResult);
      }
    },
  };
}
