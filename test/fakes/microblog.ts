/**
 * An imitation of the microblog platform (X API v2) for connector tests: its
 * OAuth 2.0 endpoints with PKCE and refresh-token rotation, the account, the
 * chunked media upload with its processing, posts, the user's timeline and a
 * post's metrics. Each handler cites the page it follows. It refuses what
 * the platform refuses, in the platform's shapes: RFC 7807 problems
 * ({title, detail, type, status}) with `errors[]` for invalid parameters,
 * RFC 6749 errors at the token endpoint. Unknown query parameters and
 * unknown enum values are refused, as the platform does.
 */
import crypto from 'node:crypto';
import { startFake, type FakeReply, type FakeRequest, type PlatformFake } from './server.js';

// https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code (Scopes)
const KNOWN_SCOPES = new Set([
  'tweet.read',
  'tweet.write',
  'tweet.moderate.write',
  'users.email',
  'users.read',
  'follows.read',
  'follows.write',
  'offline.access',
  'space.read',
  'mute.read',
  'mute.write',
  'like.read',
  'like.write',
  'list.read',
  'list.write',
  'block.read',
  'block.write',
  'bookmark.read',
  'bookmark.write',
  'dm.read',
  'dm.write',
  'media.write',
]);

// the fields and expansions of https://docs.x.com/x-api/users/get-my-user and https://docs.x.com/x-api/users/get-posts
const USER_FIELDS = [
  'affiliation',
  'confirmed_email',
  'connection_status',
  'created_at',
  'description',
  'entities',
  'id',
  'is_identity_verified',
  'location',
  'most_recent_tweet_id',
  'name',
  'parody',
  'pinned_tweet_id',
  'profile_banner_url',
  'profile_image_url',
  'protected',
  'public_metrics',
  'receives_your_dm',
  'subscription',
  'subscription_type',
  'url',
  'username',
  'verified',
  'verified_followers_count',
  'verified_type',
  'withheld',
];
const POST_FIELDS = [
  'article',
  'attachments',
  'author_id',
  'card_uri',
  'community_id',
  'context_annotations',
  'conversation_id',
  'created_at',
  'display_text_range',
  'edit_controls',
  'edit_history_tweet_ids',
  'entities',
  'geo',
  'id',
  'in_reply_to_user_id',
  'lang',
  'media_metadata',
  'non_public_metrics',
  'note_tweet',
  'organic_metrics',
  'possibly_sensitive',
  'promoted_metrics',
  'public_metrics',
  'referenced_tweets',
  'reply_settings',
  'scopes',
  'source',
  'text',
  'withheld',
];
const POST_EXPANSIONS = [
  'article.cover_media',
  'article.media_entities',
  'attachments.media_keys',
  'attachments.media_source_tweet',
  'attachments.poll_ids',
  'author_id',
  'edit_history_tweet_ids',
  'entities.mentions.username',
  'geo.place_id',
  'in_reply_to_user_id',
  'entities.note.mentions.username',
  'referenced_tweets.id',
  'referenced_tweets.id.attachments.media_keys',
  'referenced_tweets.id.author_id',
];
const MEDIA_FIELDS = [
  'alt_text',
  'duration_ms',
  'height',
  'media_key',
  'non_public_metrics',
  'organic_metrics',
  'preview_image_url',
  'promoted_metrics',
  'public_metrics',
  'type',
  'url',
  'variants',
  'width',
];
const USER_EXPANSIONS = ['affiliation.user_id', 'most_recent_tweet_id', 'pinned_tweet_id'];

// https://docs.x.com/x-api/media/initialize-media-upload
const MEDIA_TYPES = [
  'video/mp4',
  'video/webm',
  'video/mp2t',
  'video/quicktime',
  'text/srt',
  'text/vtt',
  'image/jpeg',
  'image/gif',
  'image/bmp',
  'image/png',
  'image/webp',
  'image/pjpeg',
  'image/tiff',
  'model/gltf-binary',
  'model/vnd.usdz+zip',
];
const MEDIA_CATEGORIES = ['amplify_video', 'tweet_gif', 'tweet_image', 'tweet_video', 'dm_gif', 'dm_image', 'dm_video', 'subtitles'];
const MAX_TOTAL_BYTES = 17_179_869_184;
/** https://docs.x.com/x-api/media/append-media-upload: "Keep each segment at or below 5 MB" (the server's own ceiling is 8 MB; the fake holds clients to the documented one) */
const MAX_SEGMENT_BYTES = 5 * 1024 * 1024;
const UPLOAD_EXPIRES_SECS = 86_400;
const ACCESS_TOKEN_SECS = 7200;
/** "The auth_code has a time limit of 30 seconds" (authorization-code page, Glossary) */
const CODE_TTL_MS = 30_000;

const PROBLEMS = 'https://api.x.com/2/problems';

export interface PublicMetrics {
  retweet_count: number;
  reply_count: number;
  like_count: number;
  quote_count: number;
  bookmark_count: number;
  impression_count: number;
  /** the video's public view count (a media metric) */
  view_count: number;
}

interface Upload {
  id: string;
  mediaKey: string;
  owner: string;
  totalBytes: number;
  segments: Buffer[];
  state: 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  checksLeft: number;
  expiresAt: number;
  failure?: string;
}

export interface MicroblogFake extends PlatformFake {
  /** the account every token acts for */
  user: { id: string; username: string; name: string; protected: boolean; followers: number };
  /** each post's public metrics, by post id (a test may change them) */
  metrics: Map<string, PublicMetrics>;
  /** every segment received: its upload, index and size */
  segments: Array<{ mediaId: string; index: number; size: number }>;
  /** the next upload's processing fails with this message (the platform's processing_info.error) */
  failProcessing(message: string): void;
  /** every access and refresh token issued, for a test that none leaks */
  issuedTokens(): string[];
  /** the next `times` timeline reads leave out the posts of the last minute, as an index not caught up yet would */
  listLate(times: number): void;
}

type Kind = 'retry' | 'bad_request' | 'reauthorize' | 'disconnected';

const json = (status: number, body: unknown, headers?: Record<string, string>): FakeReply => ({ status, body, headers });

/** An RFC 7807 problem, as the platform answers errors (response-codes-and-errors page). */
const problem = (status: number, title: string, detail: string, type = 'about:blank') => json(status, { title, detail, type, status });

const unauthorized = () => problem(401, 'Unauthorized', 'Unauthorized');

/** An invalid request: the problem with one `errors[]` entry per wrong parameter. */
function invalid(message: string, parameters: Record<string, string[]> = {}): FakeReply {
  return json(400, {
    errors: [{ parameters, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: `${PROBLEMS}/invalid-request`,
  });
}

/** RFC 6749 5.2 errors, the token endpoint's shape. */
const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description });

const s256 = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url');
const random = (prefix: string) => `${prefix}${crypto.randomBytes(24).toString('base64url')}`;

/** Refuses query parameters the endpoint does not have and values outside each list, as the platform does. */
function checkQuery(req: FakeRequest, allowed: Record<string, readonly string[] | null>): FakeReply | null {
  for (const name of new Set(req.query.keys())) {
    if (!Object.hasOwn(allowed, name))
      return invalid(`The query parameter [${name}] is not one of [${Object.keys(allowed).join(',')}]`, { [name]: [req.query.get(name) ?? ''] });
    const values = allowed[name];
    if (!values) continue;
    for (const v of (req.query.get(name) ?? '').split(',')) {
      if (!values.includes(v)) return invalid(`The \`${name}\` query parameter value [${v}] is not one of [${values.join(',')}]`, { [name]: [v] });
    }
  }
  return null;
}

const fieldsOf = (req: FakeRequest, name: string) => new Set((req.query.get(name) ?? '').split(',').filter(Boolean));

export async function startPlatformFake(opts: { redirectUri: string }): Promise<MicroblogFake> {
  const clientId = 'bWljcm9ibG9nLWZha2UtY2xpZW50OjE6Y2k';
  const clientSecret = random('cs-');
  const user = { id: '1760000000000000001', username: 'sample_account', name: 'Sample Account', protected: false, followers: 1234 };

  const codes = new Map<string, { challenge: string; method: string; redirectUri: string; scopes: string[]; expiresAt: number; used: boolean }>();
  const accessTokens = new Map<string, { scopes: string[]; expiresAt: number }>();
  const refreshTokens = new Map<string, { scopes: string[]; revoked: boolean }>();
  const uploads = new Map<string, Upload>();
  const posts: MicroblogFake['posts'] = [];
  const postMeta = new Map<string, { createdAt: string; mediaKeys: string[] }>();
  const metrics = new Map<string, PublicMetrics>();
  const segments: MicroblogFake['segments'] = [];
  const failures: Kind[] = [];
  let processingFailure: string | undefined;
  let lateReads = 0;
  let nextId = 1880028106020515840n;
  const newId = () => String(nextId++);

  function issue(scopes: string[]) {
    const accessToken = random('at-');
    accessTokens.set(accessToken, { scopes, expiresAt: Date.now() + ACCESS_TOKEN_SECS * 1000 });
    const body: Record<string, unknown> = { token_type: 'bearer', expires_in: ACCESS_TOKEN_SECS, access_token: accessToken, scope: scopes.join(' ') };
    // "If this scope is not passed, we will not generate a refresh token."
    if (scopes.includes('offline.access')) {
      const refreshToken = random('rt-');
      refreshTokens.set(refreshToken, { scopes, revoked: false });
      body.refresh_token = refreshToken;
    }
    return json(200, body);
  }

  // GET https://x.com/i/oauth2/authorize
  // https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code (Parameters) and .../user-access-token (Step 2)
  function authorize(req: FakeRequest): FakeReply {
    const q = req.query;
    // an unknown client or an unregistered redirect URI is never redirected to (RFC 6749 4.1.2.1): an error page
    if (q.get('client_id') !== clientId)
      return { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>Something went wrong</h1><p>You weren’t able to give access to the App.</p>' };
    if (q.get('redirect_uri') !== opts.redirectUri)
      return {
        status: 400,
        headers: { 'content-type': 'text/html' },
        body: '<h1>Something went wrong</h1><p>The callback URL is not registered for this App.</p>',
      };
    const back = (params: Record<string, string>) => {
      const url = new URL(opts.redirectUri);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      if (q.get('state') !== null) url.searchParams.set('state', q.get('state')!);
      return { status: 302, headers: { location: url.toString() } };
    };
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
    const state = q.get('state');
    if (!state || state.length > 500) return back({ error: 'invalid_request', error_description: 'state is required, up to 500 characters' });
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0 || scopes.some((s) => !KNOWN_SCOPES.has(s)))
      return back({ error: 'invalid_scope', error_description: `unknown scope in "${q.get('scope') ?? ''}"` });
    const challenge = q.get('code_challenge');
    const method = q.get('code_challenge_method') ?? 'plain';
    // PKCE is required; the methods are S256 or plain
    if (!challenge || !['S256', 'plain'].includes(method))
      return back({ error: 'invalid_request', error_description: 'code_challenge and code_challenge_method (S256 or plain) are required' });
    const code = random('code-');
    codes.set(code, { challenge, method, redirectUri: opts.redirectUri, scopes, expiresAt: Date.now() + CODE_TTL_MS, used: false });
    return back({ code });
  }

  // POST https://api.x.com/2/oauth2/token
  // https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token (Steps 3 and 5; confidential clients use HTTP Basic)
  function token(req: FakeRequest): FakeReply {
    if (!/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
      return oauthError(400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
    if (req.headers.authorization !== basic) return oauthError(401, 'unauthorized_client', 'Missing valid authorization header');
    const f = req.form;
    if (f.has('client_id') && f.get('client_id') !== clientId) return oauthError(400, 'invalid_request', 'client_id does not match the authorization header');
    if (f.get('grant_type') === 'authorization_code') {
      const grant = codes.get(f.get('code') ?? '');
      if (!grant || grant.used || grant.expiresAt < Date.now())
        return oauthError(400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      if (f.get('redirect_uri') !== grant.redirectUri)
        return oauthError(400, 'invalid_request', 'Value passed for the redirect uri did not match the uri of the authorization code.');
      const verifier = f.get('code_verifier') ?? '';
      const expected = grant.method === 'S256' ? s256(verifier) : verifier;
      if (!verifier || expected !== grant.challenge)
        return oauthError(400, 'invalid_request', 'Value passed for the code verifier did not match the code challenge.');
      grant.used = true;
      return issue(grant.scopes);
    }
    if (f.get('grant_type') === 'refresh_token') {
      const old = refreshTokens.get(f.get('refresh_token') ?? '');
      if (!old || old.revoked) return oauthError(400, 'invalid_request', 'Value passed for the token was invalid.');
      // the refresh token rotates: the one spent is no longer valid
      old.revoked = true;
      return issue(old.scopes);
    }
    return oauthError(400, 'unsupported_grant_type', `grant_type ${f.get('grant_type') ?? '(none)'} is not supported`);
  }

  /** The failure a test asked for, in the platform's shape for its class. */
  function injected(kind: Kind): FakeReply {
    switch (kind) {
      // https://docs.x.com/x-api/fundamentals/rate-limits: 429 with x-rate-limit-reset in epoch seconds
      case 'retry':
        return json(
          429,
          { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
          {
            'x-rate-limit-limit': '100',
            'x-rate-limit-remaining': '0',
            'x-rate-limit-reset': String(Math.ceil(Date.now() / 1000) + 90),
          },
        );
      case 'bad_request':
        return invalid('Your media IDs are invalid.', { 'media.media_ids': [] });
      case 'reauthorize':
        return unauthorized();
      // the body the platform sends for a suspended account: not in the documentation, observed in
      // https://github.com/akrherz/iembot/issues/156 (problem types are documented as URIs)
      case 'disconnected':
        return problem(403, 'Forbidden', 'The user used for authentication is suspended', `${PROBLEMS}/user-suspended`);
    }
  }

  /** The caller's bearer token with the scopes the endpoint needs (https://docs.x.com/fundamentals/authentication/guides/v2-authentication-mapping). */
  function authorized(req: FakeRequest, needs: string[]): FakeReply | null {
    const t = req.bearer ? accessTokens.get(req.bearer) : undefined;
    if (!t || t.expiresAt <= Date.now()) return unauthorized();
    const missing = needs.filter((s) => !t.scopes.includes(s));
    // the body for a missing scope is not documented: a 403 problem
    if (missing.length) return problem(403, 'Forbidden', `Missing scopes: ${missing.join(', ')}`, `${PROBLEMS}/client-forbidden`);
    return null;
  }

  const bodyJson = (req: FakeRequest) =>
    /^application\/json/.test(req.headers['content-type'] ?? '') && req.json && typeof req.json === 'object' ? (req.json as Record<string, any>) : null;

  function ownUpload(id: string): Upload | null {
    const u = uploads.get(id);
    return u && u.owner === user.id && u.expiresAt > Date.now() ? u : null;
  }

  const processingInfo = (u: Upload) =>
    u.state === 'failed'
      ? { state: 'failed', progress_percent: 0, error: { code: 1, name: 'InvalidMedia', message: u.failure } }
      : u.state === 'succeeded'
        ? { state: 'succeeded', progress_percent: 100 }
        : { state: u.state, check_after_secs: 1, progress_percent: u.state === 'pending' ? 0 : 50 };

  const mediaData = (u: Upload) => ({
    id: u.id,
    media_key: u.mediaKey,
    size: u.totalBytes,
    expires_after_secs: Math.max(0, Math.floor((u.expiresAt - Date.now()) / 1000)),
    processing_info: processingInfo(u),
  });

  // GET https://api.x.com/2/users/me — https://docs.x.com/x-api/users/get-my-user
  function usersMe(req: FakeRequest): FakeReply {
    const bad =
      authorized(req, ['tweet.read', 'users.read']) ??
      checkQuery(req, { 'user.fields': USER_FIELDS, expansions: USER_EXPANSIONS, 'tweet.fields': POST_FIELDS });
    if (bad) return bad;
    const fields = fieldsOf(req, 'user.fields');
    const data: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
    if (fields.has('protected')) data.protected = user.protected;
    if (fields.has('public_metrics')) {
      data.public_metrics = { followers_count: user.followers, following_count: 12, tweet_count: posts.length, listed_count: 0, like_count: 3 };
    }
    return json(200, { data });
  }

  // POST https://api.x.com/2/media/upload/initialize — https://docs.x.com/x-api/media/initialize-media-upload
  function initialize(req: FakeRequest): FakeReply {
    const bad = authorized(req, ['media.write']);
    if (bad) return bad;
    const body = bodyJson(req);
    if (!body) return invalid('The request body must be JSON (Content-Type: application/json)');
    const known = ['additional_owners', 'media_category', 'media_type', 'shared', 'total_bytes'];
    const unknown = Object.keys(body).find((k) => !known.includes(k));
    if (unknown) return invalid(`[${unknown}] is not one of [${known.join(',')}]`, { [unknown]: [String(body[unknown])] });
    if (!MEDIA_TYPES.includes(body.media_type))
      return invalid(`media_type [${body.media_type}] is not one of [${MEDIA_TYPES.join(',')}]`, { media_type: [String(body.media_type)] });
    if (body.media_category !== undefined && !MEDIA_CATEGORIES.includes(body.media_category)) {
      return invalid(`media_category [${body.media_category}] is not one of [${MEDIA_CATEGORIES.join(',')}]`, {
        media_category: [String(body.media_category)],
      });
    }
    if (!Number.isInteger(body.total_bytes) || body.total_bytes < 0 || body.total_bytes > MAX_TOTAL_BYTES)
      return invalid(`total_bytes must be an integer in 0..${MAX_TOTAL_BYTES}`, { total_bytes: [String(body.total_bytes)] });
    const id = newId();
    // 7_ for a post's video, 13_ for an amplify video (media keys as the documentation shows them)
    const mediaKey = `${body.media_category === 'amplify_video' ? 13 : 7}_${id}`;
    uploads.set(id, {
      id,
      mediaKey,
      owner: user.id,
      totalBytes: body.total_bytes,
      segments: [],
      state: 'uploading',
      checksLeft: 0,
      expiresAt: Date.now() + UPLOAD_EXPIRES_SECS * 1000,
    });
    return json(200, { data: { id, media_key: mediaKey, expires_after_secs: UPLOAD_EXPIRES_SECS } });
  }

  // POST https://api.x.com/2/media/upload/{id}/append — https://docs.x.com/x-api/media/append-media-upload
  // multipart/form-data: segment_index (0-999, in order from 0) and media (≤ 5 MB)
  async function append(req: FakeRequest, id: string): Promise<FakeReply> {
    const bad = authorized(req, ['media.write']);
    if (bad) return bad;
    const u = ownUpload(id);
    if (!u) return problem(404, 'Not Found Error', `Could not find media with id: [${id}].`, `${PROBLEMS}/resource-not-found`);
    if (u.state !== 'uploading') return invalid(`Media [${id}] was already finalized`, { id: [id] });
    const type = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data;\s*boundary=/.test(type)) return invalid('The request body must be multipart/form-data');
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': type } }).formData();
    } catch {
      return invalid('The multipart body could not be read');
    }
    const indexText = form.get('segment_index');
    const index = Number(indexText);
    if (typeof indexText !== 'string' || !/^\d+$/.test(indexText) || index > 999)
      return invalid('segment_index must be an integer in 0..999', { segment_index: [String(indexText)] });
    const file = form.get('media');
    if (!file || typeof file === 'string') return invalid("media (the segment's bytes, as a file) is required", { media: [] });
    const bytes = Buffer.from(await file.arrayBuffer());
    if (bytes.length === 0 || bytes.length > MAX_SEGMENT_BYTES)
      return invalid(`A segment must be 1..${MAX_SEGMENT_BYTES} bytes, not ${bytes.length}`, { media: [String(bytes.length)] });
    // in order: the next segment, or one already sent again (it replaces the first)
    if (index > u.segments.length)
      return invalid(`segment_index ${index} is out of order: segment ${u.segments.length} is next`, { segment_index: [String(index)] });
    const before = u.segments.reduce((n, s, i) => n + (i === index ? 0 : s.length), 0);
    if (before + bytes.length > u.totalBytes) return invalid(`The segments exceed total_bytes (${u.totalBytes})`, { media: [String(bytes.length)] });
    u.segments[index] = bytes;
    segments.push({ mediaId: id, index, size: bytes.length });
    return json(200, { data: { expires_at: Math.floor(u.expiresAt / 1000) } });
  }

  // POST https://api.x.com/2/media/upload/{id}/finalize — https://docs.x.com/x-api/media/finalize-media-upload
  // A video is always processed: the answer is `pending` with check_after_secs. Finalizing an
  // upload again answers its state (the documentation does not say; the fake is lenient there).
  function finalize(req: FakeRequest, id: string): FakeReply {
    const bad = authorized(req, ['media.write']);
    if (bad) return bad;
    const u = ownUpload(id);
    if (!u) return problem(404, 'Not Found Error', `Could not find media with id: [${id}].`, `${PROBLEMS}/resource-not-found`);
    if (u.state === 'uploading') {
      const received = u.segments.reduce((n, s) => n + (s?.length ?? 0), 0);
      if (received !== u.totalBytes) return invalid(`File size mismatch: received ${received} bytes, total_bytes is ${u.totalBytes}`, { id: [id] });
      u.state = 'pending';
      u.checksLeft = fake.processingChecks;
      if (processingFailure !== undefined) {
        u.failure = processingFailure;
        processingFailure = undefined;
      }
    }
    return json(200, { data: mediaData(u) });
  }

  // GET https://api.x.com/2/media/upload?command=STATUS&media_id=… — https://docs.x.com/x-api/media/get-media-upload-status
  // pending → in_progress → succeeded | failed; `processingChecks` checks answer in_progress first
  function status(req: FakeRequest): FakeReply {
    const bad = authorized(req, ['media.write']) ?? checkQuery(req, { media_id: null, command: ['STATUS'] });
    if (bad) return bad;
    const id = req.query.get('media_id') ?? '';
    if (!/^[0-9]{1,19}$/.test(id)) return invalid('media_id is required (1-19 digits)', { media_id: [id] });
    const u = ownUpload(id);
    if (!u) return problem(404, 'Not Found Error', `Could not find media with id: [${id}].`, `${PROBLEMS}/resource-not-found`);
    if (u.state === 'uploading') return invalid(`Media [${id}] has not been finalized`, { media_id: [id] });
    if (u.state === 'pending' || u.state === 'in_progress') {
      if (u.checksLeft > 0) {
        u.checksLeft -= 1;
        u.state = 'in_progress';
      } else u.state = u.failure !== undefined ? 'failed' : 'succeeded';
    }
    return json(200, { data: mediaData(u) });
  }

  // POST https://api.x.com/2/tweets — https://docs.x.com/x-api/posts/create-post (201 {data:{id,text}}),
  // duplicates refused with 403 as the platform does; media must be processed and not expired
  function createPost(req: FakeRequest): FakeReply {
    const bad = authorized(req, ['tweet.read', 'tweet.write', 'users.read']);
    if (bad) return bad;
    const body = bodyJson(req);
    if (!body) return invalid('The request body must be JSON (Content-Type: application/json)');
    const known = [
      'card_uri',
      'community_id',
      'direct_message_deep_link',
      'edit_options',
      'for_super_followers_only',
      'geo',
      'made_with_ai',
      'media',
      'nullcast',
      'paid_partnership',
      'poll',
      'quote_tweet_id',
      'reply',
      'reply_settings',
      'share_with_followers',
      'text',
    ];
    const unknown = Object.keys(body).find((k) => !known.includes(k));
    if (unknown) return invalid(`[${unknown}] is not one of [${known.join(',')}]`, { [unknown]: [] });
    if (typeof body.text !== 'string') return invalid('text must be a string', { text: [] });
    const ids = body.media?.media_ids;
    if (
      ids !== undefined &&
      (!Array.isArray(ids) || ids.length < 1 || ids.length > 4 || ids.some((i: unknown) => typeof i !== 'string' || !/^[0-9]{1,19}$/.test(i)))
    ) {
      return invalid('media.media_ids must be 1-4 media ids (strings of digits)', { 'media.media_ids': [JSON.stringify(ids)] });
    }
    const media = ((ids ?? []) as string[]).map((i) => ownUpload(i));
    if (media.some((u) => u?.state !== 'succeeded')) return invalid('Your media IDs are invalid.', { 'media.media_ids': ids });
    // the duplicate refusal as observed in https://github.com/akrherz/iembot/issues/163 (its time window is not documented: the fake never forgets)
    if (posts.some((p) => p.text === body.text)) return problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
    const id = newId();
    posts.push({ id, text: body.text, video: Buffer.concat(media.flatMap((u) => u!.segments)) });
    postMeta.set(id, { createdAt: new Date().toISOString(), mediaKeys: media.map((u) => u!.mediaKey) });
    metrics.set(id, { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, bookmark_count: 0, impression_count: 0, view_count: 0 });
    return json(201, { data: { id, text: body.text, edit_history_tweet_ids: [id] } });
  }

  /** A post as the lookups give it, with the fields asked for. */
  function postObject(id: string, fields: Set<string>) {
    const p = posts.find((x) => x.id === id)!;
    const meta = postMeta.get(id)!;
    const m = metrics.get(id)!;
    const t: Record<string, unknown> = { id, text: p.text, edit_history_tweet_ids: [id] };
    if (fields.has('created_at')) t.created_at = meta.createdAt;
    if (fields.has('author_id')) t.author_id = user.id;
    if (fields.has('attachments') && meta.mediaKeys.length) t.attachments = { media_keys: meta.mediaKeys };
    if (fields.has('public_metrics')) {
      t.public_metrics = {
        retweet_count: m.retweet_count,
        reply_count: m.reply_count,
        like_count: m.like_count,
        quote_count: m.quote_count,
        bookmark_count: m.bookmark_count,
        impression_count: m.impression_count,
      };
    }
    return t;
  }

  const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

  // GET https://api.x.com/2/users/{id}/tweets — https://docs.x.com/x-api/users/get-posts
  // newest first; max_results 5-100; start_time/end_time as YYYY-MM-DDTHH:mm:ssZ (no milliseconds)
  function userPosts(req: FakeRequest, id: string): FakeReply {
    const bad =
      authorized(req, ['tweet.read', 'users.read']) ??
      checkQuery(req, {
        since_id: null,
        until_id: null,
        max_results: null,
        pagination_token: null,
        exclude: ['replies', 'retweets'],
        start_time: null,
        end_time: null,
        'tweet.fields': POST_FIELDS,
        expansions: POST_EXPANSIONS,
        'media.fields': MEDIA_FIELDS,
        'poll.fields': null,
        'user.fields': USER_FIELDS,
        'place.fields': null,
      });
    if (bad) return bad;
    if (id !== user.id)
      return json(200, {
        errors: [
          {
            value: id,
            detail: `Could not find user with id: [${id}].`,
            title: 'Not Found Error',
            resource_type: 'user',
            parameter: 'id',
            resource_id: id,
            type: `${PROBLEMS}/resource-not-found`,
          },
        ],
      });
    const max = Number(req.query.get('max_results') ?? 10);
    if (!Number.isInteger(max) || max < 5 || max > 100)
      return invalid(`The \`max_results\` query parameter value [${req.query.get('max_results')}] is not between 5 and 100`, {
        max_results: [String(req.query.get('max_results'))],
      });
    for (const name of ['start_time', 'end_time']) {
      const v = req.query.get(name);
      if (v !== null && !TIME.test(v))
        return invalid(`Invalid '${name}':'${v}'. '${name}' must be a valid ISO 8601 timestamp (YYYY-MM-DDTHH:mm:ssZ).`, { [name]: [v] });
    }
    const start = req.query.get('start_time') ? Date.parse(req.query.get('start_time')!) : -Infinity;
    // the timeline's consistency with a post just made is not documented: a late read is imitated on request
    const end = lateReads > 0 ? Date.now() - 60_000 : Infinity;
    lateReads = Math.max(0, lateReads - 1);
    const fields = fieldsOf(req, 'tweet.fields');
    const found = [...posts]
      .reverse()
      .filter((p) => {
        const at = Date.parse(postMeta.get(p.id)!.createdAt);
        return at >= start && at < end;
      })
      .slice(0, max);
    if (found.length === 0) return json(200, { meta: { result_count: 0 } });
    return json(200, {
      data: found.map((p) => postObject(p.id, fields)),
      meta: { result_count: found.length, newest_id: found[0].id, oldest_id: found[found.length - 1].id },
    });
  }

  // GET https://api.x.com/2/tweets/{id} — https://docs.x.com/x-api/posts/get-post-by-id, metrics: https://docs.x.com/x-api/fundamentals/metrics
  // an unknown post is a 200 with `errors` only (a partial error)
  function lookupPost(req: FakeRequest, id: string): FakeReply {
    const bad =
      authorized(req, ['tweet.read', 'users.read']) ??
      checkQuery(req, {
        'tweet.fields': POST_FIELDS,
        expansions: POST_EXPANSIONS,
        'media.fields': MEDIA_FIELDS,
        'poll.fields': null,
        'user.fields': USER_FIELDS,
        'place.fields': null,
      });
    if (bad) return bad;
    if (!posts.some((p) => p.id === id)) {
      return json(200, {
        errors: [
          {
            value: id,
            detail: `Could not find tweet with id: [${id}].`,
            title: 'Not Found Error',
            resource_type: 'tweet',
            parameter: 'id',
            resource_id: id,
            type: `${PROBLEMS}/resource-not-found`,
          },
        ],
      });
    }
    const body: Record<string, unknown> = { data: postObject(id, fieldsOf(req, 'tweet.fields')) };
    const keys = postMeta.get(id)!.mediaKeys;
    if (fieldsOf(req, 'expansions').has('attachments.media_keys') && keys.length) {
      const mediaFields = fieldsOf(req, 'media.fields');
      body.includes = {
        media: keys.map((media_key) => ({
          media_key,
          type: 'video',
          ...(mediaFields.has('public_metrics') ? { public_metrics: { view_count: metrics.get(id)!.view_count } } : {}),
        })),
      };
    }
    return json(200, body);
  }

  async function api(req: FakeRequest): Promise<FakeReply> {
    const kind = failures.shift();
    if (kind) return injected(kind);
    const { method, path } = req;
    let m: RegExpMatchArray | null;
    if (method === 'GET' && path === '/2/users/me') return usersMe(req);
    if (method === 'POST' && path === '/2/media/upload/initialize') return initialize(req);
    if (method === 'POST' && (m = path.match(/^\/2\/media\/upload\/([0-9]{1,19})\/append$/))) return append(req, m[1]);
    if (method === 'POST' && (m = path.match(/^\/2\/media\/upload\/([0-9]{1,19})\/finalize$/))) return finalize(req, m[1]);
    if (method === 'GET' && path === '/2/media/upload') return status(req);
    if (method === 'POST' && path === '/2/tweets') return createPost(req);
    if (method === 'GET' && (m = path.match(/^\/2\/users\/([0-9]{1,19})\/tweets$/))) return userPosts(req, m[1]);
    if (method === 'GET' && (m = path.match(/^\/2\/tweets\/([0-9]{1,19})$/))) return lookupPost(req, m[1]);
    return problem(404, 'Not Found Error', `No route for ${method} ${path}`, `${PROBLEMS}/resource-not-found`);
  }

  const server = await startFake(async (req) => {
    if (req.method === 'GET' && req.path === '/i/oauth2/authorize') return authorize(req);
    if (req.method === 'POST' && req.path === '/2/oauth2/token') return token(req);
    return api(req);
  });

  const fake: MicroblogFake = {
    ...server,
    clientId,
    clientSecret,
    redirectUri: opts.redirectUri,
    posts,
    user,
    metrics,
    segments,
    processingChecks: 0,
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    revokeRefreshTokens() {
      for (const t of refreshTokens.values()) t.revoked = true;
    },
    failProcessing(message) {
      processingFailure = message;
    },
    issuedTokens: () => [...accessTokens.keys(), ...refreshTokens.keys()],
    listLate(times) {
      lateReads = times;
    },
  };
  return fake;
}
