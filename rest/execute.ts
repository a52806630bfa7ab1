import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyRequest } from 'fastify';
import { print, type GraphQLFormattedError } from 'graphql';
import { AppError, ERROR_STATUS, type ErrorCode } from '../src/errors.js';
import type { GraphQLServer } from '../src/graphql/yoga.js';

/** Requests never leave the process: the URL only has to be one Yoga accepts. */
const ENDPOINT = new URL('http://rest.internal/graphql');

const printed = new WeakMap<object, { query: string; operationName: string }>();

function source(doc: TypedDocumentNode<unknown, unknown>) {
  let s = printed.get(doc);
  if (!s) {
    const op = doc.definitions.find((d) => d.kind === 'OperationDefinition');
    s = { query: print(doc), operationName: op && 'name' in op && op.name ? op.name.value : '' };
    printed.set(doc, s);
  }
  return s;
}

/**
 * Runs one named operation through the whole GraphQL pipeline (authentication,
 * limits, masking, logging) in-process, with the caller's credentials and request
 * id, and returns its data or throws the first error as an AppError.
 */
export async function executeOperation<TResult, TVariables>(
  graphql: GraphQLServer,
  req: FastifyRequest,
  doc: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const { query, operationName } = source(doc as TypedDocumentNode<unknown, unknown>);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  for (const h of ['x-api-key', 'authorization'] as const) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  const response = await graphql.fetch(
    ENDPOINT,
    { method: 'POST', headers, body: JSON.stringify({ query, operationName, variables }) },
    { requestId: req.id, log: req.log },
  );
  const result = (await response.json()) as { data?: TResult | null; errors?: GraphQLFormattedError[] };
  if (result.errors?.length) throw toAppError(result.errors[0], req, operationName);
  return result.data as TResult;
}

/** A GraphQL error as the REST layer reports it; codes outside the spec are internal faults. */
function toAppError(e: GraphQLFormattedError, req: FastifyRequest, operationName: string): AppError {
  const ext = (e.extensions ?? {}) as { code?: string; details?: never; retryAfter?: number };
  if (ext.code && ext.code in ERROR_STATUS) {
    return new AppError(ext.code as ErrorCode, e.message, { details: ext.details, retryAfter: ext.retryAfter });
  }
  // a document that does not fit the schema is a bug of this service, not of the caller
  req.log.error({ graphqlError: e, operationName }, 'REST operation failed inside GraphQL');
  return new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
}
