/**
 * photoshare: Instagram, through the Instagram Graph API for professional
 * accounts with Facebook Login for Business. Graph API version v26.0, on
 * every call (one constant).
 *
 * Endpoints (graph.facebook.com unless another host is named):
 *   GET  https://www.facebook.com/v26.0/dialog/oauth                    the user's consent
 *        https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 *   GET  /v26.0/oauth/access_token?client_id&client_secret&redirect_uri&code     a code for a short-lived token (same page)
 *   GET  /v26.0/oauth/access_token?grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token
 *        a long-lived token (~60 days), and the refresh: there is no refresh token
 *        https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived
 *   GET  /v26.0/me/accounts?fields=id,name,instagram_business_account  the Pages and their professional account
 *        https://developers.facebook.com/docs/graph-api/reference/user/accounts/
 *   GET  /v26.0/{ig-user-id}?fields=id,username,followers_count
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user
 *   POST /v26.0/{ig-user-id}/media  media_type=REELS|STORIES, upload_type=resumable, caption, share_to_feed → {id, uri}
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
 *   POST https://rupload.facebook.com/ig-api-upload/v26.0/{container-id}  Authorization: OAuth, offset, file_size; the bytes
 *        https://developers.facebook.com/docs/instagram-platform/content-publishing/resumable-uploads
 *   GET  /v26.0/{container-id}?fields=status_code,status
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-container
 *   POST /v26.0/{ig-user-id}/media_publish  creation_id → {id}
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media_publish
 *   GET  /v26.0/{ig-user-id}/media and /v26.0/{ig-user-id}/stories  ?fields=id,caption,media_product_type,timestamp
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/stories
 *   POST /v26.0/{ig-media-id}/comments  message;  GET /v26.0/{ig-media-id}/comments?fields=id,text,username
 *        https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-media/comments
 *   GET  /v26.0/{ig-media-id}?fields=permalink | media_product_type
 *        https://developers.facebook.com/docs/instagram-platform/reference/instagram-media
 *   GET  /v26.0/{ig-media-id}/insights?metric=…
 *        https://developers.facebook.com/docs/instagram-platform/reference/instagram-media/insights
 * Errors: https://developers.facebook.com/docs/graph-api/guides/error-handling,
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes,
 * rate limits: https://developers.facebook.com/docs/graph-api/overview/rate-limiting
 *
 * The flow: a container is made with upload_type=resumable and its id saved
 * before a byte moves; the video goes up in CHUNK_BYTES requests, each saying
 * its `offset` in a file of `file_size` bytes, the offset saved after each;
 * the platform then processes the container (IN_PROGRESS → FINISHED), and
 * finalize publishes it with media_publish, posts the first comment, and reads
 * the post's permalink.
 *
 * What a re-run can and cannot learn from the platform:
 * - The container says where it stands (status_code): FINISHED is uploaded and
 *   processed, PUBLISHED was published, EXPIRED (24 h) and ERROR end it.
 * - How many bytes an interrupted upload left on the platform is not a field
 *   the documentation gives a container: the re-run resumes from the offset
 *   saved after the last acknowledged chunk, and when the upload host refuses
 *   that offset it starts over in a new container (an unpublished container
 *   expires by itself, so it can never become a second post).
 * - A container published before its media id was saved has no documented
 *   link to its media: the media is found among the account's latest reels
 *   (or stories) by caption and time, after the container's creation. Two
 *   posts with the same caption published by other means in that window could
 *   be taken for each other.
 * - A first comment sent before its id was saved is found among the media's
 *   comments by its text and the account's username.
 */
import { chunksOf } from './chunks.js';
import { followerCount, platformErrors, retryAfterMs } from './http.js';
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
  type PostMedia,
  type PostMetrics,
  type PublishedPost,
  type PublishStep,
  type TokenSet,
} from './types.js';

const NAME = 'photoshare';
export const PHOTOSHARE_API_VERSION = 'v26.0';
const GRAPH = `https://graph.facebook.com/${PHOTOSHARE_API_VERSION}`;
const RUPLOAD = `https://rupload.facebook.com/ig-api-upload/${PHOTOSHARE_API_VERSION}`;

/** One upload request's bytes: a 12 MB render is three requests, and a resume re-sends at most this much. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** The documentation asks for a container's status about once a minute; a short video is ready well within that. */
const CHECK_AFTER_MS = 30_000;

/** An account over its daily publishing limit (50 posts in 24 hours) is asked again an hour later. */
const PUBLISHING_LIMIT_WAIT_MS = 60 * 60_000;

const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * The fewest permissions that publish reels and stories with a first comment
 * and read the account and its posts' insights. business_management is left
 * out: it is needed only where a Page role was given through a Business
 * Manager, and pages_show_list does not list such Pages without it.
 */
export const PHOTOSHARE_SCOPES = [
  'instagram_basic',
  'instagram_content_publish',
  'instagram_manage_comments',
  'instagram_manage_insights',
  'pages_show_list',
  'pages_read_engagement',
] as const;

/**
 * Facebook Login's web flow takes no PKCE: its code_challenge belongs to the
 * OIDC variant (scope openid), documented as still in testing.
 */
const oauth: OAuthFlow = {
  authorizeUrl: `https://www.facebook.com/${PHOTOSHARE_API_VERSION}/dialog/oauth`,
  tokenUrl: `${GRAPH}/oauth/access_token`,
  scopes: PHOTOSHARE_SCOPES,
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'body',
};

// ---------------------------------------------------------------------------
// errors

/** The Graph API's error object (error-handling guide). */
interface GraphError {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** Application, account, page and custom throttling (4, 17, 32, 613), the app's limit (341), a temporary block (368). */
const THROTTLED = new Set([4, 17, 32, 341, 368, 613]);
/** Business Use Case limits are 800xx, Instagram's 80002 among them. */
const isBusinessUseCaseLimit = (code: number) => code >= 80000 && code < 80100;
/** An account that removed the app (458) is gone for good; the others (expired, password changed, invalid) connect again. */
const APP_REMOVED = 458;
/** The daily publishing limit (code 9). */
const PUBLISHING_LIMIT = 2207042;
/** "We restrict certain activity to protect our community" comes with code 4, the throttling code: it is a refusal. */
const SPAM_RESTRICTED = 2207051;
/** A container not yet ready to publish (code 9007). */
const NOT_READY = 2207027;

const graphErrorOf = (res: PlatformResponse): GraphError | null => {
  const error = (res.json as { error?: unknown } | null)?.error;
  return error && typeof error === 'object' ? (error as GraphError) : null;
};

/**
 * How long the platform asks us to wait: the Business Use Case header's
 * estimated_time_to_regain_access (minutes, the longest of its entries), else
 * a Retry-After.
 */
export function graphWaitMs(headers: Headers): number | undefined {
  const usage = headers.get('x-business-use-case-usage');
  if (usage) {
    try {
      const minutes = Object.values(JSON.parse(usage) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>)
        .flat()
        .map((u) => Number(u?.estimated_time_to_regain_access))
        .filter((m) => Number.isFinite(m) && m > 0);
      if (minutes.length) return Math.max(...minutes) * 60_000;
    } catch {
      // an unreadable header says nothing; Retry-After may
    }
  }
  return retryAfterMs(headers);
}

/** The platform's own words: the message meant for the user where there is one. */
function saidBy(e: GraphError): string {
  const text = e.error_user_msg ? `${e.error_user_title ? `${e.error_user_title}: ` : ''}${e.error_user_msg}` : (e.message ?? 'no message');
  return `${text} (code ${e.code ?? '?'}${e.error_subcode ? `/${e.error_subcode}` : ''})`;
}

/**
 * A Graph API error judged by its code and subcode (error-handling guide,
 * Instagram error codes) before its status. An answer without the error
 * object is not the platform's, whatever its status.
 */
const errors = platformErrors(NAME, {
  said: (res) => {
    const e = graphErrorOf(res);
    return e ? saidBy(e) : '';
  },
  own(res, what, said) {
    const e = graphErrorOf(res);
    if (!e) return { kind: 'unexpected' };
    const code = Number(e.code);
    const sub = Number(e.error_subcode);
    if (code === 190 || code === 102)
      return sub === APP_REMOVED ? { kind: 'disconnected', says: `${what}: ${said}; the account removed this app` } : { kind: 'reauthorize' };
    if (sub === PUBLISHING_LIMIT) return { kind: 'retry', retryAfterMs: PUBLISHING_LIMIT_WAIT_MS };
    if (sub === SPAM_RESTRICTED) return { kind: 'bad_request' };
    if (THROTTLED.has(code) || isBusinessUseCaseLimit(code)) return { kind: 'retry' };
    if (code === 9007 && sub === NOT_READY) return { kind: 'retry', retryAfterMs: CHECK_AFTER_MS };
    if (code === 10 || code === 3 || (code >= 200 && code < 300)) {
      return { kind: 'reauthorize', says: `${what}: ${said}; the account has not granted the permission this needs: connect it again` };
    }
    if (e.is_transient || code === 1 || code === 2 || code === -1 || code === -2) return { kind: 'retry' };
    // an error object in an answer whose status says no error refuses the request all the same
    if (res.status < 400) return { kind: 'bad_request' };
    return undefined;
  },
  words: {
    retry: (what, said) => `${what}: ${said}`,
    reauthorize: (what, said) => `${what}: ${said}; connect the account again`,
    refused: (what, said) => `${what}: ${said}`,
  },
  waitMs: graphWaitMs,
});

/**
 * A refusal at the token endpoint: a code or token the platform no longer
 * honours means connecting again; throttling, an outage, or an app
 * misconfigured (a wrong secret, code 1) passes or waits for the operator.
 */
function tokenCallError(res: PlatformResponse, what: string): PlatformError {
  const e = graphErrorOf(res);
  if (!e) return errors.unexpected(res, what);
  const code = Number(e.code);
  if (code === 190 || code === 100 || code === 102) return errors.reauthorize(`${what} was refused: ${saidBy(e)}; connect the account again`);
  return errors.retry(`${what} failed for now: ${saidBy(e)}`, graphWaitMs(res.headers));
}

// ---------------------------------------------------------------------------
// calls

interface GraphCall {
  method?: 'GET' | 'POST';
  /** the path after the version: `me/accounts`, `{id}/media` */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: Record<string, unknown>;
}

/** A Graph API call with the user's token in the Authorization header (never in the URL); its JSON, or the judged error. */
async function graph(http: PlatformHttp, token: string, call: GraphCall, what: string): Promise<Record<string, unknown>> {
  const res = await http.request({ method: call.method ?? 'GET', url: `${GRAPH}/${call.path}`, token, query: call.query, body: call.body });
  const json = res.json as Record<string, unknown> | null;
  if (res.status === 200 && json && typeof json === 'object' && !('error' in json)) return json;
  throw errors.refusal(res, what);
}

/** The token endpoint, called as documented: a GET with the client's credentials in the query (redacted in errors by http.ts). */
async function tokenCall(http: PlatformHttp, query: Record<string, string>, what: string, previous?: TokenSet): Promise<TokenSet> {
  const res = await http.request({ method: 'GET', url: oauth.tokenUrl, query });
  const json = (res.json ?? {}) as Record<string, unknown>;
  if (res.status !== 200 || typeof json.access_token !== 'string') throw tokenCallError(res, what);
  return tokenSetFrom(json, Date.now(), previous);
}

/** A short-lived token for a long-lived one, or a long-lived one for a fresh one; an expired token cannot be exchanged. */
function longLived(http: PlatformHttp, settings: PlatformSettings, token: string, what: string, previous?: TokenSet): Promise<TokenSet> {
  const query = { grant_type: 'fb_exchange_token', client_id: settings.clientId, client_secret: settings.clientSecret, fb_exchange_token: token };
  return tokenCall(http, query, what, previous);
}

async function exchangeCode(http: PlatformHttp, settings: PlatformSettings, input: { code: string; redirectUri: string }): Promise<TokenSet> {
  const query = { client_id: settings.clientId, client_secret: settings.clientSecret, redirect_uri: input.redirectUri, code: input.code };
  const short = await tokenCall(http, query, 'exchanging the authorisation code');
  return longLived(http, settings, short.accessToken, 'exchanging the token for a long-lived one');
}

/** No refresh token: the long-lived token, still valid, is exchanged for a new one; an expired or revoked one is refused (reauthorize). */
function refresh(http: PlatformHttp, settings: PlatformSettings, tokens: TokenSet): Promise<TokenSet> {
  return longLived(http, settings, tokens.accessToken, 'renewing the long-lived token', tokens);
}

interface PageEntry {
  id?: string;
  name?: string;
  instagram_business_account?: { id?: string };
}

/** The professional account linked to the first Page the user manages that has one. */
async function identify(http: PlatformHttp, _settings: PlatformSettings, tokens: TokenSet): Promise<AccountIdentity> {
  const pages = await graph(http, tokens.accessToken, { path: 'me/accounts', query: { fields: 'id,name,instagram_business_account' } }, 'reading the Pages');
  const page = ((pages.data ?? []) as PageEntry[]).find((p) => typeof p.instagram_business_account?.id === 'string');
  if (!page) {
    throw errors.badRequest('none of the Pages this login manages has a professional account linked; link one to a Page and connect again');
  }
  const igUserId = page.instagram_business_account!.id!;
  const user = await graph(http, tokens.accessToken, { path: igUserId, query: { fields: 'id,username,followers_count' } }, 'reading the account');
  const username = typeof user.username === 'string' ? user.username : null;
  return {
    externalId: igUserId,
    handle: username,
    // professional accounts (the only ones the API publishes to) are public
    isPrivate: false,
    followers: followerCount(NAME, user.followers_count ?? 0),
    extra: { igUserId, pageId: String(page.id), ...(username ? { username } : {}) },
  };
}

// ---------------------------------------------------------------------------
// the post

interface PhotoshareContent {
  format: 'reel' | 'story';
  content?: string;
  firstComment?: string;
}

function contentOf(post: OutgoingPost): PhotoshareContent {
  const c = post.content as Partial<PhotoshareContent>;
  if (c.format !== 'reel' && c.format !== 'story') throw errors.badRequest("the post's format must be reel or story");
  // stories carry no caption and take replies, not comments, on the platform
  if (c.format === 'story' && c.content !== undefined) throw errors.badRequest('a story carries no caption; leave content out');
  if (c.format === 'story' && c.firstComment !== undefined) throw errors.badRequest('a story takes no comments; leave firstComment out');
  return { format: c.format, content: c.content, firstComment: c.firstComment };
}

/** What a post's attempt saved: its container, how much of the video the platform acknowledged, and what came of it. */
interface Progress {
  containerId: string;
  /** the upload URL the platform gave for the container */
  uri: string;
  size: number;
  /** bytes acknowledged by the upload host */
  uploaded: number;
  /** when the container was made: where a search for its media starts */
  createdAt: string;
  mediaId?: string;
  /** a first comment was being sent: a re-run looks for it before sending it again */
  commenting?: boolean;
  commentId?: string;
  /** the platform refused the first comment (the post stands without it) */
  commentError?: string;
}

function progressOf(post: OutgoingPost): Progress | null {
  const p = post.progress as Partial<Progress> | null;
  return p && typeof p.containerId === 'string' ? (p as Progress) : null;
}

const credentialsOf = (account: ConnectedAccount) => account.credentials as TokenSet;
const igUserOf = (account: ConnectedAccount) => credentialsOf(account).extra?.igUserId ?? account.externalId;

type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

/** The upload host refused the bytes it was sent (an offset it does not expect): the container cannot be completed. */
class UploadRefused extends PlatformError {
  constructor(message: string) {
    super('retry', message);
  }
}

/**
 * The upload host answers `{success: true}`; its refusals come as
 * `{debug_info: {retriable, type, message}}`, or as a Graph error.
 */
function uploadError(res: PlatformResponse): PlatformError {
  if (graphErrorOf(res)) return errors.refusal(res, 'uploading the video');
  const info = (res.json as { debug_info?: { retriable?: boolean; type?: string; message?: string } } | null)?.debug_info;
  if (!info) return errors.unexpected(res, 'uploading the video');
  const says = `uploading the video: ${info.message ?? 'no message'} (${info.type ?? 'no type'})`;
  // the upload host says itself whether to send again (`retriable`), beside a 5xx of its own outage
  if (info.retriable || res.status >= 500) return errors.retry(says, retryAfterMs(res.headers));
  if (/auth/i.test(info.type ?? '')) return errors.reauthorize(`${says}; connect the account again`);
  return new UploadRefused(`${NAME}: ${says}`);
}

export function createPhotoshareConnector(http: PlatformHttp): PlatformConnector {
  const call = (account: ConnectedAccount, c: GraphCall, what: string) => graph(http, credentialsOf(account).accessToken, c, what);

  async function containerStatus(account: ConnectedAccount, containerId: string): Promise<{ code: ContainerStatus; status: string }> {
    const json = await call(account, { path: containerId, query: { fields: 'status_code,status' } }, "reading the upload's status");
    return { code: json.status_code as ContainerStatus, status: typeof json.status === 'string' ? json.status : '' };
  }

  const processingFailed = (status: string) => errors.badRequest(`the platform could not process the video${status ? ` (${status})` : ''}`);
  const expired = () => errors.badRequest('the upload expired (24 hours) before it was published; publish again');

  /** A new container for the post, saved before any byte of the video goes up. */
  async function createContainer(account: ConnectedAccount, post: OutgoingPost, content: PhotoshareContent, media: PostMedia): Promise<Progress> {
    const body: Record<string, unknown> =
      content.format === 'reel'
        ? { media_type: 'REELS', upload_type: 'resumable', caption: content.content, share_to_feed: true }
        : { media_type: 'STORIES', upload_type: 'resumable' };
    const json = await call(account, { method: 'POST', path: `${igUserOf(account)}/media`, body }, 'creating the upload');
    if (typeof json.id !== 'string') throw errors.unexpected({ status: 200, headers: new Headers(), json, text: JSON.stringify(json) }, 'creating the upload');
    const progress: Progress = {
      containerId: json.id,
      uri: typeof json.uri === 'string' ? json.uri : `${RUPLOAD}/${json.id}`,
      size: media.size,
      uploaded: 0,
      createdAt: new Date().toISOString(),
    };
    await post.saveProgress({ ...progress });
    return progress;
  }

  /** Sends the video from `progress.uploaded` on, a chunk a request, saving the offset the platform acknowledged after each. */
  async function upload(account: ConnectedAccount, post: OutgoingPost, progress: Progress, media: PostMedia): Promise<void> {
    const stream = await media.open();
    let offset = progress.uploaded;
    try {
      for await (const chunk of chunksOf(stream, CHUNK_BYTES, { start: offset, total: media.size })) {
        const res = await http.request({
          method: 'POST',
          url: progress.uri,
          headers: {
            authorization: `OAuth ${credentialsOf(account).accessToken}`,
            offset: String(offset),
            file_size: String(media.size),
            'content-type': 'application/octet-stream',
          },
          body: chunk,
          timeoutMs: UPLOAD_TIMEOUT_MS,
        });
        if (res.status !== 200 || (res.json as { success?: unknown } | null)?.success !== true) throw uploadError(res);
        offset += chunk.length;
        progress.uploaded = offset;
        await post.saveProgress({ ...progress });
      }
    } finally {
      stream.destroy();
    }
  }

  const pending = (containerId: string): PublishStep => ({ state: 'pending', ref: containerId, checkAfterMs: CHECK_AFTER_MS });

  /**
   * A re-run with a saved container: what the platform says of it decides.
   * Null when the container cannot be completed and a new one is needed.
   */
  async function resume(account: ConnectedAccount, post: OutgoingPost, progress: Progress, media: PostMedia): Promise<PublishStep | null> {
    if (progress.size !== media.size) return null;
    const { code, status } = await containerStatus(account, progress.containerId);
    const complete = progress.uploaded >= media.size;
    switch (code) {
      case 'PUBLISHED':
        return { state: 'published', ...(await finalize(account, post, progress.containerId)) };
      case 'FINISHED':
        return pending(progress.containerId);
      case 'IN_PROGRESS':
        if (complete) return pending(progress.containerId);
        try {
          await upload(account, post, progress, media);
        } catch (err) {
          if (err instanceof UploadRefused) return null;
          throw err;
        }
        return pending(progress.containerId);
      case 'ERROR':
        // an upload cut short may end in ERROR; a complete one failed on its content
        if (complete) throw processingFailed(status);
        return null;
      case 'EXPIRED':
        return null;
      default:
        throw errors.retry(`the upload's status is ${String(code)}, which this connector does not know`);
    }
  }

  async function publish(account: ConnectedAccount, post: OutgoingPost, media: PostMedia): Promise<PublishStep> {
    const content = contentOf(post);
    const saved = progressOf(post);
    if (saved) {
      const step = await resume(account, post, { ...saved }, media);
      if (step) return step;
    }
    const progress = await createContainer(account, post, content, media);
    await upload(account, post, progress, media);
    return pending(progress.containerId);
  }

  async function check(account: ConnectedAccount, ref: string): Promise<{ state: 'ready' } | { state: 'pending'; checkAfterMs: number }> {
    const { code, status } = await containerStatus(account, ref);
    if (code === 'IN_PROGRESS') return { state: 'pending', checkAfterMs: CHECK_AFTER_MS };
    if (code === 'FINISHED' || code === 'PUBLISHED') return { state: 'ready' };
    if (code === 'ERROR') throw processingFailed(status);
    if (code === 'EXPIRED') throw expired();
    throw errors.retry(`the upload's status is ${String(code)}, which this connector does not know`);
  }

  interface Listed {
    id?: string;
    caption?: string;
    media_product_type?: string;
    timestamp?: string;
  }

  /**
   * The media a container became, when it was published before its id was
   * saved: the earliest of the account's latest posts of its kind made after
   * the container, with its caption (header comment: the gap).
   */
  async function findPublished(account: ConnectedAccount, content: PhotoshareContent, progress: Progress | null): Promise<string> {
    const story = content.format === 'story';
    const listing = await call(
      account,
      { path: `${igUserOf(account)}/${story ? 'stories' : 'media'}`, query: { fields: 'id,caption,media_product_type,timestamp', limit: 25 } },
      'looking for the published post',
    );
    // timestamps are whole seconds: a second of slack
    const since = progress ? Date.parse(progress.createdAt) - 1000 : -Infinity;
    const found = ((listing.data ?? []) as Listed[])
      .filter((m) => typeof m.id === 'string' && m.media_product_type === (story ? 'STORY' : 'REELS'))
      .filter((m) => story || (m.caption ?? '') === (content.content ?? ''))
      .filter((m) => Date.parse(m.timestamp ?? '') >= since)
      .sort((a, b) => Date.parse(a.timestamp!) - Date.parse(b.timestamp!));
    if (!found.length) throw errors.retry('the upload was published but its post is not listed yet');
    return found[0].id!;
  }

  /** Publishes the container once: a container already published gives the post it became. */
  async function publishContainer(
    account: ConnectedAccount,
    _post: OutgoingPost,
    content: PhotoshareContent,
    ref: string,
    progress: Progress | null,
  ): Promise<string> {
    const { code, status } = await containerStatus(account, ref);
    if (code === 'PUBLISHED') return findPublished(account, content, progress);
    if (code === 'IN_PROGRESS') throw errors.retry('the upload is still being processed', CHECK_AFTER_MS);
    if (code === 'ERROR') throw processingFailed(status);
    if (code === 'EXPIRED') throw expired();
    const json = await call(account, { method: 'POST', path: `${igUserOf(account)}/media_publish`, body: { creation_id: ref } }, 'publishing');
    if (typeof json.id !== 'string') throw errors.unexpected({ status: 200, headers: new Headers(), json, text: JSON.stringify(json) }, 'publishing');
    return json.id;
  }

  /** The first comment, once: a re-run after a comment went out unrecorded finds it by its text and author. */
  async function firstComment(account: ConnectedAccount, post: OutgoingPost, progress: Progress, mediaId: string, message: string): Promise<void> {
    if (progress.commentId || progress.commentError) return;
    if (progress.commenting) {
      const listing = await call(account, { path: `${mediaId}/comments`, query: { fields: 'id,text,username' } }, "reading the post's comments");
      const username = credentialsOf(account).extra?.username;
      const mine = ((listing.data ?? []) as Array<{ id?: string; text?: string; username?: string }>).find(
        (c) => c.text === message && (!username || c.username === username),
      );
      if (mine?.id) {
        await post.saveProgress({ ...progress, commentId: mine.id });
        return;
      }
    }
    await post.saveProgress({ ...progress, commenting: true });
    try {
      const json = await call(account, { method: 'POST', path: `${mediaId}/comments`, body: { message } }, 'posting the first comment');
      await post.saveProgress({ ...progress, commenting: true, commentId: String(json.id) });
    } catch (err) {
      // the post is published: a comment the platform refuses does not unpublish it
      if (!(err instanceof PlatformError) || err.kind !== 'bad_request') throw err;
      await post.saveProgress({ ...progress, commenting: true, commentError: err.message });
    }
  }

  async function finalize(account: ConnectedAccount, post: OutgoingPost, ref: string): Promise<PublishedPost> {
    const content = contentOf(post);
    const saved = progressOf(post);
    const progress: Progress =
      saved?.containerId === ref ? { ...saved } : { containerId: ref, uri: `${RUPLOAD}/${ref}`, size: 0, uploaded: 0, createdAt: new Date(0).toISOString() };
    if (!progress.mediaId) {
      progress.mediaId = await publishContainer(account, post, content, ref, saved?.containerId === ref ? saved : null);
      await post.saveProgress({ ...progress });
    }
    if (content.firstComment) await firstComment(account, post, progress, progress.mediaId, content.firstComment);
    const media = await call(account, { path: progress.mediaId, query: { fields: 'permalink' } }, "reading the post's address");
    if (typeof media.permalink !== 'string') throw errors.retry(`the post ${progress.mediaId} has no address yet`);
    return { platformPostId: progress.mediaId, platformPostUrl: media.permalink };
  }

  /** Insights by media kind (insights reference): likes, comments and saves exist for reels, replies for stories. */
  const METRICS: Record<string, string> = {
    REELS: 'views,reach,likes,comments,shares,saved,total_interactions',
    FEED: 'views,reach,likes,comments,shares,saved,total_interactions',
    STORY: 'views,reach,replies,shares,total_interactions',
  };

  async function fetchPostMetrics(account: ConnectedAccount, mediaId: string): Promise<PostMetrics> {
    const media = await call(account, { path: mediaId, query: { fields: 'media_product_type' } }, 'reading the post');
    const metric = METRICS[String(media.media_product_type)] ?? METRICS.REELS;
    let insights: Record<string, unknown>;
    try {
      insights = await call(account, { path: `${mediaId}/insights`, query: { metric } }, "reading the post's insights");
    } catch (err) {
      // a post seen by too few people has no insights yet (code 10): nothing to count
      if (err instanceof PlatformError && /not enough viewers/i.test(err.message)) insights = { data: [] };
      else throw err;
    }
    const value = valuesOf(insights);
    const views = value('views');
    return {
      views,
      likes: value('likes'),
      comments: value('comments') + value('replies'),
      shares: value('shares'),
      // impressions were retired in 2025 (v22.0): views is what replaced them
      impressions: views,
      reach: value('reach'),
      // reels and stories report no clicks
      clicks: 0,
    };
  }

  async function fetchFollowers(account: ConnectedAccount): Promise<number> {
    const user = await call(account, { path: igUserOf(account), query: { fields: 'followers_count' } }, 'reading the followers');
    return followerCount(NAME, user.followers_count);
  }

  return { publish, check, finalize, fetchPostMetrics, fetchFollowers };
}

/** An insights answer's totals by name; a metric the platform left out (no data yet) counts 0, as the documentation says it means. */
function valuesOf(insights: Record<string, unknown>): (name: string) => number {
  const byName = new Map<string, number>();
  for (const m of (insights.data ?? []) as Array<{ name?: string; values?: Array<{ value?: unknown }>; total_value?: { value?: unknown } }>) {
    const v = Number(m.total_value?.value ?? m.values?.[0]?.value);
    if (m.name && Number.isFinite(v)) byName.set(m.name, v);
  }
  return (name) => byName.get(name) ?? 0;
}

export const photosharePlatform: PlatformDefinition = {
  key: 'photoshare',
  oauth,
  exchangeCode,
  refresh,
  // a long-lived token is renewed only while it is valid: a week ahead, so the analytics sync (every 15 minutes) renews it in time
  refreshAheadMs: 7 * 24 * 3600_000,
  identify,
  connector: (http) => createPhotoshareConnector(http),
};
