import { grantBalances } from '../credits/ledger.js';
import type { Db, Prisma } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { notFound, validationError } from '../errors.js';
import { generateApiKey, newWebhookSecret } from './keys.js';

export type User = Prisma.UserModel;

export interface NewUser {
  email: string;
  /** opening balances, granted through the credit ledger */
  apiCredits: number;
  /** null: unlimited AI credits */
  aiCredits: number | null;
  clipCredits: number;
  clipsSubscription: boolean;
  apiPublishing: boolean;
}

/**
 * A user with a webhook secret and a first API key, whose plain value is
 * returned once and never stored. The opening balances come through the
 * ledger, which explains every balance. An email already taken is refused.
 */
export async function createUser(db: Db, input: NewUser): Promise<{ user: User; apiKey: string }> {
  const key = generateApiKey();
  try {
    const user = await db.$transaction(async (tx) => {
      const created = await tx.user.create({
        data: {
          email: input.email,
          apiCredits: 0,
          aiCredits: input.aiCredits === null ? null : 0,
          clipCredits: 0,
          clipsSubscription: input.clipsSubscription,
          apiPublishing: input.apiPublishing,
          webhookSecret: newWebhookSecret(),
          apiKeys: { create: { hash: key.hash, prefix: key.prefix } },
        },
      });
      await grantBalances(tx, created.id, { api: input.apiCredits, ai: input.aiCredits ?? 0, clip: input.clipCredits });
      return tx.user.findUniqueOrThrow({ where: { id: created.id } });
    });
    return { user, apiKey: key.key };
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw validationError([{ field: 'email', message: 'is taken by another user', value: input.email }], `a user with email ${input.email} already exists`);
    }
    throw e;
  }
}

/** Throws NOT_FOUND, naming the id, unless the user exists. */
export async function requireUser(db: Db, id: string): Promise<void> {
  if (!(await db.user.findUnique({ where: { id }, select: { id: true } }))) throw notFound(`user ${id}`);
}
