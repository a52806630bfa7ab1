// The videoshare connector (YouTube Data API v3) against its imitation over a real socket, with real mp4s:
// connecting an account through the consent URL and the code, refreshing, a resumable upload in 256 KiB
// multiples, processing, the first comment, re-runs after a worker died at each step (one video, one comment),
// the platform's errors judged into the four kinds, metrics and followers; no token in any error.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformHttp } from '../../src/platforms/http.js';
import { authorizeUrl, pkcePair, standardExchange, standardRefresh } from '../../src/platforms/oauth-tokens.js';
import { isPlatformError, type PlatformError, type PlatformHttp, type PlatformSettings, type TokenSet } from '../../src/platforms/types.js';
import { CHUNK_BYTES, untilQuotaReset, videosharePlatform as platform } from '../../src/platforms/videoshare.js';
import { startPlatformFake, type VideoshareFake } from '../fakes/videoshare.js';
import { largeMp4, mediaOf, smallMp4, testAccount, testPost } from '../support/platforms.js';

const REDIRECT_URI = 'https://studio.example/v1/accounts/videoshare/callback';
const CONTENT = {
  title: 'How we cut a podcast into clips',
  description: 'The whole workflow, start to finish.',
  tags: ['podcast', 'behind the scenes'],
  firstComment: 'Full episode: link in the description',
};

describe('videoshare', () => {
  let fake: VideoshareFake;
  let http: PlatformHttp;
  let settings: PlatformSettings;
  let small: string;
  const connector = () => platform.connector(http, settings);
  /** every token the platform issued, none of which may appear in an error */
  const tokens = new Set<string>();
  const errors: Error[] = [];

  const remember = (t: TokenSet) => {
    tokens.add(t.accessToken);
    if (t.refreshToken) tokens.add(t.refreshToken);
    return t;
  };
  const exchange = (input: { code: string; redirectUri: string; codeVerifier?: string }) =>
    (platform.exchangeCode ?? standardExchange(platform.key, platform.oauth))(http, settings, input);
  const refresh = async (t: TokenSet) => remember(await (platform.refresh ?? standardRefresh(platform.key, platform.oauth))(http, settings, t));

  /** The error a call fails with, kept for the check that no token leaks into one. */
  async function refusal(call: Promise<unknown>): Promise<PlatformError> {
    const err = await call.then(
      () => null,
      (e: Error) => e,
    );
    if (!err) throw new Error('expected the call to fail');
    errors.push(err);
    if (!isPlatformError(err)) throw err;
    return err;
  }

  /** The consent URL followed to the fake, the code exchanged: what connecting an account does. */
  async function connect(): Promise<TokenSet> {
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl(http, platform.oauth, settings, { redirectUri: REDIRECT_URI, state: 'st-1', codeChallenge: challenge });
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st-1');
    return remember(await exchange({ code: back.searchParams.get('code')!, redirectUri: REDIRECT_URI, codeVerifier: verifier }));
  }

  const accountOf = (t: TokenSet) => testAccount('videoshare', t, { externalId: fake.channelId });
  const bytesOf = (file: string) => fs.readFileSync(file);

  beforeAll(async () => {
    fake = await startPlatformFake({ redirectUri: REDIRECT_URI });
    http = createPlatformHttp('videoshare', fake.url);
    settings = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
    small = await smallMp4();
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('connects an account: the consent URL asks for offline access with PKCE, the code becomes tokens, identify reads the channel', async () => {
    const { verifier, challenge } = pkcePair();
    const url = new URL(authorizeUrl(http, platform.oauth, settings, { redirectUri: REDIRECT_URI, state: 'xyz', codeChallenge: challenge }));
    expect(url.pathname).toBe('/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: fake.clientId,
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/youtube.force-ssl',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });

    // a redirect URI the client did not register gets the platform's error page, not a redirect
    const wrong = new URL(url);
    wrong.searchParams.set('redirect_uri', 'https://evil.example/cb');
    const page = await fetch(wrong, { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('redirect_uri_mismatch');

    const res = await fetch(url, { redirect: 'manual' });
    const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
    // the code is bound to the verifier
    const bad = await refusal(exchange({ code, redirectUri: REDIRECT_URI, codeVerifier: pkcePair().verifier }));
    expect(bad.kind).toBe('reauthorize');
    expect(bad.message).toContain('Invalid code verifier.');

    const t = remember(await exchange({ code, redirectUri: REDIRECT_URI, codeVerifier: verifier }));
    expect(t.refreshToken).toMatch(/^1\/\//);
    expect(Date.parse(t.expiresAt!) - Date.now()).toBeGreaterThan(3_500_000);
    expect(t.scope).toBe('https://www.googleapis.com/auth/youtube.force-ssl');

    expect(await platform.identify(http, settings, t)).toEqual({
      externalId: fake.channelId,
      handle: '@clipstudio',
      isPrivate: false,
      followers: 1234,
      extra: { channelId: fake.channelId },
    });
  });

  it('refreshes the access token and keeps the refresh token the platform does not rotate; a revoked one asks to connect again', async () => {
    const first = await connect();
    const next = await refresh(first);
    expect(next.accessToken).not.toBe(first.accessToken);
    expect(next.refreshToken).toBe(first.refreshToken);
    expect(await connector().fetchFollowers(accountOf(next))).toBe(1234);

    fake.revokeRefreshTokens();
    const err = await refusal(refresh(next));
    expect(err.kind).toBe('reauthorize');
    expect(err.message).toContain('Token has been expired or revoked.');
  });

  it('publishes a small video: the session saved before the first chunk, pending, ready, then its first comment once', async () => {
    const account = accountOf(await connect());
    const post = testPost('videoshare', CONTENT);
    const chunksAtSave: number[] = [];
    const save = post.saveProgress.bind(post);
    post.saveProgress = async (p) => {
      chunksAtSave.push(fake.chunks.length);
      await save(p);
    };
    const before = fake.chunks.length;

    const step = await connector().publish(account, post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('expected pending');
    expect(step.checkAfterMs).toBeGreaterThan(0);
    expect(post.saved[0]).toEqual({ sessionUri: expect.stringMatching(/^https:\/\/www\.googleapis\.com\/upload\/youtube\/v3\/videos\?.*upload_id=/) });
    expect(chunksAtSave[0]).toBe(before);
    expect(post.saved[1]).toEqual({ sessionUri: post.saved[0]!.sessionUri, videoId: step.ref });

    const made = fake.posts.at(-1)!;
    expect(made.id).toBe(step.ref);
    expect(made.video.equals(bytesOf(small))).toBe(true);
    const video = fake.videos.get(step.ref)!;
    expect(video.snippet).toEqual({ title: CONTENT.title, description: CONTENT.description, tags: CONTENT.tags, categoryId: '22' });
    expect(video.status).toEqual({ privacyStatus: 'public', selfDeclaredMadeForKids: false });

    expect(await connector().check(account, step.ref)).toEqual({ state: 'ready' });
    const published = await connector().finalize(account, post, step.ref);
    expect(published).toEqual({ platformPostId: step.ref, platformPostUrl: `https://www.youtube.com/watch?v=${step.ref}` });
    expect(fake.comments.filter((c) => c.videoId === step.ref)).toEqual([
      { id: expect.any(String), videoId: step.ref, text: CONTENT.firstComment, authorChannelId: fake.channelId },
    ]);

    const commentsPosted = fake.count('POST', '/youtube/v3/commentThreads');
    expect(await connector().finalize(account, post, step.ref)).toEqual(published);
    expect(fake.count('POST', '/youtube/v3/commentThreads')).toBe(commentsPosted);
    expect(fake.comments.filter((c) => c.videoId === step.ref)).toHaveLength(1);
  });

  it('uploads the large video (9 MB) in 8 MiB chunks, multiples of 256 KiB but the last', async () => {
    const large = await largeMp4();
    const size = fs.statSync(large).size;
    expect(size).toBeGreaterThan(CHUNK_BYTES);
    const step = await connector().publish(accountOf(await connect()), testPost('videoshare', CONTENT), mediaOf(large));
    if (step.state !== 'pending') throw new Error('expected pending');

    const session = fake.chunks.at(-1)!.session;
    const chunks = fake.chunks.filter((c) => c.session === session);
    expect(chunks.map((c) => c.length)).toEqual([CHUNK_BYTES, size - CHUNK_BYTES]);
    expect(CHUNK_BYTES % (256 * 1024)).toBe(0);
    expect(chunks.map((c) => c.start)).toEqual([0, CHUNK_BYTES]);
    expect(fake.videos.get(step.ref)!.bytes.equals(bytesOf(large))).toBe(true);
  });

  it('a worker killed mid-upload: the re-run asks the session where it stopped, sends the rest, and makes one video', async () => {
    const large = await largeMp4();
    const account = accountOf(await connect());
    const post = testPost('videoshare', CONTENT);
    const videos = fake.posts.length;

    const cutAt = CHUNK_BYTES + Math.floor((fs.statSync(large).size - CHUNK_BYTES) / 2);
    await expect(connector().publish(account, post, mediaOf(large, { cutAt }))).rejects.toThrow(/died mid-upload|ended at/);
    expect(post.progress).toEqual({ sessionUri: expect.any(String) });
    const session = fake.chunks.at(-1)!.session;
    expect(fake.chunks.filter((c) => c.session === session)).toEqual([{ session, start: 0, length: CHUNK_BYTES }]);

    const step = await connector().publish(account, post, mediaOf(large));
    if (step.state !== 'pending') throw new Error('expected pending');
    expect(fake.chunks.filter((c) => c.session === session).map((c) => c.start)).toEqual([0, CHUNK_BYTES]);
    expect(fake.posts.length).toBe(videos + 1);
    expect(fake.videos.get(step.ref)!.bytes.equals(bytesOf(large))).toBe(true);
  });

  it('a worker killed after the upload completed, before its video id was saved: the re-run takes the same video', async () => {
    const account = accountOf(await connect());
    const post = testPost('videoshare', CONTENT);
    const save = post.saveProgress.bind(post);
    post.saveProgress = async (p) => {
      if (p.videoId) throw new Error('the worker died');
      await save(p);
    };
    const videos = fake.posts.length;
    await expect(connector().publish(account, post, mediaOf(small))).rejects.toThrow('the worker died');
    expect(fake.posts.length).toBe(videos + 1);

    post.saveProgress = save;
    const step = await connector().publish(account, post, mediaOf(small));
    expect(step).toEqual({ state: 'pending', ref: fake.posts.at(-1)!.id, checkAfterMs: expect.any(Number) });
    expect(fake.posts.length).toBe(videos + 1);
    expect(post.progress).toEqual({ sessionUri: expect.any(String), videoId: fake.posts.at(-1)!.id });
  });

  it('a worker killed after the first comment, before it was saved: finalize again finds it and gives the same post', async () => {
    const account = accountOf(await connect());
    const post = testPost('videoshare', CONTENT);
    const step = await connector().publish(account, post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('expected pending');
    const save = post.saveProgress.bind(post);
    post.saveProgress = async (p) => {
      if (p.commentId) throw new Error('the worker died');
      await save(p);
    };
    await expect(connector().finalize(account, post, step.ref)).rejects.toThrow('the worker died');
    post.saveProgress = save;
    const published = await connector().finalize(account, post, step.ref);
    expect(published.platformPostId).toBe(step.ref);
    expect(fake.comments.filter((c) => c.videoId === step.ref)).toHaveLength(1);
    expect(post.progress).toMatchObject({ videoId: step.ref, commentId: fake.comments.at(-1)!.id });
  });

  it('a platform that processes slowly: check answers pending with its time-left estimate, then ready', async () => {
    const account = accountOf(await connect());
    fake.processingChecks = 2;
    try {
      const step = await connector().publish(account, testPost('videoshare', CONTENT), mediaOf(small));
      if (step.state !== 'pending') throw new Error('expected pending');
      expect(await connector().check(account, step.ref)).toEqual({ state: 'pending', checkAfterMs: 40_000 });
      expect(await connector().check(account, step.ref)).toEqual({ state: 'pending', checkAfterMs: 20_000 });
      expect(await connector().check(account, step.ref)).toEqual({ state: 'ready' });
    } finally {
      fake.processingChecks = 0;
    }
  });

  it("a video the platform rejects once processed fails its post with the platform's reason", async () => {
    const account = accountOf(await connect());
    fake.rejectNextUpload('duplicate');
    const step = await connector().publish(account, testPost('videoshare', CONTENT), mediaOf(small));
    if (step.state !== 'pending') throw new Error('expected pending');
    const err = await refusal(connector().check(account, step.ref));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('rejected');
    expect(err.message).toContain('duplicate');
  });

  it('comments turned off: the live video is still its post, the refusal kept in the progress', async () => {
    const account = accountOf(await connect());
    const post = testPost('videoshare', CONTENT);
    const step = await connector().publish(account, post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('expected pending');
    fake.commentsDisabled = true;
    try {
      expect(await connector().finalize(account, post, step.ref)).toEqual({
        platformPostId: step.ref,
        platformPostUrl: `https://www.youtube.com/watch?v=${step.ref}`,
      });
      expect(post.progress?.commentRefused).toContain('has disabled comments');
      expect(fake.comments.filter((c) => c.videoId === step.ref)).toEqual([]);
    } finally {
      fake.commentsDisabled = false;
    }
  });

  it("judges the platform's errors: quota (retry at its reset), refused metadata (bad_request), invalid credentials (reauthorize), a closed account (disconnected)", async () => {
    const account = accountOf(await connect());

    fake.failNext('retry');
    const quota = await refusal(connector().publish(account, testPost('videoshare', CONTENT), mediaOf(small)));
    expect(quota.kind).toBe('retry');
    expect(quota.message).toContain('quotaExceeded');
    // the platform sends no Retry-After: its daily quota resets at midnight Pacific time
    expect(Math.abs(quota.retryAfterMs! - untilQuotaReset())).toBeLessThan(5_000);
    expect(quota.retryAfterMs).toBeLessThanOrEqual(25 * 3_600_000 + 60_000);

    fake.failNext('bad_request');
    const refused = await refusal(connector().publish(account, testPost('videoshare', CONTENT), mediaOf(small)));
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toContain('The request metadata specifies an invalid video title.');

    // the platform's own rule, not ours: tags count 500 characters at most
    const tags = Array.from({ length: 30 }, (_, i) => `tag number ${String(i).padStart(8, '0')}`);
    const post = testPost('videoshare', { ...CONTENT, tags });
    const keywords = await refusal(connector().publish(account, post, mediaOf(small)));
    expect(keywords.kind).toBe('bad_request');
    expect(keywords.message).toContain('The request metadata specifies invalid video keywords.');
    expect(post.progress).toBeNull();

    fake.failNext('reauthorize');
    expect((await refusal(connector().fetchFollowers(account))).kind).toBe('reauthorize');

    fake.failNext('disconnected');
    const closed = await refusal(connector().fetchFollowers(account));
    expect(closed.kind).toBe('disconnected');
    expect(closed.message).toContain('The YouTube account of the authenticated user is closed.');
  });

  it('an expired access token is answered as reauthorize, and the refreshed one works', async () => {
    const t = await connect();
    fake.expireAccessTokens();
    const err = await refusal(connector().fetchFollowers(accountOf(t)));
    expect(err.kind).toBe('reauthorize');
    expect(err.message).toContain('invalid authentication credentials');
    expect(await connector().fetchFollowers(accountOf(await refresh(t)))).toBe(1234);
  });

  it("reads a video's metrics and the channel's subscribers", async () => {
    const account = accountOf(await connect());
    const step = await connector().publish(account, testPost('videoshare', CONTENT), mediaOf(small));
    if (step.state !== 'pending') throw new Error('expected pending');
    fake.videos.get(step.ref)!.statistics = { viewCount: 1500, likeCount: 120, commentCount: 7 };
    expect(await connector().fetchPostMetrics(account, step.ref)).toEqual({
      views: 1500,
      likes: 120,
      comments: 7,
      shares: 0,
      impressions: 0,
      reach: 0,
      clicks: 0,
    });

    const gone = await refusal(connector().fetchPostMetrics(account, 'noSuchVideo'));
    expect(gone.kind).toBe('bad_request');

    fake.subscriberCount = 2048;
    expect(await connector().fetchFollowers(account)).toBe(2048);
  });

  it('puts no access or refresh token in any error message', () => {
    expect(errors.length).toBeGreaterThanOrEqual(10);
    expect(tokens.size).toBeGreaterThan(10);
    for (const e of errors) for (const t of tokens) expect(e.message).not.toContain(t);
  });
});
