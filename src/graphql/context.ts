import type { App } from '../app.js';
import type { AuthUser } from '../auth/authenticate.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from '../logger.js';

/** What every resolver receives. */
export interface Context {
  app: App;
  /** null when the request carried no valid key (operations then fail UNAUTHORIZED) */
  user: AuthUser | null;
  /** true when a key was sent but is unknown or revoked */
  badKey: boolean;
  requestId: string;
  log: Logger;
  /** headers for the HTTP response (rate-limit state); the host copies them onto its reply */
  responseHeaders: Map<string, string>;
  /** set by the REST adapter: the domain's check of its raw body (plugins/variable-checks.ts) */
  checkVariables?: VariableCheck;
  /** what that check read, by reader, for the operation's resolver to hand its service (body-reads.ts) */
  bodyReads?: Map<object, unknown>;
  /** the request's Idempotency-Key header, as sent (plugins/idempotency.ts) */
  idempotencyKey?: string | null;
}

/** Checks raw variables the way the operation's service reads them; throws its AppError. */
export type VariableCheck = (ctx: Context, variables: Record<string, unknown>) => unknown;

/** The caller; resolvers behind the `user` scope can rely on it. */
export function currentUser(ctx: Context): AuthUser {
  if (!ctx.user) throw new Error('resolver reached without an authenticated user');
  return ctx.user;
}

/** What the HTTP host passes in with each request (Fastify, WebSocket or the in-process REST adapter). */
export interface ServerContext {
  requestId: string;
  /** pino logger (Fastify's request logger is one, typed more loosely) */
  log: Logger | FastifyBaseLogger;
  /** WebSocket clients authenticate with connectionParams */
  connectionParams?: Record<string, unknown>;
  /** filled by plugins (rate limits); the HTTP host copies them onto its response */
  responseHeaders?: Map<string, string>;
  /** the REST adapter's check of its raw body */
  checkVariables?: VariableCheck;
  /** the caller, when the host has already authenticated the request (the REST adapter) */
  user?: AuthUser;
}
