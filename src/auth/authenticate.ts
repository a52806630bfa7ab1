import type { Db } from '../db/client.js';
import { hashApiKey } from './keys.js';

/** The caller, as resolvers and services see it. */
export interface AuthUser {
  id: string;
  /** the API key the request came with */
  keyId?: string;
  email: string;
  clipsSubscription: boolean;
  apiPublishing: boolean;
}

/** A key's last use is written at most this often (a write per request would double an API call's queries). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The user of an API key, or null when the key is unknown or revoked: one
 * indexed query, the key joined to its user (every request makes it, so it is
 * one round trip rather than Prisma's two). The key's `lastUsedAt` is moved
 * on when it is older than a minute, without waiting for the write.
 */
export async function userForKey(db: Db, key: string | undefined): Promise<AuthUser | null> {
  if (!key || key.length > 200) return null;
  const [found] = await db.$queryRaw<Array<Omit<AuthUser, 'keyId'> & { keyId: string; lastUsedAt: Date | null }>>`
    SELECT k.id AS "keyId", k."lastUsedAt", u.id, u.email, u."clipsSubscription", u."apiPublishing"
    FROM "ApiKey" k JOIN "User" u ON u.id = k."userId"
    WHERE k.hash = ${hashApiKey(key)} AND k."revokedAt" IS NULL`;
  if (!found) return null;
  const { keyId, lastUsedAt, ...user } = found;
  const now = Date.now();
  if (!lastUsedAt || now - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { ...user, keyId };
}
