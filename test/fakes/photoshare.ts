/**
 * An imitation of the photoshare platform (Instagram's Graph API for
 * professional accounts, with Facebook Login for Business, v26.0): the login
 * dialog, the token endpoint with its long-lived exchange, the Pages and the
 * professional account, resumable containers with their upload host,
 * publishing, comments, insights. Each handler cites the page of the
 * documentation it follows.
 *
 * It refuses what the documentation does not allow, with the platform's
 * error shape ({error: {message, type, code, error_subcode, fbtrace_id}}):
 * a missing or unknown token, a permission the token was not granted, a field
 * a node does not have, an unknown media_type or metric (the retired
 * impressions and plays among them), a chunk at an offset other than the
 * bytes already received or beyond the file_size it declared, publishing a
 * container still processing.
 *
 * What it cannot imitate: the upload host's own error bodies are not in the
 * documentation; it answers {debug_info: {retriable, type, message}}, the
 * shape that host is seen to use. Nor does the documentation say what a
 * second media_publish of a published container does: this imitation
 * publishes it again (the worst case), so a connector that publishes twice
 * fails its test. It does not process video (an upload whose bytes are not an
 * MP4 ends in ERROR, any MP4 is accepted), expire containers after 24 hours,
 * count the 50-posts-a-day limit, or lag its listings.
 */
import crypto from 'node:crypto';
import { startFake, type FakeReply, type FakeRequest, type PlatformFake } from './server.js';

const VERSION = 'v26.0';
const UPLOAD_HOST = 'https://rupload.facebook.com';

/** Permission names the login dialog knows (permissions reference); any other is an "Invalid Scopes" page. */
const KNOWN_SCOPES = new Set([
  'public_profile',
  'email',
  'openid',
  'pages_show_list',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_posts',
  'pages_manage_metadata',
  'pages_manage_engagement',
  'business_management',
  'ads_management',
  'ads_read',
  'read_insights',
  'publish_video',
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'instagram_manage_messages',
  'instagram_shopping_tag_products',
]);

/** Fields each node type has (the references of IG User, IG Container, IG Media, IG Comment, Page). */
const FIELDS = {
  Page: ['id', 'name', 'category', 'tasks', 'access_token', 'instagram_business_account'],
  IGUser: ['id', 'ig_id', 'username', 'name', 'biography', 'website', 'profile_picture_url', 'followers_count', 'follows_count', 'media_count'],
  ShadowIGMediaBuilder: ['id', 'status', 'status_code', 'copyright_check_status'],
  IGMedia: [
    'id',
    'caption',
    'comments_count',
    'like_count',
    'media_product_type',
    'media_type',
    'media_url',
    'permalink',
    'shortcode',
    'thumbnail_url',
    'timestamp',
    'username',
    'owner',
  ],
  IGComment: ['id', 'text', 'username', 'timestamp', 'like_count', 'hidden', 'parent_id'],
} as const;

/** Insights by media kind (Instagram Media Insights reference, after the 2025 retirement of impressions and plays). */
const METRICS: Record<'REELS' | 'STORY', readonly string[]> = {
  REELS: ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions', 'ig_reels_avg_watch_time', 'ig_reels_video_view_total_time'],
  STORY: ['views', 'reach', 'replies', 'shares', 'total_interactions', 'follows', 'navigation', 'profile_activity', 'profile_visits'],
};

interface Token {
  scopes: Set<string>;
  expiresAt: number;
  revoked: boolean;
}

interface Container {
  id: string;
  mediaType: 'REELS' | 'STORIES';
  caption: string;
  createdAt: number;
  fileSize: number | null;
  parts: Buffer[];
  received: number;
  state: 'uploading' | 'processing' | 'finished' | 'error' | 'published';
  checksLeft: number;
  error?: string;
}

interface Media {
  id: string;
  containerId: string;
  productType: 'REELS' | 'STORY';
  caption: string;
  timestamp: string;
  shortcode: string;
  permalink: string;
  comments: Array<{ id: string; text: string; username: string; timestamp: string }>;
}

export interface PhotoshareFake extends PlatformFake {
  igUserId: string;
  pageId: string;
  username: string;
  followers: number;
  /** every access token handed out, to check none leaks into an error */
  issuedTokens(): string[];
  /** the comments on a published media */
  comments(mediaId: string): Array<{ id: string; text: string; username: string }>;
  /** the containers made, in order, with the bytes each received */
  containers(): Array<{ id: string; mediaType: string; received: number }>;
  /** the insights the platform reports for a media, by metric */
  insights(mediaId: string): Record<string, number>;
}

const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
const fbtraceId = () => crypto.randomBytes(8).toString('base64url');

/** The Graph API's error body (error-handling guide). */
function graphError(status: number, error: Record<string, unknown>, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, body: { error: { type: 'OAuthException', ...error, fbtrace_id: fbtraceId() } } };
}

/** A 190 carries the WWW-Authenticate header the platform sends with it. */
function tokenRefused(message: string, subcode?: number): FakeReply {
  return graphError(
    400,
    { message, code: 190, ...(subcode ? { error_subcode: subcode } : {}) },
    { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${message}"` },
  );
}

/** The upload host's refusal; its shape is not in the documentation (header comment). */
const uploadRefused = (status: number, type: string, message: string, retriable = false): FakeReply => ({
  status,
  body: { debug_info: { retriable, type, message } },
});

/** The login dialog's error page: shown to the user, never redirected. */
const dialogPage = (title: string, text: string): FakeReply => ({
  status: 400,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`,
});

/** Graph API parameters arrive in the query, a form or a JSON body, alike. */
function paramsOf(req: FakeRequest): Map<string, string> {
  const params = new Map<string, string>(req.query);
  for (const [k, v] of req.form) params.set(k, v);
  if (req.json && typeof req.json === 'object')
    for (const [k, v] of Object.entries(req.json as Record<string, unknown>)) params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return params;
}

export async function startPlatformFake(opts: { redirectUri: string }): Promise<PhotoshareFake> {
  const clientId = '784512369012345';
  const clientSecret = crypto.randomBytes(16).toString('hex');
  const igUserId = '17841400000000001';
  const pageId = '102030405060708';
  const username = 'test.creator';
  const tokens = new Map<string, Token>();
  const codes = new Map<string, { redirectUri: string; scopes: Set<string>; expiresAt: number; used: boolean }>();
  const containers = new Map<string, Container>();
  const media = new Map<string, Media>();
  const failures: Array<'retry' | 'bad_request' | 'reauthorize' | 'disconnected'> = [];
  let nextId = 1n;
  const newId = (prefix: bigint) => String(prefix + nextId++);

  function issue(scopes: Set<string>, seconds: number): { access_token: string; token_type: string; expires_in: number } {
    const token = `EAA${crypto.randomBytes(24).toString('base64url')}`;
    tokens.set(token, { scopes, expiresAt: Date.now() + seconds * 1000, revoked: false });
    return { access_token: token, token_type: 'bearer', expires_in: seconds };
  }

  /** Why a token is refused, or null when it is good (error-handling guide, authentication subcodes). */
  function tokenProblem(token: string | undefined): FakeReply | null {
    const t = token ? tokens.get(token) : undefined;
    if (!t) return tokenRefused('Invalid OAuth access token - Cannot parse access token');
    if (t.revoked)
      return tokenRefused(
        'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
        460,
      );
    if (t.expiresAt <= Date.now()) {
      return tokenRefused(
        `Error validating access token: Session has expired on ${new Date(t.expiresAt).toUTCString()}. The current time is ${new Date().toUTCString()}.`,
        463,
      );
    }
    return null;
  }

  // ---- Login dialog: https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#login
  function authorize(req: FakeRequest): FakeReply {
    const q = req.query;
    if (q.get('client_id') !== clientId) return dialogPage('Invalid App ID', 'The provided app ID does not look like a valid app ID.');
    if (q.get('redirect_uri') !== opts.redirectUri) {
      return dialogPage('URL blocked', "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.");
    }
    const responseType = q.get('response_type') ?? 'code';
    if (!['code', 'token', 'code token', 'granted_scopes'].includes(responseType)) return dialogPage('Error', `Invalid response_type: ${responseType}`);
    if (responseType !== 'code') return dialogPage('Error', 'This imitation answers only response_type=code');
    const scopes = (q.get('scope') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const invalid = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (invalid.length) return dialogPage('Invalid Scopes', `Invalid Scopes: ${invalid.join(', ')}. This message is only shown to developers.`);
    const code = crypto.randomBytes(24).toString('base64url');
    codes.set(code, { redirectUri: opts.redirectUri, scopes: new Set(scopes), expiresAt: Date.now() + 10 * 60_000, used: false });
    const back = new URL(opts.redirectUri);
    back.searchParams.set('code', code);
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    // the dialog appends this fragment to its redirects
    return { status: 302, headers: { location: `${back.toString()}#_=_` } };
  }

  // ---- Token endpoint: a code (https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow#confirm),
  // or a token for a long-lived one (https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived).
  // There are no refresh tokens: the long-lived token, while valid, is what is exchanged again.
  function token(req: FakeRequest): FakeReply {
    const p = paramsOf(req);
    if (p.get('client_id') !== clientId) return graphError(400, { message: 'Error validating application. Invalid application ID.', code: 101 });
    if (p.get('client_secret') !== clientSecret) return graphError(400, { message: 'Error validating client secret.', code: 1 });
    const grant = p.get('grant_type');
    if (grant === 'fb_exchange_token') {
      const old = p.get('fb_exchange_token');
      if (!old) return graphError(400, { message: 'Missing parameter: fb_exchange_token', code: 100 });
      const problem = tokenProblem(old);
      if (problem) return problem;
      return { body: issue(tokens.get(old)!.scopes, 5_183_944) };
    }
    if (grant !== undefined) return graphError(400, { message: `Unsupported grant_type: ${grant}`, code: 100 });
    const code = p.get('code');
    const entry = code ? codes.get(code) : undefined;
    if (!entry) return graphError(400, { message: 'Invalid verification code format.', code: 100 });
    if (p.get('redirect_uri') !== entry.redirectUri) {
      return graphError(400, {
        message: 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        code: 100,
        error_subcode: 36008,
      });
    }
    if (entry.used) return graphError(400, { message: 'This authorization code has been used.', code: 100, error_subcode: 36009 });
    if (entry.expiresAt <= Date.now()) return graphError(400, { message: 'This authorization code has expired.', code: 100, error_subcode: 36007 });
    entry.used = true;
    return { body: issue(entry.scopes, 5400) };
  }

  /** The error of each class that failNext asks for, as the platform answers it. */
  function failure(kind: 'retry' | 'bad_request' | 'reauthorize' | 'disconnected'): FakeReply {
    switch (kind) {
      // https://developers.facebook.com/docs/graph-api/overview/rate-limiting (Business Use Case limits, Instagram: 80002)
      case 'retry':
        return graphError(
          400,
          { message: 'There have been too many calls to this Instagram account. Wait a bit and try again.', code: 80002, is_transient: true },
          {
            'x-business-use-case-usage': JSON.stringify({
              [igUserId]: [{ type: 'instagram', call_count: 100, total_cputime: 12, total_time: 15, estimated_time_to_regain_access: 2 }],
            }),
          },
        );
      // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes
      case 'bad_request':
        return graphError(400, {
          message: 'The video format is not supported. Please check spec for supported streams format',
          code: 352,
          error_subcode: 2207026,
          is_transient: false,
          error_user_title: 'Unsupported format',
          error_user_msg: 'The video format is not supported. Please check spec for supported streams format',
        });
      // https://developers.facebook.com/docs/graph-api/guides/error-handling (authentication subcodes)
      case 'reauthorize':
        return tokenRefused(`Error validating access token: Session has expired on ${new Date().toUTCString()}.`, 463);
      case 'disconnected':
        return tokenRefused(`Error validating access token: The user has not authorized application ${clientId}.`, 458);
    }
  }

  /** `fields` of a read: each must exist on the node type, else the platform's (#100). */
  function fieldsOf(p: Map<string, string>, type: keyof typeof FIELDS, defaults: string[]): string[] | FakeReply {
    const asked = p.has('fields')
      ? p
          .get('fields')!
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean)
      : defaults;
    const known = FIELDS[type] as readonly string[];
    const bad = asked.find((f) => !known.includes(f));
    if (bad) return graphError(400, { message: `(#100) Tried accessing nonexisting field (${bad}) on node type (${type})`, code: 100 });
    return asked;
  }

  const pick = (record: Record<string, unknown>, fields: string[]) =>
    Object.fromEntries([...new Set(['id', ...fields])].filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));

  const missingPermission = (t: Token, ...needed: string[]): FakeReply | null => {
    const lacking = needed.find((s) => !t.scopes.has(s));
    return lacking ? graphError(403, { message: `(#10) Application does not have permission for this action (${lacking})`, code: 10 }) : null;
  };

  const noSuchObject = (id: string, method: string) =>
    graphError(400, {
      message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      code: 100,
      error_subcode: 33,
    });

  const unknownPath = (path: string) => graphError(400, { message: `Unknown path components: ${path}`, code: 2500 });

  function containerStatus(c: Container): { status_code: string; status: string } {
    if (c.state === 'processing') {
      if (c.checksLeft > 0) c.checksLeft -= 1;
      else c.state = 'finished';
    }
    switch (c.state) {
      case 'uploading':
      case 'processing':
        return { status_code: 'IN_PROGRESS', status: 'In Progress: Media is still being processed.' };
      case 'finished':
        return { status_code: 'FINISHED', status: 'Finished: Media has been uploaded and it is ready to be published.' };
      case 'published':
        return { status_code: 'PUBLISHED', status: 'Published: Media has been successfully published.' };
      case 'error':
        return { status_code: 'ERROR', status: c.error ?? 'Error: Media upload has failed.' };
    }
  }

  function insightsOf(m: Media): Record<string, number> {
    const seed = crypto.createHash('sha256').update(m.id).digest();
    const views = 1000 + seed.readUInt16BE(0);
    const likes = 50 + seed[2];
    const comments = m.comments.length;
    const shares = 5 + (seed[3] % 20);
    const saved = 3 + (seed[4] % 10);
    const replies = seed[5] % 7;
    const common = { views, reach: Math.floor(views * 0.8), shares, total_interactions: likes + comments + shares + saved };
    return m.productType === 'REELS'
      ? { ...common, likes, comments, saved, ig_reels_avg_watch_time: 2100, ig_reels_video_view_total_time: views * 2100 }
      : { ...common, total_interactions: replies + shares, replies, follows: 1, navigation: 40, profile_activity: 3, profile_visits: 2 };
  }

  function mediaRecord(m: Media): Record<string, unknown> {
    return {
      id: m.id,
      caption: m.productType === 'REELS' ? m.caption : undefined,
      comments_count: m.comments.length,
      like_count: m.productType === 'REELS' ? insightsOf(m).likes : undefined,
      media_product_type: m.productType,
      media_type: 'VIDEO',
      media_url: `https://scontent.cdninstagram.com/v/${m.shortcode}.mp4`,
      permalink: m.permalink,
      shortcode: m.shortcode,
      timestamp: m.timestamp,
      username,
      owner: { id: igUserId },
    };
  }

  // ---- Create a container: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#creating
  // and https://developers.facebook.com/docs/instagram-platform/content-publishing/resumable-uploads (upload_type=resumable → {id, uri})
  function createContainer(p: Map<string, string>): FakeReply {
    const mediaType = p.get('media_type');
    if (!mediaType || !['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'].includes(mediaType)) {
      return graphError(400, {
        message: `(#100) Param media_type must be one of {IMAGE, VIDEO, REELS, STORIES, CAROUSEL} - got "${mediaType ?? ''}"`,
        code: 100,
      });
    }
    const uploadType = p.get('upload_type');
    if (uploadType !== undefined && uploadType !== 'resumable')
      return graphError(400, { message: `(#100) Param upload_type must be resumable - got "${uploadType}"`, code: 100 });
    if ((mediaType !== 'REELS' && mediaType !== 'STORIES') || uploadType !== 'resumable') {
      return graphError(400, { message: '(#100) This imitation makes only REELS and STORIES containers with upload_type=resumable', code: 100 });
    }
    const shareToFeed = p.get('share_to_feed');
    if (shareToFeed !== undefined && (mediaType !== 'REELS' || !['true', 'false'].includes(shareToFeed))) {
      return graphError(400, { message: `(#100) Param share_to_feed must be a boolean, for REELS - got "${shareToFeed}"`, code: 100 });
    }
    const caption = p.get('caption') ?? '';
    if ([...caption].length > 2200) return graphError(400, { message: '(#100) The caption is longer than 2200 characters', code: 100 });
    const id = newId(17_900_000_000_000_000n);
    containers.set(id, { id, mediaType, caption, createdAt: Date.now(), fileSize: null, parts: [], received: 0, state: 'uploading', checksLeft: 0 });
    return { body: { id, uri: `${UPLOAD_HOST}/ig-api-upload/${VERSION}/${id}` } };
  }

  // ---- Upload the video: https://developers.facebook.com/docs/instagram-platform/content-publishing/resumable-uploads
  // Authorization: OAuth <token>; `offset` is where these bytes start, `file_size` the whole file's size.
  function upload(req: FakeRequest, version: string, containerId: string): FakeReply {
    const auth = req.headers.authorization ?? '';
    const problem = auth.startsWith('OAuth ') ? tokenProblem(auth.slice(6)) : null;
    if (!auth.startsWith('OAuth ') || problem || !tokens.get(auth.slice(6))!.scopes.has('instagram_content_publish')) {
      return uploadRefused(401, 'NotAuthorizedError', 'User not authorized to perform this request');
    }
    if (req.method !== 'POST' || version !== VERSION) return uploadRefused(400, 'ProcessingFailedError', 'Request processing failed');
    const c = containers.get(containerId);
    if (!c) return uploadRefused(400, 'ProcessingFailedError', `No upload session for ${containerId}`);
    if (c.state !== 'uploading') return uploadRefused(400, 'ProcessingFailedError', 'The upload is complete; it takes no more bytes');
    const offset = String(req.headers.offset ?? '');
    const fileSize = String(req.headers.file_size ?? '');
    if (!/^\d+$/.test(offset) || !/^[1-9]\d*$/.test(fileSize))
      return uploadRefused(400, 'ProcessingFailedError', 'The offset and file_size headers are required');
    if (c.fileSize !== null && Number(fileSize) !== c.fileSize)
      return uploadRefused(400, 'ProcessingFailedError', `file_size ${fileSize} differs from the ${c.fileSize} declared first`);
    if (Number(offset) !== c.received) return uploadRefused(400, 'ProcessingFailedError', `Offset ${offset} does not match the ${c.received} bytes received`);
    if (req.body.length === 0 || Number(offset) + req.body.length > Number(fileSize)) {
      return uploadRefused(400, 'ProcessingFailedError', `${req.body.length} bytes at offset ${offset} do not fit a file of ${fileSize} bytes`);
    }
    c.fileSize = Number(fileSize);
    c.parts.push(Buffer.from(req.body));
    c.received += req.body.length;
    if (c.received === c.fileSize) {
      const video = Buffer.concat(c.parts);
      // an MP4 starts with its ftyp box
      if (video.subarray(4, 8).toString('latin1') !== 'ftyp') {
        c.state = 'error';
        c.error = 'Error: Media upload has failed with error code 2207026';
      } else {
        c.state = 'processing';
        c.checksLeft = fake.processingChecks;
      }
    }
    return { body: { success: true, message: 'Upload successful.' } };
  }

  // ---- Publish: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media_publish
  function publish(p: Map<string, string>): FakeReply {
    const c = containers.get(p.get('creation_id') ?? '');
    if (!c)
      return graphError(400, {
        message: 'Invalid parameter',
        code: 100,
        error_user_msg: `The creation_id ${p.get('creation_id') ?? ''} is not a container of this account`,
      });
    const { status_code } = containerStatus(c);
    if (status_code === 'IN_PROGRESS') {
      return graphError(400, {
        message: 'Media ID is not available',
        code: 9007,
        error_subcode: 2207027,
        error_user_title: 'Media Not Ready For Publishing',
        error_user_msg: 'The media is not ready for publishing, please wait for a moment',
      });
    }
    if (status_code === 'ERROR') return graphError(400, { message: `(#100) ${c.error}`, code: 100 });
    // a published container is published again: the worst case (header comment)
    const id = newId(18_000_000_000_000_000n);
    const shortcode = crypto.createHash('sha1').update(id).digest('base64url').slice(0, 11);
    const productType = c.mediaType === 'REELS' ? 'REELS' : 'STORY';
    media.set(id, {
      id,
      containerId: c.id,
      productType,
      caption: c.caption,
      timestamp: graphTime(Date.now()),
      shortcode,
      permalink: productType === 'REELS' ? `https://www.instagram.com/reel/${shortcode}/` : `https://www.instagram.com/stories/${username}/${id}/`,
      comments: [],
    });
    c.state = 'published';
    fake.posts.push({ id, text: c.caption, video: Buffer.concat(c.parts) });
    return { body: { id } };
  }

  async function api(req: FakeRequest, path: string): Promise<FakeReply> {
    const failing = failures.shift();
    if (failing) return failure(failing);
    const auth = req.headers.authorization;
    const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : auth?.startsWith('OAuth ') ? auth.slice(6) : (req.query.get('access_token') ?? undefined);
    if (!bearer) {
      return path === 'me/accounts'
        ? graphError(400, { message: 'An active access token must be used to query information about the current user.', code: 2500 })
        : graphError(400, { message: 'An access token is required to request this resource.', code: 104 });
    }
    const problem = tokenProblem(bearer);
    if (problem) return problem;
    const t = tokens.get(bearer)!;
    const p = paramsOf(req);
    const [node, edge, ...more] = path.split('/');
    if (more.length) return unknownPath(`/${more.join('/')}`);
    const method = req.method;

    // ---- Pages of the user: https://developers.facebook.com/docs/graph-api/reference/user/accounts/
    if (node === 'me' && edge === 'accounts' && method === 'GET') {
      const denied = missingPermission(t, 'pages_show_list');
      if (denied) return denied;
      const fields = fieldsOf(p, 'Page', ['id', 'name']);
      if (!Array.isArray(fields)) return fields;
      const page = {
        id: pageId,
        name: 'Test Studio',
        category: 'Video Creator',
        tasks: ['MANAGE', 'CREATE_CONTENT'],
        instagram_business_account: { id: igUserId },
      };
      return { body: { data: [pick(page, fields)], paging: { cursors: { before: 'QVFIUk', after: 'QVFIUk' } } } };
    }

    if (node === igUserId) {
      // ---- The account: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user
      if (edge === undefined && method === 'GET') {
        const denied = missingPermission(t, 'instagram_basic');
        if (denied) return denied;
        const fields = fieldsOf(p, 'IGUser', ['id']);
        if (!Array.isArray(fields)) return fields;
        const user = {
          id: igUserId,
          ig_id: 5_500_000_001,
          username,
          name: 'Test Creator',
          followers_count: fake.followers,
          follows_count: 120,
          media_count: media.size,
        };
        return { body: pick(user, fields) };
      }
      if (edge === 'media' && method === 'POST') {
        return missingPermission(t, 'instagram_basic', 'instagram_content_publish') ?? createContainer(p);
      }
      if (edge === 'media_publish' && method === 'POST') {
        return missingPermission(t, 'instagram_basic', 'instagram_content_publish') ?? publish(p);
      }
      // ---- Listings: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#reading
      // and https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/stories
      if ((edge === 'media' || edge === 'stories') && method === 'GET') {
        const denied = missingPermission(t, 'instagram_basic');
        if (denied) return denied;
        const fields = fieldsOf(p, 'IGMedia', ['id']);
        if (!Array.isArray(fields)) return fields;
        const limit = Math.min(Number(p.get('limit') ?? 25) || 25, 100);
        const kind = edge === 'stories' ? 'STORY' : 'REELS';
        const data = [...media.values()]
          .filter((m) => m.productType === kind)
          .reverse()
          .slice(0, limit)
          .map((m) => pick(mediaRecord(m), fields));
        return { body: { data } };
      }
      return edge === undefined ? noSuchObject(node, method) : unknownPath(`/${edge}`);
    }

    const c = containers.get(node);
    if (c) {
      // ---- Container status: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container
      if (edge !== undefined) return unknownPath(`/${edge}`);
      if (method !== 'GET') return noSuchObject(node, method);
      const denied = missingPermission(t, 'instagram_basic', 'instagram_content_publish');
      if (denied) return denied;
      const fields = fieldsOf(p, 'ShadowIGMediaBuilder', ['id']);
      if (!Array.isArray(fields)) return fields;
      const record = { id: c.id, ...containerStatus(c), copyright_check_status: { status: 'completed', matches_found: false } };
      return { body: pick(record, fields) };
    }

    const m = media.get(node);
    if (m) {
      // ---- A post: https://developers.facebook.com/docs/instagram-platform/reference/instagram-media
      if (edge === undefined && method === 'GET') {
        const denied = missingPermission(t, 'instagram_basic');
        if (denied) return denied;
        const fields = fieldsOf(p, 'IGMedia', ['id']);
        if (!Array.isArray(fields)) return fields;
        return { body: pick(mediaRecord(m), fields) };
      }
      // ---- Comments: https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments
      if (edge === 'comments') {
        const denied = missingPermission(t, 'instagram_basic', 'instagram_manage_comments');
        if (denied) return denied;
        if (method === 'POST') {
          const message = p.get('message');
          if (!message) return graphError(400, { message: '(#100) The parameter message is required', code: 100 });
          if (m.productType === 'STORY') return graphError(400, { message: '(#100) Comments are not supported on this media', code: 100 });
          const comment = { id: newId(17_870_000_000_000_000n), text: message, username, timestamp: graphTime(Date.now()) };
          m.comments.push(comment);
          return { body: { id: comment.id } };
        }
        const fields = fieldsOf(p, 'IGComment', ['timestamp', 'text', 'id']);
        if (!Array.isArray(fields)) return fields;
        return { body: { data: [...m.comments].reverse().map((x) => pick(x, fields)) } };
      }
      // ---- Insights: https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
      if (edge === 'insights' && method === 'GET') {
        const denied = missingPermission(t, 'instagram_basic', 'instagram_manage_insights');
        if (denied) return denied;
        const allowed = METRICS[m.productType];
        const asked = (p.get('metric') ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (!asked.length) return graphError(400, { message: '(#100) The parameter metric is required', code: 100 });
        const bad = asked.findIndex((name) => !allowed.includes(name));
        if (bad >= 0) return graphError(400, { message: `(#100) metric[${bad}] must be one of the following values: ${allowed.join(', ')}`, code: 100 });
        const values = insightsOf(m);
        const data = asked.map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: values[name] }],
          title: name,
          description: `The ${name} of the media`,
          id: `${m.id}/insights/${name}/lifetime`,
        }));
        return { body: { data } };
      }
      return edge === undefined ? noSuchObject(node, method) : unknownPath(`/${edge}`);
    }
    return noSuchObject(node, method);
  }

  async function handle(req: FakeRequest): Promise<FakeReply> {
    const up = /^\/ig-api-upload\/([^/]+)\/([^/]+)$/.exec(req.path);
    if (up) return upload(req, up[1], up[2]);
    const m = /^\/(v\d+\.\d+)\/(.+)$/.exec(req.path);
    if (!m || m[1] !== VERSION) return unknownPath(req.path);
    if (m[2] === 'dialog/oauth' && req.method === 'GET') return authorize(req);
    if (m[2] === 'oauth/access_token') return token(req);
    return api(req, m[2]);
  }

  const server = await startFake(handle);
  const fake: PhotoshareFake = {
    ...server,
    clientId,
    clientSecret,
    redirectUri: opts.redirectUri,
    igUserId,
    pageId,
    username,
    followers: 4321,
    posts: [],
    processingChecks: 0,
    failNext(kind, times = 1) {
      for (let i = 0; i < times; i++) failures.push(kind);
    },
    expireAccessTokens() {
      for (const t of tokens.values()) t.expiresAt = Math.min(t.expiresAt, Date.now() - 1000);
    },
    // the platform has no refresh tokens: a session invalidated (the password changed) refuses the exchange, as every call
    revokeRefreshTokens() {
      for (const t of tokens.values()) t.revoked = true;
    },
    issuedTokens: () => [...tokens.keys()],
    comments: (mediaId) => (media.get(mediaId)?.comments ?? []).map(({ id, text, username: u }) => ({ id, text, username: u })),
    containers: () => [...containers.values()].map((c) => ({ id: c.id, mediaType: c.mediaType, received: c.received })),
    insights: (mediaId) => insightsOf(media.get(mediaId)!),
  };
  return fake;
}
