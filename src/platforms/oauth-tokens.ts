/**
 * The standard token endpoint calls of OAuth 2.0 (RFC 6749): a code for
 * tokens (4.1.3) and a refresh token for new ones (6). Platforms that follow
 * the standard use these as they are; the others' modules write their own.
 */
import crypto from 'node:crypto';
import { judge, passing, platformError, type PlatformErrorRule } from './http.js';
import type { OAuthFlow, PlatformError, PlatformHttp, PlatformResponse, PlatformSettings, TokenSet } from './types.js';

/** A token endpoint's answer (RFC 6749 5.1) as a TokenSet; `previous` keeps a refresh token the answer does not repeat. */
export function tokenSetFrom(json: Record<string, unknown>, now = Date.now(), previous?: TokenSet): TokenSet {
  const expiresIn = Number(json.expires_in);
  const refreshExpiresIn = Number(json.refresh_expires_in ?? json.refresh_token_expires_in);
  return {
    accessToken: String(json.access_token),
    refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : previous?.refreshToken,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(now + expiresIn * 1000).toISOString() : undefined,
    refreshExpiresAt:
      Number.isFinite(refreshExpiresIn) && refreshExpiresIn > 0 ? new Date(now + refreshExpiresIn * 1000).toISOString() : previous?.refreshExpiresAt,
    scope: typeof json.scope === 'string' ? json.scope : previous?.scope,
    extra: previous?.extra,
  };
}

const grantErrorOf = (res: PlatformResponse) => {
  const body = (res.json ?? {}) as Record<string, unknown>;
  return {
    code: typeof body.error === 'string' ? body.error : undefined,
    description: typeof body.error_description === 'string' ? body.error_description : undefined,
  };
};

/**
 * A token endpoint's refusal (RFC 6749 5.2): a 5xx or a rate limit passes; the
 * service's own client refused waits for the operator; any other refusal is
 * of the grant (invalid_grant, a code already used), whatever its status, and
 * means the user must connect again.
 */
const refusedGrant = (what: string, said: string) => `${what} was refused (${said}); connect the account again`;

const tokenEndpoint = (name: string): PlatformErrorRule => ({
  said: (res) => {
    const { code, description } = grantErrorOf(res);
    return [code, description].filter(Boolean).join(': ') || `HTTP ${res.status}`;
  },
  own(res, what, said) {
    if (passing(res)) return undefined;
    const { code } = grantErrorOf(res);
    // a wrong secret, a client switched off: the operator's to mend, not the user's
    if (code === 'invalid_client' || code === 'unauthorized_client') {
      return {
        kind: 'retry',
        says: `${what} failed: the platform refused this service's OAuth client (${said}); check ${name.toUpperCase()}_CLIENT_ID and ${name.toUpperCase()}_CLIENT_SECRET`,
        retryAfterMs: null,
      };
    }
    return { kind: 'reauthorize' };
  },
  words: {
    retry: (what, said) => `${what} failed for now (${said})`,
    reauthorize: refusedGrant,
    refused: refusedGrant,
  },
});

/** Judges a token endpoint's answer that holds no tokens. */
export const tokenError = (name: string, res: PlatformResponse, what: string): PlatformError => judge(name, tokenEndpoint(name), res, what);

function clientParams(flow: OAuthFlow, settings: PlatformSettings, form: URLSearchParams, headers: Record<string, string>) {
  if (flow.clientAuth === 'basic') {
    const pair = `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    form.set(flow.clientIdParam ?? 'client_id', settings.clientId);
  } else {
    form.set(flow.clientIdParam ?? 'client_id', settings.clientId);
    form.set('client_secret', settings.clientSecret);
  }
}

async function tokenCall(
  name: string,
  flow: OAuthFlow,
  http: PlatformHttp,
  settings: PlatformSettings,
  form: URLSearchParams,
  what: string,
  previous?: TokenSet,
) {
  const headers: Record<string, string> = {};
  clientParams(flow, settings, form, headers);
  const res = await http.request({ method: 'POST', url: flow.tokenUrl, headers, body: form });
  const json = (res.json ?? {}) as Record<string, unknown>;
  if (res.status !== 200 || typeof json.access_token !== 'string') throw tokenError(name, res, what);
  return tokenSetFrom(json, Date.now(), previous);
}

/** RFC 6749 4.1.3, with the PKCE verifier (RFC 7636 4.5) when the flow uses one. */
export function standardExchange(name: string, flow: OAuthFlow) {
  return (http: PlatformHttp, settings: PlatformSettings, input: { code: string; redirectUri: string; codeVerifier?: string }) => {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri });
    if (input.codeVerifier) form.set('code_verifier', input.codeVerifier);
    return tokenCall(name, flow, http, settings, form, 'exchanging the authorisation code');
  };
}

/** RFC 6749 6. Without a refresh token there is nothing to refresh: the user connects again. */
export function standardRefresh(name: string, flow: OAuthFlow) {
  return async (http: PlatformHttp, settings: PlatformSettings, tokens: TokenSet) => {
    if (!tokens.refreshToken)
      throw platformError(name, 'reauthorize', 'the access token expired and the platform gave no refresh token; connect the account again');
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    return tokenCall(name, flow, http, settings, form, 'refreshing the access token', tokens);
  };
}

/** A PKCE pair (RFC 7636 4.1-4.2): the verifier kept by the service, its S256 challenge sent through the browser. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(48).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** The URL a user's browser opens to consent (RFC 6749 4.1.1; RFC 7636 4.3 when `codeChallenge` is given). */
export function authorizeUrl(
  http: PlatformHttp,
  flow: OAuthFlow,
  settings: PlatformSettings,
  input: { redirectUri: string; state: string; codeChallenge?: string },
): string {
  const url = new URL(http.resolve(flow.authorizeUrl));
  const params: Record<string, string> = {
    [flow.clientIdParam ?? 'client_id']: settings.clientId,
    response_type: 'code',
    redirect_uri: input.redirectUri,
    scope: flow.scopes.join(flow.scopeSeparator),
    state: input.state,
    ...flow.authorizeParams,
  };
  if (flow.pkce && input.codeChallenge) Object.assign(params, { code_challenge: input.codeChallenge, code_challenge_method: 'S256' });
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
