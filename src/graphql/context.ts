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
  /** set by the REST adapter: its route as an Idempotency-Key scopes and fingerprints it */
  idempotentRoute?: IdempotentRoute;
}

/**
 * A /v1 route under an Idempotency-Key, as the one idempotency layer of both
 * doors (plugins/idempotency.ts) reads it: its own scope, a fingerprint of the
 * HTTP request rather than of the operation it runs, and the form of a form route.
 */
export interface IdempotentRoute {
  /** the key's scope: `POST /v1/projects` */
  operation: string;
  /** the request as its fingerprint reads it: its path parameters, query and body (a form's variables, its file as its digest) */
  request: (formVariables?: unknown) => unknown;
  /** a form route's: its variables are made by its check; a retry of an answered request reads its form for this alone, keeping nothing */
  formDigest?: () => Promise<unknown>;
  /** aborts when the client went away: a retry stops waiting for the first request */
  signal?: AbortSignal;
  /**
   * Sends again an answer that the REST door kept as HTTP (its status, headers and body) before
   * one layer kept both doors' results: a retry of such a request, within its key's day, is
   * answered as it was then rather than run again.
   */
  replayHttp?: (answer: KeptHttpAnswer) => void;
}

/** An answer kept as the REST door sent it. */
export interface KeptHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const isKeptHttpAnswer = (kept: unknown): kept is KeptHttpAnswer =>
  typeof kept === 'object' && kept !== null && typeof (kept as KeptHttpAnswer).body === 'string' && typeof (kept as KeptHttpAnswer).status === 'number';

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
  /** the REST adapter's route, under the Idempotency-Key it was sent with */
  idempotentRoute?: IdempotentRoute;
}
