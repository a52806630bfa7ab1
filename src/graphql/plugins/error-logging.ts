// Unexpected errors are logged with the request id before masking hides them.
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError, isAppError } from '../../errors.js';
import type { Context } from '../context.js';

export function useErrorLogging(): Plugin<Context> {
  const log = (ctx: Context, errors: readonly GraphQLError[] | undefined) => {
    for (const e of errors ?? []) {
      const original = e.originalError;
      if (!original || isAppError(original) || original instanceof AppError) continue;
      ctx.log.error({ err: original, path: e.path }, 'unexpected error in a resolver');
    }
  };
  return {
    onExecute({ args }) {
      return { onExecuteDone: ({ result }) => void ('errors' in result && log(args.contextValue as Context, result.errors)) };
    },
  };
}
