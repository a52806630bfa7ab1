/**
 * An imitation of the shortvideo platform (TikTok API v2) for connector tests:
 * Login Kit for Web's authorisation page, the OAuth token endpoint, the
 * Display API's user/info and video/query, and the Content Posting API's
 * direct post (creator_info, video/init, the chunked PUT to upload_url,
 * status/fetch). Shapes and rules are the documentation's, cited beside each
 * handler; what breaks them is refused with the platform's error shape
 * ({ data, error: { code, message, log_id } } for the API, { error,
 * error_description, log_id } for OAuth, bare statuses for the upload host).
 *
 * One creator account stands behind every authorisation. A publish becomes a
 * post once its upload is whole and `processingChecks` status fetches have
 * answered PROCESSING_UPLOAD; a public post's id shows after
 * `moderationChecks` more (moderation), a post that is not public never
 * shows one, as the documentation says.
 *
 * `failNext(kind)` makes the next API calls (not OAuth, not the upload host)
 * answer the platform's error of that class: `retry` a 429
 * rate_limit_exceeded (the platform documents no Retry-After header, so none
 * is sent); `bad_request` spam_risk_too_many_posts on creator_info (HTTP 200,
 * "intentional" in the documentation) and video/init (403), invalid_params
 * elsewhere; `reauthorize` a 401 access_token_invalid; `disconnected` what
 * the platform says when the creator removed the app's access: a FAILED
 * status with fail_reason auth_removed on status/fetch, and a 401
 * access_token_invalid elsewhere (it documents no other signal).
 */
import crypto from 'node:crypto';
import { startFake, type FakeReply, type FakeRequest, type PlatformFake } from './server.js';

const MB = 1_000_000; // the media transfer guide's worked example counts in decimal megabytes
const UPLOAD_URL_LIFE_MS = 60 * 60_000;
const UPLOAD_HOST = 'https://open-upload.tiktokapis.com';
const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
const UPLOAD_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
/** Scopes the fake's client is approved for. */
const APPROVED_SCOPES = ['user.info.basic', 'user.info.profile', 'user.info.stats', 'video.publish', 'video.upload', 'video.list'];
/** user/info's fields and the scope each needs (Get User Info, User Object). */
const USER_FIELDS: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};
/** The Video Object's fields (Query Videos). */
const VIDEO_FIELDS = [
  'id',
  'create_time',
  'cover_image_url',
  'share_url',
  'video_description',
  'duration',
  'height',
  'width',
  'title',
  'embed_html',
  'embed_link',
  'like_count',
  'comment_count',
  'share_count',
  'view_count',
];
const POST_INFO_FIELDS = [
  'title',
  'privacy_level',
  'disable_duet',
  'disable_comment',
  'disable_stitch',
  'video_cover_timestamp_ms',
  'brand_content_toggle',
  'brand_organic_toggle',
  'is_aigc',
];
const SOURCE_INFO_FIELDS = ['source', 'video_size', 'chunk_size', 'total_chunk_count', 'video_url'];

export interface ShortvideoPost {
  /** the id the platform gives the post: a public video's id (publicaly_available_post_id), else its publish_id (no other is ever given) */
  id: string;
  videoId: string;
  text: string;
  video: Buffer;
  publishId: string;
  postInfo: Record<string, unknown>;
  counts: { view_count: number; like_count: number; comment_count: number; share_count: number };
}

export interface ShortvideoFake extends PlatformFake {
  posts: ShortvideoPost[];
  /** what creator_info answers: a private account is offered no PUBLIC_TO_EVERYONE */
  creator: {
    creator_username: string;
    creator_nickname: string;
    privacy_level_options: string[];
    comment_disabled: boolean;
    duet_disabled: boolean;
    stitch_disabled: boolean;
    max_video_post_duration_sec: number;
  };
  openId: string;
  followers: number;
  /** an unaudited client may post SELF_ONLY only */
  audited: boolean;
  /** how many status fetches a public post stays without its id after PUBLISH_COMPLETE */
  moderationChecks: number;
  /** every upload_url issued so far is past its hour */
  expireUploadUrls(): void;
  /** the Content-Range of every chunk the upload host accepted, in order */
  chunks: string[];
  /** the next upload to end fails its checks with this fail_reason (Get Post Status, fail reasons) */
  failProcessing(reason: string): void;
}

interface Publish {
  uploadId: string;
  uploadToken: string;
  issuedAt: number;
  expired: boolean;
  videoSize: number;
  chunkSize: number;
  chunkCount: number;
  parts: Buffer[];
  received: number;
  postInfo: Record<string, unknown>;
  checksLeft: number;
  moderationLeft: number;
  failReason?: string;
  post?: ShortvideoPost;
}

type FailKind = 'retry' | 'bad_request' | 'reauthorize' | 'disconnected';

const logId = () => `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${crypto.randomBytes(10).toString('hex').toUpperCase()}`;
const random = (prefix: string) => `${prefix}${crypto.randomBytes(16).toString('base64url')}`;

/** The v2 API's answer (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling). */
const ok = (data: unknown): FakeReply => ({ body: { data, error: { code: 'ok', message: '', log_id: logId() } } });
const apiError = (status: number, code: string, message: string, data: unknown = {}): FakeReply => ({
  status,
  body: { data, error: { code, message, log_id: logId() } },
});
/** OAuth's answer (https://developers.tiktok.com/doc/oauth-error-handling). */
const oauthError = (status: number, error: string, description: string): FakeReply => ({
  status,
  body: { error, error_description: description, log_id: logId() },
});

const isBool = (v: unknown) => v === undefined || typeof v === 'boolean';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export async function startPlatformFake(opts: { redirectUri: string }): Promise<ShortvideoFake> {
  const clientId = 'sv-client-key';
  const clientSecret = 'sv-client-secret';
  const codes = new Map<string, { scopes: string[]; redirectUri: string; used: boolean }>();
  const accessTokens = new Map<string, { scopes: string[]; expired: boolean }>();
  const refreshTokens = new Map<string, { scopes: string[]; revoked: boolean }>();
  const publishes = new Map<string, Publish>();
  const failures: FailKind[] = [];
  const processingFailures: string[] = [];
  let published = 0;

  function issueTokens(scopes: string[]) {
    const access = random('act.');
    const refresh = random('rft.');
    accessTokens.set(access, { scopes, expired: false });
    refreshTokens.set(refresh, { scopes, revoked: false });
    return {
      access_token: access,
      expires_in: 86_400,
      open_id: fake.openId,
      refresh_expires_in: 31_536_000,
      refresh_token: refresh,
      scope: scopes.join(','),
      token_type: 'Bearer',
    };
  }

  // https://developers.tiktok.com/doc/login-kit-web (Initial redirect to TikTok's authorization page; Manage authorization response)
  function authorize(req: FakeRequest): FakeReply {
    const q = req.query;
    if (q.get('client_key') !== clientId) return oauthError(400, 'invalid_client', 'The client_key is not registered.');
    const redirectUri = q.get('redirect_uri');
    // an unregistered redirect URI is never redirected to (RFC 6749 4.1.2.1): the page shows the error
    if (redirectUri !== opts.redirectUri) return oauthError(400, 'invalid_request', 'The redirect_uri does not match a registered redirect URI.');
    const back = (params: Record<string, string>): FakeReply => {
      const to = new URL(redirectUri);
      for (const [k, v] of Object.entries({ ...params, state: q.get('state') ?? '' })) to.searchParams.set(k, v);
      return { status: 302, headers: { location: to.toString() } };
    };
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code.' });
    const scopes = (q.get('scope') ?? '').split(',');
    const unknown = scopes.filter((s) => !APPROVED_SCOPES.includes(s));
    if (!q.get('scope') || unknown.length)
      return back({ error: 'invalid_scope', error_description: `Unknown or unapproved scope: ${unknown.join(',') || '(none)'} (scopes are comma-separated).` });
    const code = random('code-');
    codes.set(code, { scopes, redirectUri, used: false });
    return back({ code, scopes: scopes.join(',') });
  }

  // https://developers.tiktok.com/doc/oauth-user-access-token-management (authorization_code and refresh_token grants)
  function token(req: FakeRequest): FakeReply {
    if (!/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.');
    const f = req.form;
    if (f.get('client_key') !== clientId || f.get('client_secret') !== clientSecret) return oauthError(401, 'invalid_client', 'Client authentication failed.');
    if (f.get('grant_type') === 'authorization_code') {
      const code = codes.get(f.get('code') ?? '');
      if (!code || code.used) return oauthError(400, 'invalid_grant', 'Authorization code is expired or already used.');
      if (f.get('redirect_uri') !== code.redirectUri)
        return oauthError(400, 'invalid_grant', 'The redirect_uri does not match the one of the authorization request.');
      code.used = true;
      return { body: issueTokens(code.scopes) };
    }
    if (f.get('grant_type') === 'refresh_token') {
      const held = refreshTokens.get(f.get('refresh_token') ?? '');
      if (!held || held.revoked) return oauthError(400, 'invalid_grant', 'Refresh token is invalid or expired.');
      // rotated: the token sent stops working once a new one is issued
      held.revoked = true;
      return { body: issueTokens(held.scopes) };
    }
    return oauthError(400, 'unsupported_grant_type', 'The grant type is not supported.');
  }

  /** The bearer's scopes, or the platform's refusal (401 access_token_invalid, 401 scope_not_authorized). */
  function authorised(req: FakeRequest, scopes: string[]): FakeReply | null {
    const held = accessTokens.get(req.bearer ?? '');
    if (!held || held.expired) return apiError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    if (!scopes.some((s) => held.scopes.includes(s)))
      return apiError(401, 'scope_not_authorized', `The access_token does not bear user's grant on ${scopes.join(' or ')}.`);
    return null;
  }

  const jsonBody = (req: FakeRequest): FakeReply | null =>
    /^application\/json/.test(req.headers['content-type'] ?? '')
      ? null
      : apiError(400, 'invalid_params', 'Content-Type must be application/json; charset=UTF-8.');

  function failure(kind: FailKind, route: string): FakeReply {
    if (kind === 'retry') return apiError(429, 'rate_limit_exceeded', 'Your request is blocked due to exceeding the API rate limit.');
    if (kind === 'reauthorize') return apiError(401, 'access_token_invalid', 'The access_token is invalid or has expired.');
    if (kind === 'disconnected') {
      if (route === 'status') return ok({ status: 'FAILED', fail_reason: 'auth_removed', publicaly_available_post_id: [], uploaded_bytes: 0 });
      return apiError(401, 'access_token_invalid', 'The access_token is invalid or has expired.');
    }
    if (route === 'creator_info') return apiError(200, 'spam_risk_too_many_posts', 'The daily post cap from the API is reached for the current user.');
    if (route === 'init') return apiError(403, 'spam_risk_too_many_posts', 'The daily post cap from the API is reached for the current user.');
    return apiError(400, 'invalid_params', 'One or more fields in the request are invalid.');
  }

  // https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info
  function userInfo(req: FakeRequest): FakeReply {
    const denied = authorised(req, ['user.info.basic']);
    if (denied) return denied;
    const fields = (req.query.get('fields') ?? '').split(',').filter(Boolean);
    if (!fields.length) return apiError(400, 'invalid_params', 'fields is required.');
    const unknown = fields.filter((f) => !USER_FIELDS[f]);
    if (unknown.length) return apiError(400, 'invalid_params', `Unknown fields: ${unknown.join(',')}.`);
    const granted = accessTokens.get(req.bearer!)!.scopes;
    const missing = fields.filter((f) => !granted.includes(USER_FIELDS[f]));
    if (missing.length)
      return apiError(400, 'scope_permission_missed', `Fields need additional scopes: ${missing.map((f) => `${f} (${USER_FIELDS[f]})`).join(', ')}.`);
    const user: Record<string, unknown> = {
      open_id: fake.openId,
      union_id: `union-${fake.openId}`,
      avatar_url: 'https://p16-sign.tiktokcdn-us.com/avatar.jpeg',
      avatar_url_100: 'https://p16-sign.tiktokcdn-us.com/avatar-100.jpeg',
      avatar_large_url: 'https://p16-sign.tiktokcdn-us.com/avatar-large.jpeg',
      display_name: fake.creator.creator_nickname,
      bio_description: '',
      profile_deep_link: `https://www.tiktok.com/@${fake.creator.creator_username}`,
      is_verified: false,
      username: fake.creator.creator_username,
      follower_count: fake.followers,
      following_count: 12,
      likes_count: 345,
      video_count: fake.posts.length,
    };
    return ok({ user: Object.fromEntries(fields.map((f) => [f, user[f]])) });
  }

  // https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info
  function creatorInfo(req: FakeRequest): FakeReply {
    return authorised(req, ['video.publish']) ?? jsonBody(req) ?? ok({ creator_avatar_url: 'https://lf16-tt4d.tiktokcdn.com/obj/avatar', ...fake.creator });
  }

  /** The chunk rules of https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide (Chunk restrictions). */
  function chunkRuleBroken(size: unknown, chunk: unknown, count: unknown): string | null {
    if (!isInt(size) || size <= 0) return 'video_size must be a positive integer.';
    if (size > 4 * 1024 ** 3) return 'video_size exceeds 4GB.';
    if (!isInt(chunk) || !isInt(count)) return 'chunk_size and total_chunk_count are required for FILE_UPLOAD.';
    if (size < 5 * MB && chunk !== size) return 'A video under 5 MB must be uploaded whole: chunk_size must equal video_size.';
    if (size >= 5 * MB && (chunk < 5 * MB || chunk > 64 * MB)) return 'chunk_size must be between 5 MB and 64 MB.';
    if (count !== Math.floor(size / chunk)) return 'total_chunk_count must equal video_size divided by chunk_size, rounded down.';
    if (count < 1 || count > 1000) return 'total_chunk_count must be between 1 and 1000.';
    if (size - (count - 1) * chunk > 128 * MB) return 'The final chunk may not exceed 128 MB.';
    return null;
  }

  // https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (Initialize the posting request)
  function init(req: FakeRequest): FakeReply {
    const refused = authorised(req, ['video.publish']) ?? jsonBody(req);
    if (refused) return refused;
    const postInfo = req.json?.post_info;
    const source = req.json?.source_info;
    if (typeof postInfo !== 'object' || postInfo === null || typeof source !== 'object' || source === null)
      return apiError(400, 'invalid_param', 'post_info and source_info are required.');
    const unknown = [
      ...Object.keys(postInfo).filter((k) => !POST_INFO_FIELDS.includes(k)),
      ...Object.keys(source).filter((k) => !SOURCE_INFO_FIELDS.includes(k)),
    ];
    if (unknown.length) return apiError(400, 'invalid_param', `Unknown fields: ${unknown.join(', ')}.`);
    if (!PRIVACY_LEVELS.includes(postInfo.privacy_level))
      return apiError(400, 'invalid_param', 'privacy_level must be one of PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY.');
    if (!fake.creator.privacy_level_options.includes(postInfo.privacy_level)) {
      return apiError(
        403,
        'privacy_level_option_mismatch',
        'privacy_level is not among the options from the privacy_level_options returned in /publish/creator_info/query/ API.',
      );
    }
    if (!fake.audited && postInfo.privacy_level !== 'SELF_ONLY')
      return apiError(403, 'unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to a private account.');
    if (postInfo.title !== undefined && (typeof postInfo.title !== 'string' || postInfo.title.length > 2200))
      return apiError(400, 'invalid_param', 'title must be a string of at most 2200 UTF-16 runes.');
    if (typeof postInfo.brand_content_toggle !== 'boolean') return apiError(400, 'invalid_param', 'brand_content_toggle is required.');
    for (const k of ['disable_duet', 'disable_comment', 'disable_stitch', 'brand_organic_toggle', 'is_aigc']) {
      if (!isBool(postInfo[k])) return apiError(400, 'invalid_param', `${k} must be a boolean.`);
    }
    if (source.source === 'PULL_FROM_URL')
      return apiError(
        403,
        'url_ownership_unverified',
        'To use PULL_FROM_URL as the video transfer method, the developer must verify the ownership of the URL prefix or domain.',
      );
    if (source.source !== 'FILE_UPLOAD') return apiError(400, 'invalid_param', 'source must be FILE_UPLOAD or PULL_FROM_URL.');
    const broken = chunkRuleBroken(source.video_size, source.chunk_size, source.total_chunk_count);
    if (broken) return apiError(400, 'invalid_param', broken);
    const publishId = `v_pub_file~v2-1.${7_300_000_000_000_000_000n + BigInt(publishes.size + 1)}`;
    const p: Publish = {
      uploadId: String(67_890 + publishes.size),
      uploadToken: random(''),
      issuedAt: Date.now(),
      expired: false,
      videoSize: source.video_size,
      chunkSize: source.chunk_size,
      chunkCount: source.total_chunk_count,
      parts: [],
      received: 0,
      postInfo,
      checksLeft: fake.processingChecks,
      moderationLeft: fake.moderationChecks,
    };
    publishes.set(publishId, p);
    return ok({ publish_id: publishId, upload_url: `${UPLOAD_HOST}/video/?upload_id=${p.uploadId}&upload_token=${p.uploadToken}` });
  }

  // https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide (Media transfer HTTP schema; Response)
  function uploadChunk(req: FakeRequest): FakeReply {
    const p = [...publishes.values()].find((x) => x.uploadId === req.query.get('upload_id') && x.uploadToken === req.query.get('upload_token'));
    if (!p) return { status: 404 };
    if (p.expired || Date.now() - p.issuedAt > UPLOAD_URL_LIFE_MS) return { status: 403 };
    if (!UPLOAD_TYPES.includes(req.headers['content-type'] ?? '')) return { status: 400 };
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers['content-range'] ?? '');
    if (!range) return { status: 400 };
    const [first, last, total] = range.slice(1).map(Number);
    const length = last - first + 1;
    if (Number(req.headers['content-length']) !== req.body.length || req.body.length !== length || total !== p.videoSize) return { status: 400 };
    const progress = { 'content-range': `bytes 0-${p.received - 1}/${p.videoSize}` };
    // sequential only: a chunk that does not start where the upload stands is not where the upload is
    if (first !== p.received) return { status: 416, headers: progress };
    const index = first / p.chunkSize;
    const expected = index === p.chunkCount - 1 ? p.videoSize - first : p.chunkSize;
    if (!Number.isInteger(index) || index >= p.chunkCount || length !== expected) return { status: 400 };
    p.parts.push(Buffer.from(req.body));
    p.received += length;
    fake.chunks.push(req.headers['content-range']!);
    if (p.received === p.videoSize) p.failReason = processingFailures.shift();
    return { status: p.received === p.videoSize ? 201 : 206, headers: { 'content-range': `bytes 0-${p.received - 1}/${p.videoSize}` } };
  }

  function publishPost(p: Publish, publishId: string): ShortvideoPost {
    published += 1;
    const videoId = String(7_400_000_000_000_000_000n + BigInt(published));
    const post: ShortvideoPost = {
      id: p.postInfo.privacy_level === 'PUBLIC_TO_EVERYONE' ? videoId : publishId,
      videoId,
      text: String(p.postInfo.title ?? ''),
      video: Buffer.concat(p.parts),
      publishId,
      postInfo: p.postInfo,
      counts: { view_count: 0, like_count: 0, comment_count: 0, share_count: 0 },
    };
    fake.posts.push(post);
    return post;
  }

  // https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status
  function status(req: FakeRequest): FakeReply {
    const refused = authorised(req, ['video.publish', 'video.upload']) ?? jsonBody(req);
    if (refused) return refused;
    const publishId = req.json?.publish_id;
    const p = typeof publishId === 'string' ? publishes.get(publishId) : undefined;
    if (!p) return apiError(400, 'invalid_publish_id', 'The publish_id does not exist.');
    // the ids are list<int64>: written as bare numbers, as JSON.stringify cannot for ids past 2^53
    const answer = (status: string, ids: string[] = []) => {
      const data = JSON.stringify({
        status,
        ...(p.failReason ? { fail_reason: p.failReason } : {}),
        publicaly_available_post_id: [],
        uploaded_bytes: p.received,
      }).replace('[]', `[${ids.join(',')}]`);
      const error = JSON.stringify({ code: 'ok', message: '', log_id: logId() });
      return { headers: { 'content-type': 'application/json; charset=UTF-8' }, body: `{"data":${data},"error":${error}}` };
    };
    if (p.failReason) return answer('FAILED');
    if (p.received < p.videoSize) return answer('PROCESSING_UPLOAD');
    if (p.checksLeft > 0) {
      p.checksLeft -= 1;
      return answer('PROCESSING_UPLOAD');
    }
    p.post ??= publishPost(p, publishId);
    // only a public post gets its id, once moderation has passed
    if (p.postInfo.privacy_level !== 'PUBLIC_TO_EVERYONE') return answer('PUBLISH_COMPLETE');
    if (p.moderationLeft > 0) {
      p.moderationLeft -= 1;
      return answer('PUBLISH_COMPLETE');
    }
    return answer('PUBLISH_COMPLETE', [p.post.videoId]);
  }

  // https://developers.tiktok.com/doc/tiktok-api-v2-video-query
  function videoQuery(req: FakeRequest): FakeReply {
    const refused = authorised(req, ['video.list']) ?? jsonBody(req);
    if (refused) return refused;
    const fields = (req.query.get('fields') ?? '').split(',').filter(Boolean);
    if (!fields.length || fields.some((f) => !VIDEO_FIELDS.includes(f)))
      return apiError(400, 'invalid_params', `fields must be chosen from ${VIDEO_FIELDS.join(', ')}.`);
    const ids = req.json?.filters?.video_ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > 20 || ids.some((id) => typeof id !== 'string'))
      return apiError(400, 'invalid_params', 'filters.video_ids must hold 1 to 20 video ids.');
    // the user's public videos only (Display API: video.list reads public videos)
    const videos = fake.posts
      .filter((p) => ids.includes(p.videoId) && p.postInfo.privacy_level === 'PUBLIC_TO_EVERYONE')
      .map((p) => {
        const all: Record<string, unknown> = {
          id: p.videoId,
          title: p.text,
          share_url: `https://www.tiktok.com/@${fake.creator.creator_username}/video/${p.videoId}`,
          ...p.counts,
        };
        return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
      });
    return ok({ videos, cursor: 0, has_more: false });
  }

  const API_ROUTES: Record<string, { method: string; route: string; handle: (req: FakeRequest) => FakeReply }> = {
    '/v2/user/info/': { method: 'GET', route: 'user_info', handle: userInfo },
    '/v2/post/publish/creator_info/query/': { method: 'POST', route: 'creator_info', handle: creatorInfo },
    '/v2/post/publish/video/init/': { method: 'POST', route: 'init', handle: init },
    '/v2/post/publish/status/fetch/': { method: 'POST', route: 'status', handle: status },
    '/v2/video/query/': { method: 'POST', route: 'video_query', handle: videoQuery },
  };

  const server = await startFake((req) => {
    if (req.method === 'GET' && req.path === '/v2/auth/authorize/') return authorize(req);
    if (req.method === 'POST' && req.path === '/v2/oauth/token/') return token(req);
    if (req.method === 'PUT' && req.path === '/video/') return uploadChunk(req);
    const api = API_ROUTES[req.path];
    if (!api || api.method !== req.method) return { status: 404 };
    const kind = failures.shift();
    return kind ? failure(kind, api.route) : api.handle(req);
  });

  const fake: ShortvideoFake = {
    ...server,
    clientId,
    clientSecret,
    redirectUri: opts.redirectUri,
    posts: [],
    chunks: [],
    processingChecks: 0,
    moderationChecks: 0,
    openId: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
    followers: 1234,
    audited: true,
    creator: {
      creator_username: 'clipcaster',
      creator_nickname: 'Clip Caster',
      privacy_level_options: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'],
      comment_disabled: false,
      duet_disabled: false,
      stitch_disabled: false,
      max_video_post_duration_sec: 600,
    },
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expired = true;
    },
    revokeRefreshTokens() {
      for (const t of refreshTokens.values()) t.revoked = true;
    },
    failProcessing(reason) {
      processingFailures.push(reason);
    },
    expireUploadUrls() {
      for (const p of publishes.values()) p.expired = true;
    },
  };
  return fake;
}
