/**
 * The professional network's connector against its imitation (test/fakes/prosocial.ts),
 * over real HTTP, with real mp4s: consent, tokens, identity, the multi-part
 * video upload, processing, the post, re-runs after crashes, errors, metrics.
 */
import fs from 'node:fs';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPlatformHttp } from '../../src/platforms/http.js';
import { authorizeUrl, pkcePair, standardExchange, standardRefresh } from '../../src/platforms/oauth-tokens.js';
import { littleText, prosocialPlatform, untilUtcMidnight } from '../../src/platforms/prosocial.js';
import {
  isPlatformError,
  type ConnectedAccount,
  type PlatformConnector,
  type PlatformError,
  type PlatformHttp,
  type PlatformSettings,
  type TokenSet,
} from '../../src/platforms/types.js';
import { startPlatformFake, type ProsocialFake } from '../fakes/prosocial.js';
import { largeMp4, mediaOf, smallMp4, testAccount, testPost } from '../support/platforms.js';

const REDIRECT_URI = 'https://app.example.test/v1/platforms/prosocial/callback';
const PART = 4 * 1024 * 1024;

let small: string;
let large: string;
let fake: ProsocialFake;
let http: PlatformHttp;
let settings: PlatformSettings;
let connector: PlatformConnector;

beforeAll(async () => {
  [small, large] = await Promise.all([smallMp4(), largeMp4()]);
});

beforeEach(async () => {
  fake = await startPlatformFake({ redirectUri: REDIRECT_URI });
  http = createPlatformHttp('prosocial', fake.url);
  settings = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
  connector = prosocialPlatform.connector(http, settings);
});

afterEach(() => fake.close());

/** The consent page followed as a browser would, back to the redirect URI with a code. */
async function consent(url: string): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** An account connected through the whole flow: consent, code exchange, identity. */
async function connect(): Promise<{ account: ConnectedAccount; tokens: TokenSet }> {
  const back = await consent(authorizeUrl(http, prosocialPlatform.oauth, settings, { redirectUri: REDIRECT_URI, state: 'st-1' }));
  const exchanged = await standardExchange('prosocial', prosocialPlatform.oauth)(http, settings, {
    code: back.searchParams.get('code')!,
    redirectUri: REDIRECT_URI,
  });
  const identity = await prosocialPlatform.identify(http, settings, exchanged);
  const tokens = { ...exchanged, extra: { ...exchanged.extra, ...identity.extra } };
  return { account: testAccount('prosocial', tokens, { externalId: identity.externalId, followers: identity.followers }), tokens };
}

/** The PlatformError a call fails with; its message never carries a token the fake issued. */
async function failure(p: Promise<unknown>): Promise<PlatformError> {
  const err = await p.then(
    () => expect.unreachable('the call succeeded'),
    (e: unknown) => e,
  );
  if (!isPlatformError(err)) throw err;
  for (const token of [...fake.issued.accessTokens, ...fake.issued.refreshTokens]) expect(err.message).not.toContain(token);
  return err;
}

/** Publish, check until ready, finalize: the post a user sees. */
async function publishToTheEnd(account: ConnectedAccount, post: ReturnType<typeof testPost>, file: string) {
  const step = await connector.publish(account, post, mediaOf(file));
  expect(step.state).toBe('pending');
  if (step.state !== 'pending') throw new Error('not pending');
  expect(await connector.check(account, step.ref)).toEqual({ state: 'ready' });
  return { ref: step.ref, published: await connector.finalize(account, post, step.ref) };
}

describe('prosocial', () => {
  it('connects a member: consent, code for tokens, identity and followers', async () => {
    const url = new URL(
      authorizeUrl(http, prosocialPlatform.oauth, settings, { redirectUri: REDIRECT_URI, state: 'st-42', codeChallenge: pkcePair().challenge }),
    );
    expect(url.origin + url.pathname).toBe(`${fake.url}/oauth/v2/authorization`);
    expect(url.searchParams.get('scope')).toBe('r_basicprofile w_member_social r_member_postAnalytics r_member_profileAnalytics');
    // a server client with a secret: no PKCE, which the platform keeps for native clients
    expect(url.searchParams.has('code_challenge')).toBe(false);
    const back = await consent(url.toString());
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-42');

    const tokens = await standardExchange('prosocial', prosocialPlatform.oauth)(http, settings, {
      code: back.searchParams.get('code')!,
      redirectUri: REDIRECT_URI,
    });
    expect(fake.issued.accessTokens).toEqual([tokens.accessToken]);
    expect(tokens.refreshToken).toBe(fake.issued.refreshTokens[0]);
    expect(Date.parse(tokens.expiresAt!) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    expect(Date.parse(tokens.refreshExpiresAt!) - Date.now()).toBeGreaterThan(364 * 86_400_000);

    expect(await prosocialPlatform.identify(http, settings, tokens)).toEqual({
      externalId: 'yrZCpj2Z12',
      handle: 'ada-lovelace',
      isPrivate: false,
      followers: 4312,
      extra: { personUrn: 'urn:li:person:yrZCpj2Z12' },
    });
    // a code is good once
    const again = await failure(
      standardExchange('prosocial', prosocialPlatform.oauth)(http, settings, { code: back.searchParams.get('code')!, redirectUri: REDIRECT_URI }),
    );
    expect(again.kind).toBe('reauthorize');
    expect(again.message).toContain('Unable to retrieve access token');
  });

  it('the consent page refuses a scope the app does not hold, and a redirect URI it did not register', async () => {
    const openid = { ...prosocialPlatform.oauth, scopes: ['openid', 'profile'] };
    const back = await consent(authorizeUrl(http, openid, settings, { redirectUri: REDIRECT_URI, state: 's' }));
    expect(back.searchParams.get('error')).toBe('unauthorized_scope_error');
    expect(back.searchParams.get('error_description')).toBe('Scope "openid" is not authorized for your application');
    const res = await fetch(authorizeUrl(http, prosocialPlatform.oauth, settings, { redirectUri: 'https://elsewhere.test/cb', state: 's' }), {
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('redirect_uri does not match');
  });

  it('refreshes with the refresh token; a refused refresh, or none at all, is reauthorize', async () => {
    const { tokens } = await connect();
    const refresh = standardRefresh('prosocial', prosocialPlatform.oauth);
    const next = await refresh(http, settings, tokens);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    // the platform does not rotate refresh tokens: the same one, its year running on
    expect(next.refreshToken).toBe(tokens.refreshToken);
    expect(next.extra?.personUrn).toBe('urn:li:person:yrZCpj2Z12');
    expect(await connector.fetchFollowers(testAccount('prosocial', next))).toBe(4312);

    fake.revokeRefreshTokens();
    const refused = await failure(refresh(http, settings, next));
    expect(refused.kind).toBe('reauthorize');
    expect(refused.message).toContain('The provided authorization grant or refresh token is invalid, expired or revoked');

    fake.issueRefreshTokens = false;
    const { tokens: partnerless } = await connect();
    expect(partnerless.refreshToken).toBeUndefined();
    expect((await failure((async () => refresh(http, settings, partnerless))())).kind).toBe('reauthorize');
  });

  it('publishes a small video: pending, ready, the post with the exact bytes, its text intact, once', async () => {
    const { account } = await connect();
    const text = 'Launch day (v2): 50% off_all *items* for [beta] {users} <3 ~ @team | a\\b #launch #video2026';
    const post = testPost('prosocial', { content: text });
    const step = await connector.publish(account, post, mediaOf(small));
    expect(step).toMatchObject({ state: 'pending', checkAfterMs: 15_000 });
    const ref = step.state === 'pending' ? step.ref : '';
    expect(ref).toMatch(/^urn:li:video:C5F10AQ/);
    // the video's handle was saved before any byte went up
    expect(post.saved[0]).toMatchObject({ video: ref, etags: [null] });

    expect(await connector.check(account, ref)).toEqual({ state: 'ready' });
    const published = await connector.finalize(account, post, ref);
    expect(published.platformPostId).toMatch(/^urn:li:ugcPost:\d+$/);
    expect(published.platformPostUrl).toBe(`https://www.linkedin.com/feed/update/${published.platformPostId}/`);
    expect(fake.posts).toHaveLength(1);
    expect(fake.posts[0].id).toBe(published.platformPostId);
    expect(fake.posts[0].text).toBe(text);
    expect(fake.posts[0].video.equals(fs.readFileSync(small))).toBe(true);

    // finalizing the same handle again gives the same post, without a second create
    expect(await connector.finalize(account, post, ref)).toEqual(published);
    expect(fake.count('POST', '/rest/posts')).toBe(1);
    expect(fake.posts).toHaveLength(1);
  });

  it('escapes the little text format and keeps hashtags as its hashtag template', () => {
    expect(littleText('a (b) #tag_1 x#y \\ @z')).toBe('a \\(b\\) {hashtag|\\#|tag_1} x\\#y \\\\ \\@z');
  });

  it('uploads a 12 MB video in the 4 MB parts the platform cut, their ETags finalized in order', async () => {
    const { account } = await connect();
    const size = fs.statSync(large).size;
    const { ref, published } = await publishToTheEnd(account, testPost('prosocial', { content: 'The long cut' }), large);
    const video = fake.videos.get(ref)!;
    expect(video.parts.length).toBe(Math.ceil(size / PART));
    expect(video.parts.length).toBeGreaterThanOrEqual(3);
    expect(video.parts.map((p) => p.bytes!.length)).toEqual(video.parts.map((_, i) => Math.min(PART, size - i * PART)));
    expect(fake.count('PUT', /^\/dms-uploads\//)).toBe(video.parts.length);
    expect(fake.posts[0].id).toBe(published.platformPostId);
    expect(fake.posts[0].video.equals(fs.readFileSync(large))).toBe(true);
  });

  it('checks a video the platform is still processing: pending with a wait, then ready', async () => {
    const { account } = await connect();
    fake.processingChecks = 2;
    const step = await connector.publish(account, testPost('prosocial', { content: 'Slow one' }), mediaOf(small));
    const ref = step.state === 'pending' ? step.ref : '';
    for (let i = 0; i < 2; i++) {
      const checked = await connector.check(account, ref);
      expect(checked.state).toBe('pending');
      if (checked.state === 'pending') expect(checked.checkAfterMs).toBeGreaterThanOrEqual(5_000);
    }
    expect(await connector.check(account, ref)).toEqual({ state: 'ready' });
    expect(fake.posts).toHaveLength(0);
  });

  it('a video the platform cannot process is a bad_request with its reason', async () => {
    const { account } = await connect();
    fake.failProcessing('The video codec is not supported');
    const step = await connector.publish(account, testPost('prosocial', { content: 'Broken' }), mediaOf(small));
    const err = await failure(connector.check(account, step.state === 'pending' ? step.ref : ''));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('The video codec is not supported');
  });

  it("judges the platform's errors: rate limit and outage retry after the wait, validation, expired and revoked tokens", async () => {
    const { account } = await connect();
    fake.failNext('retry');
    const limited = await failure(connector.fetchFollowers(account));
    expect(limited.kind).toBe('retry');
    expect(limited.message).toContain('DAY limit');
    // no header says when; the daily limits reset at midnight UTC
    expect(Math.abs(limited.retryAfterMs! - untilUtcMidnight())).toBeLessThan(5_000);

    fake.failNextWith({ status: 503, headers: { 'retry-after': '7' }, body: { status: 503, message: 'Service Unavailable' } });
    const down = await failure(connector.fetchFollowers(account));
    expect(down).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });

    fake.failNext('bad_request');
    const refused = await failure(connector.publish(account, testPost('prosocial', { content: 'x' }), mediaOf(small)));
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toContain('ERROR :: /commentary :: Text length exceeds the maximum length of 3000 characters');

    fake.failNext('reauthorize');
    expect((await failure(connector.fetchFollowers(account))).kind).toBe('reauthorize');
    fake.failNext('disconnected');
    const revoked = await failure(connector.fetchFollowers(account));
    expect(revoked.kind).toBe('disconnected');
    expect(revoked.message).toContain('revoked by the user');
  });

  it('an expired access token is reauthorize, and the refreshed one works', async () => {
    const { account, tokens } = await connect();
    fake.expireAccessTokens();
    const expired = await failure(connector.fetchFollowers(account));
    expect(expired.kind).toBe('reauthorize');
    expect(expired.message).toContain('The token used in the request has expired');
    const next = await standardRefresh('prosocial', prosocialPlatform.oauth)(http, settings, tokens);
    expect(await connector.fetchFollowers({ ...account, credentials: next })).toBe(4312);
  });

  it('re-runs a crash mid-upload from the saved parts: the same video, no part sent twice, one post', async () => {
    const { account } = await connect();
    const post = testPost('prosocial', { content: 'Interrupted' });
    // the worker dies halfway through the second part
    await expect(connector.publish(account, post, mediaOf(large, { cutAt: PART + PART / 2 }))).rejects.toThrow(/worker died|video ended/);
    const ref = post.progress!.video as string;
    expect((post.progress!.etags as unknown[]).map(Boolean)).toEqual(fake.videos.get(ref)!.parts.map((_, i) => i === 0));

    const step = await connector.publish(account, post, mediaOf(large));
    expect(step).toMatchObject({ state: 'pending', ref });
    expect(fake.videos.size).toBe(1);
    const video = fake.videos.get(ref)!;
    expect(video.partPuts).toBe(video.parts.length);
    expect(await connector.check(account, ref)).toEqual({ state: 'ready' });
    await connector.finalize(account, post, ref);
    expect(fake.posts).toHaveLength(1);
    expect(fake.posts[0].video.equals(fs.readFileSync(large))).toBe(true);
  });

  it('a re-run after the upload was finished asks the platform and uploads nothing again', async () => {
    const { account } = await connect();
    const post = testPost('prosocial', { content: 'Twice started' });
    const first = await connector.publish(account, post, mediaOf(small));
    const puts = fake.count('PUT', /^\/dms-uploads\//);
    // the worker died before the delivery saved the handle: publish runs again
    const again = await connector.publish(account, post, mediaOf(small));
    expect(again).toEqual(first);
    expect(fake.count('PUT', /^\/dms-uploads\//)).toBe(puts);
    expect(fake.videos.size).toBe(1);
  });

  it('a crash after the platform made the post re-runs into that same post', async () => {
    const { account } = await connect();
    const post = testPost('prosocial', { content: 'Made once #once' });
    const step = await connector.publish(account, post, mediaOf(small));
    const ref = step.state === 'pending' ? step.ref : '';
    await connector.check(account, ref);
    const save = post.saveProgress.bind(post);
    post.saveProgress = async (p) => {
      if (p.post) throw new Error('the worker died before saving the post');
      await save(p);
    };
    await expect(connector.finalize(account, post, ref)).rejects.toThrow('the worker died');
    expect(fake.posts).toHaveLength(1);
    post.saveProgress = save;

    const again = await connector.finalize(account, post, ref);
    expect(again.platformPostId).toBe(fake.posts[0].id);
    expect(fake.posts).toHaveLength(1);
  });

  it("a new post with the text of an earlier one is refused as the platform's duplicate, not taken for it", async () => {
    const { account } = await connect();
    const { published } = await publishToTheEnd(account, testPost('prosocial', { content: 'Same words' }), small);
    const other = testPost('prosocial', { content: 'Same words' }, '00000000-0000-4000-8000-0000000000bb');
    const step = await connector.publish(account, other, mediaOf(small));
    const err = await failure(connector.finalize(account, other, step.state === 'pending' ? step.ref : ''));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain(published.platformPostId);
    expect(fake.posts).toHaveLength(1);
  });

  it("reads a post's metrics and the member's followers", async () => {
    const { account } = await connect();
    const { published } = await publishToTheEnd(account, testPost('prosocial', { content: 'Counted' }), small);
    fake.metrics.set(published.platformPostId, {
      IMPRESSION: 1520,
      MEMBERS_REACHED: 980,
      REACTION: 64,
      COMMENT: 9,
      RESHARE: 4,
      LINK_CLICKS: 17,
      VIDEO_PLAY: 730,
    });
    expect(await connector.fetchPostMetrics(account, published.platformPostId)).toEqual({
      views: 730,
      likes: 64,
      comments: 9,
      shares: 4,
      impressions: 1520,
      reach: 980,
      clicks: 17,
    });
    fake.member.followers = 4400;
    expect(await connector.fetchFollowers(account)).toBe(4400);
    const wrong = await failure(connector.fetchPostMetrics(account, 'urn:li:video:C5F10AQx'));
    expect(wrong.kind).toBe('bad_request');
  });

  it('the imitation refuses a versioned call without its headers, as the platform does', async () => {
    const { tokens } = await connect();
    const bare = await http.request({ url: 'https://api.linkedin.com/rest/memberFollowersCount?q=me', token: tokens.accessToken });
    expect(bare.status).toBe(400);
    expect(bare.json).toMatchObject({ status: 400, code: 'VERSION_MISSING' });
    const sunset = await http.request({
      url: 'https://api.linkedin.com/rest/memberFollowersCount?q=me',
      token: tokens.accessToken,
      headers: { 'LinkedIn-Version': '202401', 'X-Restli-Protocol-Version': '2.0.0' },
    });
    expect(sunset.status).toBe(426);
  });
});
