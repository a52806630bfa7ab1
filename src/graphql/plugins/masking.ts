// Yoga's error masking: only an AppError reaches a client; anything else is INTERNAL_SERVER_ERROR.
import { GraphQLError } from 'graphql';
import { isAppError } from '../../errors.js';

export function maskError(error: unknown, message: string): Error {
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  if (isAppError(error)) return error;
  if (original && isAppError(original)) return original;
  // errors the executor made itself (no original error) are about the document, not internals
  if (error instanceof GraphQLError && !original) return error;
  return new GraphQLError(message === 'Unexpected error.' ? 'Internal server error' : message, {
    extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 },
  });
}
