/**
 * The microblog platform (X), through the X API v2 with OAuth 2.0
 * (authorization code with PKCE, a confidential client).
 *
 * Endpoints used:
 *   GET  https://x.com/i/oauth2/authorize                      the user's consent
 *        https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token
 *   POST https://api.x.com/2/oauth2/token                      code → tokens; refresh (rotates the refresh token)
 *        https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token
 *   GET  https://api.x.com/2/users/me                          identity, privacy, followers
 *        https://docs.x.com/x-api/users/get-my-user
 *   POST https://api.x.com/2/media/upload/initialize           an upload session (the media id)
 *        https://docs.x.com/x-api/media/initialize-media-upload
 *   POST https://api.x.com/2/media/upload/{id}/append          one segment, multipart, ≤ 5 MB, in order from 0
 *        https://docs.x.com/x-api/media/append-media-upload
 *   POST https://api.x.com/2/media/upload/{id}/finalize        the upload is whole; processing starts
 *        https://docs.x.com/x-api/media/finalize-media-upload
 *   GET  https://api.x.com/2/media/upload?command=STATUS       processing state
 *        https://docs.x.com/x-api/media/get-media-upload-status
 *   POST https://api.x.com/2/tweets                            the post, with the media id
 *        https://docs.x.com/x-api/posts/create-post
 *   GET  https://api.x.com/2/users/{id}/tweets                 the account's recent posts (a re-run's question)
 *        https://docs.x.com/x-api/users/get-posts
 *   GET  https://api.x.com/2/tweets/{id}                       a post's public metrics and its video's views
 *        https://docs.x.com/x-api/posts/get-post-by-id, https://docs.x.com/x-api/fundamentals/metrics
 * Errors: https://docs.x.com/x-api/fundamentals/response-codes-and-errors,
 * rate limits (x-rate-limit-reset): https://docs.x.com/x-api/fundamentals/rate-limits,
 * video limits: https://docs.x.com/x-api/media/quickstart/best-practices.
 *
 * The protocol: publish initializes an upload (its media id saved before
 * the first byte is sent), appends the video in 4 MB segments (each one
 * saved once the platform took it), finalizes, and answers `pending` with
 * the media id: the platform processes every video. check reads the
 * processing state; finalize posts the text with the media id (saved as
 * "posting" before the call, the post id after it).
 *
 * A re-run with saved progress asks before it acts again:
 * - an upload cut off resumes at the first segment not acknowledged, on the
 *   same media id while its session has not expired (else a new upload);
 *   a segment the platform took just before the crash is sent again with
 *   the same index, which replaces it ("failed chunks can be retried individually");
 * - an upload already finalized is not sent again: its status says what next;
 * - a post whose creation was under way is looked for among the account's
 *   recent posts by the media key it carries, and posted only if absent.
 * Gaps the API leaves: it cannot say which segments it holds (we trust the
 * saved count); it has no idempotency key on POST /2/tweets, so the search
 * above depends on the user timeline listing a post made seconds earlier
 * (its consistency is not documented). When it does not yet, the platform
 * refuses the second post as duplicate content (same text), and that
 * refusal sends us looking once more; if the post is still not listed,
 * the post fails with the platform's words rather than posting twice. A
 * post the user deleted in between is posted again; the search reads the
 * latest 100 posts of the window only.
 *
 * Metrics: public_metrics of the post (any post age, no extra permission)
 * and the video's public view count; non-public metrics (link clicks) are
 * only kept for 30 days and would make older posts' reads fail, so reach
 * and clicks, which the public metrics do not have, are 0.
 */
import crypto from 'node:crypto';
import { chunksOf } from './chunks.js';
import { followerCount, platformErrors } from './http.js';
import type {
  AccountIdentity,
  ConnectedAccount,
  OAuthFlow,
  OutgoingPost,
  PlatformConnector,
  PlatformDefinition,
  PlatformError,
  PlatformHttp,
  PlatformResponse,
  PostMetrics,
  PostMedia,
  PublishedPost,
  PublishStep,
  TokenSet,
} from './types.js';

const NAME = 'microblog';
const API = 'https://api.x.com/2';
const WEB = 'https://x.com';

/** Publishing (tweet.write, media.write), the account and its posts (tweet.read, users.read), a refresh token (offline.access). */
const SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'] as const;

const oauth: OAuthFlow = {
  authorizeUrl: `${WEB}/i/oauth2/authorize`,
  tokenUrl: `${API}/oauth2/token`,
  scopes: SCOPES,
  scopeSeparator: ' ',
  pkce: true,
  // a confidential client authenticates with HTTP Basic at the token endpoint
  clientAuth: 'basic',
};

/** Segments of 4 MB, under the documented 5 MB ceiling; larger only for a video that would need more than 1000. */
const SEGMENT_BYTES = 4 * 1024 * 1024;
const MAX_SEGMENT_BYTES = 5 * 1024 * 1024;
/** segment_index runs 0-999 */
const MAX_SEGMENTS = 1000;
const SEGMENT_TIMEOUT_MS = 120_000;
/** An upload session this close to its expiry is not resumed: a new one is safer. */
const EXPIRY_MARGIN_MS = 10 * 60_000;
/** How far before our "posting" mark a re-run looks for the post (clocks differ). */
const POST_SEARCH_SLACK_MS = 10 * 60_000;

// ---------------------------------------------------------------- errors

interface Problem {
  title?: string;
  detail?: string;
  type?: string;
  errors?: Array<{ message?: string; detail?: string; title?: string; type?: string }>;
}

const problemOf = (res: PlatformResponse): Problem => (res.json && typeof res.json === 'object' ? (res.json as Problem) : {});

/** The platform's own words: the problem's detail, and each error's message. */
function said(res: PlatformResponse): string {
  const p = problemOf(res);
  const parts = [p.detail ?? p.title, ...(p.errors ?? []).map((e) => e.message ?? e.detail ?? e.title)].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
  return [...new Set(parts)].join('; ') || `HTTP ${res.status}`;
}

const problemTypes = (res: PlatformResponse) => {
  const p = problemOf(res);
  return [p.type, ...(p.errors ?? []).map((e) => e.type)].filter((t): t is string => typeof t === 'string');
};

/**
 * The platform's refusals. 403 covers three different things: the account
 * suspended or locked (gone until the user acts), the service's own API
 * access refused or capped (not the post's fault, it may clear), and the post
 * refused (duplicate text, a video too long): only the last is the caller's.
 */
const errors = platformErrors(NAME, {
  said,
  own(res, what, words) {
    if (res.status !== 403) return undefined;
    const types = problemTypes(res);
    if (types.some((t) => t.endsWith('/user-suspended')) || /\b(suspended|locked)\b/i.test(words)) {
      return { kind: 'disconnected', says: `the account cannot post (${words})` };
    }
    if (types.some((t) => t.endsWith('/client-forbidden') || t.endsWith('/usage-capped'))) {
      // the rate-limit reset every answer carries says nothing of when this clears
      return { kind: 'retry', says: `${what} was refused to this service's API access (${words})`, retryAfterMs: null };
    }
    return undefined;
  },
  words: {
    retry: (what, words) => `${what} failed for now (${words})`,
    reauthorize: (what, words) => `${what} was refused as unauthorised (${words}); connect the account again`,
    refused: (what, words) => `${what} was refused: ${words}`,
  },
});

/** The response's `data` when the call succeeded with one; the platform's refusal otherwise. */
function dataOf(res: PlatformResponse, what: string, ok = [200]): Record<string, any> {
  if (!ok.includes(res.status)) throw errors.refusal(res, what);
  const data = (res.json as { data?: unknown } | null)?.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, any>;
  // a 200 that carries only `errors` (a post since deleted) is a refusal in the body
  if (problemOf(res).errors?.length) throw errors.badRequest(`${what} was refused: ${said(res)}`);
  throw errors.unexpected(res, what);
}

// ---------------------------------------------------------------- tokens and the account

const tokensOf = (account: ConnectedAccount) => account.credentials as TokenSet;

async function me(http: PlatformHttp, token: string) {
  const res = await http.request({ url: `${API}/users/me`, token, query: { 'user.fields': 'protected,public_metrics' } });
  const data = dataOf(res, 'reading the account');
  if (typeof data.id !== 'string') throw errors.unexpected(res, 'reading the account');
  return data as { id: string; username?: string; protected?: boolean; public_metrics?: { followers_count?: unknown } };
}

async function identify(http: PlatformHttp, _settings: unknown, tokens: TokenSet): Promise<AccountIdentity> {
  const user = await me(http, tokens.accessToken);
  return {
    externalId: user.id,
    handle: user.username ?? null,
    isPrivate: user.protected === true,
    followers: followerCount(NAME, user.public_metrics?.followers_count ?? 0),
    // the user id is in the timeline's path; the username in a post's URL
    extra: { userId: user.id, ...(user.username ? { username: user.username } : {}) },
  };
}

const postUrl = (tokens: TokenSet, id: string) =>
  tokens.extra?.username ? `${WEB}/${encodeURIComponent(tokens.extra.username)}/status/${id}` : `${WEB}/i/web/status/${id}`;

// ---------------------------------------------------------------- saved progress

/** What a post's delivery saves, step by step, for a re-run to ask about. */
interface Progress {
  mediaId: string;
  mediaKey: string;
  totalBytes: number;
  /** when the upload session expires (ISO 8601) */
  expiresAt: string;
  /** segments the platform acknowledged, and their bytes */
  segments: number;
  bytes: number;
  finalized?: boolean;
  /** set just before POST /2/tweets (ISO 8601) */
  postingSince?: string;
  postId?: string;
}

function progressOf(post: OutgoingPost): Progress | null {
  const p = post.progress as Partial<Progress> | null;
  if (!p || typeof p.mediaId !== 'string' || typeof p.mediaKey !== 'string') return null;
  return {
    mediaId: p.mediaId,
    mediaKey: p.mediaKey,
    totalBytes: Number(p.totalBytes ?? 0),
    expiresAt: String(p.expiresAt ?? new Date(0).toISOString()),
    segments: Number(p.segments ?? 0),
    bytes: Number(p.bytes ?? 0),
    finalized: p.finalized === true,
    postingSince: typeof p.postingSince === 'string' ? p.postingSince : undefined,
    postId: typeof p.postId === 'string' ? p.postId : undefined,
  };
}

/** As the Post row keeps it: JSON, without the steps not reached. */
const save = (post: OutgoingPost, p: Progress) => post.saveProgress(Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)));

// ---------------------------------------------------------------- the upload

/** Segments of a size the platform takes, at most 1000 of them. */
function segmentSize(total: number): number {
  const size = Math.max(SEGMENT_BYTES, Math.ceil(total / MAX_SEGMENTS));
  if (size > MAX_SEGMENT_BYTES) throw errors.badRequest(`the video (${total} bytes) is larger than the platform's chunked upload takes`);
  return size;
}

async function initialize(http: PlatformHttp, token: string, media: PostMedia): Promise<Progress> {
  if (media.contentType !== 'video/mp4') throw errors.badRequest(`the platform takes video/mp4 here, not ${media.contentType}`);
  const res = await http.request({
    method: 'POST',
    url: `${API}/media/upload/initialize`,
    token,
    body: { media_type: 'video/mp4', total_bytes: media.size, media_category: 'tweet_video' },
  });
  const data = dataOf(res, 'starting the upload');
  if (typeof data.id !== 'string' || typeof data.media_key !== 'string') throw errors.unexpected(res, 'starting the upload');
  const expiresAfter = Number(data.expires_after_secs);
  return {
    mediaId: data.id,
    mediaKey: data.media_key,
    totalBytes: media.size,
    expiresAt: new Date(Date.now() + (Number.isFinite(expiresAfter) ? expiresAfter : 3600) * 1000).toISOString(),
    segments: 0,
    bytes: 0,
  };
}

/** One multipart/form-data body: the segment index and the bytes as the `media` file. */
function multipart(segmentIndex: number, chunk: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----segment${crypto.randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="segment_index"\r\n\r\n${segmentIndex}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="segment-${segmentIndex}.mp4"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, chunk, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends the segments not yet acknowledged, saving each one the platform takes. */
async function append(http: PlatformHttp, token: string, post: OutgoingPost, media: PostMedia, p: Progress): Promise<Progress> {
  const size = segmentSize(media.size);
  let done = p;
  for await (const chunk of chunksOf(await media.open(), size, { start: p.bytes, total: media.size })) {
    const { body, contentType } = multipart(done.segments, chunk);
    const res = await http.request({
      method: 'POST',
      url: `${API}/media/upload/${done.mediaId}/append`,
      token,
      headers: { 'content-type': contentType },
      body,
      timeoutMs: SEGMENT_TIMEOUT_MS,
    });
    if (res.status < 200 || res.status >= 300) throw errors.refusal(res, `uploading segment ${done.segments}`);
    done = { ...done, segments: done.segments + 1, bytes: done.bytes + chunk.length };
    await save(post, done);
  }
  return done;
}

interface Processing {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  checkAfterMs: number;
  error?: string;
}

const STATES = ['pending', 'in_progress', 'succeeded', 'failed'] as const;

/** What `processing_info` says; its absence means the media is ready. A state the documentation does not list is the platform's fault, passing. */
function processingOf(res: PlatformResponse, what: string): Processing {
  const info = dataOf(res, what).processing_info as { state?: string; check_after_secs?: number; error?: { message?: string; name?: string } } | undefined;
  if (!info) return { state: 'succeeded', checkAfterMs: 0 };
  const state = STATES.find((s) => s === info.state);
  if (!state) throw errors.unexpected(res, what);
  const secs = Number(info.check_after_secs);
  return { state, checkAfterMs: Number.isFinite(secs) && secs > 0 ? secs * 1000 : 1000, error: info.error?.message ?? info.error?.name };
}

async function finalizeUpload(http: PlatformHttp, token: string, mediaId: string): Promise<Processing> {
  const res = await http.request({ method: 'POST', url: `${API}/media/upload/${mediaId}/finalize`, token });
  return processingOf(res, 'finishing the upload');
}

async function mediaStatus(http: PlatformHttp, token: string, mediaId: string): Promise<Processing & { mediaKey?: string }> {
  const res = await http.request({ url: `${API}/media/upload`, token, query: { command: 'STATUS', media_id: mediaId } });
  const processing = processingOf(res, "reading the upload's processing");
  const key = dataOf(res, "reading the upload's processing").media_key;
  return { ...processing, mediaKey: typeof key === 'string' ? key : undefined };
}

function refusedProcessing(p: Processing): PlatformError {
  return errors.badRequest(`the platform could not process the video${p.error ? `: ${p.error}` : ''}`);
}

/** Whether a saved upload can be carried on: the same video, its session not about to expire. */
const resumable = (saved: Progress | null, media: PostMedia): saved is Progress =>
  saved !== null && saved.totalBytes === media.size && Date.parse(saved.expiresAt) - Date.now() > EXPIRY_MARGIN_MS;

/** The upload this post's progress points at, carried on as far as it got; a new one when none can be. */
async function upload(http: PlatformHttp, token: string, post: OutgoingPost, media: PostMedia, saved: Progress | null): Promise<Progress> {
  let p = resumable(saved, media) ? saved : null;
  if (!p) {
    p = await initialize(http, token, media);
    // the media id first: every later step acts on it
    await save(post, p);
  }
  if (p.bytes < media.size) p = await append(http, token, post, media, p);
  return p;
}

// ---------------------------------------------------------------- the post

/** The account's user id, as saved at connection (or read again). */
async function userIdOf(http: PlatformHttp, tokens: TokenSet): Promise<string> {
  return tokens.extra?.userId ?? (await me(http, tokens.accessToken)).id;
}

/** Timestamps for start_time take whole seconds (YYYY-MM-DDTHH:mm:ssZ). */
const wholeSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A post of this account made since `since` that carries the media key: the one an interrupted attempt made. */
async function findPost(http: PlatformHttp, tokens: TokenSet, mediaKey: string, since: string): Promise<string | null> {
  const res = await http.request({
    url: `${API}/users/${await userIdOf(http, tokens)}/tweets`,
    token: tokens.accessToken,
    query: {
      max_results: 100,
      start_time: wholeSeconds(Date.parse(since) - POST_SEARCH_SLACK_MS),
      exclude: 'replies,retweets',
      'tweet.fields': 'attachments,created_at',
    },
  });
  if (res.status !== 200) throw errors.refusal(res, "looking for the post among the account's recent posts");
  const posts = (res.json as { data?: Array<{ id?: string; attachments?: { media_keys?: string[] } }> } | null)?.data ?? [];
  return posts.find((t) => typeof t.id === 'string' && t.attachments?.media_keys?.includes(mediaKey))?.id ?? null;
}

function textOf(post: OutgoingPost): string {
  const text = post.content.content;
  if (typeof text !== 'string' || text.length === 0) throw errors.badRequest('the post has no text (content)');
  return text;
}

/**
 * The post with the uploaded video, made once: a post already made (saved,
 * or found among the account's posts after an interrupted attempt) is given
 * back instead of posting again.
 */
async function createPost(http: PlatformHttp, tokens: TokenSet, post: OutgoingPost, p: Progress): Promise<PublishedPost> {
  const made = (id: string) => ({ platformPostId: id, platformPostUrl: postUrl(tokens, id) });
  const adopt = async (id: string) => {
    await save(post, { ...p, postId: id });
    return made(id);
  };
  if (p.postId) return made(p.postId);
  const earlier = p.postingSince;
  if (earlier) {
    const found = await findPost(http, tokens, p.mediaKey, earlier);
    if (found) return adopt(found);
  }
  const text = textOf(post);
  const posting = { ...p, postingSince: new Date().toISOString() };
  await save(post, posting);
  const res = await http.request({ method: 'POST', url: `${API}/tweets`, token: tokens.accessToken, body: { text, media: { media_ids: [p.mediaId] } } });
  if (earlier && res.status === 403 && /duplicate/i.test(said(res))) {
    // the earlier attempt's post exists after all, and the timeline had not listed it yet
    const found = await findPost(http, tokens, p.mediaKey, earlier);
    if (found) return adopt(found);
  }
  const data = dataOf(res, 'posting', [200, 201]);
  if (typeof data.id !== 'string') throw errors.unexpected(res, 'posting');
  await save(post, { ...posting, postId: data.id });
  return made(data.id);
}

// ---------------------------------------------------------------- the connector

async function publish(http: PlatformHttp, account: ConnectedAccount, post: OutgoingPost, media: PostMedia): Promise<PublishStep> {
  const tokens = tokensOf(account);
  const saved = progressOf(post);
  // the post was made, or its making was under way: never upload again
  if (saved?.postId || saved?.postingSince) return { state: 'published', ...(await createPost(http, tokens, post, saved)) };
  let p: Progress;
  let processing: Processing;
  if (saved?.finalized && resumable(saved, media)) {
    p = saved;
    processing = await mediaStatus(http, tokens.accessToken, p.mediaId);
  } else {
    p = await upload(http, tokens.accessToken, post, media, saved);
    processing = await finalizeUpload(http, tokens.accessToken, p.mediaId);
    p = { ...p, finalized: true };
    await save(post, p);
  }
  if (processing.state === 'failed') throw refusedProcessing(processing);
  if (processing.state !== 'succeeded') return { state: 'pending', ref: p.mediaId, checkAfterMs: processing.checkAfterMs };
  return { state: 'published', ...(await createPost(http, tokens, post, p)) };
}

function connector(http: PlatformHttp): PlatformConnector {
  return {
    publish: (account, post, media) => publish(http, account, post, media),

    async check(account, ref) {
      const processing = await mediaStatus(http, tokensOf(account).accessToken, ref);
      if (processing.state === 'failed') throw refusedProcessing(processing);
      return processing.state === 'succeeded' ? { state: 'ready' } : { state: 'pending', checkAfterMs: processing.checkAfterMs };
    },

    async finalize(account, post, ref) {
      const tokens = tokensOf(account);
      let p = progressOf(post);
      if (!p || p.mediaId !== ref) {
        // a handle without its progress: the platform knows the media key
        const status = await mediaStatus(http, tokens.accessToken, ref);
        if (!status.mediaKey) throw errors.badRequest(`the upload ${ref} is unknown to the platform`);
        p = { mediaId: ref, mediaKey: status.mediaKey, totalBytes: 0, expiresAt: new Date(0).toISOString(), segments: 0, bytes: 0, finalized: true };
      }
      return createPost(http, tokens, post, p);
    },

    async fetchPostMetrics(account, platformPostId) {
      const res = await http.request({
        url: `${API}/tweets/${encodeURIComponent(platformPostId)}`,
        token: tokensOf(account).accessToken,
        query: { 'tweet.fields': 'public_metrics,attachments', expansions: 'attachments.media_keys', 'media.fields': 'public_metrics' },
      });
      const data = dataOf(res, "reading the post's metrics");
      const m = (data.public_metrics ?? {}) as Record<string, number | undefined>;
      const keys: string[] = data.attachments?.media_keys ?? [];
      const media = (
        (res.json as { includes?: { media?: Array<{ media_key?: string; public_metrics?: { view_count?: number } }> } }).includes?.media ?? []
      ).find((x) => keys.includes(x.media_key ?? ''));
      const n = (v: unknown) => (Number.isFinite(Number(v)) ? Number(v) : 0);
      const impressions = n(m.impression_count);
      const metrics: PostMetrics = {
        // the video's plays where the platform counts them, else how often the post was seen
        views: media?.public_metrics?.view_count !== undefined ? n(media.public_metrics.view_count) : impressions,
        likes: n(m.like_count),
        comments: n(m.reply_count),
        shares: n(m.retweet_count) + n(m.quote_count),
        impressions,
        reach: 0,
        clicks: 0,
      };
      return metrics;
    },

    async fetchFollowers(account) {
      const user = await me(http, tokensOf(account).accessToken);
      return followerCount(NAME, user.public_metrics?.followers_count ?? 0);
    },
  };
}

export const microblogPlatform: PlatformDefinition = {
  key: 'microblog',
  oauth,
  identify,
  connector: (http) => connector(http),
};
