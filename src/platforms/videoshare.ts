/**
 * The long-form video platform (videoshare): YouTube, through the YouTube
 * Data API v3 and Google's OAuth 2.0 for web server applications.
 *
 * Endpoints used (the hosts are rewritten to VIDEOSHARE_BASE_URL when set):
 *   GET  https://accounts.google.com/o/oauth2/v2/auth         consent (access_type=offline, prompt=consent, PKCE S256)
 *   POST https://oauth2.googleapis.com/token                  code → tokens; refresh_token → a new access token (the refresh token is kept: the platform does not rotate it)
 *        https://developers.google.com/identity/protocols/oauth2/web-server
 *   GET  https://www.googleapis.com/youtube/v3/channels?mine=true      identity, followers
 *        https://developers.google.com/youtube/v3/docs/channels/list
 *   POST https://www.googleapis.com/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status   a resumable upload session
 *   PUT  <the session URI>                                     the video's chunks; an empty one with `Content-Range: bytes *\/TOTAL` asks what the platform holds
 *        https://developers.google.com/youtube/v3/docs/videos/insert
 *        https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol
 *   GET  https://www.googleapis.com/youtube/v3/videos?part=processingDetails,status   processing
 *   GET  https://www.googleapis.com/youtube/v3/videos?part=statistics                 metrics
 *        https://developers.google.com/youtube/v3/docs/videos/list
 *   GET  https://www.googleapis.com/youtube/v3/commentThreads?videoId=…               our first comment, if made already
 *        https://developers.google.com/youtube/v3/docs/commentThreads/list
 *   POST https://www.googleapis.com/youtube/v3/commentThreads?part=snippet            the first comment
 *        https://developers.google.com/youtube/v3/docs/commentThreads/insert
 *   Errors: https://developers.google.com/youtube/v3/docs/errors
 *
 * One scope, youtube.force-ssl: it is the only one commentThreads.insert and
 * commentThreads.list take, and videos.insert, videos.list and channels.list
 * take it too (their reference pages list it), so youtube.upload and
 * youtube.readonly would add nothing. Shares are not in the Data API (the
 * Analytics API has them, at the cost of a second scope and host): they,
 * impressions, reach and clicks read 0.
 *
 * How a post goes: the upload publishes (privacyStatus public), and answers
 * `pending` with the video id; `check` waits for the platform's processing;
 * `finalize` posts the first comment, once, and gives the video's URL (a
 * comment the platform refuses leaves the live video's post published). The
 * platform restricts videos uploaded through an API project created after 28
 * July 2020 and not yet audited to private viewing, whatever the request
 * says: that is the operator's to settle with the platform (videos.insert page).
 *
 * Re-runs: the session URI is saved before the first chunk, the video id as
 * soon as the platform gives it, the comment's id once it is made. A re-run
 * with a session asks it what it holds (`bytes *\/TOTAL`) and resumes there,
 * or takes the video it already made; a finalize without a saved comment
 * looks for ours among the video's newest comment threads before posting.
 * Gaps: a session the platform no longer knows (404 or 410: it lets them
 * expire) is started anew, so an upload that completed, unsaved, long enough
 * before its re-run for its session to expire would be a second video; our
 * comment is looked for among the video's newest 100 threads only.
 */
import { chunksOf } from './chunks.js';
import { followerCount, platformErrors } from './http.js';
import {
  isPlatformError,
  type AccountIdentity,
  type ConnectedAccount,
  type OAuthFlow,
  type OutgoingPost,
  type PlatformConnector,
  type PlatformDefinition,
  type PlatformHttp,
  type PlatformRequest,
  type PlatformResponse,
  type PostMedia,
  type TokenSet,
} from './types.js';

const NAME = 'videoshare';
const API = 'https://www.googleapis.com/youtube/v3';
const UPLOAD_URL = 'https://www.googleapis.com/upload/youtube/v3/videos';

/** Chunks are multiples of 256 KiB (the protocol's rule, the last excepted); 8 MiB is few requests and little memory. */
export const CHUNK_BYTES = 32 * 256 * 1024;
/** An 8 MiB chunk on a slow link. */
const CHUNK_TIMEOUT_MS = 5 * 60_000;
/** "People & Blogs": the content has no category, and this is the platform's own uploader's default. */
const CATEGORY_ID = '22';
/** How long after an upload, or a check that got no estimate, the platform is asked again. */
const CHECK_AFTER_MS = 15_000;
const MIN_CHECK_MS = 5_000;
const MAX_CHECK_MS = 120_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const oauth: OAuthFlow = {
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  scopes: ['https://www.googleapis.com/auth/youtube.force-ssl'],
  scopeSeparator: ' ',
  pkce: true,
  clientAuth: 'body',
  // offline: a refresh token; consent: one again when the user connects the account a second time
  authorizeParams: { access_type: 'offline', prompt: 'consent' },
};

/** The platform's error body: {error: {code, message, errors: [{domain, reason, message}], status}}. */
function errorOf(res: PlatformResponse): { reason: string | undefined; message: string } | null {
  const error = (res.json as { error?: unknown } | null)?.error as { message?: unknown; errors?: Array<{ reason?: unknown }> } | undefined;
  if (!error || typeof error !== 'object' || typeof error.message !== 'string') return null;
  const reason = error.errors?.[0]?.reason;
  return { reason: typeof reason === 'string' ? reason : undefined, message: error.message };
}

/** The account itself cannot act on the platform: it has no channel, or its channel or account is closed or suspended. */
const ACCOUNT_GONE = new Set([
  'youtubeSignupRequired',
  'authenticatedUserAccountClosed',
  'authenticatedUserAccountSuspended',
  'authenticatedUserNotChannel',
  'channelClosed',
  'channelSuspended',
]);
/** The access token is refused, or lacks the scope: a fresh token, or a new consent. */
const AUTHORISATION = new Set(['authError', 'insufficientPermissions']);
/** Per-minute limits: they pass within moments. */
const RATE_LIMITS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);

/**
 * Milliseconds until the next midnight in Pacific time, when the platform
 * resets projects' daily quotas (it sends no Retry-After), plus a minute.
 */
export function untilQuotaReset(now = new Date()): number {
  const pacificHour = (at: Date) => Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', hour: 'numeric', hourCycle: 'h23' }).format(at));
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const elapsed = ((part('hour') * 60 + part('minute')) * 60 + part('second')) * 1000 + now.getUTCMilliseconds();
  let at = now.getTime() + DAY_MS - elapsed;
  // a day that gains or loses an hour to daylight saving ends an hour later or earlier
  const hour = pacificHour(new Date(at));
  if (hour === 23) at += HOUR_MS;
  else if (hour === 1) at -= HOUR_MS;
  return at - now.getTime() + 60_000;
}

/**
 * The platform's refusals, judged by their reason (errors doc above) before
 * their status. An answer without the error body is not the platform's
 * refusal of the request: only its status speaks, in brackets.
 */
const errors = platformErrors(NAME, {
  said: (res) => {
    const error = errorOf(res);
    return error ? `${error.message}${error.reason ? ` (${error.reason})` : ''}` : `HTTP ${res.status}`;
  },
  own(res, what, said) {
    const reason = errorOf(res)?.reason;
    if (!reason) return undefined;
    if (ACCOUNT_GONE.has(reason)) return { kind: 'disconnected', says: `the account cannot publish on the platform: ${said}` };
    if (AUTHORISATION.has(reason)) return { kind: 'reauthorize' };
    if (reason === 'quotaExceeded') return { kind: 'retry', says: `${what} waits for the daily quota: ${said}`, retryAfterMs: untilQuotaReset() };
    // the channel's own daily upload limit: the platform says neither when nor how it resets
    if (reason === 'uploadLimitExceeded') return { kind: 'retry', says: `${what} waits a day for the channel's upload limit: ${said}`, retryAfterMs: DAY_MS };
    if (RATE_LIMITS.has(reason)) return { kind: 'retry' };
    // the rest (invalid metadata, comments disabled, a plain `forbidden`) is left to the status: a 4xx refuses this request, not the account
    return undefined;
  },
  words: {
    retry: (what, said, res) => (errorOf(res) ? `${what} failed for now: ${said}` : `${what} failed for now (${said})`),
    reauthorize: (what, said, res) => (errorOf(res) ? `${what} was refused: ${said}` : `${what} was refused as unauthorised (${said})`),
    refused: (what, said) => `${what} was refused: ${said}`,
  },
  refuses: (res) => errorOf(res) !== null,
});

/** A request whose answer must be a 2xx; anything else is judged as the platform's refusal. */
async function call(http: PlatformHttp, req: PlatformRequest, what: string): Promise<PlatformResponse> {
  const res = await http.request(req);
  if (res.status < 200 || res.status > 299) throw errors.refusal(res, what);
  return res;
}

const count = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);

function tokenOf(account: ConnectedAccount): string {
  const tokens = account.credentials as TokenSet | null;
  if (!tokens?.accessToken) throw errors.reauthorize('the account has no access token; connect it again');
  return tokens.accessToken;
}

interface Channel {
  id: string;
  snippet?: { title?: string; customUrl?: string };
  statistics?: { subscriberCount?: string; hiddenSubscriberCount?: boolean };
  status?: { privacyStatus?: string };
}

/** The account's own channel; an account without one cannot publish here. */
async function myChannel(http: PlatformHttp, token: string, part: string): Promise<Channel> {
  const res = await call(http, { url: `${API}/channels`, token, query: { part, mine: true } }, 'reading the channel');
  const items = (res.json as { items?: Channel[] } | null)?.items;
  if (!Array.isArray(items)) throw errors.unexpected(res, 'reading the channel');
  if (!items[0]?.id) throw errors.disconnected('the account has no channel; create one on the platform and connect it again');
  return items[0];
}

interface Video {
  id: string;
  status?: { uploadStatus?: string; failureReason?: string; rejectionReason?: string };
  processingDetails?: { processingStatus?: string; processingFailureReason?: string; processingProgress?: { timeLeftMs?: string } };
  statistics?: { viewCount?: string; likeCount?: string; commentCount?: string };
}

async function videoById(http: PlatformHttp, token: string, id: string, part: string): Promise<Video> {
  const res = await call(http, { url: `${API}/videos`, token, query: { part, id } }, `reading video ${id}`);
  const items = (res.json as { items?: Video[] } | null)?.items;
  if (!Array.isArray(items)) throw errors.unexpected(res, `reading video ${id}`);
  if (!items[0]) throw errors.badRequest(`the platform has no video ${id} (deleted, or never made)`);
  return items[0];
}

/** The post's platform member (src/publishing/schemas.ts) as the video resource's snippet and status. */
function videoResource(content: Record<string, unknown>) {
  const tags = Array.isArray(content.tags) ? content.tags.filter((t): t is string => typeof t === 'string') : [];
  return {
    snippet: { title: String(content.title ?? ''), description: String(content.description ?? ''), ...(tags.length ? { tags } : {}), categoryId: CATEGORY_ID },
    status: { privacyStatus: 'public', selfDeclaredMadeForKids: false },
  };
}

/** What a post's saved progress holds here. */
interface Progress {
  sessionUri?: string;
  videoId?: string;
  commentId?: string;
  /** the platform's refusal of the first comment */
  commentRefused?: string;
}

function progressOf(post: OutgoingPost): Progress {
  const p = post.progress ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return { sessionUri: str(p.sessionUri), videoId: str(p.videoId), commentId: str(p.commentId), commentRefused: str(p.commentRefused) };
}

/** The next byte the platform wants from its `Range: bytes=0-N` (none: it holds nothing). */
function nextByte(res: PlatformResponse): number {
  const m = /^bytes=0-(\d+)$/.exec(res.headers.get('range') ?? '');
  return m ? Number(m[1]) + 1 : 0;
}

function uploadedVideo(res: PlatformResponse): string {
  const id = (res.json as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' || !id) throw errors.unexpected(res, 'completing the upload');
  return id;
}

/** Opens a resumable session; its URI is the upload's only handle. */
async function startSession(http: PlatformHttp, token: string, post: OutgoingPost, media: PostMedia): Promise<string> {
  const res = await call(
    http,
    {
      method: 'POST',
      url: UPLOAD_URL,
      token,
      query: { uploadType: 'resumable', part: 'snippet,status' },
      headers: { 'content-type': 'application/json; charset=UTF-8', 'x-upload-content-length': String(media.size), 'x-upload-content-type': media.contentType },
      body: videoResource(post.content),
    },
    'uploading the video',
  );
  const location = res.headers.get('location');
  if (!location) throw errors.unexpected(res, 'starting the upload');
  return location;
}

/** What a session holds: the video it completed, the next byte it wants, or nothing (it expired). */
async function sessionState(http: PlatformHttp, token: string, session: string, total: number): Promise<{ videoId: string } | { next: number } | null> {
  const res = await http.request({ method: 'PUT', url: session, token, headers: { 'content-range': `bytes */${total}` }, body: Buffer.alloc(0) });
  if (res.status === 200 || res.status === 201) return { videoId: uploadedVideo(res) };
  if (res.status === 308) return { next: nextByte(res) };
  if (res.status === 404 || res.status === 410) return null;
  throw errors.refusal(res, 'resuming the upload');
}

/**
 * Sends the video from `start` in chunks; each 308 says how far the platform
 * got, and a chunk it kept only part of is sent on from there.
 */
async function sendChunks(http: PlatformHttp, token: string, session: string, media: PostMedia, start: number): Promise<string> {
  let at = start;
  for await (const chunk of chunksOf(await media.open(), CHUNK_BYTES, { start, total: media.size })) {
    const chunkStart = at;
    const end = chunkStart + chunk.length;
    while (at < end) {
      const res = await http.request({
        method: 'PUT',
        url: session,
        token,
        headers: { 'content-type': media.contentType, 'content-range': `bytes ${at}-${end - 1}/${media.size}` },
        body: chunk.subarray(at - chunkStart),
        timeoutMs: CHUNK_TIMEOUT_MS,
      });
      if (res.status === 200 || res.status === 201) return uploadedVideo(res);
      if (res.status !== 308) throw errors.refusal(res, 'uploading the video');
      const next = nextByte(res);
      // a platform that lost bytes it had acknowledged: the next attempt asks it where to resume
      if (next <= at || next > end) throw errors.retry(`the platform holds ${next} of the ${end} bytes sent; the upload resumes from there`);
      at = next;
    }
  }
  throw errors.retry(`the platform did not complete the upload after all ${media.size} bytes; it resumes on the next attempt`);
}

function postUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
}

const pending = (videoId: string, checkAfterMs = CHECK_AFTER_MS) => ({ state: 'pending' as const, ref: videoId, checkAfterMs });

/** Whether the platform has processed the video; a video it failed or rejected ends the post. */
function judgeProcessing(video: Video): { state: 'ready' } | { state: 'pending'; checkAfterMs: number } {
  const upload = video.status?.uploadStatus;
  const processing = video.processingDetails?.processingStatus;
  if (upload === 'rejected') {
    const why = video.status?.rejectionReason ?? 'no reason given';
    if (why === 'uploaderAccountSuspended' || why === 'uploaderAccountClosed') throw errors.disconnected(`the platform rejected video ${video.id}: ${why}`);
    throw errors.badRequest(`the platform rejected video ${video.id}: ${why}`);
  }
  if (upload === 'failed') throw errors.badRequest(`the platform could not take video ${video.id}: ${video.status?.failureReason ?? 'no reason given'}`);
  if (upload === 'deleted') throw errors.badRequest(`video ${video.id} was deleted on the platform`);
  if (processing === 'failed' || processing === 'terminated') {
    throw errors.badRequest(`the platform could not process video ${video.id}: ${video.processingDetails?.processingFailureReason ?? processing}`);
  }
  if (processing === 'succeeded' || upload === 'processed') return { state: 'ready' };
  const left = count(video.processingDetails?.processingProgress?.timeLeftMs);
  return { state: 'pending', checkAfterMs: left ? Math.min(MAX_CHECK_MS, Math.max(MIN_CHECK_MS, left)) : CHECK_AFTER_MS };
}

interface CommentThread {
  id: string;
  snippet?: { topLevelComment?: { snippet?: { textOriginal?: string; authorChannelId?: { value?: string } } } };
}

/** Our comment on the video, if an earlier finalize made it and died before saving it. */
async function ourComment(http: PlatformHttp, token: string, videoId: string, channelId: string, text: string): Promise<string | undefined> {
  const res = await call(
    http,
    { url: `${API}/commentThreads`, token, query: { part: 'snippet', videoId, order: 'time', maxResults: 100, textFormat: 'plainText' } },
    `reading the comments of video ${videoId}`,
  );
  const items = (res.json as { items?: CommentThread[] } | null)?.items;
  if (!Array.isArray(items)) throw errors.unexpected(res, `reading the comments of video ${videoId}`);
  return items.find((t) => {
    const c = t.snippet?.topLevelComment?.snippet;
    return c?.authorChannelId?.value === channelId && c.textOriginal === text;
  })?.id;
}

async function postComment(http: PlatformHttp, token: string, videoId: string, text: string): Promise<string> {
  const res = await call(
    http,
    {
      method: 'POST',
      url: `${API}/commentThreads`,
      token,
      query: { part: 'snippet' },
      body: { snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } },
    },
    'posting the first comment',
  );
  const id = (res.json as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') throw errors.unexpected(res, 'posting the first comment');
  return id;
}

/**
 * Posts the first comment once: an earlier finalize that died before saving
 * it left it on the video. The video is public already, so a comment the
 * platform refuses (comments disabled, too long) leaves the post published
 * without it, the refusal kept in the progress, rather than failing a post
 * that is live.
 */
async function firstComment(http: PlatformHttp, token: string, channelId: string, post: OutgoingPost, videoId: string, text: string): Promise<void> {
  let commentId = await ourComment(http, token, videoId, channelId, text);
  try {
    commentId ??= await postComment(http, token, videoId, text);
  } catch (err) {
    if (!(isPlatformError(err) && err.kind === 'bad_request')) throw err;
    await post.saveProgress({ ...post.progress, videoId, commentRefused: err.message });
    return;
  }
  await post.saveProgress({ ...post.progress, videoId, commentId });
}

function connector(http: PlatformHttp): PlatformConnector {
  return {
    async publish(account, post, media) {
      const token = tokenOf(account);
      const saved = progressOf(post);
      if (saved.videoId) return pending(saved.videoId);
      let session = saved.sessionUri;
      let start = 0;
      if (session) {
        const state = await sessionState(http, token, session, media.size);
        if (state && 'videoId' in state) {
          await post.saveProgress({ sessionUri: session, videoId: state.videoId });
          return pending(state.videoId);
        }
        if (state) start = state.next;
        else session = undefined;
      }
      if (!session) {
        session = await startSession(http, token, post, media);
        await post.saveProgress({ sessionUri: session });
      }
      const videoId = await sendChunks(http, token, session, media, start);
      await post.saveProgress({ sessionUri: session, videoId });
      return pending(videoId);
    },

    async check(account, ref) {
      return judgeProcessing(await videoById(http, tokenOf(account), ref, 'processingDetails,status'));
    },

    async finalize(account, post, ref) {
      const text = typeof post.content.firstComment === 'string' ? post.content.firstComment : '';
      const saved = progressOf(post);
      if (text && !saved.commentId && !saved.commentRefused) await firstComment(http, tokenOf(account), account.externalId, post, ref, text);
      return { platformPostId: ref, platformPostUrl: postUrl(ref) };
    },

    async fetchPostMetrics(account, platformPostId) {
      const { statistics: s } = await videoById(http, tokenOf(account), platformPostId, 'statistics');
      return { views: count(s?.viewCount), likes: count(s?.likeCount), comments: count(s?.commentCount), shares: 0, impressions: 0, reach: 0, clicks: 0 };
    },

    async fetchFollowers(account) {
      const channel = await myChannel(http, tokenOf(account), 'statistics');
      const subscribers = channel.statistics?.subscriberCount;
      return subscribers === undefined ? account.followers : followerCount(NAME, subscribers);
    },
  };
}

async function identify(http: PlatformHttp, _settings: unknown, tokens: TokenSet): Promise<AccountIdentity> {
  const channel = await myChannel(http, tokens.accessToken, 'id,snippet,statistics,status');
  return {
    externalId: channel.id,
    handle: channel.snippet?.customUrl ?? channel.snippet?.title ?? null,
    isPrivate: channel.status?.privacyStatus === 'private',
    followers: followerCount(NAME, channel.statistics?.subscriberCount ?? 0),
    extra: { channelId: channel.id },
  };
}

export const videosharePlatform: PlatformDefinition = {
  key: 'videoshare',
  oauth,
  identify,
  connector: (http) => connector(http),
};
