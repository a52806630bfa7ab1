/**
 * The socialnet connector (Page reels through the Graph API) against its fake:
 * a Page connected through the consent URL and the code, reels published from
 * real mp4s, the platform's errors judged, and re-runs after crashes that end
 * in one reel.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformHttp } from '../../src/platforms/http.js';
import { authorizeUrl, pkcePair } from '../../src/platforms/oauth-tokens.js';
import { PART_BYTES, reelUrl, socialnetPlatform } from '../../src/platforms/socialnet.js';
import {
  isPlatformError,
  type PlatformConnector,
  type PlatformError,
  type PlatformErrorKind,
  type PlatformHttp,
  type PlatformSettings,
  type TokenSet,
} from '../../src/platforms/types.js';
import { SOCIALNET_INSIGHTS, SOCIALNET_PAGES, startPlatformFake, type SocialnetFake } from '../fakes/socialnet.js';
import { largeMp4, mediaOf, smallMp4, testAccount, testPost } from '../support/platforms.js';

const REDIRECT = 'https://clips.example.test/v1/platforms/socialnet/callback';
const POSTING_PAGE = SOCIALNET_PAGES[1];

describe('socialnet', () => {
  let fake: SocialnetFake;
  let http: PlatformHttp;
  let settings: PlatformSettings;
  let connector: PlatformConnector;
  let small: string;
  let large: string;
  /** the Page's tokens as the service keeps them after connecting */
  let page: TokenSet;
  /** every error a test saw: none may carry a token */
  const errors: PlatformError[] = [];
  const tokensSeen = new Set<string>();

  const account = () => testAccount('socialnet', page, { externalId: POSTING_PAGE.id });
  const videoRoute = `/v26.0/${POSTING_PAGE.id}/video_reels`;

  async function refusal(promise: Promise<unknown>, kind: PlatformErrorKind): Promise<PlatformError> {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    if (!isPlatformError(err)) throw new Error(`expected a ${kind} PlatformError, got ${String(err)}`);
    errors.push(err);
    expect(err.kind, err.message).toBe(kind);
    return err;
  }

  /** Consent, code and Page: the connection a user makes. */
  async function connect(): Promise<{ user: TokenSet; page: TokenSet; url: URL; back: URL }> {
    const url = new URL(
      authorizeUrl(http, socialnetPlatform.oauth, settings, { redirectUri: REDIRECT, state: 'state-123', codeChallenge: pkcePair().challenge }),
    );
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    const user = await socialnetPlatform.exchangeCode!(http, settings, { code: back.searchParams.get('code')!, redirectUri: REDIRECT });
    const identity = await socialnetPlatform.identify(http, settings, user);
    const connected: TokenSet = { ...user, accessToken: identity.accessToken!, extra: { ...user.extra, ...identity.extra } };
    tokensSeen.add(user.accessToken).add(connected.accessToken);
    return { user, page: connected, url, back };
  }

  beforeAll(async () => {
    [fake, small, large] = await Promise.all([startPlatformFake({ redirectUri: REDIRECT }), smallMp4(), largeMp4()]);
    http = createPlatformHttp('socialnet', fake.url);
    settings = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
    connector = socialnetPlatform.connector(http, settings);
    ({ page } = await connect());
  });

  afterAll(async () => {
    await fake?.close();
  });

  it('connects the first Page the user may post to, through the consent URL and a long-lived token', async () => {
    const { url, back, user, page: connected } = await connect();
    expect(url.pathname).toBe('/v26.0/dialog/oauth');
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('scope')).toBe('pages_show_list,pages_read_engagement,pages_manage_posts,read_insights');
    expect(url.searchParams.get('response_type')).toBe('code');
    // the platform's PKCE is an OIDC flow in testing: the code flow with the client secret is used
    expect(url.searchParams.has('code_challenge')).toBe(false);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('state-123');

    // the short-lived token was exchanged: about 60 days
    expect(Date.parse(user.expiresAt!) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    const identity = await socialnetPlatform.identify(http, settings, user);
    expect(identity).toMatchObject({
      externalId: POSTING_PAGE.id,
      handle: POSTING_PAGE.name,
      isPrivate: false,
      followers: POSTING_PAGE.followers,
      extra: { pageId: POSTING_PAGE.id },
    });
    expect(connected.accessToken).not.toBe(user.accessToken);

    // a code is good once; the dialog refuses an address the app did not register
    await refusal(socialnetPlatform.exchangeCode!(http, settings, { code: back.searchParams.get('code')!, redirectUri: REDIRECT }), 'reauthorize');
    url.searchParams.set('redirect_uri', 'https://elsewhere.example.test/cb');
    const blocked = await fetch(url, { redirect: 'manual' });
    expect(blocked.status).toBe(200);
    expect(await blocked.text()).toContain('URL blocked');
  });

  it('refreshes a Page token by checking it still works, and refuses one the platform revoked', async () => {
    const refreshed = await socialnetPlatform.refresh!(http, settings, page);
    expect(refreshed.accessToken).toBe(page.accessToken);
    expect(refreshed.expiresAt).toBeUndefined();

    fake.revokeRefreshTokens();
    const err = await refusal(socialnetPlatform.refresh!(http, settings, page), 'reauthorize');
    expect(err.message).toContain('changed their password');
    ({ page } = await connect());
  });

  it('publishes a reel: uploaded, finished, processed, published once with the exact bytes and the description', async () => {
    fake.processingChecks = 0;
    const post = testPost('socialnet', { content: 'Three seconds of test pattern #clips' });
    const finishes = fake.finishes;
    const step = await connector.publish(account(), post, mediaOf(small));
    expect(step.state).toBe('pending');
    if (step.state !== 'pending') return;
    // the video id was saved before the upload, the finish once the platform confirmed it
    expect(post.saved.map((p) => p.finished ?? false)).toEqual([false, true]);
    expect(post.saved[0]).toMatchObject({ videoId: step.ref });
    expect(fake.finishes).toBe(finishes + 1);
    expect(await connector.check(account(), step.ref)).toEqual({ state: 'ready' });

    const done = await connector.finalize(account(), post, step.ref);
    expect(done).toEqual({ platformPostId: step.ref, platformPostUrl: `https://www.facebook.com/reel/${step.ref}` });
    const made = fake.posts.find((p) => p.id === step.ref)!;
    expect(made.text).toBe('Three seconds of test pattern #clips');
    expect(made.video.equals(fs.readFileSync(small))).toBe(true);

    // finalizing again gives the same reel and sends no second finish
    expect(await connector.finalize(account(), post, step.ref)).toEqual(done);
    expect(fake.finishes).toBe(finishes + 1);
  });

  it('uploads a large video in parts, each at the offset the platform holds', async () => {
    const before = fake.count('POST', /^\/video-upload\//);
    const step = await connector.publish(account(), testPost('socialnet', { content: 'large' }), mediaOf(large));
    if (step.state !== 'pending') throw new Error('expected pending');
    const size = fs.statSync(large).size;
    expect(size).toBeGreaterThan(2 * PART_BYTES);
    expect(fake.count('POST', /^\/video-upload\//) - before).toBe(Math.ceil(size / PART_BYTES));
    expect(fake.received(step.ref).equals(fs.readFileSync(large))).toBe(true);
  });

  it('answers pending while the platform processes, then ready', async () => {
    fake.processingChecks = 2;
    const post = testPost('socialnet', { content: 'slow' });
    const step = await connector.publish(account(), post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('expected pending');
    for (let i = 0; i < 2; i++) {
      const checked = await connector.check(account(), step.ref);
      expect(checked.state).toBe('pending');
      if (checked.state === 'pending') expect(checked.checkAfterMs).toBeGreaterThanOrEqual(1000);
    }
    expect(await connector.check(account(), step.ref)).toEqual({ state: 'ready' });
    expect((await connector.finalize(account(), post, step.ref)).platformPostId).toBe(step.ref);
    fake.processingChecks = 0;
  });

  it("judges the platform's errors: rate limit, refusal, expired and deauthorised", async () => {
    fake.failNext('retry');
    const limited = await refusal(connector.fetchFollowers(account()), 'retry');
    // estimated_time_to_regain_access is in minutes
    expect(limited.retryAfterMs).toBe(120_000);
    expect(limited.message).toContain('too many calls to this Page account');

    fake.failNext('bad_request');
    const refused = await refusal(connector.publish(account(), testPost('socialnet', { content: 'x' }), mediaOf(small)), 'bad_request');
    expect(refused.message).toContain('The reel must be between 3 and 90 seconds long.');

    fake.failNext('reauthorize');
    await refusal(connector.fetchPostMetrics(account(), fake.posts[0].id), 'reauthorize');
    // a token the platform cannot parse, which it quotes back
    const bogus = `EAA${'x'.repeat(40)}`;
    tokensSeen.add(bogus);
    await refusal(connector.fetchFollowers(testAccount('socialnet', { ...page, accessToken: bogus }, { externalId: POSTING_PAGE.id })), 'reauthorize');
    fake.failNext('disconnected');
    const gone = await refusal(connector.fetchFollowers(account()), 'disconnected');
    expect(gone.message).toContain('has not authorized application');
  });

  it('answers an expired Page token as reauthorize, and its refresh too', async () => {
    fake.expireAccessTokens();
    await refusal(connector.publish(account(), testPost('socialnet', { content: 'x' }), mediaOf(small)), 'reauthorize');
    await refusal(socialnetPlatform.refresh!(http, settings, page), 'reauthorize');
    ({ page } = await connect());
  });

  it('resumes an upload cut mid-way where the platform stopped, and a re-run after publishing makes no second reel', async () => {
    const post = testPost('socialnet', { content: 'survives a crash' });
    const cutAt = PART_BYTES + 1000;
    // the worker's read of the render fails part-way, as a killed worker's would
    await expect(connector.publish(account(), post, mediaOf(large, { cutAt }))).rejects.toThrow();
    const videoId = post.progress!.videoId as string;
    expect(fake.received(videoId).length).toBe(PART_BYTES);

    const reels = fake.posts.length;
    const finishes = fake.finishes;
    const sessions = fake.count('POST', videoRoute) - finishes;
    const step = await connector.publish(account(), post, mediaOf(large));
    expect(step).toMatchObject({ state: 'pending', ref: videoId });
    // no new upload session: the saved one resumed, then was finished
    expect(fake.count('POST', videoRoute) - fake.finishes).toBe(sessions);
    expect(fake.received(videoId).equals(fs.readFileSync(large))).toBe(true);
    expect(fake.finishes).toBe(finishes + 1);

    expect(await connector.check(account(), videoId)).toEqual({ state: 'ready' });
    const done = await connector.finalize(account(), post, videoId);
    expect(fake.posts.length).toBe(reels + 1);

    // killed after the platform published, before the delivery saved it: the same reel again
    const again = await connector.publish(account(), post, mediaOf(large));
    expect(again).toMatchObject({ state: 'pending', ref: videoId });
    expect(await connector.finalize(account(), post, videoId)).toEqual(done);

    // and a re-run that lost the saved finish asks the platform, which says the reel is out
    post.progress = { videoId, uploadUrl: post.progress!.uploadUrl };
    expect(await connector.publish(account(), post, mediaOf(large))).toMatchObject({ state: 'pending', ref: videoId });
    expect(await connector.finalize(account(), post, videoId)).toEqual(done);
    expect(fake.posts.length).toBe(reels + 1);
    expect(fake.finishes).toBe(finishes + 1);
    expect(fake.count('POST', videoRoute) - fake.finishes).toBe(sessions);
  });

  it("reads a reel's metrics and the Page's followers", async () => {
    const metrics = await connector.fetchPostMetrics(account(), fake.posts[0].id);
    const likes = Object.values(SOCIALNET_INSIGHTS.post_video_likes_by_reaction_type).reduce((a, b) => a + b, 0);
    expect(metrics).toEqual({
      views: SOCIALNET_INSIGHTS.blue_reels_play_count,
      likes,
      comments: SOCIALNET_INSIGHTS.post_video_social_actions.COMMENT,
      shares: SOCIALNET_INSIGHTS.post_video_social_actions.SHARE,
      impressions: 0,
      reach: 0,
      clicks: 0,
    });
    expect(await connector.fetchFollowers(account())).toBe(POSTING_PAGE.followers);
    expect(reelUrl('42')).toBe('https://www.facebook.com/reel/42');
  });

  it('never puts a token in an error message', () => {
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect(tokensSeen.size).toBeGreaterThan(4);
    for (const e of errors) for (const token of tokensSeen) expect(e.message).not.toContain(token);
  });
});
