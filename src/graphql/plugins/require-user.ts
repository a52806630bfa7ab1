// Refuses every operation, introspection included, of a caller without a valid key.
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { unauthorized } from '../../errors.js';
import type { Context } from '../context.js';

const unauthorizedResult = (ctx: Context): ExecutionResult => {
  const err = unauthorized(ctx.badKey ? 'Invalid API key' : 'Missing API key: send it in the x-api-key header');
  (err.extensions as Record<string, unknown>).http = { status: 401 };
  return { errors: [err] };
};

export function useRequireUser(): Plugin<Context> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      if (!ctx.user) setResultAndStopExecution(unauthorizedResult(ctx));
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      if (!ctx.user) setResultAndStopExecution(unauthorizedResult(ctx));
    },
  };
}
