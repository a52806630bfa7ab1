/**
 * The shortvideo platform (TikTok), through TikTok API v2: Login Kit for Web
 * (OAuth 2.0), the Content Posting API's Direct Post with FILE_UPLOAD, and the
 * Display API for the account and its videos' counts.
 *
 * Endpoints (hosts as the platform gives them; `SHORTVIDEO_BASE_URL` replaces them):
 *   GET  https://www.tiktok.com/v2/auth/authorize/                       (the user's browser)
 *        https://developers.tiktok.com/doc/login-kit-web
 *   POST https://open.tiktokapis.com/v2/oauth/token/                      (code and refresh grants)
 *        https://developers.tiktok.com/doc/oauth-user-access-token-management
 *   GET  https://open.tiktokapis.com/v2/user/info/?fields=…               (identity, followers)
 *        https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info
 *   POST https://open.tiktokapis.com/v2/post/publish/creator_info/query/  (username, privacy options, interaction settings)
 *        https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
 *   POST https://open.tiktokapis.com/v2/post/publish/video/init/          (a direct post: publish_id and upload_url)
 *        https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
 *   PUT  {upload_url} (https://open-upload.tiktokapis.com/video/?upload_id=…&upload_token=…), one chunk a request
 *        https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide
 *   POST https://open.tiktokapis.com/v2/post/publish/status/fetch/        (processing, the post's id)
 *        https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status
 *   POST https://open.tiktokapis.com/v2/video/query/?fields=…             (a post's counts)
 *        https://developers.tiktok.com/doc/tiktok-api-v2-video-query
 * Errors: https://developers.tiktok.com/doc/tiktok-api-v2-error-handling and
 * https://developers.tiktok.com/doc/oauth-error-handling.
 *
 * Choices:
 * - Scopes: user.info.basic (open_id), user.info.stats (follower_count),
 *   video.publish (creator_info, init, status), video.list (video/query). The
 *   username comes from creator_info, so user.info.profile is not asked for.
 * - No PKCE: the web Login Kit's authorisation parameters have no
 *   code_challenge, and the token endpoint wants code_verifier "for mobile and
 *   desktop apps only"; the desktop variant also hashes the challenge to hex,
 *   not RFC 7636's base64url. The client authenticates with client_key and
 *   client_secret in the form, so the standard exchange and refresh serve
 *   (the refresh token rotates: the new one is kept).
 * - Privacy: an account is private when creator_info offers no
 *   PUBLIC_TO_EVERYONE (a private account is offered FOLLOWER_OF_CREATOR,
 *   MUTUAL_FOLLOW_FRIENDS, SELF_ONLY). A post asking for a level the account
 *   is not offered is refused before anything is uploaded. Comments, duets and
 *   stitches the creator turned off stay off, whatever the post asks.
 * - Chunks of 5 MiB: at least 5 MB under either reading of "MB", at most 819
 *   of them for the platform's 4 GB limit (it takes 1000), the last one
 *   carrying the remainder; a video under 5 MiB goes whole.
 * - The platform publishes a direct post by itself once the upload ends:
 *   publish uploads and answers pending; check and finalize only read the
 *   status, so finalizing twice gives the same post. A public post's id comes
 *   once moderation passes (check stays pending until then). A post that is
 *   not public never gets an id from the API (the documentation says so):
 *   its publish_id stands for it, its URL is the creator's profile, and its
 *   metrics cannot be read (video/query knows public videos only). The ref
 *   a pending post is checked by is `<privacy level>:<publish_id>`, so that
 *   check knows whether an id is to be waited for.
 * - Post ids are int64 numbers in status/fetch (list<int64>), past what a
 *   JavaScript number holds exactly: they are read from the text as digits.
 * - Counts: views, likes, comments, shares; the platform gives no
 *   impressions, reach or clicks (0).
 * - The creator's longest video (max_video_post_duration_sec) is not
 *   checked here, a render's length not being known to a connector: the
 *   platform fails such a post with duration_check_failed (bad_request).
 * - Privacy can only be read from creator_info, which answers an account
 *   past its daily post cap with spam_risk_too_many_posts: such an account
 *   cannot be connected until the cap frees.
 *
 * Re-runs (`post.progress`): publish_id, upload_url and the chunk plan are
 * saved before the first byte goes. A re-run asks status/fetch: an upload
 * the platform finished is not sent again; an unfinished one resumes at the
 * platform's `uploaded_bytes` while its upload_url is younger than an hour
 * (its documented life), and starts over with a new init otherwise (an upload
 * that can no longer finish can never become a post). Gaps the API leaves:
 * a worker killed after init was answered but before its publish_id was saved
 * leaves an upload nobody finishes (no post, nothing to clean); a publish that
 * fails after the upload for the platform's own passing reason (`internal`)
 * is not uploaded again: the post fails with its credit back.
 */
import { followerCount, platformError, platformErrors, retryAfterMs } from './http.js';
import { chunksOf } from './chunks.js';
import type {
  AccountIdentity,
  ConnectedAccount,
  OAuthFlow,
  OutgoingPost,
  PlatformConnector,
  PlatformDefinition,
  PlatformError,
  PlatformErrorKind,
  PlatformHttp,
  PlatformResponse,
  PostMedia,
  PostMetrics,
  PublishStep,
  TokenSet,
} from './types.js';

const NAME = 'shortvideo';
const API = 'https://open.tiktokapis.com/v2';
const WEB = 'https://www.tiktok.com';

export const oauth: OAuthFlow = {
  authorizeUrl: `${WEB}/v2/auth/authorize/`,
  tokenUrl: `${API}/oauth/token/`,
  scopes: ['user.info.basic', 'user.info.stats', 'video.publish', 'video.list'],
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'body',
  clientIdParam: 'client_key',
};

/** The platform's privacy levels by our words (src/publishing/schemas.ts). */
export const PRIVACY_LEVELS = {
  public: 'PUBLIC_TO_EVERYONE',
  friends: 'MUTUAL_FOLLOW_FRIENDS',
  followers: 'FOLLOWER_OF_CREATOR',
  private: 'SELF_ONLY',
} as const;

type PrivacyLevel = (typeof PRIVACY_LEVELS)[keyof typeof PRIVACY_LEVELS];

/** MiB, so that "5 MB" holds under either reading. */
export const CHUNK_SIZE = 5 * 1024 * 1024;
/** The largest video the platform takes (media transfer guide, video restrictions). */
const MAX_VIDEO_BYTES = 4 * 1024 ** 3;
/** A caption's limit, counted as the platform counts it: UTF-16 units. */
const MAX_TITLE_UTF16 = 2200;
/** An upload_url lives an hour; a resume is only tried with ten minutes of it left. */
const UPLOAD_URL_LIFE_MS = 60 * 60_000;
const RESUME_MARGIN_MS = 10 * 60_000;
/** The rate limits are counted over a one-minute sliding window, and no header says when it frees. */
const RATE_WINDOW_MS = 60_000;
/** Status checks: 30 a minute are allowed per token; processing takes "less than half a minute" for 512 MB, moderation "usually" under a minute. */
const PROCESSING_CHECK_MS = 5_000;
const MODERATION_CHECK_MS = 30_000;
/** The first check after an upload: the documented processing time scaled to the video, 2 to 30 s. */
const firstCheckMs = (size: number) => Math.round(Math.min(30_000, Math.max(2_000, (30_000 * size) / (512 * 1024 ** 2))));
const CHUNK_TIMEOUT_MS = 5 * 60_000;
const UPLOAD_TYPES = new Set(['video/mp4', 'video/quicktime', 'video/webm']);

/**
 * How each documented error code is judged. Posting caps and bans are the
 * account's (retrying within minutes cannot help); the client's daily cap of
 * publishing users is ours, and frees later.
 */
const ERROR_KINDS: Readonly<Record<string, PlatformErrorKind>> = {
  access_token_invalid: 'reauthorize',
  scope_not_authorized: 'reauthorize',
  scope_permission_missed: 'reauthorize',
  rate_limit_exceeded: 'retry',
  internal_error: 'retry',
  reached_active_user_cap: 'retry',
  invalid_param: 'bad_request',
  invalid_params: 'bad_request',
  invalid_file_upload: 'bad_request',
  spam_risk_too_many_posts: 'bad_request',
  spam_risk_user_banned_from_posting: 'bad_request',
  unaudited_client_can_only_post_to_private_accounts: 'bad_request',
  url_ownership_unverified: 'bad_request',
  privacy_level_option_mismatch: 'bad_request',
  invalid_publish_id: 'bad_request',
  token_not_authorized_for_specified_publish_id: 'bad_request',
};

/** What a failed publish's `fail_reason` means (Get Post Status, fail reasons), and whose it is. */
const FAIL_REASONS: Readonly<Record<string, { kind: PlatformErrorKind; says: string }>> = {
  file_format_check_failed: { kind: 'bad_request', says: 'the video format is not supported' },
  duration_check_failed: { kind: 'bad_request', says: 'the video is longer than this account may post' },
  frame_rate_check_failed: { kind: 'bad_request', says: 'the frame rate is outside 23-60 fps' },
  picture_size_check_failed: { kind: 'bad_request', says: 'the picture size is outside 360-4096 pixels' },
  internal: { kind: 'retry', says: 'the platform failed on its side' },
  publish_cancelled: { kind: 'bad_request', says: 'the publish was cancelled' },
  auth_removed: { kind: 'disconnected', says: "the creator removed this service's access during the upload" },
  spam_risk_too_many_posts: { kind: 'bad_request', says: 'the account made too many posts through the API in the last 24 hours' },
  spam_risk_user_banned_from_posting: { kind: 'bad_request', says: 'the account is banned from posting' },
  spam_risk_text: { kind: 'bad_request', says: 'the caption was judged risky or spammy' },
  spam_risk: { kind: 'bad_request', says: 'the post was judged risky' },
};

interface CreatorInfo {
  creator_username?: string;
  privacy_level_options: PrivacyLevel[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
}

interface PublishStatus {
  status: string;
  fail_reason?: string;
  uploaded_bytes?: number;
}

/** What a post saves before its upload: enough to ask the platform, resume, or know the upload can no longer finish. */
interface Progress {
  publishId: string;
  uploadUrl: string;
  uploadUrlIssuedAt: string;
  privacyLevel: PrivacyLevel;
  videoSize: number;
  chunkSize: number;
  chunkCount: number;
  /** set when the platform answered the upload_url as expired or unknown */
  uploadUrlDead?: boolean;
}

const tokensOf = (account: ConnectedAccount) => account.credentials as TokenSet;

const apiErrorOf = (res: PlatformResponse) => {
  const body = (res.json ?? {}) as { error?: { code?: unknown; message?: unknown } };
  const code = typeof body.error?.code === 'string' ? body.error.code : undefined;
  const message = typeof body.error?.message === 'string' && body.error.message ? body.error.message : undefined;
  return { code, message };
};

/**
 * The platform's answers judged by their documented codes (ERROR_KINDS)
 * before their status. Every code it documents is in that table, so a 4xx
 * the table and the status leave undecided is an answer it does not document.
 */
const errors = platformErrors(NAME, {
  said: (res) => {
    const { code, message } = apiErrorOf(res);
    return `${message ?? code ?? `HTTP ${res.status}`}${code ? ` (${code})` : ''}`;
  },
  own(res, what, said) {
    const { code } = apiErrorOf(res);
    const kind = code ? ERROR_KINDS[code] : undefined;
    if (kind === 'retry') return { kind, retryAfterMs: code === 'rate_limit_exceeded' ? (retryAfterMs(res.headers) ?? RATE_WINDOW_MS) : undefined };
    if (kind === 'reauthorize') return { kind };
    if (kind) return { kind, says: `the platform refused ${what}: ${said}` };
    return undefined;
  },
  words: {
    retry: (what, said) => `${what} failed for now: ${said}`,
    reauthorize: (what, said) => `${what} was refused: ${said}; the account's authorisation must be renewed`,
    refused: (what, said) => `the platform refused ${what}: ${said}`,
  },
  rateWindowMs: () => RATE_WINDOW_MS,
  refuses: () => false,
});

interface ApiCall {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** A v2 API call: the `data` of a response whose `error.code` is "ok" (some refusals come with HTTP 200), and the response. */
async function send<T>(http: PlatformHttp, token: string, what: string, req: ApiCall): Promise<{ data: T; res: PlatformResponse }> {
  const res = await http.request({
    method: req.method,
    url: `${API}${req.path}`,
    token,
    query: req.query,
    headers: req.method === 'POST' ? { 'content-type': 'application/json; charset=UTF-8' } : undefined,
    body: req.body,
  });
  const json = res.json as { data?: T; error?: { code?: string } } | null;
  if (res.status === 200 && json?.error?.code === 'ok' && json.data) return { data: json.data, res };
  throw errors.refusal(res, what);
}

const call = async <T>(http: PlatformHttp, token: string, what: string, req: ApiCall): Promise<T> => (await send<T>(http, token, what, req)).data;

function creatorInfo(http: PlatformHttp, token: string): Promise<CreatorInfo> {
  return call<CreatorInfo>(http, token, "reading the creator's posting options", { method: 'POST', path: '/post/publish/creator_info/query/' });
}

async function userInfo(http: PlatformHttp, token: string, fields: string[]) {
  const data = await call<{ user?: Record<string, unknown> }>(http, token, 'reading the account', {
    method: 'GET',
    path: '/user/info/',
    query: { fields: fields.join(',') },
  });
  if (!data.user) throw errors.retry("the account's information came back empty");
  return data.user;
}

/**
 * The post ids as the response's text has them: they are int64 numbers
 * (list<int64>), past what a JavaScript number holds exactly, so they are
 * read as digits, not parsed.
 */
function postIdsOf(text: string): string[] {
  const list = /"publicaly_available_post_id"\s*:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? '';
  return [...list.matchAll(/\d+/g)].map((m) => m[0]);
}

async function fetchStatus(http: PlatformHttp, token: string, publishId: string): Promise<PublishStatus & { postIds: string[] }> {
  const { data, res } = await send<PublishStatus>(http, token, 'reading the publish status', {
    method: 'POST',
    path: '/post/publish/status/fetch/',
    body: { publish_id: publishId },
  });
  return { ...data, postIds: postIdsOf(res.text) };
}

const isPrivateAccount = (c: CreatorInfo) => !c.privacy_level_options.includes(PRIVACY_LEVELS.public);
const ourWord = (level: string) => Object.entries(PRIVACY_LEVELS).find(([, v]) => v === level)?.[0] ?? level;

/** The platform's privacy level for a post, refused when the account does not offer it. */
function privacyFor(content: Record<string, unknown>, creator: CreatorInfo): PrivacyLevel {
  const asked = (typeof content.privacyLevel === 'string' ? content.privacyLevel : 'public') as keyof typeof PRIVACY_LEVELS;
  const level = PRIVACY_LEVELS[asked];
  if (!level) throw errors.badRequest(`unknown privacyLevel "${asked}"`);
  if (!creator.privacy_level_options.includes(level)) {
    const offered = creator.privacy_level_options.map(ourWord).join(', ');
    const why = asked === 'public' && isPrivateAccount(creator) ? 'the account is private' : 'the account does not offer it';
    throw errors.badRequest(`privacyLevel "${asked}" cannot be used: ${why} (it offers ${offered})`);
  }
  return level;
}

/** The post_info of a direct post from the post's content (the shortvideo member of the publish body). */
export function postInfo(content: Record<string, unknown>, creator: CreatorInfo, privacyLevel: PrivacyLevel) {
  const caption = typeof content.content === 'string' ? content.content : '';
  if (caption.length > MAX_TITLE_UTF16) {
    throw errors.badRequest(`the caption is ${caption.length} UTF-16 units long; the platform takes at most ${MAX_TITLE_UTF16} (emoji count twice)`);
  }
  const allowed = (key: string) => content[key] !== false;
  return {
    title: caption,
    privacy_level: privacyLevel,
    disable_comment: !allowed('allowComment') || creator.comment_disabled === true,
    disable_duet: !allowed('allowDuet') || creator.duet_disabled === true,
    disable_stitch: !allowed('allowStitch') || creator.stitch_disabled === true,
    brand_content_toggle: content.commercialContentType === 'brand_content',
    brand_organic_toggle: content.commercialContentType === 'brand_organic',
    is_aigc: content.videoMadeWithAi === true,
  };
}

/** Chunk size and count by the media transfer guide: count = floor(size / chunk), the last chunk takes the rest. */
export function chunkPlan(size: number): { chunkSize: number; chunkCount: number } {
  if (size < CHUNK_SIZE) return { chunkSize: size, chunkCount: 1 };
  return { chunkSize: CHUNK_SIZE, chunkCount: Math.floor(size / CHUNK_SIZE) };
}

/** The chunks of the plan from `start` (a chunk's first byte): full chunks, then the last with the remainder. */
async function* plannedChunks(media: PostMedia, plan: Progress, start: number): AsyncGenerator<{ first: number; bytes: Buffer }> {
  const lastStart = (plan.chunkCount - 1) * plan.chunkSize;
  let offset = start;
  const tail: Buffer[] = [];
  for await (const piece of chunksOf(await media.open(), plan.chunkSize, { start, total: plan.videoSize })) {
    if (offset < lastStart) {
      yield { first: offset, bytes: piece };
      offset += piece.length;
    } else tail.push(piece);
  }
  yield { first: lastStart, bytes: Buffer.concat(tail) };
}

/** The ref a pending post is checked by: the privacy level says whether an id is to be waited for. */
const refOf = (p: Pick<Progress, 'privacyLevel' | 'publishId'>) => `${p.privacyLevel}:${p.publishId}`;

function parseRef(ref: string): { privacyLevel: PrivacyLevel; publishId: string } {
  const at = ref.indexOf(':');
  const privacyLevel = ref.slice(0, at) as PrivacyLevel;
  if (at < 0 || !Object.values(PRIVACY_LEVELS).includes(privacyLevel)) throw errors.badRequest(`"${ref}" is not a pending post of this platform`);
  return { privacyLevel, publishId: ref.slice(at + 1) };
}

function failed(status: PublishStatus): PlatformError {
  const reason = status.fail_reason ?? 'unknown';
  const known = FAIL_REASONS[reason];
  return platformError(NAME, known?.kind ?? 'bad_request', `the platform did not publish the post: ${known?.says ?? 'no reason it documents'} (${reason})`);
}

async function usernameOf(http: PlatformHttp, tokens: TokenSet): Promise<string | undefined> {
  return tokens.extra?.username ?? (await creatorInfo(http, tokens.accessToken)).creator_username;
}

export function createShortvideoConnector(http: PlatformHttp): PlatformConnector {
  /** Sends the chunks from `start` (a chunk's first byte), in order, each answered 206 and the last 201. */
  async function upload(media: PostMedia, post: OutgoingPost, progress: Progress, start: number): Promise<void> {
    const type = UPLOAD_TYPES.has(media.contentType) ? media.contentType : 'video/mp4';
    for await (const { first, bytes } of plannedChunks(media, progress, start)) {
      const last = first + bytes.length - 1;
      const res = await http.request({
        method: 'PUT',
        url: progress.uploadUrl,
        headers: { 'content-type': type, 'content-length': String(bytes.length), 'content-range': `bytes ${first}-${last}/${progress.videoSize}` },
        body: bytes,
        timeoutMs: CHUNK_TIMEOUT_MS,
      });
      const done = last === progress.videoSize - 1;
      if (res.status === (done ? 201 : 206)) continue;
      if (res.status === 403 || res.status === 404) {
        // expired or unknown: this upload can never finish, so the next attempt starts over
        await post.saveProgress({ ...progress, uploadUrlDead: true });
        throw errors.retry(`the upload URL is no longer valid (HTTP ${res.status} at byte ${first}); the next attempt starts a new upload`);
      }
      if (res.status === 416)
        throw errors.retry(
          `the platform has another count of the uploaded bytes (${res.headers.get('content-range') ?? 'unknown'}); the next attempt resumes from it`,
        );
      if (res.status >= 500) throw errors.retry(`the upload failed on the platform's side at byte ${first} (HTTP ${res.status})`, retryAfterMs(res.headers));
      // the upload URL carries its token in the query: the message names the bytes, not the URL
      throw errors.unexpected(res, `the upload of bytes ${first}-${last}`);
    }
  }

  /** creator_info, init, and the progress saved before any byte goes. */
  async function start(account: ConnectedAccount, post: OutgoingPost, media: PostMedia): Promise<Progress> {
    if (media.size <= 0) throw errors.badRequest('the video is empty');
    if (media.size > MAX_VIDEO_BYTES) throw errors.badRequest(`the video is ${media.size} bytes; the platform takes at most 4 GB`);
    const token = tokensOf(account).accessToken;
    const creator = await creatorInfo(http, token);
    const privacyLevel = privacyFor(post.content, creator);
    const plan = chunkPlan(media.size);
    const data = await call<{ publish_id?: string; upload_url?: string }>(http, token, 'the post', {
      method: 'POST',
      path: '/post/publish/video/init/',
      body: {
        post_info: postInfo(post.content, creator, privacyLevel),
        source_info: { source: 'FILE_UPLOAD', video_size: media.size, chunk_size: plan.chunkSize, total_chunk_count: plan.chunkCount },
      },
    });
    if (!data.publish_id || !data.upload_url) throw errors.retry('the platform started the post without an upload URL');
    const progress: Progress = {
      publishId: data.publish_id,
      uploadUrl: data.upload_url,
      uploadUrlIssuedAt: new Date().toISOString(),
      privacyLevel,
      videoSize: media.size,
      ...plan,
    };
    await post.saveProgress(progress as unknown as Record<string, unknown>);
    return progress;
  }

  /**
   * Where an earlier attempt left its upload, asked of the platform: the byte
   * to resume from, 'uploaded' when the platform has it all, or 'restart'
   * when that upload can never finish.
   */
  async function resumePoint(account: ConnectedAccount, saved: Progress): Promise<number | 'uploaded' | 'restart'> {
    const status = await fetchStatus(http, tokensOf(account).accessToken, saved.publishId);
    if (status.status === 'FAILED') {
      if (FAIL_REASONS[status.fail_reason ?? '']?.kind === 'retry') return 'restart';
      throw failed(status);
    }
    const uploaded = Number(status.uploaded_bytes ?? 0);
    if (status.status !== 'PROCESSING_UPLOAD' || uploaded >= saved.videoSize) return 'uploaded';
    const fresh = Date.parse(saved.uploadUrlIssuedAt) + UPLOAD_URL_LIFE_MS - RESUME_MARGIN_MS > Date.now();
    // chunks go whole and in order, so a count between chunk boundaries cannot be resumed from
    const onBoundary = uploaded % saved.chunkSize === 0 && uploaded / saved.chunkSize < saved.chunkCount;
    return fresh && !saved.uploadUrlDead && onBoundary ? uploaded : 'restart';
  }

  async function status(account: ConnectedAccount, ref: string) {
    const { privacyLevel, publishId } = parseRef(ref);
    const s = await fetchStatus(http, tokensOf(account).accessToken, publishId);
    return { s, ids: s.postIds, publishId, waitsForId: privacyLevel === PRIVACY_LEVELS.public };
  }

  return {
    async publish(account, post, media): Promise<PublishStep> {
      let progress = post.progress as unknown as Progress | null;
      let from: number | 'uploaded' | 'restart' = progress ? await resumePoint(account, progress) : 'restart';
      if (from === 'restart') {
        progress = await start(account, post, media);
        from = 0;
      }
      if (from !== 'uploaded') await upload(media, post, progress!, from);
      return { state: 'pending', ref: refOf(progress!), checkAfterMs: firstCheckMs(media.size) };
    },

    async check(account, ref) {
      const { s, ids, waitsForId } = await status(account, ref);
      if (s.status === 'FAILED') throw failed(s);
      if (s.status === 'PUBLISH_COMPLETE') {
        // a public post's id comes once moderation passes, usually within a minute
        return ids.length || !waitsForId ? { state: 'ready' } : { state: 'pending', checkAfterMs: MODERATION_CHECK_MS };
      }
      if (s.status === 'PROCESSING_UPLOAD' || s.status === 'PROCESSING_DOWNLOAD') return { state: 'pending', checkAfterMs: PROCESSING_CHECK_MS };
      throw errors.badRequest(`the post ended as ${s.status}, not as a direct post`);
    },

    async finalize(account, _post, ref) {
      const { s, ids, publishId, waitsForId } = await status(account, ref);
      if (s.status === 'FAILED') throw failed(s);
      if (s.status !== 'PUBLISH_COMPLETE' || (waitsForId && !ids.length)) {
        throw errors.retry(`the post is not published yet (${s.status})`, PROCESSING_CHECK_MS);
      }
      const username = await usernameOf(http, tokensOf(account));
      const profile = username ? `${WEB}/@${encodeURIComponent(username)}` : WEB;
      if (!ids.length) return { platformPostId: publishId, platformPostUrl: profile };
      return { platformPostId: ids[0], platformPostUrl: `${profile}/video/${ids[0]}` };
    },

    async fetchPostMetrics(account, platformPostId): Promise<PostMetrics> {
      if (!/^\d+$/.test(platformPostId)) {
        throw errors.badRequest(`post ${platformPostId} is not public, and the platform gives the counts of public videos only`);
      }
      const data = await call<{ videos?: Array<Record<string, unknown>> }>(http, tokensOf(account).accessToken, "reading the post's counts", {
        method: 'POST',
        path: '/video/query/',
        query: { fields: 'id,view_count,like_count,comment_count,share_count' },
        body: { filters: { video_ids: [platformPostId] } },
      });
      const video = data.videos?.find((v) => String(v.id) === platformPostId);
      if (!video) throw errors.badRequest(`post ${platformPostId} is not among the account's public videos (deleted, or no longer public)`);
      const n = (k: string) => Number(video[k] ?? 0) || 0;
      return { views: n('view_count'), likes: n('like_count'), comments: n('comment_count'), shares: n('share_count'), impressions: 0, reach: 0, clicks: 0 };
    },

    async fetchFollowers(account) {
      const user = await userInfo(http, tokensOf(account).accessToken, ['follower_count']);
      return followerCount(NAME, user.follower_count ?? 0);
    },
  };
}

export const shortvideoPlatform: PlatformDefinition = {
  key: 'shortvideo',
  oauth,

  async identify(http, _settings, tokens): Promise<AccountIdentity> {
    const [user, creator] = await Promise.all([
      userInfo(http, tokens.accessToken, ['open_id', 'union_id', 'display_name', 'follower_count']),
      creatorInfo(http, tokens.accessToken),
    ]);
    if (typeof user.open_id !== 'string' || !user.open_id) throw errors.retry("the account's information has no open_id");
    const username = creator.creator_username || undefined;
    return {
      externalId: user.open_id,
      handle: username ?? null,
      isPrivate: isPrivateAccount(creator),
      followers: followerCount(NAME, user.follower_count ?? 0),
      extra: { openId: user.open_id, ...(username ? { username } : {}) },
    };
  },

  connector: (http) => createShortvideoConnector(http),
};
