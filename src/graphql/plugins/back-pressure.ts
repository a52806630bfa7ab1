// New work refused while the service cannot take it (src/limits/back-pressure.ts), whichever door it came through.
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { PRESSURED_OPERATIONS, refusalFor } from '../../limits/back-pressure.js';
import type { Context } from '../context.js';
import { rootCalls } from './rate-limits.js';

/** An operation with a root field that adds work is refused whole, nothing run, with the status and Retry-After of the refusal. */
export function useBackPressure(): Plugin<Context> {
  const check = async (args: ExecutionArgs): Promise<ExecutionResult | null> => {
    const ctx = args.contextValue as Context;
    if (!ctx.user) return null;
    if (![...rootCalls(args).keys()].some((field) => PRESSURED_OPERATIONS.has(field))) return null;
    const refused = await refusalFor(ctx.app, ctx.user.id);
    if (!refused) return null;
    const retryAfter = String(refused.extensions.retryAfter);
    ctx.responseHeaders.set('Retry-After', retryAfter);
    (refused.extensions as Record<string, unknown>).http = { status: refused.extensions.status, headers: { 'Retry-After': retryAfter } };
    return { errors: [refused] };
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refused = await check(args);
      if (refused) setResultAndStopExecution(refused);
    },
  };
}
