/**
 * Profiles: a user publishes through profiles, each holding at most one social
 * account per platform (accounts.ts). Exactly one of a user's profiles is primary.
 */
import type { Db, Prisma } from '../db/client.js';
import { badRequest, FieldErrors, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { bool, fields, readBody, someOf, text } from '../validation.js';

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

const PROFILE_NAME = text(100).meta({ description: '1-100 characters' });

/** POST /v1/profiles */
export const createProfileBody = fields({
  name: text(100, { required: true }).meta({ description: '1-100 characters' }),
  primary: bool().meta({ description: 'publish through it when no profileId is given; the first profile is primary whatever is sent' }),
});

/** PUT /v1/profiles/{id}: some fields, at least one. */
export const updateProfileBody = fields({
  name: PROFILE_NAME,
  primary: bool().meta({
    description: 'true makes it the primary profile (the former one stops being primary); false is refused: make another primary instead',
  }),
}).superRefine(someOf(['name', 'primary']));

/** POST /v1/profiles: every violated field at once. */
export function readCreateProfile(input: unknown) {
  const e = new FieldErrors();
  const body = readBody(createProfileBody, input, e);
  e.throwIfAny();
  return body as { name: string; primary?: boolean };
}

async function ownProfile(db: Db, userId: string, id: string): Promise<Profile> {
  const profile = isUuid(id) ? await db.profile.findFirst({ where: { id, userId } }) : null;
  if (!profile) throw notFound('Profile');
  return profile;
}

/** PUT /v1/profiles/{id}: the profile first (NOT_FOUND), then every violated field. */
export async function readUpdateProfile(db: Db, userId: string, id: string, input: unknown) {
  const profile = await ownProfile(db, userId, id);
  const e = new FieldErrors();
  const body = readBody(updateProfileBody, input, e) as { name?: string; primary?: boolean } | undefined;
  if (body?.primary === false && profile.isPrimary) e.add('primary', 'cannot be false on your primary profile: make another profile primary instead', false);
  e.throwIfAny();
  return { profile, body: body! };
}

/** Renames a profile, or makes it the primary one (in one transaction with the former primary). */
export async function updateProfile(db: Db, userId: string, id: string, input: unknown): Promise<Profile> {
  const { profile, body } = await readUpdateProfile(db, userId, id, input);
  return db.$transaction(async (tx) => {
    if (body.primary && !profile.isPrimary) await tx.profile.updateMany({ where: { userId, isPrimary: true }, data: { isPrimary: false } });
    return tx.profile.update({
      where: { id: profile.id },
      data: { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.primary ? { isPrimary: true } : {}) },
    });
  });
}

/**
 * Deletes a profile that holds nothing: refused (BAD_REQUEST, saying what to
 * do first) while it has connected accounts, or publications (scheduled ones
 * would fire through it; published ones keep their posts' analytics). When
 * the primary profile goes, the oldest remaining one becomes primary.
 */
export async function deleteProfile(db: Db, userId: string, id: string): Promise<Profile> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
    const profile = isUuid(id) ? await tx.profile.findFirst({ where: { id, userId } }) : null;
    if (!profile) throw notFound('Profile');
    const [connected, scheduled, published] = await Promise.all([
      tx.socialAccount.count({ where: { profileId: profile.id, status: 'connected' } }),
      tx.publication.count({ where: { profileId: profile.id, status: 'scheduled' } }),
      tx.publication.count({ where: { profileId: profile.id, status: { not: 'scheduled' } } }),
    ]);
    if (connected) throw badRequest(`The profile has ${connected} connected account${connected > 1 ? 's' : ''}: disconnect them first`);
    if (scheduled) throw badRequest(`The profile has ${scheduled} scheduled publication${scheduled > 1 ? 's' : ''}: cancel them first`);
    if (published)
      throw badRequest(`The profile has ${published} publication${published > 1 ? 's' : ''} whose posts and analytics would go with it: it is kept`);
    await tx.profile.delete({ where: { id: profile.id } });
    if (profile.isPrimary) {
      const next = await tx.profile.findFirst({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      if (next) await tx.profile.update({ where: { id: next.id }, data: { isPrimary: true } });
    }
    return profile;
  });
}
