/**
 * An imitation of the long-form video platform (YouTube): Google's OAuth 2.0
 * endpoints for web server apps and the YouTube Data API v3 endpoints the
 * connector uses, with their request and answer shapes and their error
 * bodies ({error: {code, message, errors: [{message, domain, reason}], status}}).
 * Every host (accounts.google.com, oauth2.googleapis.com, www.googleapis.com)
 * is this one server; their paths do not collide. It refuses what the
 * documentation does not allow: a missing or wrong token or scope, an unknown
 * part, field or enum value, a chunk out of order, of a size the resumable
 * protocol refuses, or whose Content-Range does not match its bytes.
 */
import crypto from 'node:crypto';
import { startFake, type FakeReply, type FakeRequest, type PlatformFake } from './server.js';

const SCOPE = (s: string) => `https://www.googleapis.com/auth/${s}`;
const KNOWN_SCOPES = new Set(
  ['youtube', 'youtube.force-ssl', 'youtube.readonly', 'youtube.upload', 'youtubepartner', 'youtubepartner-channel-audit', 'yt-analytics.readonly'].map(SCOPE),
);
/** The scopes each method takes, as its reference page lists them. */
const ACCEPTS = {
  channelsList: ['youtube', 'youtube.force-ssl', 'youtube.readonly', 'youtubepartner', 'youtubepartner-channel-audit'].map(SCOPE),
  videosInsert: ['youtube', 'youtube.force-ssl', 'youtube.upload', 'youtubepartner'].map(SCOPE),
  videosList: ['youtube', 'youtube.force-ssl', 'youtube.readonly', 'youtubepartner'].map(SCOPE),
  commentThreads: [SCOPE('youtube.force-ssl')],
};
const VIDEO_PARTS = new Set([
  'contentDetails',
  'fileDetails',
  'id',
  'liveStreamingDetails',
  'localizations',
  'player',
  'processingDetails',
  'recordingDetails',
  'snippet',
  'statistics',
  'status',
  'suggestions',
  'topicDetails',
]);
const CHANNEL_PARTS = new Set([
  'auditDetails',
  'brandingSettings',
  'contentDetails',
  'contentOwnerDetails',
  'id',
  'localizations',
  'snippet',
  'statistics',
  'status',
  'topicDetails',
]);
/** The fields of a video resource an insert may set (VideoSnippet, VideoStatus). */
const SNIPPET_FIELDS = new Set(['title', 'description', 'tags', 'categoryId', 'defaultLanguage', 'defaultAudioLanguage']);
const STATUS_FIELDS = new Set([
  'privacyStatus',
  'embeddable',
  'license',
  'publicStatsViewable',
  'publishAt',
  'selfDeclaredMadeForKids',
  'containsSyntheticMedia',
]);
const PRIVACY = new Set(['public', 'unlisted', 'private']);
/** The assignable video categories (videoCategories.list, regionCode US). */
const CATEGORIES = new Set(['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29']);
/** The resumable protocol's granularity: every chunk but the last is a multiple of it. */
const CHUNK_UNIT = 256 * 1024;
const API_HOST = 'https://www.googleapis.com';

export interface FakeVideo {
  id: string;
  channelId: string;
  snippet: Record<string, unknown>;
  status: Record<string, unknown>;
  bytes: Buffer;
  /** status checks it stays processing for */
  processingChecks: number;
  checks: number;
  /** the platform's rejection once processed (rejectionReason) */
  rejection?: string;
  statistics: { viewCount: number; likeCount: number; commentCount: number };
}

export interface FakeComment {
  id: string;
  videoId: string;
  text: string;
  authorChannelId: string;
}

export interface VideoshareFake extends PlatformFake {
  /** the connected account's channel */
  channelId: string;
  subscriberCount: number;
  videos: Map<string, FakeVideo>;
  comments: FakeComment[];
  /** every chunk taken, in order: its session, first byte and length */
  chunks: Array<{ session: string; start: number; length: number }>;
  /** comments are off on every video (commentThreads.insert answers commentsDisabled) */
  commentsDisabled: boolean;
  /** the next upload is rejected by the platform once processed, for this rejectionReason */
  rejectNextUpload(reason: string): void;
}

type Kind = 'retry' | 'bad_request' | 'reauthorize' | 'disconnected';

interface Session {
  id: string;
  channelId: string;
  total: number;
  contentType: string;
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  received: Buffer[];
  size: number;
  videoId?: string;
}

const random = (bytes = 18) => crypto.randomBytes(bytes).toString('base64url');

/** The platform's error body (https://developers.google.com/youtube/v3/docs/errors). */
function apiError(code: number, message: string, reason: string, domain: string, more: Record<string, unknown> = {}): FakeReply {
  const status = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' }[code];
  return { status: code, body: { error: { code, message, errors: [{ message, domain, reason, ...more }], ...(status ? { status } : {}) } } };
}

const badRequest = (message: string, reason = 'badRequest', domain = 'global') => apiError(400, message, reason, domain);
const unknownField = (name: string, at: string) =>
  badRequest(`Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`, 'invalid');

/** What failNext answers for each class: the platform's own errors of that class. */
const FAILURES: Record<Kind, () => FakeReply> = {
  // quota: 403 with no Retry-After; it resets at midnight Pacific time
  retry: () =>
    apiError(
      403,
      'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
      'quotaExceeded',
      'youtube.quota',
    ),
  bad_request: () =>
    apiError(400, 'The request metadata specifies an invalid video title.', 'invalidTitle', 'youtube.video', {
      location: 'body.snippet.title',
      locationType: 'other',
    }),
  reauthorize: () => invalidCredentials(),
  disconnected: () => apiError(403, 'The YouTube account of the authenticated user is closed.', 'authenticatedUserAccountClosed', 'youtube.common'),
};

function invalidCredentials(): FakeReply {
  return apiError(
    401,
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    'authError',
    'global',
    { location: 'Authorization', locationType: 'header' },
  );
}

/** The consent page's refusal: the platform shows an error page, it does not redirect. */
const consentError = (status: number, error: string, detail: string): FakeReply => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<html><body><h1>Access blocked: Authorization Error</h1><p>${detail}</p><p>Error ${status}: ${error}</p></body></html>`,
});

/** The token endpoint's error (RFC 6749 5.2 as the platform words it). */
const tokenError = (status: number, error: string, description: string): FakeReply => ({ status, body: { error, error_description: description } });

const S256 = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url');

/** A part parameter: required, each name known. */
function partsOf(req: FakeRequest, known: Set<string>): Set<string> | FakeReply {
  const part = req.query.get('part');
  if (!part) return apiError(400, 'Required parameter: part', 'required', 'global', { location: 'part', locationType: 'parameter' });
  const parts = part.split(',').map((p) => p.trim());
  const unknown = parts.find((p) => !known.has(p));
  if (unknown !== undefined) return apiError(400, `'${unknown}'`, 'unknownPart', 'youtube.part', { location: 'part', locationType: 'parameter' });
  return new Set(parts);
}

/** A reply rather than what a check read (a video resource has a `status` too, an object). */
const isReply = (v: unknown): v is FakeReply => typeof v === 'object' && v !== null && typeof (v as FakeReply).status === 'number';

/** The characters snippet.tags counts: commas between tags, quotes around a tag with a space. */
const tagsLength = (tags: string[]) => tags.reduce((n, t) => n + t.length + (t.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);

function checkVideoResource(body: unknown, parts: Set<string>): FakeReply | Session['resource'] {
  if (typeof body !== 'object' || body === null)
    return badRequest('The request metadata is missing or is not a JSON object.', 'invalidVideoMetadata', 'youtube.video');
  const { snippet = {}, status = {}, ...rest } = body as Record<string, Record<string, unknown>>;
  const other = Object.keys(rest).find((k) => !VIDEO_PARTS.has(k));
  if (other) return unknownField(other, 'resource');
  for (const k of Object.keys(snippet)) if (!SNIPPET_FIELDS.has(k)) return unknownField(k, 'resource.snippet');
  for (const k of Object.keys(status)) if (!STATUS_FIELDS.has(k)) return unknownField(k, 'resource.status');
  const title = snippet.title;
  if (typeof title !== 'string' || !title.trim() || [...title].length > 100 || /[<>]/.test(title)) {
    return apiError(400, 'The request metadata specifies an invalid video title.', 'invalidTitle', 'youtube.video', {
      location: 'body.snippet.title',
      locationType: 'other',
    });
  }
  const description = snippet.description ?? '';
  if (typeof description !== 'string' || Buffer.byteLength(description) > 5000 || /[<>]/.test(description)) {
    return apiError(400, 'The request metadata specifies an invalid video description.', 'invalidDescription', 'youtube.video');
  }
  const tags = snippet.tags ?? [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string') || tagsLength(tags as string[]) > 500) {
    return apiError(400, 'The request metadata specifies invalid video keywords.', 'invalidTags', 'youtube.video');
  }
  if (snippet.categoryId !== undefined && !CATEGORIES.has(String(snippet.categoryId))) {
    return apiError(400, 'The request metadata specifies an invalid video category.', 'invalidCategoryId', 'youtube.video');
  }
  if (status.privacyStatus !== undefined && !PRIVACY.has(String(status.privacyStatus))) {
    return badRequest(`Invalid value at 'resource.status.privacy_status', "${String(status.privacyStatus)}"`, 'invalid');
  }
  if (status.selfDeclaredMadeForKids !== undefined && typeof status.selfDeclaredMadeForKids !== 'boolean') {
    return badRequest(`Invalid value at 'resource.status.self_declared_made_for_kids', "${String(status.selfDeclaredMadeForKids)}"`, 'invalid');
  }
  // a write sets only the parts it names; the rest of the body is ignored
  return {
    snippet: parts.has('snippet') ? { ...snippet, categoryId: String(snippet.categoryId ?? '22') } : { title: 'unknown', categoryId: '22' },
    status: parts.has('status') ? { privacyStatus: 'public', ...status } : { privacyStatus: 'public' },
  };
}

export async function startPlatformFake(opts: { redirectUri: string }): Promise<VideoshareFake> {
  const clientId = `${random(9)}.apps.googleusercontent.com`;
  const clientSecret = `GOCSPX-${random(21)}`;
  const channelId = `UC${random(16).slice(0, 22)}`;
  const codes = new Map<string, { redirectUri: string; scope: string; challenge: string; method: string; offline: boolean; used: boolean }>();
  const accessTokens = new Map<string, { scope: string[]; expired: boolean }>();
  const refreshTokens = new Map<string, { scope: string; revoked: boolean }>();
  const sessions = new Map<string, Session>();
  const failures: Kind[] = [];
  let consented = false;
  let rejectNext: string | undefined;

  const fake = {} as VideoshareFake;

  function issueAccess(scope: string) {
    const token = `ya29.${random(60)}`;
    accessTokens.set(token, { scope: scope.split(' '), expired: false });
    return token;
  }

  /** The bearer token of an API call, with one of the method's scopes; a reply when it is refused. */
  function authorise(req: FakeRequest, accepted: string[]): FakeReply | null {
    if (!req.bearer) {
      return apiError(
        401,
        'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        'required',
        'global',
        { location: 'Authorization', locationType: 'header' },
      );
    }
    const token = accessTokens.get(req.bearer);
    if (!token || token.expired) return invalidCredentials();
    if (!token.scope.some((s) => accepted.includes(s)))
      return apiError(403, 'Request had insufficient authentication scopes.', 'insufficientPermissions', 'global');
    return null;
  }

  // https://developers.google.com/identity/protocols/oauth2/web-server#creatingclient (step 2: redirect to Google's OAuth 2.0 server)
  function authorize(req: FakeRequest): FakeReply {
    const q = req.query;
    if (q.get('client_id') !== clientId) return consentError(401, 'invalid_client', 'The OAuth client was not found.');
    if (q.get('redirect_uri') !== opts.redirectUri)
      return consentError(400, 'redirect_uri_mismatch', "You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy.");
    if (q.get('response_type') !== 'code')
      return consentError(400, 'unsupported_response_type', `Unsupported response_type: ${q.get('response_type') ?? '(none)'}`);
    const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
    if (!scopes.length) return consentError(400, 'invalid_request', 'Missing required parameter: scope');
    const unknown = scopes.find((s) => !KNOWN_SCOPES.has(s));
    if (unknown) return consentError(400, 'invalid_scope', `Some requested scopes were invalid. {invalid=[${unknown}]}`);
    const accessType = q.get('access_type') ?? 'online';
    if (accessType !== 'online' && accessType !== 'offline') return consentError(400, 'invalid_request', `Invalid access_type: ${accessType}`);
    // PKCE is optional for a web client on the platform; this fake demands it, as the connector uses it
    const challenge = q.get('code_challenge');
    const method = q.get('code_challenge_method') ?? 'plain';
    if (!challenge) return consentError(400, 'invalid_request', 'Missing required parameter: code_challenge');
    if (method !== 'S256' && method !== 'plain') return consentError(400, 'invalid_request', `Invalid code_challenge_method: ${method}`);
    // a refresh token comes with the first consent, and again only when consent is asked for anew
    const offline = accessType === 'offline' && (!consented || (q.get('prompt') ?? '').split(' ').includes('consent'));
    consented = true;
    const code = `4/${random(40)}`;
    codes.set(code, { redirectUri: opts.redirectUri, scope: scopes.join(' '), challenge, method, offline, used: false });
    const to = new URL(opts.redirectUri);
    if (q.get('state') !== null) to.searchParams.set('state', q.get('state')!);
    to.searchParams.set('code', code);
    to.searchParams.set('scope', scopes.join(' '));
    return { status: 302, headers: { location: to.toString() } };
  }

  // https://developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code
  // https://developers.google.com/identity/protocols/oauth2/web-server#offline (refreshing an access token)
  function token(req: FakeRequest): FakeReply {
    if (!/application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '')) return tokenError(400, 'invalid_request', 'Bad Request');
    const f = req.form;
    // the client authenticates in the body or with HTTP Basic; the platform takes either
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent) : [f.get('client_id'), f.get('client_secret')];
    if (id !== clientId || secret !== clientSecret) return tokenError(401, 'invalid_client', 'Unauthorized');
    const grant = f.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(f.get('code') ?? '');
      if (!code) return tokenError(400, 'invalid_grant', 'Malformed auth code.');
      if (code.used) return tokenError(400, 'invalid_grant', 'Bad Request');
      if (f.get('redirect_uri') !== code.redirectUri) return tokenError(400, 'redirect_uri_mismatch', 'Bad Request');
      const verifier = f.get('code_verifier');
      if (!verifier) return tokenError(400, 'invalid_grant', 'Missing code verifier.');
      if ((code.method === 'S256' ? S256(verifier) : verifier) !== code.challenge) return tokenError(400, 'invalid_grant', 'Invalid code verifier.');
      code.used = true;
      const refresh = code.offline ? `1//${random(60)}` : undefined;
      if (refresh) refreshTokens.set(refresh, { scope: code.scope, revoked: false });
      return {
        body: {
          access_token: issueAccess(code.scope),
          expires_in: 3599,
          ...(refresh ? { refresh_token: refresh } : {}),
          scope: code.scope,
          token_type: 'Bearer',
        },
      };
    }
    if (grant === 'refresh_token') {
      const refresh = refreshTokens.get(f.get('refresh_token') ?? '');
      if (!refresh || refresh.revoked) return tokenError(400, 'invalid_grant', 'Token has been expired or revoked.');
      // the refresh token is not rotated: the answer has none
      return { body: { access_token: issueAccess(refresh.scope), expires_in: 3599, scope: refresh.scope, token_type: 'Bearer' } };
    }
    return tokenError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
  }

  function channelResource(parts: Set<string>) {
    const all: Record<string, unknown> = {
      snippet: { title: 'Clip Studio', description: 'Clips every week', customUrl: '@clipstudio', publishedAt: '2021-03-04T10:00:00Z', thumbnails: {} },
      statistics: { viewCount: '98000', subscriberCount: String(fake.subscriberCount), hiddenSubscriberCount: false, videoCount: String(fake.videos.size) },
      status: { privacyStatus: 'public', isLinked: true, longUploadsStatus: 'allowed' },
    };
    return { kind: 'youtube#channel', etag: random(9), id: channelId, ...Object.fromEntries([...parts].filter((p) => p in all).map((p) => [p, all[p]])) };
  }

  // https://developers.google.com/youtube/v3/docs/channels/list
  function channelsList(req: FakeRequest): FakeReply {
    const parts = partsOf(req, CHANNEL_PARTS);
    if (isReply(parts)) return parts;
    if (req.query.get('mine') !== 'true' && !req.query.get('id')) {
      return apiError(
        400,
        'No filter selected. Expected one of: forHandle, forUsername, id, managedByMe, mine, mySubscribers, categoryId',
        'missingRequiredParameter',
        'youtube.parameter',
      );
    }
    const items = req.query.get('mine') === 'true' || req.query.get('id')?.split(',').includes(channelId) ? [channelResource(parts)] : [];
    return { body: { kind: 'youtube#channelListResponse', etag: random(9), pageInfo: { totalResults: items.length, resultsPerPage: 5 }, items } };
  }

  // https://developers.google.com/youtube/v3/docs/videos/insert
  // https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol (step 1: start a resumable session)
  function startUpload(req: FakeRequest): FakeReply {
    if (req.query.get('uploadType') !== 'resumable')
      return badRequest(`Invalid upload type: ${req.query.get('uploadType') ?? '(none)'}; this method is uploaded to with uploadType=resumable`, 'invalid');
    const parts = partsOf(req, VIDEO_PARTS);
    if (isReply(parts)) return parts;
    const total = Number(req.headers['x-upload-content-length']);
    if (!Number.isInteger(total) || total <= 0) return badRequest('X-Upload-Content-Length must be the number of bytes of the video', 'invalid');
    const contentType = String(req.headers['x-upload-content-type'] ?? '');
    if (!/^video\/[\w.+-]+$/.test(contentType) && contentType !== 'application/octet-stream') {
      return badRequest(`Media type '${contentType}' is not supported. Valid media types: [video/*, application/octet-stream]`, 'badContent');
    }
    if (!/^application\/json/.test(req.headers['content-type'] ?? '')) return badRequest('The video resource must be sent as application/json', 'parseError');
    const resource = checkVideoResource(req.json, parts);
    if (isReply(resource)) return resource;
    const id = random(24);
    sessions.set(id, { id, channelId, total, contentType, resource, received: [], size: 0 });
    const location = `${API_HOST}/upload/youtube/v3/videos?uploadType=resumable&part=${encodeURIComponent(req.query.get('part')!)}&upload_id=${id}`;
    return { status: 200, headers: { location, 'x-guploader-uploadid': id }, body: '' };
  }

  function videoResource(video: FakeVideo, parts: Set<string>, owner: boolean) {
    const processing = video.checks <= video.processingChecks;
    const rejected = !processing && video.rejection;
    const left = video.processingChecks - video.checks + 1;
    const all: Record<string, unknown> = {
      snippet: {
        ...video.snippet,
        channelId: video.channelId,
        channelTitle: 'Clip Studio',
        publishedAt: new Date().toISOString(),
        liveBroadcastContent: 'none',
      },
      status: {
        ...video.status,
        uploadStatus: processing ? 'uploaded' : rejected ? 'rejected' : 'processed',
        ...(rejected ? { rejectionReason: video.rejection } : {}),
        license: 'youtube',
        embeddable: true,
        publicStatsViewable: true,
        madeForKids: video.status.selfDeclaredMadeForKids === true,
      },
      statistics: {
        viewCount: String(video.statistics.viewCount),
        likeCount: String(video.statistics.likeCount),
        favoriteCount: '0',
        commentCount: String(video.statistics.commentCount),
      },
      // owner-only
      ...(owner
        ? {
            processingDetails: processing
              ? {
                  processingStatus: 'processing',
                  processingProgress: { partsTotal: '100', partsProcessed: String(100 - left * 10), timeLeftMs: String(left * 20_000) },
                }
              : { processingStatus: 'succeeded', fileDetailsAvailability: 'available', thumbnailsAvailability: 'available' },
          }
        : {}),
    };
    return { kind: 'youtube#video', etag: random(9), id: video.id, ...Object.fromEntries([...parts].filter((p) => p in all).map((p) => [p, all[p]])) };
  }

  // https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol (steps 3 and 4: upload, check, resume; uploading in chunks)
  function uploadChunk(req: FakeRequest): FakeReply {
    const session = sessions.get(req.query.get('upload_id') ?? '');
    if (!session) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' };
    const text = (status: number, body: string): FakeReply => ({ status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body });
    const range = String(req.headers['content-range'] ?? '');
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared !== req.body.length) return text(400, 'Content-Length does not match the bytes of the request.');
    const done = () => ({ status: 201, body: videoResource(fake.videos.get(session.videoId!)!, new Set(['snippet', 'status']), true) });
    const incomplete = (): FakeReply => ({ status: 308, headers: session.size > 0 ? { range: `bytes=0-${session.size - 1}` } : {}, body: '' });
    const query = /^bytes \*\/(\d+)$/.exec(range);
    if (query) {
      // Step 4.1: check the status of an upload (an empty PUT)
      if (req.body.length) return text(400, 'A status request carries no bytes.');
      if (Number(query[1]) !== session.total) return text(400, `Content-Range total ${query[1]} differs from the session's ${session.total} bytes.`);
      return session.videoId ? done() : incomplete();
    }
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!m) return text(400, 'Failed to parse Content-Range header.');
    const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (total !== session.total) return text(400, `Content-Range total ${total} differs from the session's ${session.total} bytes.`);
    if (session.videoId) return done();
    if (first !== session.size) {
      return text(
        400,
        `Invalid request. According to the Content-Range header, the upload offset is ${first} byte(s), which differs from the ${session.size} byte(s) already uploaded.`,
      );
    }
    if (last < first || last >= total || last - first + 1 !== req.body.length) return text(400, 'Content-Range does not match the bytes of the request.');
    const final = last === total - 1;
    if (!final && req.body.length % CHUNK_UNIT !== 0) {
      return text(
        400,
        `Invalid request. The number of bytes uploaded is required to be equal or greater than ${CHUNK_UNIT}, except for the final request (it's recommended to be the exact multiple of ${CHUNK_UNIT}). The received request contained ${req.body.length} bytes, which does not meet this requirement.`,
      );
    }
    if (req.headers['content-type'] !== session.contentType) return text(400, `Content-Type must be the session's ${session.contentType}.`);
    session.received.push(req.body);
    session.size += req.body.length;
    fake.chunks.push({ session: session.id, start: first, length: req.body.length });
    if (!final) return incomplete();
    // the upload is complete: the video exists and is published with its privacy status
    const video: FakeVideo = {
      id: random(8).slice(0, 11),
      channelId: session.channelId,
      snippet: session.resource.snippet,
      status: session.resource.status,
      bytes: Buffer.concat(session.received),
      processingChecks: fake.processingChecks,
      checks: 0,
      rejection: rejectNext,
      statistics: { viewCount: 0, likeCount: 0, commentCount: 0 },
    };
    rejectNext = undefined;
    session.videoId = video.id;
    fake.videos.set(video.id, video);
    fake.posts.push({ id: video.id, text: String(video.snippet.title), video: video.bytes });
    return done();
  }

  // https://developers.google.com/youtube/v3/docs/videos/list
  function videosList(req: FakeRequest): FakeReply {
    const parts = partsOf(req, VIDEO_PARTS);
    if (isReply(parts)) return parts;
    const ids = req.query.get('id');
    if (!ids) return apiError(400, 'No filter selected. Expected one of: chart, id, myRating', 'missingRequiredParameter', 'youtube.parameter');
    const items = ids
      .split(',')
      .map((id) => fake.videos.get(id))
      .filter((v): v is FakeVideo => v !== undefined)
      .map((video) => {
        const owner = video.channelId === channelId;
        // each look at its processing is one step of it
        if (owner && (parts.has('processingDetails') || parts.has('status'))) video.checks += 1;
        return videoResource(video, parts, owner);
      });
    return { body: { kind: 'youtube#videoListResponse', etag: random(9), items, pageInfo: { totalResults: items.length, resultsPerPage: items.length } } };
  }

  function threadResource(c: FakeComment, textFormat: string) {
    const snippet = {
      channelId,
      videoId: c.videoId,
      textDisplay: textFormat === 'plainText' ? c.text : c.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>'),
      textOriginal: c.text,
      authorDisplayName: 'Clip Studio',
      authorChannelId: { value: c.authorChannelId },
      canRate: true,
      viewerRating: 'none',
      likeCount: 0,
      publishedAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    return {
      kind: 'youtube#commentThread',
      etag: random(9),
      id: c.id,
      snippet: {
        channelId,
        videoId: c.videoId,
        topLevelComment: { kind: 'youtube#comment', etag: random(9), id: c.id, snippet },
        canReply: true,
        totalReplyCount: 0,
        isPublic: true,
      },
    };
  }

  const videoNotFound = () =>
    apiError(
      404,
      'The video identified by the <code><a href="/youtube/v3/docs/commentThreads/list#videoId">videoId</a></code> parameter could not be found.',
      'videoNotFound',
      'youtube.commentThread',
      { location: 'videoId', locationType: 'parameter' },
    );

  // https://developers.google.com/youtube/v3/docs/commentThreads/list
  function threadsList(req: FakeRequest): FakeReply {
    const parts = partsOf(req, new Set(['id', 'snippet', 'replies']));
    if (isReply(parts)) return parts;
    const videoId = req.query.get('videoId');
    if (!videoId)
      return apiError(
        400,
        'No filter selected. Expected one of: allThreadsRelatedToChannelId, channelId, id, videoId',
        'missingRequiredParameter',
        'youtube.parameter',
      );
    const maxResults = Number(req.query.get('maxResults') ?? 20);
    if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 100)
      return badRequest(`Invalid value '${req.query.get('maxResults')}'. Values must be within the range: [1, 100]`, 'invalidParameter');
    const order = req.query.get('order') ?? 'time';
    if (order !== 'time' && order !== 'relevance') return badRequest(`Invalid value for order: ${order}`, 'invalidParameter');
    const textFormat = req.query.get('textFormat') ?? 'html';
    if (textFormat !== 'html' && textFormat !== 'plainText') return badRequest(`Invalid value for textFormat: ${textFormat}`, 'invalidParameter');
    if (!fake.videos.has(videoId)) return videoNotFound();
    const items = fake.comments
      .filter((c) => c.videoId === videoId)
      .reverse()
      .slice(0, maxResults)
      .map((c) => threadResource(c, textFormat));
    return {
      body: { kind: 'youtube#commentThreadListResponse', etag: random(9), pageInfo: { totalResults: items.length, resultsPerPage: maxResults }, items },
    };
  }

  // https://developers.google.com/youtube/v3/docs/commentThreads/insert
  function threadsInsert(req: FakeRequest): FakeReply {
    const parts = partsOf(req, new Set(['id', 'snippet', 'replies']));
    if (isReply(parts)) return parts;
    const body = req.json as { snippet?: Record<string, unknown> } | undefined;
    const other = Object.keys(body ?? {}).find((k) => k !== 'snippet');
    if (other) return unknownField(other, 'resource');
    const snippet = body?.snippet ?? {};
    const extra = Object.keys(snippet).find((k) => !['videoId', 'channelId', 'topLevelComment'].includes(k));
    if (extra) return unknownField(extra, 'resource.snippet');
    const comment = (snippet.topLevelComment as { snippet?: Record<string, unknown> } | undefined)?.snippet ?? {};
    const extraComment = Object.keys(comment).find((k) => k !== 'textOriginal');
    if (extraComment) return unknownField(extraComment, 'resource.snippet.top_level_comment.snippet');
    const videoId = snippet.videoId;
    if (typeof videoId !== 'string' || !fake.videos.has(videoId)) return videoNotFound();
    const text = comment.textOriginal;
    if (typeof text !== 'string' || !text.trim())
      return apiError(
        400,
        'The comment resource that is being inserted must specify a value for the snippet.topLevelComment.snippet.textOriginal property.',
        'commentTextRequired',
        'youtube.commentThread',
      );
    if ([...text].length > 10_000)
      return apiError(
        400,
        'The comment resource that is being inserted contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.',
        'commentTextTooLong',
        'youtube.commentThread',
      );
    if (fake.commentsDisabled)
      return apiError(
        403,
        'The video identified by the <code><a href="/youtube/v3/docs/commentThreads/insert#videoId">videoId</a></code> parameter has disabled comments.',
        'commentsDisabled',
        'youtube.commentThread',
      );
    const c: FakeComment = { id: `Ug${random(18)}`, videoId, text, authorChannelId: channelId };
    fake.comments.push(c);
    fake.videos.get(videoId)!.statistics.commentCount += 1;
    return { body: threadResource(c, 'plainText') };
  }

  /** An API call (not OAuth): a queued failure first, then its token, then the method. */
  function api(req: FakeRequest, accepted: string[], handler: (req: FakeRequest) => FakeReply): FakeReply {
    const failure = failures.shift();
    if (failure) return FAILURES[failure]();
    return authorise(req, accepted) ?? handler(req);
  }

  /** The OAuth endpoints as they are; the API's behind a queued failure and the token check, with the scopes each method takes. */
  const routes: Record<string, (req: FakeRequest) => FakeReply> = {
    'GET /o/oauth2/v2/auth': authorize,
    'POST /token': token,
  };
  const methods: Array<[string, string[], (req: FakeRequest) => FakeReply]> = [
    ['GET /youtube/v3/channels', ACCEPTS.channelsList, channelsList],
    ['POST /upload/youtube/v3/videos', ACCEPTS.videosInsert, startUpload],
    ['PUT /upload/youtube/v3/videos', ACCEPTS.videosInsert, uploadChunk],
    ['GET /youtube/v3/videos', ACCEPTS.videosList, videosList],
    ['GET /youtube/v3/commentThreads', ACCEPTS.commentThreads, threadsList],
    ['POST /youtube/v3/commentThreads', ACCEPTS.commentThreads, threadsInsert],
  ];
  for (const [route, accepted, handler] of methods) routes[route] = (req) => api(req, accepted, handler);
  const server = await startFake((req) => routes[`${req.method} ${req.path}`]?.(req) ?? apiError(404, 'Not Found', 'notFound', 'global'));

  return Object.assign(fake, server, {
    clientId,
    clientSecret,
    redirectUri: opts.redirectUri,
    posts: [],
    processingChecks: 0,
    channelId,
    subscriberCount: 1234,
    videos: new Map(),
    comments: [],
    chunks: [],
    commentsDisabled: false,
    failNext(kind: Kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expired = true;
    },
    revokeRefreshTokens() {
      for (const t of refreshTokens.values()) t.revoked = true;
    },
    rejectNextUpload(reason: string) {
      rejectNext = reason;
    },
  } satisfies Omit<VideoshareFake, keyof typeof server>);
}
