/**
 * Cross-origin calls from browsers (CORS_ORIGINS): one policy for the API's
 * doors, /graphql and /v1, and for the signed /files/ links, which a page on
 * another origin may fetch (a caption file, a render to save). Only the
 * origins listed get `Access-Control-Allow-Origin`; by default none does, so
 * a page of another site can read no answer. Credentials are never allowed:
 * the API key is a header the page sends itself, never a cookie the browser
 * would add on its own.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '../idempotency/keys.js';
import { FILES_PREFIX } from '../storage/signing.js';

/** The methods of the routes under the policy (the file routes take GET and HEAD). */
const METHODS = 'GET, HEAD, POST, PUT, DELETE';

/** The request headers the service reads that are not CORS-safelisted. */
const REQUEST_HEADERS = ['x-api-key', 'authorization', 'content-type', IDEMPOTENCY_HEADER, 'x-request-id', 'range'].join(', ');

/** The answer headers a page may read beyond the safelisted ones: the request's id, the rate limits, a replay, a file's. */
const EXPOSED_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  REPLAYED_HEADER,
  'location',
  'content-disposition',
  'content-range',
  'accept-ranges',
  'etag',
].join(', ');

/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

const underPolicy = (url: string) => {
  const path = url.split('?')[0];
  return path === '/graphql' || path.startsWith('/v1/') || path.startsWith(FILES_PREFIX);
};

/** Answers preflights and marks the answers of /graphql, /v1 and /files/ for the allowed origins; before the key is asked for, as a preflight carries none. */
export function registerCors(fastify: FastifyInstance, config: Config): void {
  const allows = (origin: string | undefined): origin is string => origin !== undefined && (config.corsOrigins === '*' || config.corsOrigins.includes(origin));
  fastify.addHook('onRequest', async (req, reply) => {
    if (!underPolicy(req.url)) return;
    // an answer differs by Origin: a cache must not give one origin's answer to another
    reply.header('vary', 'Origin');
    const origin = req.headers.origin;
    const allowed = allows(origin);
    if (allowed) reply.header('access-control-allow-origin', config.corsOrigins === '*' ? '*' : origin);
    if (req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
      if (allowed)
        reply.headers({
          'access-control-allow-methods': METHODS,
          'access-control-allow-headers': REQUEST_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE,
        });
      return reply.code(204).send();
    }
    if (allowed) reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });
}
