/**
 * What the service asks of a social platform (DESIGN.md, Publishing): publish
 * a post, read its metrics, read an account's followers. A platform that
 * processes video after the upload answers `pending` with a handle; the
 * delivery then checks the handle until it is ready and finalizes it, which
 * publishes. Every failure is a PlatformError of one of four kinds, decided
 * once, from the platform's answer: by one status rule (`judge`,
 * src/platforms/http.ts) and the connector's table of its platform's codes.
 */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { PlatformKey } from '../catalog/platforms.js';
import { jsonColumn } from '../db/json.js';

/** The account a connector acts for. */
export interface ConnectedAccount {
  id: string;
  platform: PlatformKey;
  externalId: string;
  isPrivate: boolean;
  followers: number;
  /**
   * the connector's own data: for a platform connector, the account's tokens
   * (a TokenSet, decrypted and fresh); for the sandbox, its starting point
   */
  credentials: unknown;
  createdAt: Date;
}

/** The video a post carries: the project's render at publish time. */
export interface PostMedia {
  key: string;
  size: number;
  contentType: string;
  /** the bytes, for an upload */
  open(): Promise<Readable>;
}

/**
 * One post to publish: our id (a platform that takes a client reference gets
 * it) and its platform member of the publish body. `progress` is what the
 * connector saved of an earlier attempt at this post (null on the first): a
 * delivery killed mid-upload re-runs with it, so the connector can ask the
 * platform what already happened (the upload's session, the post made from
 * it) before it uploads or posts again. `saveProgress` writes it at once,
 * before the step that follows it: save a handle before the platform acts on it.
 */
export interface OutgoingPost {
  id: string;
  platform: PlatformKey;
  content: Record<string, unknown>;
  progress: Record<string, unknown> | null;
  saveProgress(progress: Record<string, unknown>): Promise<void>;
}

// Each connector reads its own shape of these (its platform member of the publish body, its
// own progress), so the columns hold a JSON object and no more is checked here.
const connectorObject = z.record(z.string(), z.json());
/** Post.content: the platform member of the publish body */
export const postContentColumn = jsonColumn<Record<string, unknown>>('Post.content', connectorObject);
/** Post.progress: what the connector saved of an attempt under way, null before it saves any */
export const postProgressColumn = jsonColumn<Record<string, unknown> | null>('Post.progress', connectorObject.nullable());

export interface PublishedPost {
  platformPostId: string;
  platformPostUrl: string;
}

/** What an upload, a check or a finalize leaves: published, or still processing on the platform's side. */
export type PublishStep = ({ state: 'published' } & PublishedPost) | { state: 'pending'; ref: string; checkAfterMs: number };

/** A post's totals as the platform reports them now (not per day). */
export interface PostMetrics {
  views: number;
  likes: number;
  comments: number;
  shares: number;
  impressions: number;
  reach: number;
  clicks: number;
}

export interface PlatformConnector {
  /** uploads the media and publishes, or starts processing (pending) */
  publish(account: ConnectedAccount, post: OutgoingPost, media: PostMedia): Promise<PublishStep>;
  /** asks about a pending upload: still pending, or ready to finalize */
  check(account: ConnectedAccount, ref: string): Promise<{ state: 'ready' } | { state: 'pending'; checkAfterMs: number }>;
  /** publishes a ready upload; finalizing a handle twice gives the same post (never a second one) */
  finalize(account: ConnectedAccount, post: OutgoingPost, ref: string): Promise<PublishedPost>;
  fetchPostMetrics(account: ConnectedAccount, platformPostId: string): Promise<PostMetrics>;
  fetchFollowers(account: ConnectedAccount): Promise<number>;
}

/**
 * The four kinds of platform failure:
 * - `retry`: try again later (rate limits, the platform's outages, timeouts), after `retryAfterMs` when the platform says;
 * - `bad_request`: the platform refused the post itself (its words in the message); trying again will not help;
 * - `reauthorize`: the account's authorisation expired or was revoked; the user must connect it again;
 * - `disconnected`: the account is gone on the platform's side.
 */
export type PlatformErrorKind = 'retry' | 'bad_request' | 'reauthorize' | 'disconnected';

export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export const isPlatformError = (e: unknown): e is PlatformError => e instanceof PlatformError;

/**
 * An account's tokens as a platform issued them, kept encrypted at rest
 * (src/platforms/vault.ts). `extra` holds what else a connector needs to act
 * for the account: a page's own token, the user id the platform's paths
 * take, the scopes granted.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** ISO 8601; absent when the token does not expire */
  expiresAt?: string;
  /** ISO 8601; when the refresh token itself expires, where the platform says */
  refreshExpiresAt?: string;
  scope?: string;
  extra?: Record<string, string>;
}

/** Who an account is on its platform, read once it is connected. */
export interface AccountIdentity {
  externalId: string;
  handle: string | null;
  isPrivate: boolean;
  followers: number;
  /** merged into the TokenSet's `extra` (ids and tokens the connector needs later) */
  extra?: Record<string, string>;
  /** replaces the access token: a page's token where the platform posts as a page */
  accessToken?: string;
}

/** A platform's OAuth 2.0 authorization-code flow. */
export interface OAuthFlow {
  /** where the user's browser goes to consent */
  authorizeUrl: string;
  /** where a code and a refresh token become tokens (POST, form-encoded) */
  tokenUrl: string;
  scopes: readonly string[];
  /** how scopes are joined in the authorisation URL */
  scopeSeparator: ' ' | ',';
  /** S256 PKCE */
  pkce: boolean;
  /** how the client authenticates at the token endpoint: HTTP Basic, or client_id/client_secret in the body */
  clientAuth: 'basic' | 'body';
  /** the name of the client id parameter, where the platform has its own (client_key) */
  clientIdParam?: string;
  /** more parameters of the authorisation URL (access_type=offline, prompt=consent) */
  authorizeParams?: Readonly<Record<string, string>>;
}

/** A platform's settings from the environment (README, Platforms). */
export interface PlatformSettings {
  clientId: string;
  clientSecret: string;
  /**
   * Every host of the platform replaced by this origin (`<KEY>_BASE_URL`):
   * for a proxy, or a local imitation of the platform in tests. Unset: the platform's own hosts.
   */
  baseUrl: string | undefined;
}

/** What a platform module gives the service: its connector and how an account connects. */
export interface PlatformDefinition {
  key: PlatformKey;
  /** the brand, for the README and logs only */
  oauth: OAuthFlow;
  /**
   * Turns an authorisation code into tokens; the default is the standard
   * form POST to `oauth.tokenUrl` (RFC 6749 4.1.3), with the PKCE verifier when used.
   */
  exchangeCode?(http: PlatformHttp, settings: PlatformSettings, input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<TokenSet>;
  /**
   * New tokens for old; the default is the standard refresh_token grant
   * (RFC 6749 6). A refusal of the grant itself is a `reauthorize` PlatformError.
   */
  refresh?(http: PlatformHttp, settings: PlatformSettings, tokens: TokenSet): Promise<TokenSet>;
  /**
   * How long before its expiry a token is renewed (default REFRESH_AHEAD_MS,
   * 5 minutes). A platform that renews only a still-valid token (no refresh
   * token) sets days: any call in that window, the analytics sync's included,
   * renews it before it can lapse.
   */
  refreshAheadMs?: number;
  /** reads the account's identity, privacy and followers with fresh tokens */
  identify(http: PlatformHttp, settings: PlatformSettings, tokens: TokenSet): Promise<AccountIdentity>;
  /** the connector; its methods get accounts whose `credentials` is a fresh TokenSet */
  connector(http: PlatformHttp, settings: PlatformSettings): PlatformConnector;
}

/** A response as a connector reads it. */
export interface PlatformResponse {
  status: number;
  headers: Headers;
  /** parsed JSON, or null when the body is empty or not JSON */
  json: unknown;
  text: string;
}

export interface PlatformRequest {
  method?: string;
  /** an absolute URL on one of the platform's hosts (rewritten to `baseUrl` when set) */
  url: string;
  /** a bearer token, sent as `Authorization: Bearer …` and never logged */
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** an object is sent as JSON; URLSearchParams as a form; a Buffer or stream as is */
  body?: unknown;
  /** ms; the default suits an API call, an upload chunk gets longer */
  timeoutMs?: number;
}

/**
 * The client every connector uses (src/platforms/http.ts): rewrites hosts to
 * `baseUrl`, times out, and turns a network failure into a `retry`
 * PlatformError. It does not judge statuses: a connector judges an answer it
 * did not want by `judge` (src/platforms/http.ts), with its platform's own
 * error shape and codes.
 */
export interface PlatformHttp {
  request(req: PlatformRequest): Promise<PlatformResponse>;
  /** the URL as it will be requested (for upload URLs a platform hands back, which are absolute) */
  resolve(url: string): string;
}
