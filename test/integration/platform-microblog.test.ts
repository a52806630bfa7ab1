/**
 * The microblog connector against an imitation of its platform (X API v2,
 * test/fakes/microblog.ts) over real HTTP, with real mp4s: connecting an
 * account, publishing (upload in segments, processing, the post), a re-run
 * after a crash, the platform's errors as the four kinds, metrics and followers.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformHttp } from '../../src/platforms/http.js';
import { microblogPlatform } from '../../src/platforms/microblog.js';
import { authorizeUrl, pkcePair, standardExchange, standardRefresh } from '../../src/platforms/oauth-tokens.js';
import { isPlatformError, type PlatformError, type PlatformSettings, type TokenSet } from '../../src/platforms/types.js';
import { startPlatformFake, type MicroblogFake } from '../fakes/microblog.js';
import { largeMp4, mediaOf, smallMp4, testAccount, testPost } from '../support/platforms.js';

const REDIRECT_URI = 'https://app.example.test/v1/platforms/microblog/callback';
const def = microblogPlatform;

describe('microblog', () => {
  let fake: MicroblogFake;
  let settings: PlatformSettings;
  let http: ReturnType<typeof createPlatformHttp>;
  let small: string;
  /** every error a test caught: none may carry a token */
  const errors: PlatformError[] = [];

  beforeAll(async () => {
    fake = await startPlatformFake({ redirectUri: REDIRECT_URI });
    settings = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
    http = createPlatformHttp('microblog', fake.url);
    small = await smallMp4();
  });

  afterAll(async () => {
    await fake?.close();
  });

  const connector = () => def.connector(http, settings);
  const exchange = () => def.exchangeCode ?? standardExchange(def.key, def.oauth);
  const refresh = () => def.refresh ?? standardRefresh(def.key, def.oauth);

  /** The rejection of `promise`, which must be a PlatformError (kept for the token check). */
  async function refusal(promise: Promise<unknown>): Promise<PlatformError> {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!isPlatformError(err)) throw new Error(`expected a PlatformError, got ${err === null ? 'success' : String(err)}`);
    errors.push(err);
    return err;
  }

  /** The user's round trip: the authorisation URL, the consent (the fake redirects at once), the code for tokens, the identity. */
  async function connect(): Promise<TokenSet> {
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl(http, def.oauth, settings, { redirectUri: REDIRECT_URI, state: 'st-42', codeChallenge: challenge });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    const tokens = await exchange()(http, settings, { code: back.searchParams.get('code')!, redirectUri: REDIRECT_URI, codeVerifier: verifier });
    const who = await def.identify(http, settings, tokens);
    return { ...tokens, extra: { ...tokens.extra, ...who.extra } };
  }

  /** An account as the service hands it to the connector: fresh tokens, the ids identify saved. */
  const accountWith = (tokens: TokenSet) => testAccount('microblog', tokens, { externalId: fake.user.id });

  it('connects an account: the authorisation URL, the code with its PKCE verifier, the identity', async () => {
    const { verifier, challenge } = pkcePair();
    const url = new URL(authorizeUrl(http, def.oauth, settings, { redirectUri: REDIRECT_URI, state: 'st-1', codeChallenge: challenge }));
    expect(url.origin + url.pathname).toBe(`${fake.url}/i/oauth2/authorize`);
    expect(url.searchParams.get('scope')).toBe('tweet.read tweet.write users.read media.write offline.access');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');

    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-1');
    const code = back.searchParams.get('code')!;

    // the wrong verifier is refused: the code is bound to the challenge
    const wrong = await refusal(exchange()(http, settings, { code, redirectUri: REDIRECT_URI, codeVerifier: pkcePair().verifier }));
    expect(wrong.kind).toBe('reauthorize');
    expect(wrong.message).toContain('code verifier');

    const tokens = await exchange()(http, settings, { code, redirectUri: REDIRECT_URI, codeVerifier: verifier });
    expect(tokens.accessToken).toMatch(/^at-/);
    expect(tokens.refreshToken).toMatch(/^rt-/);
    expect(Date.parse(tokens.expiresAt!) - Date.now()).toBeGreaterThan(7000 * 1000);
    expect(tokens.scope).toContain('media.write');

    // a code is spent once
    const again = await refusal(exchange()(http, settings, { code, redirectUri: REDIRECT_URI, codeVerifier: verifier }));
    expect(again.kind).toBe('reauthorize');

    const who = await def.identify(http, settings, tokens);
    expect(who).toEqual({
      externalId: fake.user.id,
      handle: 'sample_account',
      isPrivate: false,
      followers: 1234,
      extra: { userId: fake.user.id, username: 'sample_account' },
    });
  });

  it('refuses an authorisation to a redirect URI the client has not registered', async () => {
    const url = authorizeUrl(http, def.oauth, settings, { redirectUri: 'https://elsewhere.example.test/cb', state: 's', codeChallenge: pkcePair().challenge });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('refreshes with the rotating refresh token; a spent or revoked refresh token asks to connect again', async () => {
    const tokens = await connect();
    const next = await refresh()(http, settings, tokens);
    expect(next.accessToken).not.toBe(tokens.accessToken);
    expect(next.refreshToken).not.toBe(tokens.refreshToken);
    expect(next.extra?.userId).toBe(fake.user.id);
    expect(await def.connector(http, settings).fetchFollowers(accountWith(next))).toBe(1234);

    const spent = await refusal(refresh()(http, settings, tokens));
    expect(spent.kind).toBe('reauthorize');
    expect(spent.message).toContain('Value passed for the token was invalid.');

    fake.revokeRefreshTokens();
    expect((await refusal(refresh()(http, settings, next))).kind).toBe('reauthorize');
  });

  it('publishes a video: uploaded, processed (pending, then ready), posted once with a URL a user can open', async () => {
    const account = accountWith(await connect());
    const post = testPost('microblog', { content: 'Our first clip 🎬 #launch' });
    const step = await connector().publish(account, post, mediaOf(small));
    expect(step).toEqual({ state: 'pending', ref: expect.stringMatching(/^\d+$/), checkAfterMs: 1000 });
    const ref = (step as { ref: string }).ref;
    // the media id was saved before a byte was sent
    expect(post.saved[0]).toMatchObject({ mediaId: ref, segments: 0, bytes: 0 });

    expect(await connector().check(account, ref)).toEqual({ state: 'ready' });
    const done = await connector().finalize(account, post, ref);
    expect(done.platformPostId).toMatch(/^\d+$/);
    expect(done.platformPostUrl).toBe(`https://x.com/sample_account/status/${done.platformPostId}`);

    const made = fake.posts.filter((p) => p.id === done.platformPostId);
    expect(made).toHaveLength(1);
    expect(made[0].text).toBe('Our first clip 🎬 #launch');
    expect(made[0].video.equals(fs.readFileSync(small))).toBe(true);

    // finalizing the same handle again gives the same post, and posts nothing
    const before = fake.count('POST', '/2/tweets');
    expect(await connector().finalize(account, post, ref)).toEqual(done);
    expect(fake.count('POST', '/2/tweets')).toBe(before);
  });

  it('uploads a large video in ordered segments of at most 5 MB', async () => {
    const large = await largeMp4();
    const size = fs.statSync(large).size;
    const account = accountWith(await connect());
    const post = testPost('microblog', { content: 'The long cut' });
    const step = await connector().publish(account, post, mediaOf(large));
    const ref = (step as { ref: string }).ref;
    const segs = fake.segments.filter((s) => s.mediaId === ref);
    expect(segs.length).toBe(Math.ceil(size / (4 * 1024 * 1024)));
    expect(segs.length).toBeGreaterThan(2);
    expect(segs.map((s) => s.index)).toEqual(segs.map((_, i) => i));
    expect(Math.max(...segs.map((s) => s.size))).toBeLessThanOrEqual(5 * 1024 * 1024);

    await connector().check(account, ref);
    const done = await connector().finalize(account, post, ref);
    expect(fake.posts.find((p) => p.id === done.platformPostId)!.video.equals(fs.readFileSync(large))).toBe(true);
  });

  it("keeps a slowly processed video pending, with the platform's wait, until it is ready", async () => {
    const account = accountWith(await connect());
    fake.processingChecks = 2;
    try {
      const post = testPost('microblog', { content: 'Slow to process' });
      const step = await connector().publish(account, post, mediaOf(small));
      const ref = (step as { ref: string }).ref;
      expect(await connector().check(account, ref)).toEqual({ state: 'pending', checkAfterMs: 1000 });
      expect(await connector().check(account, ref)).toEqual({ state: 'pending', checkAfterMs: 1000 });
      expect(await connector().check(account, ref)).toEqual({ state: 'ready' });
      const done = await connector().finalize(account, post, ref);
      expect(fake.posts.some((p) => p.id === done.platformPostId)).toBe(true);
    } finally {
      fake.processingChecks = 0;
    }
  });

  it("answers a video the platform cannot process as refused, in the platform's words", async () => {
    const account = accountWith(await connect());
    fake.failProcessing('Unsupported video format');
    const step = await connector().publish(account, testPost('microblog', { content: 'Broken video' }), mediaOf(small));
    const err = await refusal(connector().check(account, (step as { ref: string }).ref));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('Unsupported video format');
  });

  it("maps the platform's errors onto the four kinds", async () => {
    const account = accountWith(await connect());
    const c = connector();

    const before = Date.now();
    fake.failNext('retry');
    const limited = await refusal(c.fetchFollowers(account));
    expect(limited.kind).toBe('retry');
    // x-rate-limit-reset is 90 s ahead, in whole seconds
    expect(limited.retryAfterMs).toBeGreaterThan(85_000);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(91_000 + (Date.now() - before));

    fake.failNext('bad_request');
    const invalid = await refusal(c.publish(account, testPost('microblog', { content: 'Refused' }), mediaOf(small)));
    expect(invalid.kind).toBe('bad_request');
    expect(invalid.message).toContain('Your media IDs are invalid.');

    fake.failNext('reauthorize');
    expect((await refusal(c.fetchFollowers(account))).kind).toBe('reauthorize');

    fake.failNext('disconnected');
    const suspended = await refusal(c.fetchFollowers(account));
    expect(suspended.kind).toBe('disconnected');
    expect(suspended.message).toContain('The user used for authentication is suspended');
  });

  it("refuses a post whose text the account already posted, with the platform's message", async () => {
    const account = accountWith(await connect());
    const text = 'Said once, said twice';
    const first = testPost('microblog', { content: text }, '00000000-0000-4000-8000-0000000000d1');
    const ref1 = ((await connector().publish(account, first, mediaOf(small))) as { ref: string }).ref;
    await connector().check(account, ref1);
    await connector().finalize(account, first, ref1);

    const second = testPost('microblog', { content: text }, '00000000-0000-4000-8000-0000000000d2');
    const ref2 = ((await connector().publish(account, second, mediaOf(small))) as { ref: string }).ref;
    await connector().check(account, ref2);
    const err = await refusal(connector().finalize(account, second, ref2));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('You are not allowed to create a Tweet with duplicate content.');
  });

  it('answers an expired access token as reauthorize', async () => {
    const tokens = await connect();
    fake.expireAccessTokens();
    const err = await refusal(connector().fetchFollowers(accountWith(tokens)));
    expect(err.kind).toBe('reauthorize');
    expect(err.message).toContain('Unauthorized');
    // the refreshed token works again
    expect(await connector().fetchFollowers(accountWith(await refresh()(http, settings, tokens)))).toBe(1234);
  });

  it('resumes an upload cut off mid-way on the same media id, and ends with one post', async () => {
    const large = await largeMp4();
    const size = fs.statSync(large).size;
    const account = accountWith(await connect());
    const post = testPost('microblog', { content: 'Cut off mid-upload' });
    const inits = fake.count('POST', '/2/media/upload/initialize');

    // the worker dies while reading the second segment
    await expect(connector().publish(account, post, mediaOf(large, { cutAt: 6 * 1024 * 1024 }))).rejects.toThrow();
    expect(post.progress).toMatchObject({ segments: 1, bytes: 4 * 1024 * 1024 });

    const step = await connector().publish(account, post, mediaOf(large));
    const ref = (step as { ref: string }).ref;
    expect(ref).toBe(post.saved[0].mediaId);
    expect(fake.count('POST', '/2/media/upload/initialize')).toBe(inits + 1);
    // segment 0 once, then the rest from 1 on
    const count = Math.ceil(size / (4 * 1024 * 1024));
    expect(fake.segments.filter((s) => s.mediaId === ref).map((s) => s.index)).toEqual(Array.from({ length: count }, (_, i) => i));

    await connector().check(account, ref);
    const done = await connector().finalize(account, post, ref);
    const made = fake.posts.filter((p) => p.text === 'Cut off mid-upload');
    expect(made).toHaveLength(1);
    expect(made[0].id).toBe(done.platformPostId);
    expect(made[0].video.equals(fs.readFileSync(large))).toBe(true);
  });

  /** A post uploaded and processed, whose worker dies as it saves the post id: the platform has the post, we do not. */
  async function diedAfterPosting(text: string) {
    const account = accountWith(await connect());
    const post = testPost('microblog', { content: text });
    const ref = ((await connector().publish(account, post, mediaOf(small))) as { ref: string }).ref;
    await connector().check(account, ref);
    const dying = { ...post, saveProgress: async (p: Record<string, unknown>) => (p.postId ? Promise.reject(new Error('killed')) : post.saveProgress(p)) };
    await expect(connector().finalize(account, dying, ref)).rejects.toThrow('killed');
    return { account, post, ref };
  }

  it('after a crash once the platform posted but before the post id was saved, finds the same post instead of posting again', async () => {
    const { account, post, ref } = await diedAfterPosting('Posted, then the worker died');
    expect(post.progress).toMatchObject({ postingSince: expect.any(String) });
    expect(post.progress).not.toHaveProperty('postId');
    expect(post.saved.at(-1)).toEqual(post.progress);
    const posted = fake.posts.filter((p) => p.text === 'Posted, then the worker died');
    expect(posted).toHaveLength(1);

    // the re-run asks the account's recent posts for the one carrying our media, and gives it back
    const postCalls = fake.count('POST', '/2/tweets');
    const again = await connector().finalize(account, post, ref);
    expect(again.platformPostId).toBe(posted[0].id);
    expect(fake.count('POST', '/2/tweets')).toBe(postCalls);
    expect(fake.count('GET', `/2/users/${fake.user.id}/tweets`)).toBeGreaterThan(0);
    // and so does a publish re-run from the start
    expect(await connector().publish(account, post, mediaOf(small))).toMatchObject({ state: 'published', platformPostId: posted[0].id });
    expect(fake.posts.filter((p) => p.text === 'Posted, then the worker died')).toHaveLength(1);
  });

  it('after a crash once the platform posted, a post the timeline does not list yet is found once the platform calls the new one a duplicate', async () => {
    const { account, post, ref } = await diedAfterPosting('Posted while the timeline lagged');
    fake.listLate(1);
    const postCalls = fake.count('POST', '/2/tweets');
    const again = await connector().finalize(account, post, ref);
    // the second attempt was refused as a duplicate, and the post it duplicated is the one
    expect(fake.count('POST', '/2/tweets')).toBe(postCalls + 1);
    const posted = fake.posts.filter((p) => p.text === 'Posted while the timeline lagged');
    expect(posted).toHaveLength(1);
    expect(again.platformPostId).toBe(posted[0].id);
    expect(post.progress).toMatchObject({ postId: posted[0].id });
  });

  it('a re-run after the upload was finalized asks its processing instead of uploading again', async () => {
    const account = accountWith(await connect());
    const post = testPost('microblog', { content: 'Finalized, then the worker died' });
    const first = await connector().publish(account, post, mediaOf(small));
    const appends = fake.count('POST', /\/append$/);
    const inits = fake.count('POST', '/2/media/upload/initialize');

    expect(await connector().publish(account, post, mediaOf(small))).toEqual({
      state: 'published',
      platformPostId: expect.any(String),
      platformPostUrl: expect.any(String),
    });
    expect(fake.count('POST', /\/append$/)).toBe(appends);
    expect(fake.count('POST', '/2/media/upload/initialize')).toBe(inits);
    expect(fake.posts.filter((p) => p.text === 'Finalized, then the worker died')).toHaveLength(1);
    expect(post.progress).toMatchObject({ mediaId: (first as { ref: string }).ref });
  });

  it("reads a post's metrics and the account's followers", async () => {
    const account = accountWith(await connect());
    const post = testPost('microblog', { content: 'Count me' });
    const ref = ((await connector().publish(account, post, mediaOf(small))) as { ref: string }).ref;
    await connector().check(account, ref);
    const { platformPostId } = await connector().finalize(account, post, ref);
    fake.metrics.set(platformPostId, {
      retweet_count: 4,
      reply_count: 3,
      like_count: 21,
      quote_count: 2,
      bookmark_count: 5,
      impression_count: 900,
      view_count: 340,
    });
    expect(await connector().fetchPostMetrics(account, platformPostId)).toEqual({
      views: 340,
      likes: 21,
      comments: 3,
      shares: 6,
      impressions: 900,
      reach: 0,
      clicks: 0,
    });

    const gone = await refusal(connector().fetchPostMetrics(account, '999'));
    expect(gone.kind).toBe('bad_request');
    expect(gone.message).toContain('Could not find tweet with id: [999].');

    fake.user.followers = 1300;
    expect(await connector().fetchFollowers(account)).toBe(1300);
    fake.user.followers = 1234;
  });

  it('never puts an access or refresh token in an error message', () => {
    expect(errors.length).toBeGreaterThan(10);
    const tokens = fake.issuedTokens();
    expect(tokens.length).toBeGreaterThan(10);
    for (const e of errors) for (const t of tokens) expect(e.message).not.toContain(t);
  });
});
