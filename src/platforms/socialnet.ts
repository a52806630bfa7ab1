/**
 * The general social network (Facebook Pages): a post is a Reel on a Page the
 * user manages, published through the Graph API, version v26.0 (the latest the
 * changelog lists: https://developers.facebook.com/docs/graph-api/changelog).
 *
 * Endpoints:
 * - GET  https://www.facebook.com/v26.0/dialog/oauth                      consent (Facebook Login, manual flow)
 *        https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 * - GET  https://graph.facebook.com/v26.0/oauth/access_token              code → short-lived user token (same guide)
 * - GET  https://graph.facebook.com/v26.0/oauth/access_token?grant_type=fb_exchange_token  → long-lived user token
 *        https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived
 * - GET  https://graph.facebook.com/v26.0/me/accounts                     the user's Pages, their tokens and tasks
 *        https://developers.facebook.com/docs/pages-api/getting-started
 * - GET  https://graph.facebook.com/v26.0/me                              the Page token still works (refresh)
 * - GET  https://graph.facebook.com/v26.0/{page-id}?fields=followers_count
 *        https://developers.facebook.com/docs/graph-api/reference/page
 * - POST https://graph.facebook.com/v26.0/{page-id}/video_reels           upload_phase=start, then upload_phase=finish
 * - POST https://rupload.facebook.com/video-upload/v26.0/{video-id}       the bytes, from the `offset` header on
 *        https://developers.facebook.com/docs/video-api/guides/reels-publishing
 * - GET  https://graph.facebook.com/v26.0/{video-id}?fields=status        uploading / processing / publishing phases
 *        https://developers.facebook.com/docs/graph-api/reference/video-status
 * - GET  https://graph.facebook.com/v26.0/{video-id}/video_insights       the reel's metrics
 *        https://developers.facebook.com/docs/video-api/guides/insights
 * Errors: https://developers.facebook.com/docs/graph-api/guides/error-handling and
 * https://developers.facebook.com/docs/graph-api/overview/rate-limiting.
 *
 * The account is a Page, not the person: identify() picks the first Page on
 * which the user may CREATE_CONTENT and hands back that Page's token, which the
 * service keeps as the access token. A Page token obtained from a long-lived
 * user token does not expire, and there is no refresh token: refresh() only
 * asks whether the Page token still works (and drops the user token's expiry);
 * when the platform refuses it (190: password changed, app removed) the user
 * must connect again, so the account ends disconnected.
 *
 * A post, in the guide's order: start an upload session (its video id saved
 * before a byte is sent), send the bytes to the upload host in parts of
 * PART_BYTES, each a resume at the offset the platform holds (the guide shows
 * one POST of the whole file; its `offset` header is what lets an interrupted
 * upload carry on), then finish with video_state=PUBLISHED, saved as done once
 * the platform confirms. The platform then processes the video and publishes
 * it: publish answers pending, check waits for the publishing phase to
 * complete, finalize confirms. A re-run asks the video's status first: an
 * upload part-way resumes from `bytes_transferred`, a complete one is not sent
 * again, and a reel finished (saved so, or its publishing phase begun) is not
 * finished again. The reel is the uploaded video: its id is the post's id.
 *
 * Gaps: a crash between the platform creating the upload session and our
 * saving its video id leaves an empty session behind (it expires; it is never
 * a post). A crash between the platform confirming a finish and our saving it,
 * while the video is still processing (publishing phase not started), sends
 * the finish once more on the re-run: for the same video, so never a second
 * reel, but the API does not say how it answers a repeated finish.
 * post_impressions_unique, the reels' reach, is among the Page Insights metrics
 * the platform deprecated (invalid metric from 2025 on), and the reels metrics
 * offer no impressions or clicks: those read 0.
 */
import { chunksOf } from './chunks.js';
import { followerCount, passing, platformErrors, retryAfterMs, type PlatformErrorRule } from './http.js';
import { tokenSetFrom } from './oauth-tokens.js';
import {
  PlatformError,
  type AccountIdentity,
  type ConnectedAccount,
  type OAuthFlow,
  type OutgoingPost,
  type PlatformConnector,
  type PlatformDefinition,
  type PlatformHttp,
  type PlatformResponse,
  type PlatformSettings,
  type PostMetrics,
  type PostMedia,
  type PublishStep,
  type TokenSet,
} from './types.js';

const KEY = 'socialnet';
const VERSION = 'v26.0';
const GRAPH = `https://graph.facebook.com/${VERSION}`;
const UPLOAD_HOST = `https://rupload.facebook.com/video-upload/${VERSION}`;

/** One upload request's bytes: one part in memory at a time, and what a crash can lose. */
export const PART_BYTES = 4 * 1024 * 1024;
const PART_TIMEOUT_MS = 120_000;
/** The platform processes a reel in seconds to minutes. */
const CHECK_AFTER_MS = 5_000;
/** The Page task that allows publishing (Reels Publishing API, Before You Start). */
const CREATE_CONTENT = 'CREATE_CONTENT';
/** The documented Reels metrics we read (video_insights, Reels Metrics). */
const METRICS = ['blue_reels_play_count', 'post_video_likes_by_reaction_type', 'post_video_social_actions'] as const;

const flow: OAuthFlow = {
  authorizeUrl: `https://www.facebook.com/${VERSION}/dialog/oauth`,
  tokenUrl: `${GRAPH}/oauth/access_token`,
  // list the Pages, read a Page's followers (and publish reels: the guide asks for it), publish, read insights
  scopes: ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'read_insights'],
  scopeSeparator: ',',
  // the platform's PKCE is an OIDC flow still in testing; the Pages APIs document the client-secret code flow
  pkce: false,
  clientAuth: 'body',
};

interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** Throttling codes: app (4), user (17), Page (32), custom (613), Page under business-use-case limits (80001), app limit (341). */
const RATE_LIMITED = new Set([4, 17, 32, 341, 613, 80001]);
/** Passing faults the guide says to wait out: unknown (1), service (2), temporarily blocked (368). */
const TRANSIENT = new Set([1, 2, 368]);
/** 190 subcodes that no new token cures: the app was removed (458), the user is checkpointed (459) or unconfirmed (464). */
const GONE = new Set([458, 459, 464]);

/**
 * How long the business-use-case header says to wait: the largest
 * `estimated_time_to_regain_access` (minutes) of its entries; else Retry-After.
 */
function usageWaitMs(headers: Headers): number | undefined {
  const raw = headers.get('x-business-use-case-usage');
  let minutes: number | undefined;
  if (raw) {
    try {
      for (const entries of Object.values(JSON.parse(raw) as Record<string, Array<Record<string, unknown>>>)) {
        for (const e of Array.isArray(entries) ? entries : []) {
          const m = Number(e.estimated_time_to_regain_access);
          if (Number.isFinite(m) && m > 0) minutes = Math.max(minutes ?? 0, m);
        }
      }
    } catch {
      minutes = undefined;
    }
  }
  return minutes !== undefined ? minutes * 60_000 : retryAfterMs(headers);
}

/** The platform's words without a token: it quotes one it cannot parse ("Malformed access token EAA…"). */
const scrub = (text: string) => text.replace(/EAA[A-Za-z0-9_-]{8,}/g, '[token]');

const errorBodyOf = (res: PlatformResponse) => (res.json as { error?: GraphErrorBody } | null)?.error || null;

/** The Graph error object, when it carries the code it is judged by. */
const graphErrorOf = (res: PlatformResponse) => {
  const err = errorBodyOf(res);
  return err && typeof err.code === 'number' ? (err as GraphErrorBody & { code: number }) : null;
};

/**
 * The platform's answer judged by its code (Handling Errors) before its
 * status. An answer without the error object is not the platform's,
 * whatever its status.
 */
const GRAPH_ERRORS: PlatformErrorRule = {
  said: (res) => {
    const err = graphErrorOf(res);
    return err ? scrub(err.error_user_msg || err.message || `error ${err.code}`) : '';
  },
  own(res, what, said) {
    const err = graphErrorOf(res);
    if (!err) return { kind: 'unexpected' };
    const { code } = err;
    if (RATE_LIMITED.has(code)) return { kind: 'retry', says: `rate limited while ${what} (${said})`, retryAfterMs: usageWaitMs(res.headers) };
    if (TRANSIENT.has(code) || err.is_transient) return { kind: 'retry' };
    // an outage is waited out, whatever code comes with it
    if (passing(res)) return undefined;
    if (code === 190 || code === 102) {
      if (err.error_subcode !== undefined && GONE.has(err.error_subcode))
        return { kind: 'disconnected', says: `the Page's authorisation is gone (${said}); connect it again` };
      return { kind: 'reauthorize' };
    }
    // a permission taken back (the app's, or the person's task on the Page): only a new consent helps
    if (code === 10 || (code >= 200 && code <= 299)) return { kind: 'disconnected', says: `permission denied while ${what} (${said}); connect the Page again` };
    // an error object in an answer whose status says no error refuses the request all the same
    if (res.status < 400) return { kind: 'bad_request' };
    return undefined;
  },
  words: {
    retry: (what, said) => `the platform failed for now while ${what} (${said})`,
    reauthorize: (what, said) => `the Page's access token was refused while ${what} (${said})`,
    refused: (what, said) => `the platform refused ${what}: ${said}`,
  },
};

/**
 * A refusal at the token endpoint: throttling or an outage passes; anything
 * else (a used or unknown code, a wrong secret, which it reports as code 1)
 * means connecting again.
 */
const TOKEN_ENDPOINT: PlatformErrorRule = {
  ...GRAPH_ERRORS,
  own: (res, what, said) => {
    const err = errorBodyOf(res);
    if (!err || passing(res) || (typeof err.code === 'number' && RATE_LIMITED.has(err.code))) return GRAPH_ERRORS.own!(res, what, said);
    return { kind: 'reauthorize' };
  },
  words: {
    ...GRAPH_ERRORS.words,
    reauthorize: (what, _said, res) => `${what} was refused (${scrub(errorBodyOf(res)?.message ?? `HTTP ${res.status}`)}); connect the account again`,
  },
};

const errors = platformErrors(KEY, GRAPH_ERRORS);

/** An answer judged, the text an unexpected one quotes without a token. */
const refusal = (res: PlatformResponse, what: string, rule = GRAPH_ERRORS) => errors.refusal({ ...res, text: scrub(res.text) }, what, rule);

/** A Graph call's JSON, or its error judged. */
async function graph(http: PlatformHttp, what: string, req: Parameters<PlatformHttp['request']>[0]): Promise<Record<string, unknown>> {
  const res = await http.request(req);
  const json = res.json as Record<string, unknown> | null;
  if (res.status === 200 && json && typeof json === 'object' && !('error' in json)) return json;
  throw refusal(res, what);
}

async function tokenCall(http: PlatformHttp, what: string, query: Record<string, string>): Promise<TokenSet> {
  const res = await http.request({ method: 'GET', url: flow.tokenUrl, query });
  const json = res.json as Record<string, unknown> | null;
  if (res.status !== 200 || !json || typeof json.access_token !== 'string') throw refusal(res, what, TOKEN_ENDPOINT);
  return tokenSetFrom(json);
}

/**
 * The code for a short-lived user token, at once exchanged for a long-lived
 * one (about 60 days): a Page token read with it does not expire.
 */
async function exchangeCode(http: PlatformHttp, settings: PlatformSettings, input: { code: string; redirectUri: string }): Promise<TokenSet> {
  const client = { client_id: settings.clientId, client_secret: settings.clientSecret };
  const short = await tokenCall(http, 'exchanging the authorisation code', { ...client, redirect_uri: input.redirectUri, code: input.code });
  return tokenCall(http, 'exchanging for a long-lived token', { ...client, grant_type: 'fb_exchange_token', fb_exchange_token: short.accessToken });
}

/** A Page token has nothing to refresh: it either still works (and never expires) or the user connects again. */
async function refresh(http: PlatformHttp, _settings: PlatformSettings, tokens: TokenSet): Promise<TokenSet> {
  try {
    await graph(http, 'checking the Page token', { url: `${GRAPH}/me`, token: tokens.accessToken, query: { fields: 'id' } });
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'disconnected') throw err;
    if (err instanceof PlatformError && err.kind !== 'retry') {
      throw new PlatformError('reauthorize', `${err.message}; a Page token cannot be refreshed, connect the Page again`);
    }
    throw err;
  }
  return { ...tokens, expiresAt: undefined };
}

interface PageEntry {
  id: string;
  name?: string;
  access_token?: string;
  tasks?: string[];
  followers_count?: unknown;
}

/** Every Page the user manages, following the cursor pages of /me/accounts (a bounded number of them). */
async function managedPages(http: PlatformHttp, userToken: string): Promise<PageEntry[]> {
  const pages: PageEntry[] = [];
  let after: string | undefined;
  for (let i = 0; i < 20; i++) {
    const json = await graph(http, 'listing the Pages', {
      url: `${GRAPH}/me/accounts`,
      token: userToken,
      query: { fields: 'id,name,access_token,tasks,followers_count', limit: 100, after },
    });
    pages.push(...((json.data as PageEntry[] | undefined) ?? []));
    const paging = json.paging as { next?: string; cursors?: { after?: string } } | undefined;
    after = paging?.cursors?.after;
    if (!paging?.next || !after) break;
  }
  return pages;
}

/** The first Page the user may post to (the CREATE_CONTENT task) is the account. */
async function identify(http: PlatformHttp, _settings: PlatformSettings, tokens: TokenSet): Promise<AccountIdentity> {
  const pages = await managedPages(http, tokens.accessToken);
  const page = pages.find((p) => p.tasks?.includes(CREATE_CONTENT) && typeof p.access_token === 'string');
  if (!page) {
    throw errors.badRequest(`the account manages no Page it may publish to (the ${CREATE_CONTENT} task); grant the app a Page you can post to when connecting`);
  }
  return {
    externalId: page.id,
    handle: page.name ?? null,
    // a Page's reels are public: the guide says publishing to a Page has public scope only
    isPrivate: false,
    followers: followerCount(KEY, page.followers_count ?? 0),
    extra: { pageId: page.id },
    accessToken: page.access_token,
  };
}

interface VideoStatus {
  video_status?: string;
  uploading_phase?: { status?: string; bytes_transferred?: number; errors?: Array<{ message?: string }> };
  processing_phase?: { status?: string; errors?: Array<{ message?: string }> };
  publishing_phase?: { status?: string; publish_status?: string; errors?: Array<{ message?: string }> };
}

interface Progress {
  videoId: string;
  uploadUrl: string;
  /** the platform confirmed the finish: it processes and publishes from here on */
  finished?: boolean;
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const tokenOf = (account: ConnectedAccount) => (account.credentials as TokenSet).accessToken;
const pageOf = (account: ConnectedAccount) => (account.credentials as TokenSet).extra?.pageId ?? account.externalId;
export const reelUrl = (videoId: string) => `https://www.facebook.com/reel/${videoId}`;

/** The reel is out: its publishing phase completed. */
const published = (s: VideoStatus) => s.publishing_phase?.status === 'complete' || s.publishing_phase?.publish_status === 'published';
/** A finish was received: publishing has begun or ended. */
const publishingStarted = (s: VideoStatus) => published(s) || s.publishing_phase?.status === 'in_progress';

/** The platform's own words for a video it failed, if a phase failed. */
function failure(s: VideoStatus): string | null {
  const phases = [s.uploading_phase, s.processing_phase, s.publishing_phase];
  const failed = phases.find((p) => p?.status === 'error');
  if (failed) return failed.errors?.[0]?.message ?? 'the platform could not process the video';
  if (s.video_status === 'error') return 'the platform could not process the video';
  if (s.video_status === 'expired') return 'the upload expired before it was published; publish again';
  return null;
}

function progressOf(post: OutgoingPost): Progress | null {
  const p = post.progress;
  if (!p || typeof p.videoId !== 'string' || typeof p.uploadUrl !== 'string') return null;
  return { videoId: p.videoId, uploadUrl: p.uploadUrl, finished: p.finished === true };
}

/** A rupload answer other than success: its `debug_info`, or a Graph error. */
function uploadError(res: PlatformResponse): PlatformError {
  const info = (res.json as { debug_info?: { retriable?: boolean; type?: string; message?: string } } | null)?.debug_info;
  if (!info) return refusal(res, 'uploading the video');
  const said = scrub(`${info.type ?? 'error'}: ${info.message ?? `HTTP ${res.status}`}`);
  // the upload host says itself whether to send again (`retriable`), beside a 5xx of its own outage
  if (info.retriable || res.status >= 500) return errors.retry(`the upload failed for now (${said})`, retryAfterMs(res.headers));
  return errors.badRequest(`the platform refused the upload (${said})`);
}

export function createSocialnetConnector(http: PlatformHttp): PlatformConnector {
  const status = async (account: ConnectedAccount, videoId: string): Promise<VideoStatus> => {
    const json = await graph(http, 'reading the upload status', { url: `${GRAPH}/${videoId}`, token: tokenOf(account), query: { fields: 'status' } });
    return (json.status as VideoStatus | undefined) ?? {};
  };

  /** A new upload session; its video id is saved before the platform gets a byte of it. */
  async function start(account: ConnectedAccount, post: OutgoingPost): Promise<Progress> {
    const json = await graph(http, 'starting the upload', {
      method: 'POST',
      url: `${GRAPH}/${pageOf(account)}/video_reels`,
      token: tokenOf(account),
      body: { upload_phase: 'start' },
    });
    if (typeof json.video_id !== 'string') throw errors.retry('the upload session came back without a video id');
    const progress = { videoId: json.video_id, uploadUrl: typeof json.upload_url === 'string' ? json.upload_url : `${UPLOAD_HOST}/${json.video_id}` };
    await post.saveProgress({ ...progress });
    return progress;
  }

  /** Sends the bytes from `offset` on, a part per request, each at the offset the platform holds. */
  async function upload(account: ConnectedAccount, progress: Progress, media: PostMedia, offset: number) {
    let at = offset;
    for await (const part of chunksOf(await media.open(), PART_BYTES, { start: offset, total: media.size })) {
      const res = await http.request({
        method: 'POST',
        url: progress.uploadUrl,
        headers: {
          authorization: `OAuth ${tokenOf(account)}`,
          offset: String(at),
          file_size: String(media.size),
          'content-type': 'application/octet-stream',
        },
        body: part,
        timeoutMs: PART_TIMEOUT_MS,
      });
      if (res.status !== 200 || (res.json as { success?: boolean } | null)?.success !== true) throw uploadError(res);
      at += part.length;
    }
  }

  /** upload_phase=finish with video_state=PUBLISHED: the platform processes the video, then publishes it. */
  async function finish(account: ConnectedAccount, post: OutgoingPost, progress: Progress) {
    const json = await graph(http, 'publishing the reel', {
      method: 'POST',
      url: `${GRAPH}/${pageOf(account)}/video_reels`,
      token: tokenOf(account),
      body: { upload_phase: 'finish', video_id: progress.videoId, video_state: 'PUBLISHED', description: String(post.content.content ?? '') },
    });
    if (json.success !== true) throw errors.retry('the platform did not confirm the reel');
    await post.saveProgress({ ...progress, finished: true });
  }

  /** What a re-run finds of its saved session: how far the upload got and whether a finish arrived; null when it is gone. */
  async function resumable(account: ConnectedAccount, saved: Progress) {
    let s: VideoStatus;
    try {
      s = await status(account, saved.videoId);
    } catch (err) {
      // the session is gone (an unknown id): a new one
      if (err instanceof PlatformError && err.kind === 'bad_request') return null;
      throw err;
    }
    if (s.video_status === 'expired' && !saved.finished) return null;
    const problem = failure(s);
    if (problem) throw errors.badRequest(problem);
    const uploaded = s.uploading_phase?.status === 'complete' || publishingStarted(s);
    return {
      uploaded,
      offset: uploaded ? 0 : Math.max(0, Number(s.uploading_phase?.bytes_transferred ?? 0)),
      finished: saved.finished || publishingStarted(s),
    };
  }

  return {
    async publish(account, post, media): Promise<PublishStep> {
      const saved = progressOf(post);
      const found = saved ? await resumable(account, saved) : null;
      const progress = found && saved ? saved : await start(account, post);
      if (!found?.uploaded) await upload(account, progress, media, found?.offset ?? 0);
      // the guide's order: finish as soon as the bytes are in; a finished reel is not finished again
      if (!found?.finished) await finish(account, post, progress);
      return { state: 'pending', ref: progress.videoId, checkAfterMs: CHECK_AFTER_MS };
    },

    async check(account, ref) {
      const s = await status(account, ref);
      const problem = failure(s);
      if (problem) throw errors.badRequest(problem);
      return published(s) ? { state: 'ready' } : { state: 'pending', checkAfterMs: CHECK_AFTER_MS };
    },

    async finalize(account, post, ref) {
      const s = await status(account, ref);
      const problem = failure(s);
      if (problem) throw errors.badRequest(problem);
      // a reel whose finish never arrived (a handle from elsewhere) is finished here; one that did, never twice
      const saved = progressOf(post);
      if (!publishingStarted(s) && !(saved?.videoId === ref && saved.finished)) {
        await finish(account, post, { videoId: ref, uploadUrl: saved?.uploadUrl ?? `${UPLOAD_HOST}/${ref}` });
      }
      return { platformPostId: ref, platformPostUrl: reelUrl(ref) };
    },

    async fetchPostMetrics(account, platformPostId): Promise<PostMetrics> {
      const json = await graph(http, "reading the reel's metrics", {
        url: `${GRAPH}/${platformPostId}/video_insights`,
        token: tokenOf(account),
        query: { metric: METRICS.join(',') },
      });
      const values = new Map<string, unknown>();
      for (const row of (json.data as Array<{ name?: string; values?: Array<{ value?: unknown }> }> | undefined) ?? []) {
        if (row.name) values.set(row.name, row.values?.[0]?.value);
      }
      const sum = (v: unknown) => (v && typeof v === 'object' ? Object.values(v).reduce((n: number, x) => n + count(x), 0) : count(v));
      const social = (values.get('post_video_social_actions') ?? {}) as Record<string, unknown>;
      return {
        views: count(values.get('blue_reels_play_count')),
        likes: sum(values.get('post_video_likes_by_reaction_type')),
        comments: count(social.COMMENT),
        shares: count(social.SHARE),
        impressions: 0,
        reach: 0,
        clicks: 0,
      };
    },

    async fetchFollowers(account) {
      const json = await graph(http, "reading the Page's followers", {
        url: `${GRAPH}/${pageOf(account)}`,
        token: tokenOf(account),
        query: { fields: 'followers_count' },
      });
      return followerCount(KEY, json.followers_count ?? 0);
    },
  };
}

export const socialnetPlatform: PlatformDefinition = {
  key: 'socialnet',
  oauth: flow,
  exchangeCode,
  refresh,
  identify,
  connector: (http) => createSocialnetConnector(http),
};
