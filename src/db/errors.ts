/**
 * Prisma's errors recognised by name rather than instanceof, so that checking
 * one does not load the Prisma runtime (the operator CLI loads it only once its
 * flags are valid).
 */
export const prismaCode = (e: unknown): string | undefined =>
  e instanceof Error && e.name === 'PrismaClientKnownRequestError' ? String((e as { code?: unknown }).code) : undefined;

/** A unique constraint refused the row (an email, a key hash taken already). */
export const isUniqueViolation = (e: unknown) => prismaCode(e) === 'P2002';
