import type { FastifyReply } from 'fastify';
import type { AppError } from '../errors.js';

/** `{ error, message, details?, retryAfter? }` with the error's HTTP status (SPEC.md, Errors). */
export function sendError(reply: FastifyReply, error: AppError) {
  const ext = error.extensions as { code: string; status: number; details?: unknown; retryAfter?: number };
  const body: Record<string, unknown> = { error: ext.code, message: error.message };
  if (ext.details !== undefined) body.details = ext.details;
  if (ext.retryAfter !== undefined) body.retryAfter = ext.retryAfter;
  return reply.code(ext.status).type('application/json').send(body);
}
