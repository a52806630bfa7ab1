// The one status rule every connector's refusals go through (judge, src/platforms/http.ts): a platform's own
// codes first, then 429 and 5xx pass after the wait asked for, 401 re-authorises, another 4xx is refused;
// and, through the connectors, that each platform's own codes still decide before the status.
import { describe, expect, it } from 'vitest';
import { judge, platformErrors, type PlatformErrorRule } from '../../src/platforms/http.js';
import { microblogPlatform } from '../../src/platforms/microblog.js';
import { prosocialPlatform } from '../../src/platforms/prosocial.js';
import { shortvideoPlatform } from '../../src/platforms/shortvideo.js';
import type { ConnectedAccount, PlatformError, PlatformHttp, PlatformResponse } from '../../src/platforms/types.js';
import { videosharePlatform } from '../../src/platforms/videoshare.js';

const answer = (status: number, json: unknown = null, headers: Record<string, string> = {}): PlatformResponse => ({
  status,
  headers: new Headers(headers),
  json,
  text: json === null ? '' : JSON.stringify(json),
});

const plain: PlatformErrorRule = {
  said: (res) => (res.json as { message?: string } | null)?.message ?? `HTTP ${res.status}`,
  words: {
    retry: (what, said) => `${what} failed for now (${said})`,
    reauthorize: (what, said) => `${what} was refused as unauthorised (${said})`,
    refused: (what, said) => `${what} was refused: ${said}`,
  },
};

const judged = (res: PlatformResponse, rule = plain) => {
  const e = judge('demo', rule, res, 'posting');
  return { kind: e.kind, message: e.message, retryAfterMs: e.retryAfterMs };
};

/** The error a connector's call fails with when the platform answers `res` to everything. */
async function refusalOf(call: (http: PlatformHttp) => Promise<unknown>, res: PlatformResponse): Promise<PlatformError> {
  const http: PlatformHttp = { resolve: (url) => url, request: async () => res };
  return call(http).then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: PlatformError) => e,
  );
}

const account = (platform: ConnectedAccount['platform']): ConnectedAccount => ({
  id: 'a',
  platform,
  externalId: 'me',
  isPrivate: false,
  followers: 1,
  credentials: { accessToken: 'tok', extra: {} },
  createdAt: new Date(),
});
const settings = { clientId: 'id', clientSecret: 'secret', baseUrl: undefined };
const followersOf = (def: typeof videosharePlatform) => (http: PlatformHttp) => def.connector(http, settings).fetchFollowers(account(def.key));

describe('the status rule', () => {
  it('passes a 429 and a 5xx after the wait the platform asks for, re-authorises a 401, refuses another 4xx', () => {
    expect(judged(answer(429, { message: 'slow down' }, { 'retry-after': '7' }))).toEqual({
      kind: 'retry',
      message: 'demo: posting failed for now (slow down)',
      retryAfterMs: 7000,
    });
    expect(judged(answer(503))).toEqual({ kind: 'retry', message: 'demo: posting failed for now (HTTP 503)', retryAfterMs: undefined });
    expect(judged(answer(401, { message: 'expired' }))).toEqual({
      kind: 'reauthorize',
      message: 'demo: posting was refused as unauthorised (expired)',
      retryAfterMs: undefined,
    });
    expect(judged(answer(422, { message: 'too long' }))).toEqual({
      kind: 'bad_request',
      message: 'demo: posting was refused: too long',
      retryAfterMs: undefined,
    });
  });

  it('takes anything else for an answer the platform does not document, tried again', () => {
    expect(judged(answer(302, { message: 'moved' }))).toMatchObject({
      kind: 'retry',
      message: 'demo: unexpected answer to posting (HTTP 302: {"message":"moved"})',
    });
    const undocumented = { ...plain, refuses: (res: PlatformResponse) => res.json !== null };
    expect(judged(answer(404), undocumented)).toMatchObject({ kind: 'retry', message: 'demo: unexpected answer to posting (HTTP 404)' });
    expect(judged(answer(404, { message: 'no such post' }), undocumented)).toMatchObject({ kind: 'bad_request' });
  });

  it("waits a 429 out by the platform's own window when it names no wait, and reads waits where the platform writes them", () => {
    const windowed = { ...plain, rateWindowMs: () => 60_000, words: { ...plain.words, rateLimited: (what: string) => `${what} was rate limited` } };
    expect(judged(answer(429), windowed)).toMatchObject({ message: 'demo: posting was rate limited', retryAfterMs: 60_000 });
    expect(judged(answer(429, null, { 'retry-after': '3' }), windowed)).toMatchObject({ retryAfterMs: 3000 });
    expect(judged(answer(500), windowed)).toMatchObject({ message: 'demo: posting failed for now (HTTP 500)', retryAfterMs: undefined });
    expect(judged(answer(500), { ...plain, waitMs: () => 120_000 })).toMatchObject({ retryAfterMs: 120_000 });
  });

  it("lets the platform's own codes decide first, in its words or the rule's, with their own waits", () => {
    const own: PlatformErrorRule = {
      ...plain,
      own: (res, what, said) => {
        const code = (res.json as { code?: string } | null)?.code;
        if (code === 'gone') return { kind: 'disconnected', says: `the account is gone (${said})` };
        if (code === 'quota') return { kind: 'retry', says: `${what} waits for the quota`, retryAfterMs: 3_600_000 };
        if (code === 'capped') return { kind: 'retry', retryAfterMs: null };
        if (code === 'scope') return { kind: 'reauthorize' };
        if (code === 'odd') return { kind: 'unexpected' };
        return undefined;
      },
    };
    expect(judged(answer(500, { code: 'gone', message: 'closed' }), own)).toEqual({
      kind: 'disconnected',
      message: 'demo: the account is gone (closed)',
      retryAfterMs: undefined,
    });
    expect(judged(answer(403, { code: 'quota' }, { 'retry-after': '5' }), own)).toMatchObject({
      kind: 'retry',
      message: 'demo: posting waits for the quota',
      retryAfterMs: 3_600_000,
    });
    expect(judged(answer(403, { code: 'capped', message: 'capped' }, { 'retry-after': '5' }), own)).toEqual({
      kind: 'retry',
      message: 'demo: posting failed for now (capped)',
      retryAfterMs: undefined,
    });
    expect(judged(answer(403, { code: 'scope', message: 'no scope' }), own)).toMatchObject({
      kind: 'reauthorize',
      message: 'demo: posting was refused as unauthorised (no scope)',
    });
    expect(judged(answer(400, { code: 'odd' }), own)).toMatchObject({ kind: 'retry', message: expect.stringMatching(/^demo: unexpected answer to posting/) });
    expect(judged(answer(400, { code: 'other', message: 'no' }), own)).toMatchObject({ kind: 'bad_request', message: 'demo: posting was refused: no' });
  });

  it("words a connector's own failures with its name first", () => {
    const errors = platformErrors('demo', plain);
    expect(errors.badRequest('the post has no text')).toMatchObject({ kind: 'bad_request', message: 'demo: the post has no text' });
    expect(errors.retry('not yet', 5000)).toMatchObject({ kind: 'retry', message: 'demo: not yet', retryAfterMs: 5000 });
    expect(errors.refusal(answer(401), 'posting')).toMatchObject({ kind: 'reauthorize', message: 'demo: posting was refused as unauthorised (HTTP 401)' });
  });
});

describe("each platform's own codes, before the status", () => {
  it('videoshare: a closed channel is gone, the daily quota waits for its reset, an answer without the error body is judged by its status alone', async () => {
    const error = (reason: string) => ({ error: { code: 403, message: 'no', errors: [{ reason }] } });
    expect(await refusalOf(followersOf(videosharePlatform), answer(403, error('channelClosed')))).toMatchObject({
      kind: 'disconnected',
      message: 'videoshare: the account cannot publish on the platform: no (channelClosed)',
    });
    const quota = await refusalOf(followersOf(videosharePlatform), answer(403, error('quotaExceeded')));
    expect(quota).toMatchObject({ kind: 'retry', message: 'videoshare: reading the channel waits for the daily quota: no (quotaExceeded)' });
    expect(quota.retryAfterMs).toBeGreaterThan(60_000);
    expect(await refusalOf(followersOf(videosharePlatform), answer(401))).toMatchObject({
      kind: 'reauthorize',
      message: 'videoshare: reading the channel was refused as unauthorised (HTTP 401)',
    });
    expect(await refusalOf(followersOf(videosharePlatform), answer(404))).toMatchObject({
      kind: 'retry',
      message: 'videoshare: unexpected answer to reading the channel (HTTP 404)',
    });
  });

  it("microblog: a 403 is a suspended account, the service's capped access (no wait of the platform's), or the request refused", async () => {
    const reset = { 'x-rate-limit-reset': String(Math.floor(Date.now() / 1000) + 900) };
    expect(await refusalOf(followersOf(microblogPlatform), answer(403, { detail: 'Your account is suspended' }, reset))).toMatchObject({
      kind: 'disconnected',
    });
    const capped = await refusalOf(followersOf(microblogPlatform), answer(403, { title: 'Capped', type: 'https://api.x.com/2/problems/usage-capped' }, reset));
    expect(capped).toMatchObject({
      kind: 'retry',
      message: "microblog: reading the account was refused to this service's API access (Capped)",
      retryAfterMs: undefined,
    });
    expect(await refusalOf(followersOf(microblogPlatform), answer(403, { detail: 'Forbidden' }))).toMatchObject({
      kind: 'bad_request',
      message: 'microblog: reading the account was refused: Forbidden',
    });
    expect((await refusalOf(followersOf(microblogPlatform), answer(429, { title: 'Too Many Requests' }, reset))).retryAfterMs).toBeGreaterThan(800_000);
  });

  it('shortvideo: its documented codes decide whatever the status; a 4xx with another code is not its refusal', async () => {
    const error = (code: string) => ({ error: { code, message: `says ${code}` } });
    expect(await refusalOf(followersOf(shortvideoPlatform), answer(200, error('access_token_invalid')))).toMatchObject({ kind: 'reauthorize' });
    expect(await refusalOf(followersOf(shortvideoPlatform), answer(200, error('rate_limit_exceeded')))).toMatchObject({ kind: 'retry', retryAfterMs: 60_000 });
    expect(await refusalOf(followersOf(shortvideoPlatform), answer(500, error('invalid_params')))).toMatchObject({
      kind: 'bad_request',
      message: 'shortvideo: the platform refused reading the account: says invalid_params (invalid_params)',
    });
    expect(await refusalOf(followersOf(shortvideoPlatform), answer(400, error('something_new')))).toMatchObject({
      kind: 'retry',
      message: expect.stringMatching(/^shortvideo: unexpected answer/),
    });
  });

  it('prosocial: a revoked token is gone, a missing permission re-authorises, a daily limit waits for midnight UTC', async () => {
    expect(await refusalOf(followersOf(prosocialPlatform), answer(401, { message: 'The token has been revoked', code: 'REVOKED_ACCESS_TOKEN' }))).toMatchObject(
      { kind: 'disconnected' },
    );
    expect(
      await refusalOf(followersOf(prosocialPlatform), answer(403, { message: 'Not enough permissions to access: GET /rest/memberFollowersCount' })),
    ).toMatchObject({ kind: 'reauthorize' });
    const daily = await refusalOf(followersOf(prosocialPlatform), answer(429, { message: 'Resource level throttle APPLICATION DAY limit reached' }));
    expect(daily).toMatchObject({
      kind: 'retry',
      message: 'prosocial: reading the followers was rate limited (Resource level throttle APPLICATION DAY limit reached)',
    });
    expect(daily.retryAfterMs).toBeGreaterThan(0);
    expect(await refusalOf(followersOf(prosocialPlatform), answer(400))).toMatchObject({
      kind: 'retry',
      message: 'prosocial: unexpected answer to reading the followers (HTTP 400)',
    });
  });
});
