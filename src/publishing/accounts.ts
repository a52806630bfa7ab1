/**
 * Social accounts: a profile has at most one connected account per platform,
 * under the platform keys of the catalogue.
 */
import crypto from 'node:crypto';
import { isPlatformKey, PLATFORM_KEYS } from '../catalog/platforms.js';
import type { Db, Prisma } from '../db/client.js';
import { fieldError, notFound } from '../errors.js';
import { SANDBOX_CONNECTOR, sandboxCredentialsColumn, type SandboxCredentials } from '../platforms/sandbox.js';
import { utcDay, writeFollowers } from './analytics.js';

export type SocialAccount = Prisma.SocialAccountModel;

export interface AccountConnection {
  /** a platform key of src/catalog/platforms.ts */
  platform: string;
  isPrivate: boolean;
  /** followers when connected; left as they are on a reconnection when not given */
  followers?: number;
}

/**
 * Connects a profile's account on a platform through the built-in sandbox
 * connector (DESIGN.md, Publishing). Connecting a platform the profile has
 * already connected updates that account rather than adding a second one, so
 * the account keeps its id, posts and history. An unknown platform is refused.
 * Today's followers are written as the account's first daily level, so the
 * statistics count it from the day it was connected.
 */
export async function connectSandboxAccount(db: Db, profileId: string, input: AccountConnection): Promise<SocialAccount> {
  const { platform, isPrivate, followers } = input;
  if (!isPlatformKey(platform)) throw fieldError('platform', `must be one of ${PLATFORM_KEYS.join(', ')}`, platform);
  if (!(await db.profile.findUnique({ where: { id: profileId }, select: { id: true } }))) throw notFound(`profile ${profileId}`);
  const existing = await db.socialAccount.findUnique({ where: { profileId_platform: { profileId, platform } } });
  const count = followers ?? existing?.followers ?? 0;
  const credentials: SandboxCredentials = { followers: count, since: new Date().toISOString() };
  const account = await db.socialAccount.upsert({
    where: { profileId_platform: { profileId, platform } },
    create: {
      profileId,
      platform,
      connector: SANDBOX_CONNECTOR,
      externalId: `sandbox-${platform}-${crypto.randomBytes(8).toString('hex')}`,
      isPrivate,
      followers: count,
      credentials: sandboxCredentialsColumn.write(credentials),
    },
    // a reconnection through the sandbox replaces whatever connected the account before
    update: {
      isPrivate,
      followers: count,
      connector: SANDBOX_CONNECTOR,
      credentials: sandboxCredentialsColumn.write(credentials),
      status: 'connected',
      statusReason: null,
      tokens: null,
      tokenExpiresAt: null,
    },
  });
  await writeFollowers(db, [{ id: account.id, followers: count }], utcDay(new Date()));
  return account;
}
