/**
 * The professional social network (LinkedIn): a member's video post, through
 * the versioned REST API of the Community Management API product, pinned to
 * LinkedIn-Version 202607 (PROSOCIAL_API_VERSION), X-Restli-Protocol-Version 2.0.0.
 *
 * Endpoints:
 *   GET  https://www.linkedin.com/oauth/v2/authorization            the member's consent
 *   POST https://www.linkedin.com/oauth/v2/accessToken              code and refresh-token grants (standard, client secret in the body)
 *   GET  https://api.linkedin.com/v2/me                             the member's id, name and vanity name (r_basicprofile)
 *   GET  https://api.linkedin.com/rest/memberFollowersCount?q=me    the member's followers (r_member_profileAnalytics)
 *   POST https://api.linkedin.com/rest/videos?action=initializeUpload
 *   PUT  {uploadUrl of each upload instruction}                     the video's 4 MB parts, each answering its ETag
 *   POST https://api.linkedin.com/rest/videos?action=finalizeUpload
 *   GET  https://api.linkedin.com/rest/videos/{video urn}           WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED
 *   POST https://api.linkedin.com/rest/posts                        the post, its urn in the x-restli-id header
 *   GET  https://api.linkedin.com/rest/memberCreatorPostAnalytics?q=entity   impressions, reach, reactions, comments, reshares, link clicks
 *   GET  https://api.linkedin.com/rest/memberCreatorVideoAnalytics?q=entity  video plays
 *
 * Docs:
 *   https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow
 *   https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
 *   https://learn.microsoft.com/en-us/linkedin/shared/integrations/people/profile-api
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/follower-statistics
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/post-statistics
 *   https://learn.microsoft.com/en-us/linkedin/marketing/community-management/members/video-statistics
 *   https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling
 *   https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits
 *
 * Scopes: the member analytics scopes (r_member_postAnalytics,
 * r_member_profileAnalytics) exist only in the Community Management API
 * product, which must be the only product of its app; so the app cannot
 * also hold OpenID Connect's `openid profile`, and the member is read with
 * r_basicprofile from /v2/me, which that product grants. w_member_social posts.
 * No PKCE: the platform offers it to native clients only; this is a server with a secret.
 *
 * Re-runs: the video's urn, upload token and upload instructions are saved
 * before any byte goes up, and each part's ETag once it is up. A re-run asks
 * the platform for the video's status: processing or available means the
 * upload is done (not sent again); waiting for upload resumes with the parts
 * that have no ETag yet while the upload URLs are valid, else starts anew.
 * Before creating the post, the attempt is saved; a re-run after an attempt
 * whose answer was lost posts again, and the platform's refusal of a
 * duplicate ("Content is a duplicate of urn:li:…") names the post made the
 * first time, which is taken as ours. The gap: reading a member's own posts
 * (GET /rest/posts?q=author) needs r_member_social, which the platform no
 * longer grants, so when it does not judge the second attempt a duplicate
 * (it judges by the text, within a time window it does not document), a
 * second post can be made. Refresh tokens are issued to approved partners
 * only; without one an expired token means connecting the account again.
 */
import { chunksOf } from './chunks.js';
import { followerCount, platformErrors } from './http.js';
import type {
  AccountIdentity,
  ConnectedAccount,
  OutgoingPost,
  PlatformConnector,
  PlatformDefinition,
  PlatformHttp,
  PlatformResponse,
  PostMedia,
  PostMetrics,
  PublishedPost,
  TokenSet,
} from './types.js';

const KEY = 'prosocial';

/** The monthly version every /rest call names; the platform supports each for at least a year. */
export const PROSOCIAL_API_VERSION = '202607';

const API = 'https://api.linkedin.com';
const REST = `${API}/rest`;

/** The headers every versioned (/rest) call must carry. */
const REST_HEADERS = { 'LinkedIn-Version': PROSOCIAL_API_VERSION, 'X-Restli-Protocol-Version': '2.0.0' } as const;

/** Processing a video takes from seconds to minutes: the first look, then every next one. */
const FIRST_CHECK_MS = 15_000;
const NEXT_CHECK_MS = 10_000;

const PART_TIMEOUT_MS = 120_000;

/** What the platform knows of an uploaded video. */
type VideoStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

interface UploadInstruction {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

/** A post's saved progress: every handle the platform gave, saved before it is acted on. */
interface Progress {
  video: string;
  uploadToken: string;
  instructions: UploadInstruction[];
  /** one per instruction, null until that part is up */
  etags: Array<string | null>;
  fileSizeBytes: number;
  /** ms since the epoch; the upload URLs are refused after it */
  uploadUrlsExpireAt?: number;
  /** a create-post call was sent (its answer may have been lost) */
  postAttempted?: boolean;
  post?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function progressOf(saved: Record<string, unknown> | null): Progress | null {
  if (!saved || typeof saved.video !== 'string' || !Array.isArray(saved.instructions) || !Array.isArray(saved.etags)) return null;
  return saved as unknown as Progress;
}

const tokensOf = (account: ConnectedAccount) => account.credentials as TokenSet;

/** The member's urn, the author and owner of everything posted. */
function memberUrn(account: ConnectedAccount): string {
  return tokensOf(account).extra?.personUrn ?? `urn:li:person:${account.externalId}`;
}

export const postUrl = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`;

// ---------------------------------------------------------------------------
// Errors

/** ms until the next midnight UTC, when the platform's daily rate limits reset. */
export function untilUtcMidnight(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) - now;
}

const messageOf = (res: PlatformResponse) => (isRecord(res.json) && typeof res.json.message === 'string' ? res.json.message : undefined);

/**
 * The platform's error answer ({message, serviceErrorCode, status},
 * sometimes a `code`): rate limits and outages pass; an expired or invalid
 * token is refreshed; a token the member revoked is gone for good; a
 * permission the token lacks needs the member's consent again; a refused
 * request carries the platform's words, and one without them is not the
 * platform's refusal.
 */
const errors = platformErrors(KEY, {
  said: (res) => messageOf(res) ?? `HTTP ${res.status}`,
  own(res, what, said) {
    if (res.status === 401 && ((isRecord(res.json) && res.json.code === 'REVOKED_ACCESS_TOKEN') || /revoked/i.test(said))) {
      return { kind: 'disconnected', says: `the member revoked this app's access (${said}); connect the account again` };
    }
    if (res.status === 403 && /not enough permissions/i.test(said)) {
      return { kind: 'reauthorize', says: `the account's authorisation does not allow ${what} (${said}); connect the account again` };
    }
    return undefined;
  },
  words: {
    rateLimited: (what, said) => `${what} was rate limited (${said})`,
    retry: (what, said) => `${what} failed on the platform's side (${said})`,
    reauthorize: (what, said) => `${what} was refused as unauthorised (${said})`,
    refused: (what, said) => `${what} was refused: ${said}`,
  },
  // the platform names no wait; its daily limits reset at midnight UTC
  rateWindowMs: (_res, said) => (/\bDAY limit\b/i.test(said) ? untilUtcMidnight() : undefined),
  refuses: (res) => messageOf(res) !== undefined,
});

async function rest(http: PlatformHttp, token: string, req: { method?: string; url: string; body?: unknown }): Promise<PlatformResponse> {
  return http.request({ ...req, token, headers: { ...REST_HEADERS } });
}

// ---------------------------------------------------------------------------
// The member

async function readMember(http: PlatformHttp, token: string) {
  const res = await http.request({ url: `${API}/v2/me`, token, headers: { 'X-Restli-Protocol-Version': '2.0.0' } });
  if (res.status !== 200) throw errors.refusal(res, 'reading the member');
  const me = isRecord(res.json) ? res.json : {};
  if (typeof me.id !== 'string' || !me.id) throw errors.unexpected(res, 'reading the member');
  const name = [me.localizedFirstName, me.localizedLastName].filter((s) => typeof s === 'string' && s).join(' ');
  const vanityName = typeof me.vanityName === 'string' && me.vanityName ? me.vanityName : null;
  return { id: me.id, handle: vanityName ?? (name || null) };
}

async function readFollowers(http: PlatformHttp, token: string): Promise<number> {
  const res = await rest(http, token, { url: `${REST}/memberFollowersCount?q=me` });
  if (res.status !== 200) throw errors.refusal(res, 'reading the followers');
  const elements = isRecord(res.json) && Array.isArray(res.json.elements) ? res.json.elements : null;
  const count = elements?.[0] && isRecord(elements[0]) ? elements[0].memberFollowersCount : undefined;
  if (elements && elements.length === 0) return 0;
  if (count === undefined) throw errors.unexpected(res, 'reading the followers');
  return followerCount(KEY, count);
}

// ---------------------------------------------------------------------------
// The video

async function initializeUpload(http: PlatformHttp, token: string, owner: string, size: number): Promise<Progress> {
  const res = await rest(http, token, {
    method: 'POST',
    url: `${REST}/videos?action=initializeUpload`,
    body: { initializeUploadRequest: { owner, fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false } },
  });
  if (res.status !== 200) throw errors.refusal(res, 'starting the video upload');
  const value = isRecord(res.json) && isRecord(res.json.value) ? res.json.value : {};
  const instructions = Array.isArray(value.uploadInstructions) ? (value.uploadInstructions as UploadInstruction[]) : [];
  // contiguous parts of one size (the last may be shorter), covering the file: what uploadParts reads
  const partSize = instructions.length ? instructions[0].lastByte - instructions[0].firstByte + 1 : 0;
  const valid =
    typeof value.video === 'string' &&
    instructions.length > 0 &&
    instructions.every(
      (p, i) => typeof p.uploadUrl === 'string' && p.firstByte === i * partSize && (p.lastByte - p.firstByte + 1 === partSize || i === instructions.length - 1),
    ) &&
    instructions[instructions.length - 1].lastByte === size - 1;
  if (!valid) throw errors.unexpected(res, 'starting the video upload');
  return {
    video: value.video as string,
    uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '',
    instructions: instructions.map(({ uploadUrl, firstByte, lastByte }) => ({ uploadUrl, firstByte, lastByte })),
    etags: instructions.map(() => null),
    fileSizeBytes: size,
    uploadUrlsExpireAt: typeof value.uploadUrlsExpireAt === 'number' ? value.uploadUrlsExpireAt : undefined,
  };
}

/**
 * Uploads the parts that have no ETag yet, in order, each saved once it is
 * up: a re-run sends only what the platform does not have. The platform
 * cuts the parts (4 MB, the last shorter); they are read at its sizes.
 */
async function uploadParts(http: PlatformHttp, post: OutgoingPost, media: PostMedia, progress: Progress): Promise<Progress> {
  const missing = progress.instructions.map((p, i) => ({ p, i })).filter(({ i }) => !progress.etags[i]);
  if (missing.length === 0) return progress;
  const size = progress.instructions[0].lastByte - progress.instructions[0].firstByte + 1;
  const parts = chunksOf(await media.open(), size, { start: missing[0].p.firstByte, total: media.size });
  let next = 0;
  for await (const bytes of parts) {
    if (next === missing.length) throw errors.retry(`the video is longer than the ${media.size} bytes it was stored with`);
    const { p, i } = missing[next++];
    if (bytes.length !== p.lastByte - p.firstByte + 1)
      throw errors.retry(`part ${i + 1} of the video read ${bytes.length} bytes, not ${p.lastByte - p.firstByte + 1}`);
    const res = await http.request({
      method: 'PUT',
      url: p.uploadUrl,
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
      timeoutMs: PART_TIMEOUT_MS,
    });
    const etag = res.headers.get('etag');
    if (res.status !== 200 && res.status !== 201) throw errors.refusal(res, `uploading part ${i + 1} of the video`);
    if (!etag) throw errors.unexpected(res, `uploading part ${i + 1} of the video`);
    progress = { ...progress, etags: progress.etags.map((e, j) => (j === i ? etag : e)) };
    await post.saveProgress({ ...progress });
  }
  if (next !== missing.length) throw errors.retry('the video ended before its last part');
  return progress;
}

async function finalizeUpload(http: PlatformHttp, token: string, progress: Progress): Promise<void> {
  const res = await rest(http, token, {
    method: 'POST',
    url: `${REST}/videos?action=finalizeUpload`,
    body: { finalizeUploadRequest: { video: progress.video, uploadToken: progress.uploadToken, uploadedPartIds: progress.etags } },
  });
  if (res.status !== 200 && res.status !== 204) throw errors.refusal(res, 'finishing the video upload');
}

/** The video's status; null when the platform no longer has it. */
async function videoStatus(http: PlatformHttp, token: string, video: string): Promise<{ status: VideoStatus; reason?: string } | null> {
  const res = await rest(http, token, { url: `${REST}/videos/${encodeURIComponent(video)}` });
  if (res.status === 404) return null;
  if (res.status !== 200) throw errors.refusal(res, "reading the video's status");
  const body = isRecord(res.json) ? res.json : {};
  const status = body.status;
  if (status !== 'WAITING_UPLOAD' && status !== 'PROCESSING' && status !== 'AVAILABLE' && status !== 'PROCESSING_FAILED')
    throw errors.unexpected(res, "reading the video's status");
  return { status, reason: typeof body.processingFailureReason === 'string' ? body.processingFailureReason : undefined };
}

const failedProcessing = (reason?: string) => errors.badRequest(`the platform could not process the video${reason ? `: ${reason}` : ''}`);

/**
 * What a re-run may keep of an earlier attempt: nothing to upload when the
 * platform has the whole video; the upload to resume while its URLs hold;
 * else nothing (a new upload).
 */
async function resumable(http: PlatformHttp, token: string, progress: Progress, media: PostMedia): Promise<'uploaded' | 'resume' | 'restart'> {
  if (progress.fileSizeBytes !== media.size) return 'restart';
  const known = await videoStatus(http, token, progress.video);
  if (!known) return 'restart';
  if (known.status === 'PROCESSING_FAILED') throw failedProcessing(known.reason);
  if (known.status !== 'WAITING_UPLOAD') return 'uploaded';
  const urlsValid = progress.uploadUrlsExpireAt === undefined || progress.uploadUrlsExpireAt > Date.now() + 60_000;
  return urlsValid ? 'resume' : 'restart';
}

// ---------------------------------------------------------------------------
// The post

const LITTLE_TEXT_RESERVED = /[\\|{}@[\]()<>#*_~]/g;
const HASHTAG = /(^|[^\p{L}\p{N}_])#([\p{L}\p{N}_]+)/gu;

/**
 * The post's text in the platform's "little text" format: every reserved
 * character escaped (an unescaped one can cut the post short there), and
 * each #hashtag as the format's hashtag template, so it stays a hashtag.
 */
export function littleText(text: string): string {
  const escape = (s: string) => s.replace(LITTLE_TEXT_RESERVED, (c) => `\\${c}`);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(HASHTAG)) {
    const at = m.index! + m[1].length;
    out += escape(text.slice(last, at)) + `{hashtag|\\#|${m[2]}}`;
    last = at + 1 + m[2].length;
  }
  return out + escape(text.slice(last));
}

const DUPLICATE = /duplicate of (urn:li:(?:share|ugcPost|activity):[\w-]+)/i;

async function createPost(
  http: PlatformHttp,
  token: string,
  author: string,
  post: OutgoingPost,
  video: string,
): Promise<{ urn: string } | { duplicateOf: string }> {
  const res = await rest(http, token, {
    method: 'POST',
    url: `${REST}/posts`,
    body: {
      author,
      commentary: littleText(String(post.content.content ?? '')),
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      content: { media: { id: video } },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    },
  });
  if (res.status === 201) {
    const urn = res.headers.get('x-restli-id');
    if (!urn) throw errors.unexpected(res, 'creating the post');
    return { urn };
  }
  const message = isRecord(res.json) && typeof res.json.message === 'string' ? res.json.message : '';
  const duplicate = (res.status === 422 || res.status === 400) && DUPLICATE.exec(message);
  if (duplicate) return { duplicateOf: duplicate[1] };
  throw errors.refusal(res, 'creating the post');
}

const publishedAs = (urn: string): PublishedPost => ({ platformPostId: urn, platformPostUrl: postUrl(urn) });

// ---------------------------------------------------------------------------
// Metrics

/** The analytics finders' entity: a union keyed by the post's urn type. */
function analyticsEntity(urn: string): string {
  const type = /^urn:li:(share|ugcPost):[\w-]+$/.exec(urn)?.[1];
  if (!type) throw errors.badRequest(`${urn} is not a post urn (urn:li:share or urn:li:ugcPost)`);
  // Rest.li 2.0: the union's syntax stays as is, the urn inside it is encoded
  return `(${type === 'share' ? 'share' : 'ugc'}:${encodeURIComponent(urn)})`;
}

const POST_METRICS = {
  impressions: 'IMPRESSION',
  reach: 'MEMBERS_REACHED',
  likes: 'REACTION',
  comments: 'COMMENT',
  shares: 'RESHARE',
  clicks: 'LINK_CLICKS',
} as const;

/** A total of one metric; the platform returns no element when it has none to count. */
async function metricTotal(
  http: PlatformHttp,
  token: string,
  finder: 'memberCreatorPostAnalytics' | 'memberCreatorVideoAnalytics',
  urn: string,
  queryType: string,
): Promise<number> {
  const res = await rest(http, token, { url: `${REST}/${finder}?q=entity&entity=${analyticsEntity(urn)}&queryType=${queryType}&aggregation=TOTAL` });
  if (res.status !== 200) throw errors.refusal(res, `reading the post's ${queryType.toLowerCase()} count`);
  const elements = isRecord(res.json) && Array.isArray(res.json.elements) ? res.json.elements : null;
  if (!elements) throw errors.unexpected(res, `reading the post's ${queryType.toLowerCase()} count`);
  let total = 0;
  for (const e of elements) {
    if (!isRecord(e) || typeof e.count !== 'number') throw errors.unexpected(res, `reading the post's ${queryType.toLowerCase()} count`);
    // a plain string since 202605, before it a one-member union object
    const type = isRecord(e.metricType) ? Object.values(e.metricType)[0] : e.metricType;
    if (type === undefined || type === queryType) total += e.count;
  }
  return total;
}

// ---------------------------------------------------------------------------

function connector(http: PlatformHttp): PlatformConnector {
  const pending = (video: string, checkAfterMs: number) => ({ state: 'pending' as const, ref: video, checkAfterMs });

  return {
    async publish(account, post, media) {
      const token = tokensOf(account).accessToken;
      let progress = progressOf(post.progress);
      if (progress?.post) return { state: 'published', ...publishedAs(progress.post) };
      if (progress) {
        const found = await resumable(http, token, progress, media);
        if (found === 'uploaded') return pending(progress.video, FIRST_CHECK_MS);
        if (found === 'restart') progress = null;
      }
      if (!progress) {
        progress = await initializeUpload(http, token, memberUrn(account), media.size);
        await post.saveProgress({ ...progress });
      }
      progress = await uploadParts(http, post, media, progress);
      await finalizeUpload(http, token, progress);
      return pending(progress.video, FIRST_CHECK_MS);
    },

    async check(account, ref) {
      const known = await videoStatus(http, tokensOf(account).accessToken, ref);
      if (!known) throw errors.badRequest(`the platform no longer has the video ${ref}`);
      if (known.status === 'AVAILABLE') return { state: 'ready' };
      if (known.status === 'PROCESSING') return { state: 'pending', checkAfterMs: NEXT_CHECK_MS };
      if (known.status === 'PROCESSING_FAILED') throw failedProcessing(known.reason);
      // finalizeUpload was answered, so the platform should not still wait for bytes
      throw errors.retry(`the platform still waits for the upload of the video ${ref}`);
    },

    async finalize(account, post, ref) {
      const saved = progressOf(post.progress);
      if (saved?.post && saved.video === ref) return publishedAs(saved.post);
      const rerun = saved?.video === ref && saved.postAttempted === true;
      const base = saved?.video === ref ? saved : ({ video: ref } as Progress);
      await post.saveProgress({ ...base, postAttempted: true });
      const made = await createPost(http, tokensOf(account).accessToken, memberUrn(account), post, ref);
      let urn: string;
      if ('urn' in made) urn = made.urn;
      // the first attempt made the post and its answer was lost: the platform names it
      else if (rerun) urn = made.duplicateOf;
      else throw errors.badRequest(`creating the post was refused: the same content is already posted as ${made.duplicateOf}`);
      await post.saveProgress({ ...base, postAttempted: true, post: urn });
      return publishedAs(urn);
    },

    async fetchPostMetrics(account, platformPostId): Promise<PostMetrics> {
      const token = tokensOf(account).accessToken;
      const entries = Object.entries(POST_METRICS) as Array<[keyof typeof POST_METRICS, string]>;
      const [counts, views] = await Promise.all([
        Promise.all(entries.map(([, type]) => metricTotal(http, token, 'memberCreatorPostAnalytics', platformPostId, type))),
        metricTotal(http, token, 'memberCreatorVideoAnalytics', platformPostId, 'VIDEO_PLAY'),
      ]);
      const by = Object.fromEntries(entries.map(([name], i) => [name, counts[i]])) as Record<keyof typeof POST_METRICS, number>;
      return { views, ...by };
    },

    fetchFollowers: (account) => readFollowers(http, tokensOf(account).accessToken),
  };
}

export const prosocialPlatform: PlatformDefinition = {
  key: KEY,
  oauth: {
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    scopes: ['r_basicprofile', 'w_member_social', 'r_member_postAnalytics', 'r_member_profileAnalytics'],
    scopeSeparator: ' ',
    pkce: false,
    clientAuth: 'body',
  },

  async identify(http, _settings, tokens): Promise<AccountIdentity> {
    const member = await readMember(http, tokens.accessToken);
    const followers = await readFollowers(http, tokens.accessToken);
    // members' posts here are public; the platform has no private member profile to post from
    return { externalId: member.id, handle: member.handle, isPrivate: false, followers, extra: { personUrn: `urn:li:person:${member.id}` } };
  },

  connector: (http) => connector(http),
};
