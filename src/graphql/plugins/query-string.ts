// GraphQL over GET: the query string's `variables` and `extensions` are JSON; text that does
// not parse is the caller's error (Yoga's own reader throws a bare SyntaxError, which masking
// would answer as an internal error).
import type { Plugin } from 'graphql-yoga';
import { badRequest } from '../../errors.js';
import type { Context } from '../context.js';

function json(params: URLSearchParams, name: 'variables' | 'extensions'): unknown {
  const text = params.get(name);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const err = badRequest(`The ${name} parameter is not JSON: send an object, URL-encoded`);
    (err.extensions as Record<string, unknown>).http = { status: 400 };
    throw err;
  }
}

export function useQueryStringParams(): Plugin<Context> {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method !== 'GET') return;
      setRequestParser((req) => {
        const params = new URL(req.url, 'http://localhost').searchParams;
        return {
          query: params.get('query') || undefined,
          operationName: params.get('operationName') || undefined,
          variables: json(params, 'variables') as Record<string, unknown> | undefined,
          extensions: json(params, 'extensions') as Record<string, unknown> | undefined,
        };
      });
    },
  };
}
