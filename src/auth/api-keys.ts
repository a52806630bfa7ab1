import type { Db } from '../db/client.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { generateApiKey, hashApiKey } from './keys.js';

/** A new key for a user; the plain key is returned once and never stored. */
export async function createApiKey(db: Db, userId: string) {
  const { key, hash, prefix } = generateApiKey();
  const row = await db.apiKey.create({ data: { userId, hash, prefix } });
  return { apiKey: key, key: row };
}

/** Revokes one of the user's keys; a key of another user is NOT_FOUND. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, userId: string, id: string) {
  const key = isUuid(id) ? await db.apiKey.findFirst({ where: { id, userId } }) : null;
  if (!key) throw notFound('API key');
  if (key.revokedAt) return key;
  return db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
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
