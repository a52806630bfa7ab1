/**
 * Profiles: a user publishes through profiles, each holding at most one social
 * account per platform (accounts.ts). Exactly one of a user's profiles is primary.
 */
import type { Db, Prisma } from '../db/client.js';
import { notFound } from '../errors.js';

export type Profile = Prisma.ProfileModel;

/**
 * Adds a profile to a user. The user's first profile is primary whatever is
 * asked; a later one is primary when asked, and then takes the flag from the
 * profile that held it, so a user never has two primary profiles.
 */
export function createProfile(db: Db, userId: string, input: { name: string; primary?: boolean }): Promise<Profile> {
  return db.$transaction(async (tx) => {
    // the user's row lock serialises concurrent creations, so exactly one profile ends up primary
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
    if (locked.length === 0) throw notFound(`user ${userId}`);
    const isPrimary = input.primary === true || (await tx.profile.count({ where: { userId } })) === 0;
    if (isPrimary) await tx.profile.updateMany({ where: { userId, isPrimary: true }, data: { isPrimary: false } });
    return tx.profile.create({ data: { userId, name: input.name, isPrimary } });
  });
}
