import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { FastifyRequest } from 'fastify';
import { print, type ExecutionResult, type GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, ERROR_STATUS, type ErrorCode } from '../src/errors.js';
import type { Context, IdempotentRoute } from '../src/graphql/context.js';
import type { GraphQLServer } from '../src/graphql/yoga.js';
import { IDEMPOTENCY_HEADER } from '../src/idempotency/keys.js';
import { callerOf } from './caller.js';

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
 * Runs one named operation through the GraphQL server's envelop pipeline in-process
 * (the same context factory and authentication, limits, error masking, logging and
 * metrics plugins as /graphql), with the caller's credentials and request id, and
 * returns its data or throws the first error as an AppError. `check` reads the raw
 * body the variables carry, as the service will, before they meet the typed inputs
 * (plugins/variable-checks.ts). An Idempotency-Key goes to the same plugin as
 * a GraphQL mutation's, with the route's scope and fingerprint
 * (plugins/idempotency.ts), so a replay is answered as the first answer was. Only the HTTP framing
 * of a GraphQL request is skipped: there is no socket between the two doors.
 */
export async function executeOperation<TResult, TVariables>(
  graphql: GraphQLServer,
  req: FastifyRequest,
  doc: TypedDocumentNode<TResult, TVariables>,
  variables: TVariables,
  {
    responseHeaders = new Map(),
    check,
    idempotentRoute,
  }: { responseHeaders?: Map<string, string>; check?: (ctx: Context, variables: TVariables) => unknown; idempotentRoute?: IdempotentRoute } = {},
): Promise<TResult> {
  const { query, operationName } = source(doc as TypedDocumentNode<unknown, unknown>);
  const headers = new Headers();
  for (const h of ['x-api-key', 'authorization', IDEMPOTENCY_HEADER] as const) {
    const v = req.headers[h];
    if (typeof v === 'string') headers.set(h, v);
  }
  const params = { query, operationName, variables: variables as Record<string, unknown> };
  const enveloped = graphql.getEnveloped({
    request: { headers } as Request,
    params,
    requestId: req.id,
    log: req.log,
    responseHeaders,
    checkVariables: check,
    user: callerOf(req),
    idempotentRoute,
  } as never);
  const document = enveloped.parse(query);
  const invalid = enveloped.validate(enveloped.schema, document);
  if (invalid.length) throw toAppError(invalid[0], req, operationName);
  const result = (await enveloped.execute({
    schema: enveloped.schema,
    document,
    contextValue: await enveloped.contextFactory(),
    variableValues: params.variables,
    operationName,
  })) as ExecutionResult<TResult>;
  if (result.errors?.length) throw toAppError(result.errors[0], req, operationName);
  return result.data as TResult;
}

/** A GraphQL error as the REST layer reports it; codes outside the spec are internal faults. */
function toAppError(e: GraphQLError | GraphQLFormattedError, req: FastifyRequest, operationName: string): AppError {
  const ext = (e.extensions ?? {}) as { code?: string; details?: never; retryAfter?: number };
  if (ext.code && ext.code in ERROR_STATUS) {
    return new AppError(ext.code as ErrorCode, e.message, { details: ext.details, retryAfter: ext.retryAfter });
  }
  // a document that does not fit the schema is a bug of this service, not of the caller
  req.log.error({ graphqlError: { message: e.message, extensions: e.extensions }, operationName }, 'REST operation failed inside GraphQL');
  return new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
}
