import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { App } from '../app.js';
import { userForKey } from '../auth/authenticate.js';
import { keyFromConnectionParams, keyFromHeaders } from '../auth/keys.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Context, ServerContext } from './context.js';
import { IDEMPOTENCY_HEADER } from '../idempotency/keys.js';
import { useAcceptableResponse } from './plugins/accept.js';
import { useSpecErrorCodes } from './plugins/error-codes.js';
import { useErrorLogging } from './plugins/error-logging.js';
import { useIdempotency } from './plugins/idempotency.js';
import { maskError } from './plugins/masking.js';
import { useMetrics } from './plugins/metrics.js';
import { QUERY_LIMITS, useQueryLimits } from './plugins/query-limits.js';
import { useQueryStringParams } from './plugins/query-string.js';
import { useRateLimits } from './plugins/rate-limits.js';
import { useBackPressure } from './plugins/back-pressure.js';
import { useRequireUser } from './plugins/require-user.js';
import { useSharedEventExecution } from './plugins/shared-events.js';
import { useStorableText } from './plugins/storable-text.js';
import { useVariableChecks } from './plugins/variable-checks.js';
import { useVariableErrors } from './plugins/variable-errors.js';
import { schema } from './schema.js';
import { graphiqlOptions, renderGraphiQLPage, useGraphiQLHeaders } from './graphiql.js';

export type GraphQLServer = YogaServerInstance<ServerContext, Context>;

/**
 * Assembles the GraphQL server. Plugin order matters and is written down here
 * (each plugin is a file of plugins/):
 * 0. useQueryStringParams reads a GET request's parameters, refusing JSON that does not parse;
 *    useAcceptableResponse refuses (406) a request whose Accept names no type of answer, before it runs;
 *    useGraphiQLHeaders gives the GraphiQL page its headers (framing, sniffing, content policy);
 * 1. authentication: the context below resolves the caller from x-api-key / Bearer / connectionParams;
 *    useRequireUser then refuses any operation, introspection included, without a valid key;
 * 2. hardening: useQueryLimits refuses, before parsing, a document over the token or nesting limit
 *    and, before validation, one over a depth, breadth or complexity limit, introspection included
 *    (these hooks run before any execution, for callers with or without a key, through either door);
 * 3. useVariableErrors: GraphQL's own input coercion failures become VALIDATION_ERROR naming the field,
 *    and a refused input field written in the document gets its type's words for it
 *    (results pass the plugins in list order, so what useIdempotency keeps is what the client read);
 *    useIdempotency: a mutation sent with an Idempotency-Key runs once and a retry replays its result,
 *    before useRateLimits so that a replay spends nothing; the one layer of both doors (a /v1 POST too);
 *    useBackPressure refuses an operation that adds work (a project, an export, a library file) while the
 *    queue or the disk is full, or the caller's share of the queue is (src/limits/back-pressure.ts), before
 *    a call is spent;
 *    useRateLimits spends one call per limited root field the operation executes, all or nothing;
 *    useVariableChecks: the REST adapter's raw body is checked by the domain before GraphQL coerces it;
 *    useStorableText: text PostgreSQL cannot store (NUL), in any argument, is refused naming its field;
 * 4. useErrorLogging: unexpected errors are logged with the request id before masking;
 * 5. masking (Yoga's maskedErrors, maskError): only AppError reaches a client, anything else is INTERNAL_SERVER_ERROR;
 *    useSpecErrorCodes: GraphQL's and Yoga's own refusals of a request (syntax, unknown field) become BAD_REQUEST;
 * 6. useSharedEventExecution: a subscription's event is executed once for all who subscribed alike;
 *    useMetrics last, so it sees the final outcome.
 */
export function createGraphQLServer(app: App): GraphQLServer {
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // a browser's GET /graphql (Accept: text/html) gets GraphiQL, its assets served by us (graphiql.ts)
    graphiql: graphiqlOptions,
    renderGraphiQL: renderGraphiQLPage,
    logging: false,
    // the service's own policy answers cross-origin calls (src/http/cors.ts)
    cors: false,
    context: async (init) => {
      const key = init.request ? keyFromHeaders((n) => init.request.headers.get(n)) : keyFromConnectionParams(init.connectionParams ?? {});
      let user = init.user ?? null;
      try {
        user ??= await userForKey(app.db, key);
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
        checkVariables: init.checkVariables,
        idempotencyKey: init.request?.headers.get(IDEMPOTENCY_HEADER),
        idempotentRoute: init.idempotentRoute,
      };
    },
    // in the order of the list above
    plugins: [
      useQueryStringParams(),
      useAcceptableResponse(),
      useGraphiQLHeaders(),
      useRequireUser(),
      useQueryLimits(schema, { ...QUERY_LIMITS, depth: app.config.maxDepth, complexity: app.config.maxComplexity }),
      useVariableErrors(),
      useIdempotency(),
      useBackPressure(),
      useRateLimits(),
      useVariableChecks(),
      useStorableText(),
      useErrorLogging(),
      useSpecErrorCodes(),
      useSharedEventExecution(),
      useMetrics(),
    ],
    maskedErrors: { maskError },
  });
}
