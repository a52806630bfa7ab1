import type { Db } from '../db/client.js';
import { hashApiKey } from './keys.js';

/** The caller, as resolvers and services see it. */
export interface AuthUser {
  id: string;
  email: string;
  clipsSubscription: boolean;
  apiPublishing: boolean;
}

/** The user of an API key, or null when the key is unknown or revoked. One indexed query. */
export async function userForKey(db: Db, key: string | undefined): Promise<AuthUser | null> {
  if (!key || key.length > 200) return null;
  const found = await db.apiKey.findUnique({
    where: { hash: hashApiKey(key) },
    select: { revokedAt: true, user: { select: { id: true, email: true, clipsSubscription: true, apiPublishing: true } } },
  });
  if (!found || found.revokedAt) return null;
  return found.user;
}
