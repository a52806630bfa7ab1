/**
 * Connecting a real account (README, Platforms): the OAuth 2.0
 * authorization-code flow of each platform, with PKCE where the platform
 * takes it.
 *
 * 1. The caller asks for a profile's authorisation URL on a platform
 *    (GraphQL `connectAccount`, REST POST …/connect). An OAuthAttempt row
 *    keeps the PKCE verifier (it never travels through the browser) and
 *    where the browser goes afterwards; the `state` parameter carries the
 *    attempt's id and expiry, signed.
 * 2. The user consents on the platform, whose redirect brings the browser
 *    to GET /oauth/<platform>/callback (outside /v1: a redirect carries no
 *    API key). The state's signature, expiry and single use stand in for it.
 * 3. The code becomes tokens, the platform says who the account is, and the
 *    profile's account on that platform is connected (or reconnected, keeping
 *    its id, posts and history), its tokens sealed at rest.
 */
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { findPlatform, isPlatformKey, PLATFORM_KEYS, type PlatformKey } from '../catalog/platforms.js';
import type { Config } from '../config.js';
import { AppError, fieldError, notFound } from '../errors.js';
import { UUID_PATTERN } from '../ids.js';
import { fields, storableString } from '../validation.js';
import { DEFINITIONS } from '../platforms/index.js';
import { createPlatformHttp } from '../platforms/http.js';
import { authorizeUrl, pkcePair, standardExchange } from '../platforms/oauth-tokens.js';
import { availability, disconnectAccount, vaultOf } from '../platforms/session.js';
import { isPlatformError, type TokenSet } from '../platforms/types.js';
import { utcDay, writeFollowers } from './analytics.js';
import type { SocialAccount } from './accounts.js';

/** How long an authorisation URL stays usable. */
export const ATTEMPT_TTL_MS = 15 * 60_000;

/** The redirect URI to register with each platform. */
export const callbackUrl = (config: Config, platform: PlatformKey) => `${config.publicUrl}/oauth/${platform}/callback`;

export interface PlatformStatus {
  key: PlatformKey;
  kind: string;
  /** accounts can be connected with connectAccount */
  available: boolean;
  /** why not, when not */
  reason: string | null;
  redirectUri: string;
  scopes: string[];
}

/** Each platform, whether this service can connect accounts on it, and what to register with it. */
export function platformStatuses(config: Config): PlatformStatus[] {
  return PLATFORM_KEYS.map((key) => {
    const a = availability(config, key);
    const reason = a.available ? null : a.reason;
    return {
      key,
      kind: findPlatform(key)!.kind,
      available: a.available,
      reason,
      redirectUri: callbackUrl(config, key),
      scopes: [...DEFINITIONS[key].oauth.scopes],
    };
  });
}

function connectable(config: Config, platform: PlatformKey) {
  const a = availability(config, platform);
  if (!a.available) throw new AppError('BAD_REQUEST', `Accounts on ${platform} cannot be connected on this service (${a.reason})`);
  return { def: DEFINITIONS[platform], settings: a.settings, http: createPlatformHttp(platform, a.settings.baseUrl) };
}

async function ownProfile(app: App, userId: string, profileId: string) {
  if (!UUID_PATTERN.test(profileId)) throw notFound('Profile');
  const profile = await app.db.profile.findFirst({ where: { id: profileId, userId }, select: { id: true } });
  if (!profile) throw notFound('Profile');
  return profile.id;
}

function checkPlatform(platform: string): PlatformKey {
  if (!isPlatformKey(platform)) throw fieldError('platform', `must be one of ${PLATFORM_KEYS.join(', ')}`, platform);
  return platform;
}

/** The longest URL the callback sends a browser to (its Location). */
export const MAX_RETURN_LOCATION = 2048;

/**
 * Room kept in it for what the callback adds: `connected=<platform>&accountId=<id>`
 * (under 70 characters), or `error=<message>`, the message shortened to fit.
 */
const CALLBACK_ROOM = 256;

/** The longest returnUrl, percent-encoded. */
const MAX_RETURN_URL = MAX_RETURN_LOCATION - CALLBACK_ROOM;

/** The origins a returnUrl may be on: OAUTH_RETURN_ORIGINS, else PUBLIC_URL's. */
const returnOrigins = (config: Config) => config.oauthReturnOrigins ?? [new URL(config.publicUrl).origin];

/**
 * A returnUrl as the callback will send it, or why it cannot be one. Its query
 * is written as the callback writes it when it adds its parameters (form
 * encoding), so the callback's Location is this URL and those parameters: the
 * length checked is the length sent.
 */
function returnTarget(config: Config, raw: string): { url: string } | { problem: string } {
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol)) return { problem: 'must be an absolute http(s) URL' };
  if (url.username || url.password) return { problem: 'must not carry a user name or password' };
  const allowed = returnOrigins(config);
  if (!allowed.includes(url.origin)) return { problem: `must be on an origin this service returns to (OAUTH_RETURN_ORIGINS): ${allowed.join(', ') || 'none'}` };
  url.search = url.searchParams.toString();
  if (url.href.length > MAX_RETURN_URL)
    return { problem: `must be at most ${MAX_RETURN_URL} characters once percent-encoded (the callback adds its parameters to it)` };
  return { url: url.href };
}

function checkReturnUrl(config: Config, returnUrl: string | undefined | null): string | null {
  if (returnUrl === undefined || returnUrl === null) return null;
  const target = returnTarget(config, returnUrl);
  if ('problem' in target) throw fieldError('returnUrl', target.problem, returnUrl);
  return target.url;
}

/** What returnUrl is, for both doors' references. */
export const RETURN_URL_DESCRIPTION = `where the browser goes afterwards, with connected=<platform>&accountId=… or error=… added: an http(s) URL on an origin of OAUTH_RETURN_ORIGINS (by default PUBLIC_URL's), without user name or password, at most ${MAX_RETURN_URL} characters once percent-encoded; a short page says what happened when left out`;

/** The body of POST /v1/profiles/{profileId}/accounts/{platform}/connect. */
export const connectBody = fields({
  returnUrl: storableString({ error: () => 'must be a string' })
    .optional()
    .meta({ description: RETURN_URL_DESCRIPTION }),
});

export interface Authorization {
  /** where the user's browser goes to consent */
  authorizationUrl: string;
  /** the callback the platform redirects to: the one registered with it */
  redirectUri: string;
  expiresAt: Date;
}

const stateOf = (app: App, id: string, platform: PlatformKey, expiresAt: Date) => {
  const body = `${id}.${expiresAt.getTime().toString(36)}`;
  return `${body}.${vaultOf(app.config).sign(`${body}.${platform}`)}`;
};

/** Starts connecting `platform` to the caller's profile: the URL to send the user to. */
export async function startConnection(
  app: App,
  userId: string,
  input: { profileId: string; platform: string; returnUrl?: string | null },
): Promise<Authorization> {
  const platform = checkPlatform(input.platform);
  const returnUrl = checkReturnUrl(app.config, input.returnUrl);
  const profileId = await ownProfile(app, userId, input.profileId);
  const { def, settings, http } = connectable(app.config, platform);
  const pkce = def.oauth.pkce ? pkcePair() : null;
  const id = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + ATTEMPT_TTL_MS);
  await app.db.oAuthAttempt.create({ data: { id, userId, profileId, platform, codeVerifier: pkce?.verifier, returnUrl, expiresAt } });
  const redirectUri = callbackUrl(app.config, platform);
  const url = authorizeUrl(http, def.oauth, settings, { redirectUri, state: stateOf(app, id, platform, expiresAt), codeChallenge: pkce?.challenge });
  app.log.info({ profileId, platform }, 'account connection started');
  return { authorizationUrl: url, redirectUri, expiresAt };
}

/** What the callback did, for the page or the redirect the browser gets. */
export type ConnectionOutcome =
  | { ok: true; platform: PlatformKey; account: SocialAccount; returnUrl: string | null }
  | { ok: false; platform: string; message: string; returnUrl: string | null };

/** The state's attempt id when its signature, platform and expiry hold. */
function readState(app: App, platform: PlatformKey, state: string): string | null {
  const [id, exp, sig] = state.split('.');
  if (!id || !exp || !sig) return null;
  const expected = vaultOf(app.config).sign(`${id}.${exp}.${platform}`);
  if (sig.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected))) return null;
  if (parseInt(exp, 36) < Date.now()) return null;
  return id;
}

/** A stored returnUrl, unless its origin is no longer one the service returns to (or it is no return URL now). */
function stillAllowed(config: Config, returnUrl: string | null): string | null {
  if (returnUrl === null) return null;
  const target = returnTarget(config, returnUrl);
  return 'url' in target ? target.url : null;
}

/**
 * The platform's redirect: the query it brought (`code` and `state`, or
 * `error`). Each attempt is used once, whatever its outcome.
 */
export async function finishConnection(app: App, platformParam: string, query: Record<string, unknown>): Promise<ConnectionOutcome> {
  const fail = (message: string, returnUrl: string | null = null): ConnectionOutcome => ({ ok: false, platform: platformParam, message, returnUrl });
  if (!isPlatformKey(platformParam)) return fail(`There is no platform ${platformParam}`);
  const platform = platformParam;
  const state = typeof query.state === 'string' ? query.state : '';
  const attemptId = app.config.tokenEncryptionKey ? readState(app, platform, state) : null;
  if (!attemptId) return fail('This connection link is invalid or has expired. Start connecting the account again.');
  const claimed = await app.db.oAuthAttempt.updateMany({ where: { id: attemptId, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } });
  const attempt = claimed.count === 1 ? await app.db.oAuthAttempt.findUnique({ where: { id: attemptId } }) : null;
  // a spent link shows the page: sending the browser on again would make it a reusable redirect
  if (!attempt) return fail('This connection link was already used or has expired. Start connecting the account again.');
  const returnUrl = stillAllowed(app.config, attempt.returnUrl);

  if (typeof query.error === 'string') {
    const said = typeof query.error_description === 'string' ? query.error_description : query.error;
    return fail(`The ${platform} account was not connected: the platform said "${said}"`, returnUrl);
  }
  if (typeof query.code !== 'string' || !query.code)
    return fail(`The ${platform} account was not connected: the platform's redirect carried no code`, returnUrl);

  try {
    const { def, settings, http } = connectable(app.config, platform);
    const redirectUri = callbackUrl(app.config, platform);
    const exchange = def.exchangeCode ?? standardExchange(platform, def.oauth);
    const issued = await exchange(http, settings, { code: query.code, redirectUri, codeVerifier: attempt.codeVerifier ?? undefined });
    const who = await def.identify(http, settings, issued);
    const tokens: TokenSet = { ...issued, accessToken: who.accessToken ?? issued.accessToken, extra: { ...issued.extra, ...who.extra } };
    const account = await saveAccount(app, attempt.profileId, platform, who, tokens);
    app.log.info({ profileId: attempt.profileId, platform, accountId: account.id }, 'account connected');
    return { ok: true, platform, account, returnUrl };
  } catch (err) {
    if (isPlatformError(err)) return fail(`The ${platform} account was not connected: ${err.message}`, returnUrl);
    if (err instanceof AppError) return fail(err.message, returnUrl);
    app.log.error({ err, platform }, 'account connection failed');
    return fail(`The ${platform} account was not connected: an internal error occurred`, returnUrl);
  }
}

async function saveAccount(
  app: App,
  profileId: string,
  platform: PlatformKey,
  who: { externalId: string; handle: string | null; isPrivate: boolean; followers: number },
  tokens: TokenSet,
): Promise<SocialAccount> {
  const sealed = vaultOf(app.config).seal(tokens);
  const data = {
    connector: platform,
    externalId: who.externalId,
    handle: who.handle,
    isPrivate: who.isPrivate,
    followers: who.followers,
    tokens: sealed,
    tokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
    status: 'connected' as const,
    statusReason: null,
  };
  const account = await app.db.socialAccount.upsert({
    where: { profileId_platform: { profileId, platform } },
    create: { profileId, platform, ...data },
    update: { ...data, credentials: undefined },
  });
  await writeFollowers(app.db, [{ id: account.id, followers: who.followers }], utcDay(new Date()));
  return account;
}

/**
 * Disconnects a profile's account on a platform: its tokens are forgotten,
 * it keeps its posts and history, and publishing to it is refused (412) until
 * it is connected again. Its posts still under way fail with their credits back.
 */
export async function disconnectProfileAccount(app: App, userId: string, input: { profileId: string; platform: string }): Promise<SocialAccount> {
  const platform = checkPlatform(input.platform);
  const profileId = await ownProfile(app, userId, input.profileId);
  const account = await app.db.socialAccount.findUnique({ where: { profileId_platform: { profileId, platform } } });
  if (!account) throw notFound(`Account on ${platform} in this profile`);
  if (account.status !== 'disconnected') await disconnectAccount(app, account.id, 'disconnected by its owner');
  return app.db.socialAccount.findUniqueOrThrow({ where: { id: account.id } });
}

/** Forgets connection attempts that expired (the maintenance job). */
export async function dropExpiredAttempts(app: App, now = new Date()): Promise<number> {
  const { count } = await app.db.oAuthAttempt.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - ATTEMPT_TTL_MS) } } });
  return count;
}
