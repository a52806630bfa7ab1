import crypto from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { createApiKey, revokeApiKeyByValue } from '../../src/auth/api-keys.js';
import { hashApiKey } from '../../src/auth/keys.js';
import { createUser, requireUser, type NewUser } from '../../src/auth/users.js';
import type { Db } from '../../src/db/client.js';
import { AppError } from '../../src/errors.js';
import { usePrismaDatabase } from '../support/prisma.js';

// Users and their keys as the operator makes them, against a real database.

let db: Db;
usePrismaDatabase((client) => (db = client));

const newUser = (over: Partial<NewUser> = {}): NewUser => ({
  email: `u-${crypto.randomUUID()}@test.local`,
  apiCredits: 0,
  aiCredits: 10,
  clipCredits: 0,
  clipsSubscription: false,
  apiPublishing: false,
  ...over,
});

const ledger = (userId: string) => db.creditLedger.findMany({ where: { userId }, select: { kind: true, delta: true, reason: true } });

describe('createUser', () => {
  test('opening balances come through the ledger; the key is returned once and only its hash is stored', async () => {
    const { user, apiKey } = await createUser(db, newUser({ apiCredits: 100, aiCredits: 7, clipCredits: 3, clipsSubscription: true, apiPublishing: true }));
    expect(user).toMatchObject({ apiCredits: 100, aiCredits: 7, clipCredits: 3, clipsSubscription: true, apiPublishing: true });
    expect(user.webhookSecret).toMatch(/^whsec_/);
    const entries = (await ledger(user.id)).map((l) => [l.kind, l.delta, l.reason]).sort();
    expect(entries).toEqual([
      ['ai', 7, 'operator grant'],
      ['api', 100, 'operator grant'],
      ['clip', 3, 'operator grant'],
    ]);
    const keys = await db.apiKey.findMany({ where: { userId: user.id } });
    expect(keys).toHaveLength(1);
    expect(keys[0].hash).toBe(hashApiKey(apiKey));
    expect(JSON.stringify(keys)).not.toContain(apiKey);
  });

  test('unlimited AI credits stay null, with no AI entry; zero balances write no entry', async () => {
    const { user } = await createUser(db, newUser({ aiCredits: null }));
    expect(user).toMatchObject({ apiCredits: 0, aiCredits: null, clipCredits: 0 });
    expect(await ledger(user.id)).toEqual([]);
  });

  test('an email taken already is refused and leaves no second user', async () => {
    const input = newUser({ apiCredits: 5 });
    await createUser(db, input);
    const run = createUser(db, { ...input, apiCredits: 9 });
    await expect(run).rejects.toBeInstanceOf(AppError);
    await expect(run).rejects.toMatchObject({ message: `a user with email ${input.email} already exists`, extensions: { code: 'VALIDATION_ERROR' } });
    const users = await db.user.findMany({ where: { email: input.email } });
    expect(users).toHaveLength(1);
    expect(users[0].apiCredits).toBe(5);
  });

  test('requireUser: NOT_FOUND names the id of an unknown user', async () => {
    const { user } = await createUser(db, newUser());
    await expect(requireUser(db, user.id)).resolves.toBeUndefined();
    const missing = crypto.randomUUID();
    await expect(requireUser(db, missing)).rejects.toMatchObject({ message: `user ${missing} not found`, extensions: { code: 'NOT_FOUND' } });
  });
});

describe('revokeApiKeyByValue', () => {
  test('revokes that key only and keeps its first revocation time', async () => {
    const { user, apiKey: first } = await createUser(db, newUser());
    const { apiKey: second } = await createApiKey(db, user.id);
    await revokeApiKeyByValue(db, second);
    const revokedAt = (await db.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(second) } })).revokedAt;
    expect(revokedAt).toBeInstanceOf(Date);
    expect((await db.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(first) } })).revokedAt).toBeNull();

    await revokeApiKeyByValue(db, second);
    expect((await db.apiKey.findUniqueOrThrow({ where: { hash: hashApiKey(second) } })).revokedAt).toEqual(revokedAt);
  });

  test('an unknown key is NOT_FOUND', async () => {
    await expect(revokeApiKeyByValue(db, `sk-${crypto.randomBytes(32).toString('base64url')}`)).rejects.toMatchObject({
      message: 'API key not found',
      extensions: { code: 'NOT_FOUND' },
    });
  });
});
