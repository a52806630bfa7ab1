import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.ts';
import { badRequest, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { AuthUser } from './authenticate.js';
import { generateApiKey, hashApiKey } from './keys.js';

export type ApiKeyRow = Prisma.ApiKeyModel;

/** A new key for a user; the plain key is returned once and never stored. */
export async function createApiKey(db: Db, userId: string) {
  const { key, hash, prefix } = generateApiKey();
  const row = await db.apiKey.create({ data: { userId, hash, prefix } });
  return { apiKey: key, key: row };
}

/** The user's keys that work (with `includeRevoked`, all), newest first. */
export function listApiKeys(db: Db, userId: string, opts: { includeRevoked?: boolean; select?: object; include?: object } = {}): Promise<ApiKeyRow[]> {
  const { includeRevoked, ...query } = opts;
  return db.apiKey.findMany({ ...query, where: { userId, ...(includeRevoked ? {} : { revokedAt: null }) }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/**
 * Revokes one of the caller's working keys. The key the request came with
 * may be revoked only while another key works, so an account never locks
 * itself out through the API (the operator CLI can still revoke any key).
 * A revoked, foreign or unknown key is NOT_FOUND, so a second revocation is too.
 */
export async function revokeApiKey(db: Db, caller: AuthUser, id: string): Promise<ApiKeyRow> {
  return db.$transaction(async (tx) => {
    // the user's row lock serialises two revocations racing for the last two keys
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${caller.id}::uuid FOR UPDATE`;
    const key = isUuid(id) ? await tx.apiKey.findFirst({ where: { id, userId: caller.id, revokedAt: null } }) : null;
    if (!key) throw notFound('API key');
    if (key.id === caller.keyId && (await tx.apiKey.count({ where: { userId: caller.id, revokedAt: null } })) === 1) {
      throw badRequest('This is your last API key and this request came with it: create another key before revoking this one');
    }
    return tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  });
}

/**
 * Revokes a key given by its plain value (the operator holds the key, not its
 * id). A key revoked before keeps its first revocation time; an unknown key is NOT_FOUND.
 */
export async function revokeApiKeyByValue(db: Db, key: string): Promise<void> {
  const hash = hashApiKey(key);
  const { count } = await db.apiKey.updateMany({ where: { hash, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0 && !(await db.apiKey.findUnique({ where: { hash }, select: { id: true } }))) throw notFound('API key');
}
