// Every error /graphql answers carries a code of SPEC.md's list, whichever layer raised it.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ERROR_STATUS } from '../../errors.js';

type AnyError = GraphQLError | GraphQLFormattedError;

/**
 * GraphQL's and Yoga's own refusals of a request (a syntax error, a field the
 * schema does not have, a body Yoga cannot read) carry codes of their own
 * (GRAPHQL_PARSE_FAILED, GRAPHQL_VALIDATION_FAILED) or none: they are the
 * caller's errors, BAD_REQUEST. Errors of execution were masked to the list already.
 */
export function withSpecCode<E extends AnyError>(e: E): E;
export function withSpecCode(e: AnyError): AnyError {
  const code = e.extensions?.code;
  if (typeof code === 'string' && code in ERROR_STATUS) return e;
  const extensions = { ...e.extensions, code: 'BAD_REQUEST' };
  if (!(e instanceof GraphQLError)) return { ...e, extensions };
  return new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, originalError: e.originalError, extensions });
}

const withSpecCodes = <R extends { errors?: readonly AnyError[] }>(r: R): R => (r.errors?.length ? { ...r, errors: r.errors.map(withSpecCode) } : r);

export function useSpecErrorCodes(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      // a stream's events are execution results, masked as they come
      if (Symbol.asyncIterator in Object(result)) return;
      setResult((Array.isArray(result) ? result.map(withSpecCodes) : withSpecCodes(result as never)) as never);
    },
  };
}
