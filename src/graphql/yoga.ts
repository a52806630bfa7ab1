import { GraphQLError, Kind, type DocumentNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { App } from '../app.js';
import { userForKey } from '../auth/authenticate.js';
import { keyFromHeaders } from '../auth/keys.js';
import { AppError, isAppError, unauthorized, validationError, type FieldError } from '../errors.js';
import { limitHeaders } from '../limits/rate-limits.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from '../logger.js';
import { graphqlOperations } from '../metrics.js';
import type { Context } from './context.js';
import { schema } from './schema.js';

/** What the HTTP host passes in with each request (Fastify, WebSocket or the in-process REST adapter). */
export interface ServerContext {
  requestId: string;
  /** pino logger (Fastify's request logger is one, typed more loosely) */
  log: Logger | FastifyBaseLogger;
  /** WebSocket clients authenticate with connectionParams */
  connectionParams?: Record<string, unknown>;
  /** filled by plugins (rate limits); the HTTP host copies them onto its response */
  responseHeaders?: Map<string, string>;
}

export type GraphQLServer = YogaServerInstance<ServerContext, Context>;

/**
 * Assembles the GraphQL server. Plugin order matters and is written down here:
 * 1. authentication: the context resolves the caller from x-api-key / Bearer / connectionParams;
 *    useRequireUser then refuses any operation, introspection included, without a valid key;
 * 2. hardening: depth, breadth and complexity limits come from the Pothos complexity plugin
 *    (builder.ts), so they apply identically to REST-originated and direct GraphQL calls;
 *    useRateLimits counts each limited root field per user, whichever door the call used;
 * 3. useVariableErrors: GraphQL's own input coercion failures become VALIDATION_ERROR naming the field;
 * 4. useErrorLogging: unexpected errors are logged with the request id before masking;
 * 5. masking (Yoga's maskedErrors): only AppError reaches a client, anything else is INTERNAL_SERVER_ERROR;
 * 6. metrics last, so it sees the final outcome.
 */
export function createGraphQLServer(app: App): GraphQLServer {
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: false,
    logging: false,
    context: async (init) => {
      const params = init.connectionParams ?? {};
      const key = init.request
        ? keyFromHeaders((n) => init.request.headers.get(n))
        : keyFromHeaders((n) => {
            const v = params[n] ?? params[n === 'x-api-key' ? 'apiKey' : 'Authorization'];
            return typeof v === 'string' ? v : undefined;
          });
      let user;
      try {
        user = await userForKey(app.db, key);
      } catch (err) {
        init.log.error({ err }, 'could not resolve the caller');
        throw new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
      }
      return {
        app,
        user,
        badKey: key !== undefined && user === null,
        requestId: init.requestId,
        log: init.log as Logger,
        responseHeaders: init.responseHeaders ?? new Map(),
      };
    },
    plugins: [useRequireUser(), useRateLimits(), useVariableErrors(), useErrorLogging(), useMetrics()],
    maskedErrors: {
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : undefined;
        if (isAppError(error)) return error;
        if (original && isAppError(original)) return original;
        // errors the executor made itself (no original error) are about the document, not internals
        if (error instanceof GraphQLError && !original) return error;
        return new GraphQLError(message === 'Unexpected error.' ? 'Internal server error' : message, {
          extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
        });
      },
    },
  });
}

const unauthorizedResult = (ctx: Context): ExecutionResult => {
  const err = unauthorized(ctx.badKey ? 'Invalid API key' : 'Missing API key: send it in the x-api-key header');
  (err.extensions as Record<string, unknown>).http = { status: 401 };
  return { errors: [err] };
};

function useRequireUser(): Plugin<Context> {
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

// graphql-js: Variable "$input" got invalid value 5 at "input.title"; String cannot represent a non string value: 5
// graphql-js: Variable "$input" got invalid value {...}; Field "title" of required type "String!" was not provided.
const VARIABLE_ERROR = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s;
const MISSING_FIELD = /^Field "(\w+)" of required type "[^"]+" was not provided\.$/;
const UNKNOWN_FIELD = /^Field "(\w+)" is not defined by type "[^"]+"\./;
// graphql-js: Variable "$id" of required type "ID!" was not provided. / ... of non-null type "ID!" must not be null.
const VARIABLE_MISSING = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\.$/;

/** Turns GraphQL input coercion errors into one VALIDATION_ERROR with a field per problem. */
export function fieldErrorsFromCoercion(errors: readonly GraphQLError[]): FieldError[] | null {
  const fields: FieldError[] = [];
  for (const e of errors) {
    const absent = VARIABLE_MISSING.exec(e.message);
    if (absent) {
      fields.push({ field: absent[1], message: 'is required' });
      continue;
    }
    const m = VARIABLE_ERROR.exec(e.message);
    if (!m) return null;
    const [, variable, rawValue, at, reason] = m;
    let path = at ? at.split('.').slice(1).join('.') : '';
    if (!at) path = '';
    const missing = MISSING_FIELD.exec(reason) ?? UNKNOWN_FIELD.exec(reason);
    if (missing) path = path ? `${path}.${missing[1]}` : missing[1];
    // list indexes as the REST body names them: items.1.endTime -> items[1].endTime
    path = path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    const message = MISSING_FIELD.test(reason) ? 'is required' : UNKNOWN_FIELD.test(reason) ? 'is not a known field' : reason.replace(/\.$/, '');
    let value: unknown;
    try {
      value = JSON.parse(rawValue);
    } catch {
      value = undefined;
    }
    fields.push({ field: path || variable, message, ...(missing || value === undefined ? {} : { value }) });
  }
  return fields;
}

/** Counts each limited root field of an operation; over the limit, nothing runs and the caller gets 429. */
function useRateLimits(): Plugin<Context> {
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

function useVariableErrors(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.length || 'data' in result && result.data) return;
          const fields = fieldErrorsFromCoercion(result.errors);
          if (fields) setResult({ errors: [validationError(fields)] });
        },
      };
    },
  };
}

function useErrorLogging(): Plugin<Context> {
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

function useMetrics(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const op = (args.document as DocumentNode).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode | undefined;
      const name = args.operationName ?? op?.name?.value ?? 'anonymous';
      const type = op?.operation ?? 'unknown';
      return {
        onExecuteDone: ({ result }) => {
          const errors = 'errors' in result ? result.errors : undefined;
          const outcome = errors?.length ? String(errors[0].extensions?.code ?? 'ERROR') : 'ok';
          graphqlOperations.inc({ operation: name, type, outcome });
        },
      };
    },
  };
}
