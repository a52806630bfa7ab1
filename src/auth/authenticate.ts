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
 * The user of an API key, or null when the key is unknown or revoked. One
 * indexed query; the key's `lastUsedAt` is moved on when it is older than a
 * minute, without waiting for the write.
 */
export async function userForKey(db: Db, key: string | undefined): Promise<AuthUser | null> {
  if (!key || key.length > 200) return null;
  const found = await db.apiKey.findUnique({
    where: { hash: hashApiKey(key) },
    select: { id: true, revokedAt: true, lastUsedAt: true, user: { select: { id: true, email: true, clipsSubscription: true, apiPublishing: true } } },
  });
  if (!found || found.revokedAt) return null;
  const now = Date.now();
  if (!found.lastUsedAt || now - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    db.apiKey.update({ where: { id: found.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return { ...found.user, keyId: found.id };
}
