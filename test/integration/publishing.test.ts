import crypto from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { newWebhookSecret } from '../../src/auth/keys.js';
import type { Db } from '../../src/db/client.js';
import { AppError } from '../../src/errors.js';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { createProfile } from '../../src/publishing/profiles.js';
import { usePrismaDatabase } from '../support/prisma.js';

// The publishing domain's rules on profiles and social accounts, against a real database.

let db: Db;
usePrismaDatabase((client) => (db = client));

async function user(): Promise<string> {
  const u = await db.user.create({ data: { email: `p-${crypto.randomUUID()}@test.local`, webhookSecret: newWebhookSecret() } });
  return u.id;
}

const primaries = async (userId: string) => (await db.profile.findMany({ where: { userId, isPrimary: true } })).map((p) => p.id);

describe('profiles: one primary per user', () => {
  test("a user's first profile is primary even when not asked; a later one only when asked", async () => {
    const userId = await user();
    const first = await createProfile(db, userId, { name: 'First' });
    const second = await createProfile(db, userId, { name: 'Second' });
    expect(first).toMatchObject({ userId, name: 'First', isPrimary: true });
    expect(second).toMatchObject({ userId, name: 'Second', isPrimary: false });
    expect(await primaries(userId)).toEqual([first.id]);
  });

  test('a second primary takes the flag from the first, which stays as a plain profile', async () => {
    const userId = await user();
    const first = await createProfile(db, userId, { name: 'First', primary: true });
    const second = await createProfile(db, userId, { name: 'Second', primary: true });
    expect(second.isPrimary).toBe(true);
    expect(await primaries(userId)).toEqual([second.id]);
    expect(await db.profile.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ name: 'First', isPrimary: false });
  });

  test('profiles created at once, primary or not, leave exactly one primary', async () => {
    const userId = await user();
    await Promise.all([
      createProfile(db, userId, { name: 'a' }),
      createProfile(db, userId, { name: 'b', primary: true }),
      createProfile(db, userId, { name: 'c' }),
      createProfile(db, userId, { name: 'd', primary: true }),
    ]);
    expect(await db.profile.count({ where: { userId } })).toBe(4);
    expect(await primaries(userId)).toHaveLength(1);
  });

  test("another user's primary profile is left alone", async () => {
    const [a, b] = [await user(), await user()];
    const ofA = await createProfile(db, a, { name: 'A' });
    const ofB = await createProfile(db, b, { name: 'B', primary: true });
    expect(await primaries(a)).toEqual([ofA.id]);
    expect(await primaries(b)).toEqual([ofB.id]);
  });

  test('an unknown user is NOT_FOUND, naming the id, and nothing is written', async () => {
    const missing = crypto.randomUUID();
    const run = createProfile(db, missing, { name: 'Nobody' });
    await expect(run).rejects.toBeInstanceOf(AppError);
    await expect(run).rejects.toMatchObject({ message: `user ${missing} not found`, extensions: { code: 'NOT_FOUND' } });
    expect(await db.profile.count({ where: { userId: missing } })).toBe(0);
  });
});

describe('social accounts: one per platform per profile', () => {
  test('connects a sandbox account under a platform key of the catalogue', async () => {
    const profile = await createProfile(db, await user(), { name: 'Main' });
    const account = await connectSandboxAccount(db, profile.id, { platform: 'microblog', isPrivate: true, followers: 120 });
    expect(account).toMatchObject({
      profileId: profile.id,
      platform: 'microblog',
      connector: 'sandbox',
      externalId: expect.stringMatching(/^sandbox-microblog-[0-9a-f]{16}$/),
      isPrivate: true,
      followers: 120,
    });
  });

  test('reconnecting a platform updates its account (same id, followers only when given); another platform adds one', async () => {
    const profile = await createProfile(db, await user(), { name: 'Main' });
    const first = await connectSandboxAccount(db, profile.id, { platform: 'videoshare', isPrivate: true, followers: 1200 });
    const kept = await connectSandboxAccount(db, profile.id, { platform: 'videoshare', isPrivate: false });
    expect(kept).toMatchObject({ id: first.id, externalId: first.externalId, isPrivate: false, followers: 1200 });
    const updated = await connectSandboxAccount(db, profile.id, { platform: 'videoshare', isPrivate: false, followers: 50 });
    expect(updated).toMatchObject({ id: first.id, followers: 50 });
    const other = await connectSandboxAccount(db, profile.id, { platform: 'prosocial', isPrivate: false });
    expect(other.id).not.toBe(first.id);
    expect(await db.socialAccount.count({ where: { profileId: profile.id } })).toBe(2);
  });

  test('the same platform on two profiles makes two accounts', async () => {
    const userId = await user();
    const [a, b] = [await createProfile(db, userId, { name: 'A' }), await createProfile(db, userId, { name: 'B' })];
    const onA = await connectSandboxAccount(db, a.id, { platform: 'shortvideo', isPrivate: false });
    const onB = await connectSandboxAccount(db, b.id, { platform: 'shortvideo', isPrivate: false });
    expect(onA.id).not.toBe(onB.id);
  });

  test('an unknown platform key is refused with the known ones, and nothing is written', async () => {
    const profile = await createProfile(db, await user(), { name: 'Main' });
    await expect(connectSandboxAccount(db, profile.id, { platform: 'fax', isPrivate: false })).rejects.toMatchObject({
      extensions: {
        code: 'VALIDATION_ERROR',
        details: [{ field: 'platform', message: 'must be one of videoshare, shortvideo, photoshare, microblog, socialnet, prosocial', value: 'fax' }],
      },
    });
    expect(await db.socialAccount.count({ where: { profileId: profile.id } })).toBe(0);
  });

  test('an unknown profile is NOT_FOUND, naming the id', async () => {
    const missing = crypto.randomUUID();
    await expect(connectSandboxAccount(db, missing, { platform: 'socialnet', isPrivate: false })).rejects.toMatchObject({
      message: `profile ${missing} not found`,
      extensions: { code: 'NOT_FOUND' },
    });
  });
});
