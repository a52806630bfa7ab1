/**
 * The shortvideo connector against an imitation of the platform over a real
 * socket (test/fakes/shortvideo.ts), with real mp4s: the authorisation, the
 * tokens, the account, direct posts uploaded in chunks, their processing,
 * errors of each class, re-runs after a crash, and the counts.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformHttp } from '../../src/platforms/http.js';
import { authorizeUrl, pkcePair, standardExchange, standardRefresh } from '../../src/platforms/oauth-tokens.js';
import { CHUNK_SIZE, shortvideoPlatform } from '../../src/platforms/shortvideo.js';
import { isPlatformError, type PlatformConnector, type PlatformError, type PlatformSettings, type TokenSet } from '../../src/platforms/types.js';
import { startPlatformFake, type ShortvideoFake } from '../fakes/shortvideo.js';
import { largeMp4, mediaOf, smallMp4, testAccount, testPost } from '../support/platforms.js';

const REDIRECT_URI = 'https://app.example.com/v1/platforms/shortvideo/callback';
const INIT = '/v2/post/publish/video/init/';

describe('shortvideo', () => {
  let fake: ShortvideoFake;
  let settings: PlatformSettings;
  let http: ReturnType<typeof createPlatformHttp>;
  let connector: PlatformConnector;
  let tokens: TokenSet;
  let small: string;
  let large: string;
  /** every token the tests were given: none may show in an error */
  const seenTokens = new Set<string>();
  const messages: string[] = [];

  const remember = (t: TokenSet) => {
    seenTokens.add(t.accessToken);
    if (t.refreshToken) seenTokens.add(t.refreshToken);
    return t;
  };
  const account = () => testAccount('shortvideo', tokens, { externalId: fake.openId });
  const exchange = standardExchange('shortvideo', shortvideoPlatform.oauth);
  const refresh = standardRefresh('shortvideo', shortvideoPlatform.oauth);

  /** The PlatformError a call ends with (its message kept for the token sweep). */
  async function refusal(p: Promise<unknown>): Promise<PlatformError> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    if (!isPlatformError(err)) throw new Error(`expected a PlatformError, got ${String(err)}`);
    messages.push(err.message);
    return err;
  }

  /** Through the user's browser: the authorisation page and back with a code. */
  async function authorise(): Promise<{ code: string; state: string; url: URL }> {
    const { challenge } = pkcePair();
    const url = new URL(authorizeUrl(http, shortvideoPlatform.oauth, settings, { redirectUri: REDIRECT_URI, state: 'st-42', codeChallenge: challenge }));
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')!, url };
  }

  /** A post through to its end: pending, checked until ready, finalized. */
  async function publishThrough(content: Record<string, unknown>, file = small) {
    const post = testPost('shortvideo', content);
    const step = await connector.publish(account(), post, mediaOf(file));
    // the first check comes after the processing time the platform documents, scaled to the video
    expect(step).toMatchObject({ state: 'pending', checkAfterMs: file === small ? 2_000 : expect.any(Number) });
    const ref = (step as { ref: string }).ref;
    expect(await connector.check(account(), ref)).toEqual({ state: 'ready' });
    return { post, ref, published: await connector.finalize(account(), post, ref) };
  }

  beforeAll(async () => {
    [fake, small, large] = await Promise.all([startPlatformFake({ redirectUri: REDIRECT_URI }), smallMp4(), largeMp4()]);
    settings = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
    http = createPlatformHttp('shortvideo', fake.url);
    connector = shortvideoPlatform.connector(http, settings);
    const { code } = await authorise();
    tokens = remember(await exchange(http, settings, { code, redirectUri: REDIRECT_URI }));
    const identity = await shortvideoPlatform.identify(http, settings, tokens);
    tokens = { ...tokens, extra: identity.extra };
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('sends the user to consent with its client key and comma-separated scopes, and turns the code into tokens', async () => {
    const { code, state, url } = await authorise();
    expect(url.origin + url.pathname).toBe(`${fake.url}/v2/auth/authorize/`);
    expect(url.searchParams.get('client_key')).toBe(fake.clientId);
    expect(url.searchParams.get('scope')).toBe('user.info.basic,user.info.stats,video.publish,video.list');
    // the web flow takes no PKCE challenge
    expect(url.searchParams.has('code_challenge')).toBe(false);
    expect(state).toBe('st-42');
    const got = remember(await exchange(http, settings, { code, redirectUri: REDIRECT_URI }));
    expect(got.accessToken).toMatch(/^act\./);
    expect(got.refreshToken).toMatch(/^rft\./);
    expect(Date.parse(got.expiresAt!) - Date.now()).toBeGreaterThan(86_000_000);
    expect(got.scope).toBe('user.info.basic,user.info.stats,video.publish,video.list');
    // a code is good once
    expect((await refusal(exchange(http, settings, { code, redirectUri: REDIRECT_URI }))).kind).toBe('reauthorize');
  });

  it('refuses a redirect URI it does not know and a scope list joined by spaces', async () => {
    const page = await fetch(
      `${fake.url}/v2/auth/authorize/?client_key=${fake.clientId}&response_type=code&scope=user.info.basic&redirect_uri=https://evil.example/cb&state=s`,
      { redirect: 'manual' },
    );
    expect(page.status).toBe(400);
    expect((await page.json()).error).toBe('invalid_request');
    const spaced = await fetch(
      `${fake.url}/v2/auth/authorize/?client_key=${fake.clientId}&response_type=code&scope=${encodeURIComponent('user.info.basic video.list')}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=s`,
      { redirect: 'manual' },
    );
    expect(new URL(spaced.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });

  it('reads who the account is: its open_id, username, privacy from its posting options, followers', async () => {
    const identity = await shortvideoPlatform.identify(http, settings, tokens);
    expect(identity).toEqual({
      externalId: fake.openId,
      handle: 'clipcaster',
      isPrivate: false,
      followers: 1234,
      extra: { openId: fake.openId, username: 'clipcaster' },
    });
    // a private account is offered no PUBLIC_TO_EVERYONE
    fake.creator.privacy_level_options = ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
    try {
      expect((await shortvideoPlatform.identify(http, settings, tokens)).isPrivate).toBe(true);
    } finally {
      fake.creator.privacy_level_options = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
    }
  });

  it('refreshes with the refresh token, keeps the rotated one, and a refused refresh asks to connect again', async () => {
    const { code } = await authorise();
    const first = remember(await exchange(http, settings, { code, redirectUri: REDIRECT_URI }));
    const next = remember(await refresh(http, settings, first));
    expect(next.accessToken).not.toBe(first.accessToken);
    expect(next.refreshToken).not.toBe(first.refreshToken);
    // the token sent was spent: only the new one refreshes
    expect((await refusal(refresh(http, settings, first))).kind).toBe('reauthorize');
    fake.revokeRefreshTokens();
    const refused = await refusal(refresh(http, settings, next));
    expect(refused.kind).toBe('reauthorize');
    expect(refused.message).toContain('invalid_grant');
  });

  it('posts a small video whole: pending, ready, one post with the exact bytes, its id and URL, the same on a second finalize', async () => {
    const before = fake.posts.length;
    const content = { content: 'first light #timelapse', allowDuet: false, commercialContentType: 'brand_organic', videoMadeWithAi: true };
    const { post, ref, published } = await publishThrough(content);
    expect(fake.posts).toHaveLength(before + 1);
    const made = fake.posts.at(-1)!;
    expect(made.video.equals(fs.readFileSync(small))).toBe(true);
    expect(fake.chunks.at(-1)).toBe(`bytes 0-${made.video.length - 1}/${made.video.length}`);
    expect(made.postInfo).toEqual({
      title: 'first light #timelapse',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: false,
      disable_duet: true,
      disable_stitch: false,
      brand_content_toggle: false,
      brand_organic_toggle: true,
      is_aigc: true,
    });
    expect(published).toEqual({ platformPostId: made.id, platformPostUrl: `https://www.tiktok.com/@clipcaster/video/${made.id}` });
    expect(await connector.finalize(account(), post, ref)).toEqual(published);
    expect(fake.posts).toHaveLength(before + 1);
  });

  it('uploads a large video in 5 MiB chunks, in order, the last one carrying the remainder', async () => {
    const bytes = fs.readFileSync(large);
    const count = Math.floor(bytes.length / CHUNK_SIZE);
    expect(count).toBeGreaterThan(1);
    const from = fake.chunks.length;
    const { published } = await publishThrough({ content: 'the big one' }, large);
    const ranges = Array.from(
      { length: count },
      (_, i) => `bytes ${i * CHUNK_SIZE}-${i === count - 1 ? bytes.length - 1 : (i + 1) * CHUNK_SIZE - 1}/${bytes.length}`,
    );
    expect(fake.chunks.slice(from)).toEqual(ranges);
    const made = fake.posts.find((p) => p.id === published.platformPostId)!;
    expect(made.video.equals(bytes)).toBe(true);
  });

  it('keeps a slow post pending while the platform processes and moderates it, then finalizes it', async () => {
    fake.processingChecks = 2;
    fake.moderationChecks = 1;
    try {
      const post = testPost('shortvideo', { content: 'slowly' });
      const step = await connector.publish(account(), post, mediaOf(small));
      const ref = (step as { ref: string }).ref;
      expect(await connector.check(account(), ref)).toEqual({ state: 'pending', checkAfterMs: 5_000 });
      expect(await connector.check(account(), ref)).toEqual({ state: 'pending', checkAfterMs: 5_000 });
      // published, its id still held by moderation
      expect(await connector.check(account(), ref)).toEqual({ state: 'pending', checkAfterMs: 30_000 });
      expect(await connector.check(account(), ref)).toEqual({ state: 'ready' });
      const done = await connector.finalize(account(), post, ref);
      expect(done.platformPostId).toBe(fake.posts.at(-1)!.id);
    } finally {
      fake.processingChecks = 0;
      fake.moderationChecks = 0;
    }
  });

  it('posts privately under the publish id (no public id ever comes) and keeps off what the creator turned off', async () => {
    fake.creator.comment_disabled = true;
    try {
      const { published } = await publishThrough({ content: 'only me', privacyLevel: 'private', allowComment: true });
      const made = fake.posts.at(-1)!;
      expect(made.postInfo).toMatchObject({ privacy_level: 'SELF_ONLY', disable_comment: true });
      expect(made.id).toBe(made.publishId);
      expect(published).toEqual({ platformPostId: made.id, platformPostUrl: 'https://www.tiktok.com/@clipcaster' });
      const metrics = await refusal(connector.fetchPostMetrics(account(), published.platformPostId));
      expect(metrics.kind).toBe('bad_request');
      expect(metrics.message).toContain('not public');
    } finally {
      fake.creator.comment_disabled = false;
    }
  });

  it('refuses a privacy level the account does not offer before anything is sent', async () => {
    const inits = fake.count('POST', INIT);
    const refused = await refusal(connector.publish(account(), testPost('shortvideo', { content: 'x', privacyLevel: 'followers' }), mediaOf(small)));
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toBe('shortvideo: privacyLevel "followers" cannot be used: the account does not offer it (it offers public, friends, private)');
    expect(fake.count('POST', INIT)).toBe(inits);
  });

  it("judges each class of the platform's errors", async () => {
    const publish = () => connector.publish(account(), testPost('shortvideo', { content: 'x' }), mediaOf(small));

    fake.failNext('retry');
    const limited = await refusal(publish());
    expect(limited.kind).toBe('retry');
    expect(limited.retryAfterMs).toBe(60_000);
    expect(limited.message).toContain('rate_limit_exceeded');

    fake.failNext('bad_request');
    const capped = await refusal(publish());
    expect(capped.kind).toBe('bad_request');
    expect(capped.message).toContain('The daily post cap from the API is reached for the current user. (spam_risk_too_many_posts)');

    fake.failNext('reauthorize');
    expect((await refusal(publish())).kind).toBe('reauthorize');

    fake.audited = false;
    try {
      const unaudited = await refusal(publish());
      expect(unaudited.kind).toBe('bad_request');
      expect(unaudited.message).toContain('Unaudited clients can only post to a private account.');
    } finally {
      fake.audited = true;
    }

    const step = await publish();
    fake.failNext('disconnected');
    expect((await refusal(connector.check(account(), (step as { ref: string }).ref))).kind).toBe('disconnected');

    fake.failProcessing('duration_check_failed');
    const long = await publish();
    const tooLong = await refusal(connector.check(account(), (long as { ref: string }).ref));
    expect(tooLong.kind).toBe('bad_request');
    expect(tooLong.message).toContain('duration_check_failed');
  });

  it('answers an expired access token as reauthorize, and works again once refreshed', async () => {
    fake.expireAccessTokens();
    const refused = await refusal(connector.fetchFollowers(account()));
    expect(refused.kind).toBe('reauthorize');
    expect(refused.message).toContain('access_token_invalid');
    const { code } = await authorise();
    const fresh = remember(await exchange(http, settings, { code, redirectUri: REDIRECT_URI }));
    tokens = { ...remember(await refresh(http, settings, fresh)), extra: tokens.extra };
    expect(await connector.fetchFollowers(account())).toBe(1234);
  });

  it("resumes an upload cut mid-way at the platform's count of bytes, with the same publish, into one post", async () => {
    const bytes = fs.readFileSync(large);
    const inits = fake.count('POST', INIT);
    const posts = fake.posts.length;
    const from = fake.chunks.length;
    const post = testPost('shortvideo', { content: 'cut and resumed' });
    await expect(connector.publish(account(), post, mediaOf(large, { cutAt: CHUNK_SIZE + 1000 }))).rejects.toThrow(/ended at|died/);
    // saved before the first byte went
    expect(post.saved[0]).toMatchObject({
      publishId: expect.any(String),
      uploadUrl: expect.stringContaining('upload_id='),
      chunkSize: CHUNK_SIZE,
      videoSize: bytes.length,
    });
    expect(fake.chunks.slice(from)).toEqual([`bytes 0-${CHUNK_SIZE - 1}/${bytes.length}`]);

    const step = await connector.publish(account(), post, mediaOf(large));
    const ref = (step as { ref: string }).ref;
    expect(await connector.check(account(), ref)).toEqual({ state: 'ready' });
    const done = await connector.finalize(account(), post, ref);
    expect(fake.count('POST', INIT)).toBe(inits + 1);
    expect(fake.posts).toHaveLength(posts + 1);
    expect(fake.posts.at(-1)!.video.equals(bytes)).toBe(true);
    expect(done.platformPostId).toBe(fake.posts.at(-1)!.id);
  });

  it('starts a new upload when the saved upload URL has expired, and still makes one post', async () => {
    const inits = fake.count('POST', INIT);
    const posts = fake.posts.length;
    const post = testPost('shortvideo', { content: 'late' });
    await expect(connector.publish(account(), post, mediaOf(small, { cutAt: 1000 }))).rejects.toThrow();
    // the platform refuses the hour-old URL: the next attempt starts over
    fake.expireUploadUrls();
    const expired = await refusal(connector.publish(account(), post, mediaOf(small)));
    expect(expired.kind).toBe('retry');
    expect(post.progress).toMatchObject({ uploadUrlDead: true });
    const step = await connector.publish(account(), post, mediaOf(small));
    expect(fake.count('POST', INIT)).toBe(inits + 2);
    await connector.finalize(account(), post, (step as { ref: string }).ref);
    expect(fake.posts).toHaveLength(posts + 1);
    expect(fake.posts.at(-1)!.video.equals(fs.readFileSync(small))).toBe(true);
  });

  it('after a crash once the platform had published, a re-run asks it and gives the same post, uploading nothing', async () => {
    const { post, ref, published } = await publishThrough({ content: 'once only' });
    const inits = fake.count('POST', INIT);
    const chunks = fake.chunks.length;
    const again = await connector.publish(account(), post, mediaOf(small));
    expect(again).toMatchObject({ state: 'pending', ref });
    expect(await connector.finalize(account(), post, ref)).toEqual(published);
    expect(fake.count('POST', INIT)).toBe(inits);
    expect(fake.chunks).toHaveLength(chunks);
    expect(fake.posts.filter((p) => p.text === 'once only')).toHaveLength(1);
  });

  it("reads a post's counts and the account's followers", async () => {
    const { published } = await publishThrough({ content: 'counted' });
    fake.posts.at(-1)!.counts = { view_count: 1500, like_count: 120, comment_count: 14, share_count: 9 };
    expect(await connector.fetchPostMetrics(account(), published.platformPostId)).toEqual({
      views: 1500,
      likes: 120,
      comments: 14,
      shares: 9,
      impressions: 0,
      reach: 0,
      clicks: 0,
    });
    fake.followers = 1300;
    expect(await connector.fetchFollowers(account())).toBe(1300);
  });

  it('puts no access or refresh token in any error', () => {
    expect(messages.length).toBeGreaterThan(10);
    expect(seenTokens.size).toBeGreaterThan(4);
    for (const message of messages) for (const token of seenTokens) expect(message).not.toContain(token);
  });
});
