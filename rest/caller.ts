// The caller of a /v1 request, as the key check before the route found it, so the
// route, its idempotency record and the GraphQL operation it runs do not look the key up again.
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../src/auth/authenticate.js';

const callers = new WeakMap<FastifyRequest['raw'], AuthUser>();

export const setCaller = (req: FastifyRequest, user: AuthUser) => callers.set(req.raw, user);

/** The authenticated caller of a /v1 request; undefined outside /v1 or before the check. */
export const callerOf = (req: FastifyRequest): AuthUser | undefined => callers.get(req.raw);
