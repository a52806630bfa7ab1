import type { FastifyReply } from 'fastify';
import type { AppError } from '../errors.js';

type Extensions = { code: string; status: number; details?: unknown; retryAfter?: number };

/** `{ error, message, details?, retryAfter? }` with the error's HTTP status (SPEC.md, Errors). */
export function sendError(reply: FastifyReply, error: AppError) {
  return reply.code(statusOf(error)).type('application/json').send(errorBody(error));
}

/** The body of an error answer of /v1 and the file routes (SPEC.md, Errors). */
export function errorBody(error: AppError): Record<string, unknown> {
  const ext = error.extensions as Extensions;
  const body: Record<string, unknown> = { error: ext.code, message: error.message };
  if (ext.details !== undefined) body.details = ext.details;
  if (ext.retryAfter !== undefined) body.retryAfter = ext.retryAfter;
  return body;
}

/** The same error in GraphQL's own format, as /graphql answers: `{ errors: [{ message, extensions: { code, ... } }] }`. */
export function graphqlErrorBody(error: AppError): Record<string, unknown> {
  const { error: code, message, ...rest } = errorBody(error);
  return { errors: [{ message, extensions: { code, ...rest } }] };
}

export const statusOf = (error: AppError) => (error.extensions as Extensions).status;

/** True for the GraphQL endpoint, which answers in GraphQL's format. */
export const isGraphQLPath = (url: string) => url.split('?')[0] === '/graphql';

/** An error answer in the format of the door the request came through. */
export function sendErrorFor(url: string, reply: FastifyReply, error: AppError) {
  if (!isGraphQLPath(url)) return sendError(reply, error);
  return reply.code(statusOf(error)).type('application/json').send(graphqlErrorBody(error));
}
