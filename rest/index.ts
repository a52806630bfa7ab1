import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userForKey } from '../src/auth/authenticate.js';
import { keyFromHeaders } from '../src/auth/keys.js';
import type { Db } from '../src/db/client.js';
import type { Context } from '../src/graphql/context.js';
import { AppError, unauthorized } from '../src/errors.js';
import type { GraphQLServer } from '../src/graphql/yoga.js';
import { sendError, sendErrorFor } from '../src/http/errors.js';
import { registerReference } from '../src/http/reference.js';
import { callerOf, setCaller } from './caller.js';
import type { App } from '../src/app.js';
import { PRESSURED_OPERATIONS, refusalFor } from '../src/limits/back-pressure.js';
import { executeOperation } from './execute.js';
import { IDEMPOTENCY_HEADER } from '../src/idempotency/keys.js';
import { idempotentRoute } from './idempotency.js';
import { MultipartForm } from './multipart.js';
import { openApiDocument } from './openapi.js';
import { readQuery } from './query.js';
import { routes } from './routes.js';
import { rootField } from './response.js';

/** Mounts the route table and its reference (/openapi.json, /docs); anything else answers 404 in the spec's error shape. */
export async function registerRest(fastify: FastifyInstance, graphql: GraphQLServer, db: Db, app: Pick<App, 'config' | 'jobs'>): Promise<void> {
  registerReference(fastify, openApiDocument);
  // new work is refused as the request arrives, before its body is read, when the service cannot take it; a request with
  // an Idempotency-Key goes on to the GraphQL layer, which replays a finished one and refuses the others there (back-pressure.ts)
  const refuseWhenFull = async (req: FastifyRequest, reply: FastifyReply) => {
    const user = callerOf(req);
    if (!user || req.headers[IDEMPOTENCY_HEADER] !== undefined) return;
    const refused = await refusalFor(app, user.id);
    if (!refused) return;
    reply.header('Retry-After', String(refused.extensions.retryAfter));
    return sendError(reply, refused);
  };
  for (const r of routes) {
    const run = async (req: FastifyRequest, reply: FastifyReply) => {
      const responseHeaders = new Map<string, string>();
      // rate-limit headers go out on errors (429 included) as on success
      const withHeaders = () => {
        for (const [k, v] of responseHeaders) reply.header(k, v);
      };
      // a form is read by the operation, once the caller is known and within its limits
      const form = r.form ? new MultipartForm(req, r.form) : null;
      let data;
      try {
        const variables = form ? {} : ((await r.variables?.(req, readQuery(req, r.query))) ?? {});
        const check = form ? (ctx: Context, v: unknown) => form.read(ctx, v as Record<string, unknown>) : r.check;
        // every POST takes an Idempotency-Key, kept by the GraphQL server's one layer (idempotency.ts)
        const idempotent = r.method === 'POST' && req.headers[IDEMPOTENCY_HEADER] !== undefined ? idempotentRoute(r, req, reply) : undefined;
        data = await executeOperation(graphql, req, r.operation, variables, { responseHeaders, check, idempotentRoute: idempotent });
      } finally {
        withHeaders();
        await form?.release();
      }
      // an answer an earlier version kept as HTTP went out as it was (idempotency.ts)
      if (reply.sent) return reply;
      const status = typeof r.status === 'function' ? r.status(data) : (r.status ?? 200);
      return reply.code(status).send(r.answer.body(data, req, reply));
    };
    const adds = PRESSURED_OPERATIONS.has(rootField(r.operation));
    fastify.route({ method: r.method, url: r.url, handler: run, ...(adds ? { onRequest: refuseWhenFull } : {}) });
  }
  // every /v1 endpoint needs a key, so the key is checked before the route and before
  // any byte of the body is read: an unknown route tells nothing to a caller without one
  fastify.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/v1/')) return;
    const key = keyFromHeaders((n) => headerValue(req.headers[n]));
    const user = await userForKey(db, key);
    if (!user) return sendError(reply, unauthorized(key ? 'Invalid API key' : 'Missing API key: send it in the x-api-key header'));
    setCaller(req, user);
  });
  fastify.setNotFoundHandler(async (req, reply) =>
    sendErrorFor(req.url, reply, new AppError('NOT_FOUND', `Route ${req.method} ${req.url.split('?')[0]} not found`)),
  );
}

/**
 * The REST adapter as a Fastify plugin, mounted by the runtime. It shares the
 * host's scope (as fastify-plugin would), so its 404 handler answers every path.
 */
export const restPlugin = Object.assign(
  async (fastify: FastifyInstance, opts: { graphql: GraphQLServer; db: Db; app: Pick<App, 'config' | 'jobs'> }) =>
    registerRest(fastify, opts.graphql, opts.db, opts.app),
  { [Symbol.for('skip-override')]: true },
);

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
