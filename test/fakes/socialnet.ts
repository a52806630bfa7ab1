/**
 * An imitation of the general social network's (Facebook Pages) Graph API
 * v26.0 for the socialnet connector's tests: Facebook Login's dialog and token
 * endpoint, a user with two Pages (one it may only moderate, one it may post
 * to), the Reels Publishing API (start, upload on the rupload host, status,
 * finish) and the reels' insights. Every host of the platform is this one
 * server: the paths do not collide (www.facebook.com/v26.0/dialog/oauth,
 * graph.facebook.com/v26.0/..., rupload.facebook.com/video-upload/v26.0/...).
 *
 * It refuses what the documentation does not allow, with the platform's error
 * shapes: a Graph error `{error:{message,type,code,error_subcode,fbtrace_id}}`
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling), and
 * on the upload host `{debug_info:{retriable,type,message}}`.
 */
import crypto from 'node:crypto';
import { startFake, type FakeReply, type FakeRequest, type PlatformFake } from './server.js';

const VERSION = 'v26.0';
const APP_ID = '880000000000001';

/** Permissions the dialog knows (a subset of the Permissions Reference); others are "Invalid Scopes". */
const KNOWN_SCOPES = new Set([
  'public_profile',
  'email',
  'pages_show_list',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_posts',
  'pages_manage_engagement',
  'pages_manage_metadata',
  'read_insights',
  'business_management',
]);

/** The Reels metrics of /{video-id}/video_insights (post_impressions_unique is deprecated: an invalid metric). */
const REELS_METRICS = new Set([
  'blue_reels_play_count',
  'fb_reels_replay_count',
  'fb_reels_total_plays',
  'post_video_avg_time_watched',
  'post_video_followers',
  'post_video_likes_by_reaction_type',
  'post_video_retention_graph',
  'post_video_social_actions',
  'post_video_view_time',
]);

const PAGE_FIELDS = new Set(['id', 'name', 'access_token', 'tasks', 'followers_count', 'fan_count', 'category']);
const VIDEO_FIELDS = new Set(['id', 'status', 'description']);
const VIDEO_STATES = new Set(['DRAFT', 'PUBLISHED', 'SCHEDULED']);

interface Page {
  id: string;
  name: string;
  tasks: string[];
  followers: number;
}

/** The user's Pages, in /me/accounts order: the first may not post. */
export const SOCIALNET_PAGES: readonly Page[] = [
  { id: '104000000000001', name: 'Moderated Page', tasks: ['ANALYZE', 'MODERATE'], followers: 12 },
  { id: '104000000000002', name: 'Clipcast Demo Page', tasks: ['ANALYZE', 'ADVERTISE', 'MODERATE', 'CREATE_CONTENT', 'MANAGE'], followers: 4821 },
];

/** What the insights of a published reel read. */
export const SOCIALNET_INSIGHTS = {
  blue_reels_play_count: 1520,
  post_video_likes_by_reaction_type: { REACTION_LIKE: 40, REACTION_LOVE: 7 },
  post_video_social_actions: { COMMENT: 12, SHARE: 5 },
};

interface Token {
  kind: 'user' | 'page';
  scopes: Set<string>;
  pageId?: string;
  state: 'valid' | 'expired' | 'invalidated';
}

interface Video {
  id: string;
  pageId: string;
  fileSize: number | null;
  parts: Buffer[];
  received: number;
  checksLeft: number;
  processing: 'not_started' | 'in_progress' | 'complete';
  /** a finish with video_state PUBLISHED arrived */
  finished: boolean;
}

export interface SocialnetFake extends PlatformFake {
  /** upload_phase=finish requests answered with success */
  finishes: number;
  /** the bytes the upload host holds for a video */
  received(videoId: string): Buffer;
}

const trace = () => crypto.randomBytes(8).toString('base64url');
const id = () => String(1_000_000_000_000_000n + BigInt(crypto.randomInt(1, 2 ** 47)));

function graphError(
  code: number,
  message: string,
  more: { subcode?: number; type?: string; userMsg?: string; status?: number; headers?: Record<string, string> } = {},
): FakeReply {
  return {
    status: more.status ?? 400,
    headers: more.headers,
    body: {
      error: {
        message,
        type: more.type ?? 'OAuthException',
        code,
        ...(more.subcode !== undefined ? { error_subcode: more.subcode } : {}),
        ...(more.userMsg ? { error_user_title: 'Reel not published', error_user_msg: more.userMsg } : {}),
        fbtrace_id: trace(),
      },
    },
  };
}

const uploadRefusal = (message: string, type = 'ParameterValidationError'): FakeReply => ({
  status: 400,
  body: { debug_info: { retriable: false, type, message } },
});

/** A dialog error page: the platform shows it instead of redirecting to an address it does not trust. */
const errorPage = (title: string, text: string): FakeReply => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!DOCTYPE html><html><head><title>Error</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`,
});

/** A Graph call's parameters: the query, a form or a JSON body, as the API takes any of them. */
function paramsOf(req: FakeRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of req.query) out.set(k, v);
  for (const [k, v] of req.form) out.set(k, v);
  if (req.json && typeof req.json === 'object') for (const [k, v] of Object.entries(req.json)) out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return out;
}

export async function startPlatformFake(opts: { redirectUri: string }): Promise<SocialnetFake> {
  const clientId = APP_ID;
  const clientSecret = crypto.randomBytes(16).toString('hex');
  const codes = new Map<string, { redirectUri: string; scopes: Set<string>; used: boolean }>();
  const tokens = new Map<string, Token>();
  const videos = new Map<string, Video>();
  let failures: Array<'retry' | 'bad_request' | 'reauthorize' | 'disconnected'> = [];

  const issue = (t: Token) => {
    const token = `EAA${crypto.randomBytes(24).toString('base64url')}`;
    tokens.set(token, t);
    return token;
  };

  /** The token of a Graph call: Authorization (Bearer or OAuth) or the access_token parameter. */
  function tokenOf(req: FakeRequest, params: Map<string, string>): { token?: string; refusal?: FakeReply } {
    const auth = req.headers.authorization;
    const raw = auth?.match(/^(?:Bearer|OAuth) (.+)$/)?.[1] ?? params.get('access_token');
    if (!raw) return { refusal: graphError(2500, 'An active access token must be used to query information about the current user.') };
    const t = tokens.get(raw);
    // the platform quotes a token it cannot parse
    if (!t) return { refusal: graphError(190, `Malformed access token ${raw}`) };
    if (t.state === 'expired')
      return { refusal: graphError(190, 'Error validating access token: Session has expired on Tuesday, 24-Nov-26 04:00:00 PST.', { subcode: 463 }) };
    if (t.state === 'invalidated') {
      return {
        refusal: graphError(
          190,
          'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
          { subcode: 460 },
        ),
      };
    }
    return { token: raw };
  }

  /**
   * failNext: the platform's own answer for each class (Handling Errors, above; Business Use Case
   * rate limits: https://developers.facebook.com/docs/graph-api/overview/rate-limiting).
   */
  function failure(kind: (typeof failures)[number]): FakeReply {
    switch (kind) {
      case 'retry':
        // Rate Limiting, Business Use Case Rate Limits: Page tokens; the wait is in minutes
        return graphError(
          80001,
          '(#80001) There have been too many calls to this Page account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.',
          {
            headers: {
              'x-business-use-case-usage': JSON.stringify({
                [SOCIALNET_PAGES[1].id]: [{ type: 'pages', call_count: 100, total_cputime: 12, total_time: 20, estimated_time_to_regain_access: 2 }],
              }),
            },
          },
        );
      case 'bad_request':
        return graphError(100, '(#100) Invalid parameter', { userMsg: 'The reel must be between 3 and 90 seconds long.' });
      case 'reauthorize':
        return graphError(190, 'Error validating access token: Session has expired on Tuesday, 24-Nov-26 04:00:00 PST.', { subcode: 463 });
      case 'disconnected':
        return graphError(190, `Error validating access token: The user has not authorized application ${APP_ID}.`, { subcode: 458 });
    }
  }

  // Manually Build a Login Flow: https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
  function dialog(req: FakeRequest): FakeReply {
    const q = req.query;
    if (q.get('client_id') !== clientId) return errorPage('Invalid App ID', 'The provided app ID does not look like a valid app ID.');
    if (q.get('redirect_uri') !== opts.redirectUri) {
      return errorPage('URL blocked', "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.");
    }
    const responseType = q.get('response_type') ?? 'code';
    if (responseType !== 'code') return errorPage('Error', `Invalid response_type: ${responseType}`);
    const scopes = (q.get('scope') ?? '').split(',').filter(Boolean);
    const invalid = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    // a space-joined list is one unknown scope here, as on the platform
    if (invalid.length) return errorPage('Invalid Scopes', `Invalid Scopes: ${invalid.join(', ')}. This message is only shown to developers.`);
    const code = `AQ${crypto.randomBytes(32).toString('base64url')}`;
    codes.set(code, { redirectUri: opts.redirectUri, scopes: new Set(scopes), used: false });
    const back = new URL(opts.redirectUri);
    back.searchParams.set('code', code);
    if (q.has('state')) back.searchParams.set('state', q.get('state')!);
    return { status: 302, headers: { location: `${back.toString()}#_=_` } };
  }

  // the code exchange (manual flow, "Exchanging Code for an Access Token") and the long-lived
  // exchange: https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived
  function accessToken(req: FakeRequest): FakeReply {
    const p = paramsOf(req);
    if (p.get('client_id') !== clientId) return graphError(101, 'Error validating application. Invalid application ID.');
    if (p.get('client_secret') !== clientSecret) return graphError(1, 'Error validating client secret.');
    if (p.get('grant_type') === 'fb_exchange_token') {
      const short = tokens.get(p.get('fb_exchange_token') ?? '');
      if (short?.kind !== 'user') return graphError(190, 'Invalid OAuth access token - Cannot parse access token');
      if (short.state !== 'valid') return graphError(190, 'Error validating access token: Session has expired.', { subcode: 463 });
      return { body: { access_token: issue({ kind: 'user', scopes: short.scopes, state: 'valid' }), token_type: 'bearer', expires_in: 5_183_944 } };
    }
    if (p.has('grant_type')) return graphError(100, `Unsupported grant_type: ${p.get('grant_type')}`);
    const code = codes.get(p.get('code') ?? '');
    if (!code) return graphError(100, 'Invalid verification code format.');
    if (code.used) return graphError(100, 'This authorization code has been used.', { subcode: 36009 });
    if (p.get('redirect_uri') !== code.redirectUri) {
      return graphError(
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        { subcode: 36008 },
      );
    }
    code.used = true;
    return { body: { access_token: issue({ kind: 'user', scopes: code.scopes, state: 'valid' }), token_type: 'bearer', expires_in: 5_400 } };
  }

  const missingPermission = (permission: string) => graphError(200, `(#200) Requires ${permission} permission to manage the object`);

  function unknownFields(asked: string | undefined, known: Set<string>, node: string): FakeReply | null {
    const bad = (asked ?? '').split(',').filter((f) => f && !known.has(f));
    return bad.length ? graphError(100, `(#100) Tried accessing nonexisting field (${bad[0]}) on node type (${node})`) : null;
  }

  function pageView(page: Page, fields: string[], userToken: Token): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (f === 'id') out.id = page.id;
      if (f === 'name') out.name = page.name;
      if (f === 'tasks') out.tasks = page.tasks;
      if (f === 'followers_count') out.followers_count = page.followers;
      if (f === 'fan_count') out.fan_count = page.followers;
      if (f === 'category') out.category = 'Media';
      // a Page token from a long-lived user token; it does not expire
      if (f === 'access_token') out.access_token = issue({ kind: 'page', pageId: page.id, scopes: userToken.scopes, state: 'valid' });
    }
    return out;
  }

  // GET /me/accounts: https://developers.facebook.com/docs/pages-api/getting-started (one Page per answer, with a cursor)
  function accounts(req: FakeRequest, t: Token): FakeReply {
    if (t.kind !== 'user') return graphError(100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)');
    if (!t.scopes.has('pages_show_list')) return missingPermission('pages_show_list');
    const fields = req.query.get('fields') ?? 'id,name,access_token,category,tasks';
    const refusal = unknownFields(fields, PAGE_FIELDS, 'Page');
    if (refusal) return refusal;
    const after = req.query.get('after');
    const at = after ? Number(Buffer.from(after, 'base64url').toString()) : 0;
    if (!Number.isInteger(at) || at < 0 || at >= SOCIALNET_PAGES.length) return graphError(100, '(#100) Invalid cursor');
    const next = at + 1 < SOCIALNET_PAGES.length ? Buffer.from(String(at + 1)).toString('base64url') : undefined;
    return {
      body: {
        data: [pageView(SOCIALNET_PAGES[at], fields.split(','), t)],
        paging: {
          cursors: { before: Buffer.from(String(at)).toString('base64url'), after: next ?? Buffer.from(String(at)).toString('base64url') },
          ...(next ? { next: `https://graph.facebook.com/${VERSION}/me/accounts?after=${next}` } : {}),
        },
      },
    };
  }

  /**
   * The phases as the status shows them. Processing starts with the finish (an uploaded video
   * reads processing "not_started" until then, as the guide's sample shows); each status read of
   * a finished video moves it on, processingChecks reads staying in progress, then the reel is
   * processed and published at once.
   */
  function videoStatus(v: Video) {
    const uploaded = v.fileSize !== null && v.received === v.fileSize;
    if (v.finished && v.processing !== 'complete') {
      if (v.checksLeft > 0) {
        v.checksLeft -= 1;
        v.processing = 'in_progress';
      } else v.processing = 'complete';
    }
    const out = v.finished && v.processing === 'complete';
    return {
      video_status: out ? 'ready' : 'processing',
      processing_progress: v.processing === 'complete' ? 100 : v.processing === 'in_progress' ? 50 : 0,
      uploading_phase: uploaded
        ? { status: 'complete', bytes_transferred: v.received }
        : { status: v.received > 0 ? 'in_progress' : 'not_started', bytes_transferred: v.received },
      processing_phase: { status: v.processing },
      publishing_phase: out ? { status: 'complete', publish_status: 'published', publish_time: Math.floor(Date.now() / 1000) } : { status: 'not_started' },
    };
  }

  // POST /{page-id}/video_reels: https://developers.facebook.com/docs/video-api/guides/reels-publishing
  function videoReels(pageId: string, t: Token, p: Map<string, string>): FakeReply {
    if (t.kind !== 'page' || t.pageId !== pageId) return graphError(200, '(#200) Publishing a reel requires a Page access token of this Page');
    if (!t.scopes.has('pages_manage_posts')) return missingPermission('pages_manage_posts');
    const phase = p.get('upload_phase');
    if (phase === 'start') {
      const video: Video = {
        id: id(),
        pageId,
        fileSize: null,
        parts: [],
        received: 0,
        checksLeft: fake.processingChecks,
        processing: 'not_started',
        finished: false,
      };
      videos.set(video.id, video);
      return { body: { video_id: video.id, upload_url: `https://rupload.facebook.com/video-upload/${VERSION}/${video.id}` } };
    }
    if (phase !== 'finish') return graphError(100, `(#100) upload_phase must be one of the following values: start, transfer, finish`);
    const video = videos.get(p.get('video_id') ?? '');
    if (!video || video.pageId !== pageId) return graphError(100, '(#100) Invalid video_id');
    const state = p.get('video_state');
    if (!state || !VIDEO_STATES.has(state)) return graphError(100, `(#100) video_state must be one of the following values: ${[...VIDEO_STATES].join(', ')}`);
    if (state === 'SCHEDULED' && !p.has('scheduled_publish_time')) return graphError(100, '(#100) scheduled_publish_time is required for a scheduled reel');
    if (video.fileSize === null || video.received !== video.fileSize) {
      return graphError(6000, 'There was a problem uploading your video file. Please try again with another file.', { subcode: 1363130 });
    }
    fake.finishes += 1;
    // the reel is the video: a second finish makes no second reel
    if (state === 'PUBLISHED' && !video.finished) {
      video.finished = true;
      fake.posts.push({ id: video.id, text: p.get('description') ?? '', video: Buffer.concat(video.parts) });
    }
    return { body: { success: true } };
  }

  // POST rupload.facebook.com/video-upload/{version}/{video-id}: "Upload a local file" of
  // https://developers.facebook.com/docs/video-api/guides/reels-publishing; an interrupted upload
  // carries on at `offset` (the bytes_transferred of the video's status)
  function rupload(req: FakeRequest, videoId: string): FakeReply {
    const video = videos.get(videoId);
    const raw = req.headers.authorization?.match(/^OAuth (.+)$/)?.[1];
    const t = raw ? tokens.get(raw) : undefined;
    if (!raw || !t) return graphError(190, 'Invalid OAuth access token - Cannot parse access token', { status: 401 });
    if (t.state !== 'valid') return graphError(190, 'Error validating access token: Session has expired.', { subcode: 463, status: 401 });
    if (!video || t.kind !== 'page' || t.pageId !== video.pageId) return uploadRefusal(`Video ${videoId} was not found for this access token`, 'NotFound');
    const offset = req.headers.offset;
    const size = req.headers.file_size;
    if (typeof offset !== 'string' || !/^\d+$/.test(offset)) return uploadRefusal('HeaderValuePredicate: Header Offset not convertable to unsigned long');
    if (typeof size !== 'string' || !/^\d+$/.test(size)) return uploadRefusal('HeaderValuePredicate: Header file_size not convertable to unsigned long');
    if (video.fileSize !== null && Number(size) !== video.fileSize)
      return uploadRefusal(`file_size ${size} differs from the ${video.fileSize} bytes this upload declared`);
    if (Number(offset) !== video.received)
      return uploadRefusal(`Offset ${offset} does not match the ${video.received} bytes received; resume at ${video.received}`);
    if (req.body.length === 0) return uploadRefusal('The request has no bytes to upload');
    if (video.received + req.body.length > Number(size)) return uploadRefusal(`The bytes sent run past file_size ${size}`);
    video.fileSize = Number(size);
    video.parts.push(req.body);
    video.received += req.body.length;
    return { body: { success: true } };
  }

  // GET /{video-id}/video_insights: https://developers.facebook.com/docs/video-api/guides/insights (Reels metrics)
  function insights(video: Video, t: Token, req: FakeRequest): FakeReply {
    if (!t.scopes.has('read_insights')) return missingPermission('read_insights');
    const asked = (req.query.get('metric') ?? [...REELS_METRICS].join(',')).split(',');
    if (asked.some((m) => !REELS_METRICS.has(m))) return graphError(100, '(#100) The value must be a valid insights metric');
    const values: Record<string, unknown> = video.finished ? SOCIALNET_INSIGHTS : {};
    return {
      body: {
        data: asked
          .filter((m) => m in values)
          .map((name) => ({
            name,
            period: 'lifetime',
            values: [{ value: values[name] }],
            title: name,
            description: name,
            id: `${video.id}/video_insights/${name}/lifetime`,
          })),
        paging: {},
      },
    };
  }

  const noObject = (objectId: string) =>
    graphError(
      100,
      `Unsupported get request. Object with ID '${objectId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      { subcode: 33, type: 'GraphMethodException' },
    );

  // GET /{page-id} (https://developers.facebook.com/docs/graph-api/reference/page) and
  // GET /{video-id}?fields=status (https://developers.facebook.com/docs/graph-api/reference/video-status)
  function node(objectId: string, t: Token, req: FakeRequest): FakeReply {
    const fields = req.query.get('fields') ?? 'id';
    const page = SOCIALNET_PAGES.find((p) => p.id === objectId);
    if (page) {
      const refusal = unknownFields(fields, PAGE_FIELDS, 'Page');
      if (refusal) return refusal;
      if (fields.split(',').includes('followers_count') && !t.scopes.has('pages_read_engagement')) return missingPermission('pages_read_engagement');
      return {
        body: pageView(
          page,
          fields.split(',').filter((f) => f !== 'access_token'),
          t,
        ),
      };
    }
    const video = videos.get(objectId);
    if (!video || t.kind !== 'page' || t.pageId !== video.pageId) return noObject(objectId);
    const refusal = unknownFields(fields, VIDEO_FIELDS, 'Video');
    if (refusal) return refusal;
    const out: Record<string, unknown> = { id: video.id };
    if (fields.split(',').includes('status')) out.status = videoStatus(video);
    return { body: out };
  }

  // GET /me: the token's own node, a Page token's Page (https://developers.facebook.com/docs/graph-api/reference/page)
  function me(t: Token): FakeReply {
    const page = SOCIALNET_PAGES.find((p) => p.id === t.pageId);
    return { body: page ? { id: page.id, name: page.name } : { id: '100000000000777', name: 'Page Admin' } };
  }

  async function handle(req: FakeRequest): Promise<FakeReply> {
    if (req.method === 'GET' && req.path === `/${VERSION}/dialog/oauth`) return dialog(req);
    if (req.path === `/${VERSION}/oauth/access_token` && (req.method === 'GET' || req.method === 'POST')) return accessToken(req);
    const upload = req.path.match(new RegExp(`^/video-upload/${VERSION.replace('.', '\\.')}/(\\d+)$`));
    if (upload && req.method === 'POST') return rupload(req, upload[1]);
    const parts = req.path.split('/').filter(Boolean);
    if (parts[0] !== VERSION) return graphError(2500, `Unknown path components: ${req.path}`);
    const queued = failures.shift();
    if (queued) return failure(queued);
    const params = paramsOf(req);
    const { token, refusal } = tokenOf(req, params);
    if (refusal) return refusal;
    const t = tokens.get(token!)!;
    const [, first, edge] = parts;
    if (req.method === 'GET' && first === 'me' && edge === 'accounts' && parts.length === 3) return accounts(req, t);
    if (req.method === 'GET' && first === 'me' && parts.length === 2) return me(t);
    if (req.method === 'POST' && edge === 'video_reels' && parts.length === 3) return videoReels(first, t, params);
    if (req.method === 'GET' && edge === 'video_insights' && parts.length === 3) {
      const video = videos.get(first);
      return video && t.kind === 'page' && t.pageId === video.pageId ? insights(video, t, req) : noObject(first);
    }
    if (req.method === 'GET' && parts.length === 2) return node(first, t, req);
    return graphError(100, `Unsupported ${req.method.toLowerCase()} request. Object with ID '${first}' does not exist or does not support this operation.`, {
      subcode: 33,
      type: 'GraphMethodException',
    });
  }

  const server = await startFake(handle);
  const fake: SocialnetFake = {
    ...server,
    clientId,
    clientSecret,
    redirectUri: opts.redirectUri,
    posts: [],
    processingChecks: 0,
    finishes: 0,
    failNext(kind, times = 1) {
      failures = [...failures, ...Array.from({ length: times }, () => kind)];
    },
    expireAccessTokens() {
      for (const t of tokens.values()) if (t.state === 'valid') t.state = 'expired';
    },
    // no refresh tokens here: what a refresh can be refused for is the session itself (a password change)
    revokeRefreshTokens() {
      for (const t of tokens.values()) t.state = 'invalidated';
    },
    received(videoId) {
      return Buffer.concat(videos.get(videoId)?.parts ?? []);
    },
  };
  return fake;
}
