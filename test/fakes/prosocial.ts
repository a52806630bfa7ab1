/**
 * An imitation of the professional social network (LinkedIn) as its
 * versioned REST API answers a Community Management API app acting for one
 * member: the OAuth 2.0 consent and token endpoints, the member's profile and
 * followers, the Videos API's multi-part upload and processing, the Posts
 * API, and the member post and video statistics. Each handler cites the
 * documentation it follows. It refuses what the platform refuses, in the
 * platform's error shape ({message, serviceErrorCode?, code?, status}): a
 * /rest call without LinkedIn-Version or X-Restli-Protocol-Version 2.0.0, a
 * missing, unknown, expired or revoked token, a scope the token lacks, a
 * field the schema does not have, an enum value it does not know, a part of
 * the wrong size, parts finalized out of order, a post of a video still
 * processing, the same text posted twice.
 */
import crypto from 'node:crypto';
import { startFake, type FakeReply, type FakeRequest, type PlatformFake } from './server.js';

/** The versions the imitation serves: twelve months, as the platform supports each for a year at least. */
const ACTIVE_VERSIONS = new Set(['202508', '202509', '202510', '202511', '202512', '202601', '202602', '202603', '202604', '202605', '202606', '202607']);

/** The Videos API cuts an upload into 4 MB parts. */
const PART_SIZE = 4 * 1024 * 1024;

const ACCESS_TTL_S = 5_184_000; // 60 days
const REFRESH_TTL_S = 31_536_000; // 365 days

/** The permissions the fake's app holds: the Community Management API product, the only product on its app. */
const APP_SCOPES = new Set([
  'r_basicprofile',
  'w_member_social',
  'r_member_postAnalytics',
  'r_member_profileAnalytics',
  'r_1st_connections_size',
  'w_organization_social',
  'r_organization_social',
  'rw_organization_admin',
]);

const POST_METRICS = [
  'IMPRESSION',
  'MEMBERS_REACHED',
  'RESHARE',
  'REACTION',
  'COMMENT',
  'POST_SAVE',
  'POST_SEND',
  'LINK_CLICKS',
  'FOLLOWER_GAINED_FROM_CONTENT',
  'PROFILE_VIEW_FROM_CONTENT',
] as const;
const VIDEO_METRICS = ['VIDEO_PLAY', 'VIDEO_VIEWER', 'VIDEO_WATCH_TIME'] as const;
type Metric = (typeof POST_METRICS)[number] | (typeof VIDEO_METRICS)[number];

interface Token {
  scopes: string[];
  expiresAt: number;
  expired: boolean;
}

interface Part {
  firstByte: number;
  lastByte: number;
  signature: string;
  bytes?: Buffer;
  etag?: string;
}

export interface FakeVideo {
  urn: string;
  owner: string;
  size: number;
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';
  uploadToken: string;
  parts: Part[];
  checksLeft: number;
  failureReason?: string;
  bytes?: Buffer;
  /** how many times a part was PUT (a re-sent part counts again) */
  partPuts: number;
}

export interface ProsocialFake extends PlatformFake {
  /** the member whose consent the authorisation endpoint stands for */
  member: { id: string; urn: string; firstName: string; lastName: string; vanityName: string; followers: number };
  /** refresh tokens are issued to approved partners only; false: the token answers carry none */
  issueRefreshTokens: boolean;
  videos: Map<string, FakeVideo>;
  /** a post's statistics by metric type; missing types count 0 */
  metrics: Map<string, Partial<Record<Metric, number>>>;
  /** every token issued, for tests that check none leaks */
  issued: { accessTokens: string[]; refreshTokens: string[] };
  /** the next API call answers exactly this */
  failNextWith(reply: FakeReply): void;
  /** the next video finalized fails processing with this reason */
  failProcessing(reason: string): void;
}

const json = (status: number, body: unknown, headers?: Record<string, string>): FakeReply => ({ status, body, headers });
/** The platform's error body: https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling */
const apiError = (status: number, message: string, extra: Record<string, unknown> = {}): FakeReply => json(status, { status, message, ...extra });
const schemaError = (path: string, what: string) => apiError(422, `ERROR :: ${path} :: ${what}`);
const isRecord = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const random = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

/** Fields of `value` not in `allowed`, as the platform names them (paths). */
function unpermitted(value: Record<string, unknown>, allowed: string[], at = ''): string[] {
  return Object.keys(value)
    .filter((k) => !allowed.includes(k))
    .map((k) => `${at}/${k}`);
}
const unpermittedError = (fields: string[]) =>
  apiError(422, `Unpermitted fields present in REQUEST_BODY: Data Processing Exception while processing fields [${fields.join(', ')}]`);

/**
 * A post's text as a reader sees it, from the little text format
 * (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format):
 * an escaped character is itself, a hashtag template its #tag, and an
 * unescaped reserved character ends the text, as the platform cuts the post there.
 */
export function renderLittleText(commentary: string): string {
  let out = '';
  for (let i = 0; i < commentary.length; i++) {
    const c = commentary[i];
    if (c === '\\' && i + 1 < commentary.length) {
      out += commentary[++i];
      continue;
    }
    if (c === '{') {
      const m = /^\{hashtag\|\\#\|([^{}|\\]+)\}/.exec(commentary.slice(i));
      if (!m) return out;
      out += `#${m[1]}`;
      i += m[0].length - 1;
      continue;
    }
    if ('\\|{}@[]()<>#*_~'.includes(c)) return out;
    out += c;
  }
  return out;
}

export async function startPlatformFake(opts: { redirectUri: string }): Promise<ProsocialFake> {
  const clientId = `86${crypto.randomInt(1e9, 1e10)}`;
  const clientSecret = `WPL_AP1.${random(12)}`;
  const member = { id: 'yrZCpj2Z12', urn: 'urn:li:person:yrZCpj2Z12', firstName: 'Ada', lastName: 'Lovelace', vanityName: 'ada-lovelace', followers: 4312 };
  const codes = new Map<string, { redirectUri: string; scopes: string[]; expiresAt: number }>();
  const accessTokens = new Map<string, Token>();
  const refreshTokens = new Map<string, { scopes: string[]; expiresAt: number; revoked: boolean }>();
  const videos = new Map<string, FakeVideo>();
  const videosById = new Map<string, FakeVideo>();
  const posts: ProsocialFake['posts'] = [];
  const postRecords = new Map<string, { author: string; commentary: string; video: string }>();
  const metrics: ProsocialFake['metrics'] = new Map();
  const failures: FakeReply[] = [];
  const processingFailures: string[] = [];
  let postSeq = 7_219_000_000_000_000_000n;

  // -------------------------------------------------------------------------
  // OAuth 2.0: https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow

  function issueTokens(scopes: string[]) {
    const access = `AQV${random(90)}`;
    accessTokens.set(access, { scopes, expiresAt: Date.now() + ACCESS_TTL_S * 1000, expired: false });
    fake.issued.accessTokens.push(access);
    const answer: Record<string, unknown> = { access_token: access, expires_in: ACCESS_TTL_S, scope: scopes.join(',') };
    if (fake.issueRefreshTokens) {
      const refresh = `AQX${random(90)}`;
      refreshTokens.set(refresh, { scopes, expiresAt: Date.now() + REFRESH_TTL_S * 1000, revoked: false });
      fake.issued.refreshTokens.push(refresh);
      Object.assign(answer, { refresh_token: refresh, refresh_token_expires_in: REFRESH_TTL_S });
    }
    return answer;
  }

  /** Step 2, the member's consent: a code back to the registered redirect URI, or the platform's error. */
  function authorize(req: FakeRequest): FakeReply {
    const q = req.query;
    // a wrong client or redirect URI gets the platform's error page, never a redirect
    if (q.get('client_id') !== clientId)
      return {
        status: 400,
        headers: { 'content-type': 'text/html' },
        body: `<h1>Bummer, something went wrong.</h1><p>The passed in client_id is invalid "${q.get('client_id')}"</p>`,
      };
    if (q.get('redirect_uri') !== opts.redirectUri)
      return {
        status: 400,
        headers: { 'content-type': 'text/html' },
        body: '<h1>Bummer, something went wrong.</h1><p>The redirect_uri does not match the registered value</p>',
      };
    const back = (params: Record<string, string>) => {
      const url = new URL(opts.redirectUri);
      for (const [k, v] of Object.entries({ ...params, ...(q.has('state') ? { state: q.get('state')! } : {}) })) url.searchParams.set(k, v);
      return { status: 302, headers: { location: url.toString() } };
    };
    if (q.get('response_type') !== 'code') return back({ error: 'invalid_request', error_description: 'The "response_type" parameter must be "code"' });
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0) return back({ error: 'invalid_scope_error', error_description: 'The requested scope is empty' });
    const refused = scopes.find((s) => !APP_SCOPES.has(s));
    if (refused) return back({ error: 'unauthorized_scope_error', error_description: `Scope "${refused}" is not authorized for your application` });
    const code = `AQT${random(60)}`;
    codes.set(code, { redirectUri: opts.redirectUri, scopes, expiresAt: Date.now() + 30 * 60_000 });
    return back({ code });
  }

  /**
   * Step 3 and the refresh grant
   * (https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens):
   * client credentials in the form body; the refresh token is not rotated, its life runs on.
   */
  function token(req: FakeRequest): FakeReply {
    if (!/application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
      return json(400, { error: 'invalid_request', error_description: 'The request must be form-encoded' });
    const f = req.form;
    if (f.get('client_id') !== clientId || f.get('client_secret') !== clientSecret)
      return json(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    if (f.get('grant_type') === 'authorization_code') {
      const code = codes.get(f.get('code') ?? '');
      codes.delete(f.get('code') ?? '');
      if (!code || code.expiresAt < Date.now() || f.get('redirect_uri') !== code.redirectUri) {
        return json(400, {
          error: 'invalid_request',
          error_description:
            'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists',
        });
      }
      return json(200, issueTokens(code.scopes));
    }
    if (f.get('grant_type') === 'refresh_token') {
      const presented = f.get('refresh_token') ?? '';
      const refresh = refreshTokens.get(presented);
      if (!refresh || refresh.revoked || refresh.expiresAt < Date.now()) {
        return json(400, { error: 'invalid_request', error_description: 'The provided authorization grant or refresh token is invalid, expired or revoked' });
      }
      const access = `AQV${random(90)}`;
      accessTokens.set(access, { scopes: refresh.scopes, expiresAt: Date.now() + ACCESS_TTL_S * 1000, expired: false });
      fake.issued.accessTokens.push(access);
      const left = Math.floor((refresh.expiresAt - Date.now()) / 1000);
      return json(200, {
        access_token: access,
        expires_in: ACCESS_TTL_S,
        refresh_token: presented,
        refresh_token_expires_in: left,
        scope: refresh.scopes.join(','),
      });
    }
    return json(400, { error: 'unsupported_grant_type', error_description: `The grant type "${f.get('grant_type')}" is not supported` });
  }

  // -------------------------------------------------------------------------
  // Every API call: https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling

  /** The bearer's token when it is valid and holds `scope`, else the platform's 401 or 403. */
  function bearer(req: FakeRequest, scope: string): Token | FakeReply {
    if (!req.bearer) return apiError(401, 'Empty oauth2_access_token', { serviceErrorCode: 401 });
    const t = accessTokens.get(req.bearer);
    if (!t) return apiError(401, 'Invalid access token', { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN' });
    if (t.expired || t.expiresAt < Date.now())
      return apiError(401, 'The token used in the request has expired', { serviceErrorCode: 65601, code: 'EXPIRED_ACCESS_TOKEN' });
    if (!t.scopes.includes(scope))
      return apiError(403, `Not enough permissions to access: ${req.method} ${req.path}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    return t;
  }

  /** The headers of the versioned API: https://learn.microsoft.com/en-us/linkedin/marketing/versioning */
  function versioned(req: FakeRequest): FakeReply | string {
    const version = req.headers['linkedin-version'];
    if (typeof version !== 'string' || !version) {
      return apiError(400, 'A version must be present. Please specify a version by adding the LinkedIn-Version header.', { code: 'VERSION_MISSING' });
    }
    if (!ACTIVE_VERSIONS.has(version)) return apiError(426, `Requested version ${version} is not active`, { code: 'NONEXISTENT_VERSION' });
    if (req.headers['x-restli-protocol-version'] !== '2.0.0')
      return apiError(400, 'The X-Restli-Protocol-Version header must be 2.0.0 for this resource', { code: 'ILLEGAL_ARGUMENT' });
    return version;
  }

  /** The classes of failure `failNext` answers, as the platform words them. */
  function failure(kind: Parameters<PlatformFake['failNext']>[0]): FakeReply {
    switch (kind) {
      case 'retry':
        // https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits: no header says when; daily limits reset at midnight UTC
        return apiError(429, 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.', {
          serviceErrorCode: 101,
          code: 'TOO_MANY_REQUESTS',
        });
      case 'bad_request':
        return apiError(422, 'ERROR :: /commentary :: Text length exceeds the maximum length of 3000 characters');
      case 'reauthorize':
        return apiError(401, 'The token used in the request has expired', { serviceErrorCode: 65601, code: 'EXPIRED_ACCESS_TOKEN' });
      case 'disconnected':
        return apiError(401, 'The token used in the request has been revoked by the user', { serviceErrorCode: 65602, code: 'REVOKED_ACCESS_TOKEN' });
    }
  }

  // -------------------------------------------------------------------------
  // The member

  /** https://learn.microsoft.com/en-us/linkedin/shared/integrations/people/profile-api (r_basicprofile) */
  function me(req: FakeRequest): FakeReply {
    const t = bearer(req, 'r_basicprofile');
    if ('status' in t) return t;
    const locale = { country: 'US', language: 'en' };
    return json(200, {
      id: member.id,
      localizedFirstName: member.firstName,
      localizedLastName: member.lastName,
      vanityName: member.vanityName,
      localizedHeadline: 'Analyst',
      firstName: { localized: { en_US: member.firstName }, preferredLocale: locale },
      lastName: { localized: { en_US: member.lastName }, preferredLocale: locale },
    });
  }

  /** https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/follower-statistics */
  function followers(req: FakeRequest): FakeReply {
    const t = bearer(req, 'r_member_profileAnalytics');
    if ('status' in t) return t;
    if (req.query.get('q') !== 'me') return apiError(400, `Invalid finder "${req.query.get('q')}": the imitation serves q=me`);
    return json(200, { paging: { start: 0, count: 10, links: [] }, elements: [{ memberFollowersCount: member.followers }] });
  }

  // -------------------------------------------------------------------------
  // Videos: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api

  const forbiddenVideo = () => apiError(403, 'Accessing this video resource is forbidden. Please check your permissions for this resource');

  /** POST /rest/videos?action=initializeUpload: the video's urn and one upload instruction per 4 MB part. */
  function initializeUpload(req: FakeRequest): FakeReply {
    const body = req.json;
    if (!isRecord(body) || !isRecord(body.initializeUploadRequest)) return apiError(400, 'Missing required field: initializeUploadRequest');
    const extra = [
      ...unpermitted(body, ['initializeUploadRequest']),
      ...unpermitted(
        body.initializeUploadRequest,
        ['owner', 'fileSizeBytes', 'uploadCaptions', 'uploadThumbnail', 'mediaLibraryMetadata'],
        '/initializeUploadRequest',
      ),
    ];
    if (extra.length) return unpermittedError(extra);
    const r = body.initializeUploadRequest;
    if (typeof r.owner !== 'string') return schemaError('/initializeUploadRequest/owner', 'field is required but not found and has no default value');
    if (r.owner !== member.urn) return forbiddenVideo();
    if (!Number.isSafeInteger(r.fileSizeBytes) || r.fileSizeBytes <= 0)
      return schemaError('/initializeUploadRequest/fileSizeBytes', `${JSON.stringify(r.fileSizeBytes)} is not a valid file size`);
    for (const flag of ['uploadCaptions', 'uploadThumbnail']) {
      if (r[flag] !== undefined && typeof r[flag] !== 'boolean')
        return schemaError(`/initializeUploadRequest/${flag}`, `${JSON.stringify(r[flag])} is not a boolean`);
      // the imitation has no captions or thumbnail upload
      if (r[flag] === true) return apiError(400, `${flag} is not supported by this imitation`);
    }
    const id = `C5F10AQ${random(12)}`;
    const parts: Part[] = [];
    for (let first = 0; first < r.fileSizeBytes; first += PART_SIZE) {
      parts.push({ firstByte: first, lastByte: Math.min(r.fileSizeBytes, first + PART_SIZE) - 1, signature: random(24) });
    }
    const video: FakeVideo = {
      urn: `urn:li:video:${id}`,
      owner: r.owner,
      size: r.fileSizeBytes,
      status: 'WAITING_UPLOAD',
      uploadToken: parts.length > 1 ? random(32) : '',
      parts,
      checksLeft: 0,
      partPuts: 0,
    };
    videos.set(video.urn, video);
    videosById.set(id, video);
    return json(200, {
      value: {
        uploadUrlsExpireAt: Date.now() + 24 * 3_600_000,
        video: video.urn,
        uploadInstructions: parts.map((p, i) => ({
          // on the platform's upload host: the connector reaches it through its base URL
          uploadUrl: `https://www.linkedin.com/dms-uploads/sp/${id}/uploadedVideo/${i}?ca=vector_feedshare&cn=uploads&m=${p.signature}&app=${clientId}&sync=0&v=beta`,
          lastByte: p.lastByte,
          firstByte: p.firstByte,
        })),
        uploadToken: video.uploadToken,
      },
    });
  }

  /** PUT {uploadUrl}: one part's exact bytes, as application/octet-stream; answers the part's ETag. */
  function uploadPart(req: FakeRequest, id: string, index: number): FakeReply {
    const video = videosById.get(id);
    const part = video?.parts[index];
    if (!video || !part || req.query.get('m') !== part.signature) return { status: 403, body: 'The upload URL is not valid' };
    if (video.status !== 'WAITING_UPLOAD') return { status: 400, body: `The video is ${video.status}, not waiting for an upload` };
    if (req.headers['content-type'] !== 'application/octet-stream') return { status: 415, body: 'Content-Type must be application/octet-stream' };
    const expected = part.lastByte - part.firstByte + 1;
    if (req.body.length !== expected)
      return { status: 400, body: `Part ${index} is bytes ${part.firstByte}-${part.lastByte} (${expected} bytes), got ${req.body.length}` };
    video.partPuts++;
    part.bytes = req.body;
    part.etag = `/ambry-video/signedId/${crypto.createHash('sha256').update(req.body).digest('hex').slice(0, 40)}`;
    return { status: 201, headers: { etag: part.etag } };
  }

  /** POST /rest/videos?action=finalizeUpload: every part up, their ETags in the instructions' order. */
  function finalizeUpload(req: FakeRequest): FakeReply {
    const body = req.json;
    if (!isRecord(body) || !isRecord(body.finalizeUploadRequest)) return apiError(400, 'Missing required field: finalizeUploadRequest');
    const extra = [
      ...unpermitted(body, ['finalizeUploadRequest']),
      ...unpermitted(body.finalizeUploadRequest, ['video', 'uploadToken', 'uploadedPartIds'], '/finalizeUploadRequest'),
    ];
    if (extra.length) return unpermittedError(extra);
    const r = body.finalizeUploadRequest;
    const video = videos.get(r.video);
    if (!video) return apiError(404, `Video ${r.video} not found`);
    if (video.owner !== member.urn) return forbiddenVideo();
    if (video.status !== 'WAITING_UPLOAD') return apiError(400, `Video ${video.urn} is ${video.status}; its upload was already finalized`);
    if (r.uploadToken !== video.uploadToken) return apiError(400, 'The upload token does not match the video');
    const ids = r.uploadedPartIds;
    if (!Array.isArray(ids) || ids.length !== video.parts.length || video.parts.some((p, i) => !p.etag || ids[i] !== p.etag)) {
      return apiError(400, 'The uploaded part ids do not match the uploaded parts and their order');
    }
    video.bytes = Buffer.concat(video.parts.map((p) => p.bytes!));
    const reason = processingFailures.shift();
    if (reason) Object.assign(video, { status: 'PROCESSING', failureReason: reason, checksLeft: 0 });
    else Object.assign(video, fake.processingChecks > 0 ? { status: 'PROCESSING', checksLeft: fake.processingChecks } : { status: 'AVAILABLE' });
    return { status: 200 };
  }

  /** GET /rest/videos/{encoded urn}: the status, processing for `processingChecks` looks. */
  function getVideo(_req: FakeRequest, key: string): FakeReply {
    // a urn in a path is a Rest.li key: it must be encoded
    if (!/^urn%3Ali%3Avideo%3A[\w-]+$/i.test(key)) return apiError(400, `Invalid key "${key}": the urn must be URL-encoded`);
    const video = videos.get(decodeURIComponent(key));
    if (!video) return apiError(404, `Video ${decodeURIComponent(key)} not found`);
    if (video.owner !== member.urn) return forbiddenVideo();
    if (video.status === 'PROCESSING') {
      if (video.checksLeft > 0) video.checksLeft--;
      else video.status = video.failureReason ? 'PROCESSING_FAILED' : 'AVAILABLE';
    }
    return json(200, {
      id: video.urn,
      owner: video.owner,
      status: video.status,
      aspectRatioWidth: 9,
      aspectRatioHeight: 16,
      ...(video.status === 'AVAILABLE'
        ? { duration: 3000, downloadUrl: `https://dms.licdn.com/playlist/vid/${video.urn}`, downloadUrlExpiresAt: Date.now() + 3_600_000 }
        : {}),
      ...(video.status === 'PROCESSING_FAILED' ? { processingFailureReason: video.failureReason } : {}),
    });
  }

  // -------------------------------------------------------------------------
  // Posts: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api

  const ENUMS = {
    visibility: ['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER'],
    lifecycleState: ['DRAFT', 'PUBLISHED', 'PUBLISH_REQUESTED', 'PUBLISH_FAILED'],
    feedDistribution: ['MAIN_FEED', 'NONE'],
  };
  const notEnum = (path: string, value: unknown) => schemaError(path, `${JSON.stringify(value)} is not an enum symbol`);

  /** POST /rest/posts: a member's video post; 201 with its urn in x-restli-id. */
  function createPost(req: FakeRequest): FakeReply {
    const b = req.json;
    if (!isRecord(b)) return apiError(400, 'Could not parse the request body as JSON');
    const extra = [
      ...unpermitted(b, [
        'author',
        'commentary',
        'visibility',
        'distribution',
        'content',
        'lifecycleState',
        'isReshareDisabledByAuthor',
        'contentLandingPage',
        'contentCallToActionLabel',
        'container',
        'reshareContext',
      ]),
      ...(isRecord(b.distribution)
        ? unpermitted(b.distribution, ['feedDistribution', 'targetEntities', 'thirdPartyDistributionChannels'], '/distribution')
        : []),
      ...(isRecord(b.content) ? unpermitted(b.content, ['media', 'article', 'multiImage', 'poll', 'celebration', 'carousel'], '/content') : []),
      ...(isRecord(b.content?.media) ? unpermitted(b.content.media, ['id', 'title', 'altText'], '/content/media') : []),
    ];
    if (extra.length) return unpermittedError(extra);
    for (const field of ['author', 'visibility', 'distribution', 'lifecycleState']) {
      if (b[field] === undefined) return schemaError(`/${field}`, 'field is required but not found and has no default value');
    }
    if (b.author !== member.urn) return schemaError('/author', `${JSON.stringify(b.author)} is not the authenticated member`);
    if (!ENUMS.visibility.includes(b.visibility)) return notEnum('/visibility', b.visibility);
    if (!ENUMS.lifecycleState.includes(b.lifecycleState)) return notEnum('/lifecycleState', b.lifecycleState);
    if (!isRecord(b.distribution) || !ENUMS.feedDistribution.includes(b.distribution.feedDistribution))
      return notEnum('/distribution/feedDistribution', b.distribution?.feedDistribution);
    if (b.isReshareDisabledByAuthor !== undefined && typeof b.isReshareDisabledByAuthor !== 'boolean')
      return schemaError('/isReshareDisabledByAuthor', 'is not a boolean');
    if (b.commentary !== undefined && typeof b.commentary !== 'string') return schemaError('/commentary', 'is not a string');
    const commentary = b.commentary ?? '';
    const text = renderLittleText(commentary);
    if (text.length > 3000) return schemaError('/commentary', `Text length ${text.length} exceeds the maximum length of 3000 characters`);
    const videoUrn = b.content?.media?.id;
    const video = typeof videoUrn === 'string' ? videos.get(videoUrn) : undefined;
    if (!video || video.owner !== member.urn) return schemaError('/content/media/id', `${JSON.stringify(videoUrn)} is not a video of the author`);
    if (video.status !== 'AVAILABLE') return schemaError('/content/media/id', `Video ${video.urn} is ${video.status}, not AVAILABLE`);
    // the platform refuses the same text from the same author, naming the post it already has
    for (const [urn, p] of postRecords) {
      if (p.author === b.author && p.commentary === commentary) return apiError(422, `Content is a duplicate of ${urn}`, { code: 'DUPLICATE_POST' });
    }
    const urn = `urn:li:ugcPost:${++postSeq}`;
    postRecords.set(urn, { author: b.author, commentary, video: video.urn });
    posts.push({ id: urn, text, video: video.bytes! });
    return { status: 201, headers: { 'x-restli-id': urn, 'x-linkedin-id': urn } };
  }

  // -------------------------------------------------------------------------
  // Statistics:
  //   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics
  //   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/video-statistics

  /** GET /rest/memberCreator{Post,Video}Analytics?q=entity&entity=(share|ugc:{urn})&queryType=…&aggregation=TOTAL */
  function analytics(req: FakeRequest, version: string, types: readonly Metric[]): FakeReply {
    const q = req.query;
    if (q.get('q') !== 'entity') return apiError(400, `Invalid finder "${q.get('q')}": the imitation serves q=entity`);
    const entity = /^\((share|ugc):(urn:li:(share|ugcPost):[\w-]+)\)$/.exec(q.get('entity') ?? '');
    if (!entity || (entity[1] === 'share') !== (entity[3] === 'share'))
      return apiError(400, `Invalid entity "${q.get('entity')}": expected (share:{urn:li:share}) or (ugc:{urn:li:ugcPost})`);
    const type = q.get('queryType') as Metric;
    if (!types.includes(type)) return apiError(400, `Invalid queryType: ${JSON.stringify(type)} is not an enum symbol`);
    const aggregation = q.get('aggregation') ?? 'TOTAL';
    // the imitation keeps totals only
    if (aggregation !== 'TOTAL') return apiError(400, `aggregation ${aggregation} is not served by this imitation`);
    const post = postRecords.get(entity[2]);
    if (!post) return apiError(404, `Entity ${entity[2]} not found`);
    if (post.author !== member.urn)
      return apiError(403, `Not enough permissions to access: ${req.method} ${req.path}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    // since 202605 metricType is a string; before, a one-member union
    const metricType = version >= '202605' ? type : { 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1': type };
    const count = metrics.get(entity[2])?.[type] ?? 0;
    return json(200, { paging: { start: 0, count: 10, links: [] }, elements: [{ count, metricType, targetEntity: { [entity[1]]: entity[2] } }] });
  }

  // -------------------------------------------------------------------------

  async function handle(req: FakeRequest): Promise<FakeReply> {
    if (req.method === 'GET' && req.path === '/oauth/v2/authorization') return authorize(req);
    if (req.method === 'POST' && req.path === '/oauth/v2/accessToken') return token(req);
    const upload = /^\/dms-uploads\/sp\/([\w-]+)\/uploadedVideo\/(\d+)$/.exec(req.path);
    if (req.method === 'PUT' && upload) return uploadPart(req, upload[1], Number(upload[2]));
    if (!req.path.startsWith('/v2/') && !req.path.startsWith('/rest/')) return apiError(404, 'No virtual resource found');
    const failed = failures.shift();
    if (failed) return failed;
    if (req.method === 'GET' && req.path === '/v2/me') return me(req);
    if (!req.path.startsWith('/rest/')) return apiError(404, 'No virtual resource found');
    const version = versioned(req);
    if (typeof version !== 'string') return version;
    const write = (then: (r: FakeRequest) => FakeReply) => {
      const t = bearer(req, 'w_member_social');
      if ('status' in t) return t;
      if (!/application\/json/.test(req.headers['content-type'] ?? '')) return apiError(415, 'Content-Type must be application/json');
      return then(req);
    };
    if (req.method === 'GET' && req.path === '/rest/memberFollowersCount') return followers(req);
    if (req.method === 'POST' && req.path === '/rest/videos') {
      const action = req.query.get('action');
      if (action === 'initializeUpload') return write(initializeUpload);
      if (action === 'finalizeUpload') return write(finalizeUpload);
      return apiError(400, `Unknown action "${action}"`);
    }
    const videoKey = /^\/rest\/videos\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && videoKey) {
      const t = bearer(req, 'w_member_social');
      return 'status' in t ? t : getVideo(req, videoKey[1]);
    }
    if (req.method === 'POST' && req.path === '/rest/posts') return write(createPost);
    for (const [path, types] of [
      ['/rest/memberCreatorPostAnalytics', POST_METRICS],
      ['/rest/memberCreatorVideoAnalytics', VIDEO_METRICS],
    ] as const) {
      if (req.method === 'GET' && req.path === path) {
        const t = bearer(req, 'r_member_postAnalytics');
        return 'status' in t ? t : analytics(req, version, types);
      }
    }
    return apiError(404, 'No virtual resource found');
  }

  const server = await startFake(handle);
  const fake: ProsocialFake = {
    ...server,
    clientId,
    clientSecret,
    redirectUri: opts.redirectUri,
    posts,
    member,
    issueRefreshTokens: true,
    videos,
    metrics,
    issued: { accessTokens: [], refreshTokens: [] },
    processingChecks: 0,
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(failure(kind));
    },
    failNextWith(reply) {
      failures.push(reply);
    },
    failProcessing(reason) {
      processingFailures.push(reason);
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expired = true;
    },
    revokeRefreshTokens() {
      for (const t of refreshTokens.values()) t.revoked = true;
    },
  };
  return fake;
}
