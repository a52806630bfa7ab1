/**
 * A platform connector at work for an account: every call gets the account's
 * tokens decrypted and fresh. A token that expires within REFRESH_AHEAD_MS is
 * refreshed first; a call the platform refuses as unauthorised (`reauthorize`)
 * refreshes and runs once more. Refreshes of one account happen one at a time
 * (its row is locked while the platform answers), so a refresh token the
 * platform rotates is never spent twice. A refresh the platform refuses, or
 * a platform saying the account is gone, disconnects the account: its posts
 * then fail with a message that says to connect it again (and their credits
 * come back, delivery.ts).
 */
import type { App } from '../app.js';
import type { PlatformKey } from '../catalog/platforms.js';
import type { Config } from '../config.js';
import { createPlatformHttp } from './http.js';
import { standardRefresh } from './oauth-tokens.js';
import {
  isPlatformError,
  PlatformError,
  type ConnectedAccount,
  type PlatformConnector,
  type PlatformDefinition,
  type PlatformHttp,
  type PlatformSettings,
  type TokenSet,
} from './types.js';
import { createVault, type Vault } from './vault.js';

/** How long before its expiry a token is refreshed. */
export const REFRESH_AHEAD_MS = 5 * 60_000;

/** Whether a platform can connect accounts here, and why not. */
export type Availability = { available: true; settings: PlatformSettings } | { available: false; reason: string };

export function availability(config: Config, key: PlatformKey): Availability {
  const p = config.platforms[key];
  const name = key.toUpperCase();
  const missing = [!p.clientId && `${name}_CLIENT_ID`, !p.clientSecret && `${name}_CLIENT_SECRET`, !config.tokenEncryptionKey && 'TOKEN_ENCRYPTION_KEY'].filter(
    Boolean,
  );
  if (missing.length)
    return { available: false, reason: `not configured: set ${missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0]}` };
  return { available: true, settings: { clientId: p.clientId!, clientSecret: p.clientSecret!, baseUrl: p.baseUrl } };
}

const vaults = new WeakMap<Config, Vault>();

/** The vault of this configuration's TOKEN_ENCRYPTION_KEY; an error naming the variable when it is not set. */
export function vaultOf(config: Config): Vault {
  if (!config.tokenEncryptionKey) throw new Error('TOKEN_ENCRYPTION_KEY is not set: platform accounts cannot be connected or used');
  let vault = vaults.get(config);
  if (!vault) vaults.set(config, (vault = createVault(config.tokenEncryptionKey)));
  return vault;
}

/** Marks an account disconnected and forgets its tokens; `reason` is what its posts and its record say. */
export async function disconnectAccount(app: App, accountId: string, reason: string): Promise<void> {
  await app.db.socialAccount.updateMany({
    where: { id: accountId },
    data: { status: 'disconnected', statusReason: reason, tokens: null, tokenExpiresAt: null },
  });
  app.log.warn({ accountId, reason }, 'platform account disconnected');
}

/** What a call for a disconnected account fails with: its posts say to connect it again. */
export const disconnectedError = (platform: string, reason: string | null) =>
  new PlatformError('disconnected', `the ${platform} account is disconnected${reason ? ` (${reason})` : ''}; connect it again`);

/**
 * The account's tokens, refreshed when they expire soon, or when `rejected`
 * (the access token the platform just refused) is still the current one.
 */
async function freshTokens(
  app: App,
  def: PlatformDefinition,
  http: PlatformHttp,
  settings: PlatformSettings,
  accountId: string,
  rejected?: string,
): Promise<TokenSet> {
  const vault = vaultOf(app.config);
  const stale = (current: TokenSet) =>
    rejected === undefined
      ? current.expiresAt !== undefined && Date.parse(current.expiresAt) - Date.now() < (def.refreshAheadMs ?? REFRESH_AHEAD_MS)
      : current.accessToken === rejected;
  // most calls find the tokens fresh: one read, no lock
  const seen = await app.db.socialAccount.findUnique({ where: { id: accountId }, select: { tokens: true, status: true, statusReason: true } });
  if (!seen || seen.status === 'disconnected' || !seen.tokens) throw disconnectedError(def.key, seen?.statusReason ?? null);
  const current = vault.open<TokenSet>(seen.tokens);
  if (!stale(current)) return current;

  let refusal: PlatformError | null = null;
  const tokens = await app.db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<Array<{ tokens: string | null; status: string; statusReason: string | null }>>`
        SELECT tokens, status::text AS status, "statusReason" FROM "SocialAccount" WHERE id = ${accountId}::uuid FOR UPDATE`;
      if (!row || row.status === 'disconnected' || !row.tokens) throw disconnectedError(def.key, row?.statusReason ?? null);
      // another call may have refreshed while this one waited for the row
      const current = vault.open<TokenSet>(row.tokens);
      if (!stale(current)) return current;
      let next: TokenSet;
      try {
        next = await (def.refresh ?? standardRefresh(def.key, def.oauth))(http, settings, current);
      } catch (err) {
        if (isPlatformError(err) && (err.kind === 'reauthorize' || err.kind === 'disconnected')) {
          refusal = err;
          return null;
        }
        throw err;
      }
      next = { ...next, extra: { ...current.extra, ...next.extra } };
      await tx.socialAccount.update({
        where: { id: accountId },
        data: { tokens: vault.seal(next), tokenExpiresAt: next.expiresAt ? new Date(next.expiresAt) : null },
      });
      app.log.info({ accountId, platform: def.key }, 'platform token refreshed');
      return next;
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  if (!tokens) {
    const reason = `the platform refused to refresh its authorisation: ${(refusal as PlatformError | null)?.message ?? 'no reason given'}`;
    await disconnectAccount(app, accountId, reason);
    throw disconnectedError(def.key, reason);
  }
  return tokens;
}

/** A platform's connector with tokens handled: what connectorFor hands out for a platform key. */
export function withTokens(app: App, def: PlatformDefinition): PlatformConnector {
  let ready: { settings: PlatformSettings; http: PlatformHttp; inner: PlatformConnector } | undefined;
  const setup = () => {
    if (ready) return ready;
    const a = availability(app.config, def.key);
    if (!a.available) throw new PlatformError('retry', `the ${def.key} platform is ${a.reason}`);
    const http = createPlatformHttp(def.key, a.settings.baseUrl);
    return (ready = { settings: a.settings, http, inner: def.connector(http, a.settings) });
  };

  async function run<T>(account: ConnectedAccount, call: (inner: PlatformConnector, account: ConnectedAccount) => Promise<T>): Promise<T> {
    const { settings, http, inner } = setup();
    let tokens = await freshTokens(app, def, http, settings, account.id);
    try {
      return await call(inner, { ...account, credentials: tokens });
    } catch (err) {
      if (!isPlatformError(err)) throw err;
      if (err.kind === 'disconnected') await disconnectAccount(app, account.id, err.message);
      if (err.kind !== 'reauthorize') throw err;
    }
    // refused as unauthorised: a fresh token, and once more
    tokens = await freshTokens(app, def, http, settings, account.id, tokens.accessToken);
    try {
      return await call(inner, { ...account, credentials: tokens });
    } catch (err) {
      if (isPlatformError(err) && (err.kind === 'reauthorize' || err.kind === 'disconnected')) {
        await disconnectAccount(app, account.id, err.message);
        throw disconnectedError(def.key, err.message);
      }
      throw err;
    }
  }

  return {
    publish: (account, post, media) => run(account, (c, a) => c.publish(a, post, media)),
    check: (account, ref) => run(account, (c, a) => c.check(a, ref)),
    finalize: (account, post, ref) => run(account, (c, a) => c.finalize(a, post, ref)),
    fetchPostMetrics: (account, id) => run(account, (c, a) => c.fetchPostMetrics(a, id)),
    fetchFollowers: (account) => run(account, (c, a) => c.fetchFollowers(a)),
  };
}
