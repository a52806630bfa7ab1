/**
 * What the service asks of a social platform (DESIGN.md, Publishing): publish
 * a post, read its metrics, read an account's followers. A platform that
 * processes video after the upload answers `pending` with a handle; the
 * delivery then checks the handle until it is ready and finalizes it, which
 * publishes. Every failure is a PlatformError of one of four kinds, decided
 * once, by the connector, from the platform's answer.
 */
import type { Readable } from 'node:stream';
import type { PlatformKey } from '../catalog/platforms.js';

/** The account a connector acts for. */
export interface ConnectedAccount {
  id: string;
  platform: PlatformKey;
  externalId: string;
  isPrivate: boolean;
  followers: number;
  /** the connector's own data: tokens, or the sandbox's starting point */
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

/** One post to publish: our id (a platform that takes a client reference gets it) and its platform member of the publish body. */
export interface OutgoingPost {
  id: string;
  platform: PlatformKey;
  content: Record<string, unknown>;
}

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
