/**
 * The photoshare connector against its platform's imitation (test/fakes/photoshare.ts),
 * over real HTTP, with real MP4s: connecting an account, publishing reels and
 * stories through resumable containers, the four kinds of failure, crashes
 * and re-runs that end in exactly one post, insights and followers.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformHttp } from '../../src/platforms/http.js';
import { authorizeUrl, pkcePair } from '../../src/platforms/oauth-tokens.js';
import { CHUNK_BYTES, PHOTOSHARE_SCOPES, photosharePlatform } from '../../src/platforms/photoshare.js';
import type { ConnectedAccount, PlatformConnector, PlatformError, PlatformHttp, PlatformSettings, TokenSet } from '../../src/platforms/types.js';
import { startPlatformFake, type PhotoshareFake } from '../fakes/photoshare.js';
import { largeMp4, mediaOf, smallMp4, testAccount, testPost } from '../support/platforms.js';

const redirectUri = 'https://api.example.test/v1/platforms/photoshare/callback';
const UPLOADS = /^\/ig-api-upload\//;

interface Platform {
  fake: PhotoshareFake;
  http: PlatformHttp;
  settings: PlatformSettings;
  connector: PlatformConnector;
}

async function platform(): Promise<Platform> {
  const fake = await startPlatformFake({ redirectUri });
  const http = createPlatformHttp('photoshare', fake.url);
  const settings = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
  return { fake, http, settings, connector: photosharePlatform.connector(http, settings) };
}

/** The whole connection: consent, code, long-lived token, the professional account. */
async function connect({ fake, http, settings }: Platform): Promise<{ tokens: TokenSet; account: ConnectedAccount }> {
  const res = await fetch(authorizeUrl(http, photosharePlatform.oauth, settings, { redirectUri, state: 'state-1' }), { redirect: 'manual' });
  expect(res.status).toBe(302);
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const tokens = await photosharePlatform.exchangeCode!(http, settings, { code, redirectUri });
  const who = await photosharePlatform.identify(http, settings, tokens);
  const full: TokenSet = { ...tokens, extra: { ...tokens.extra, ...who.extra } };
  expect(who.externalId).toBe(fake.igUserId);
  return { tokens: full, account: testAccount('photoshare', full, { externalId: who.externalId, followers: who.followers }) };
}

describe('photoshare', () => {
  let main: Platform;
  let account: ConnectedAccount;
  let small: string;
  let large: string;
  const messages: string[] = [];
  const fakes: PhotoshareFake[] = [];

  /** The failure a call ends in; its message is kept to check that no token is in it. */
  async function failure(call: Promise<unknown>): Promise<PlatformError> {
    const err = await call.then(
      () => {
        throw new Error('expected the call to fail');
      },
      (e: unknown) => e as PlatformError,
    );
    messages.push(err.message);
    return err;
  }

  beforeAll(async () => {
    [main, small, large] = await Promise.all([platform(), smallMp4(), largeMp4()]);
    fakes.push(main.fake);
    ({ account } = await connect(main));
  });

  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
  });

  it('connects an account: the consent URL, the redirect with a code, a long-lived token, the professional account', async () => {
    const { fake, http, settings } = main;
    // the web flow takes no PKCE: a challenge offered is left out
    const url = new URL(authorizeUrl(http, photosharePlatform.oauth, settings, { redirectUri, state: 'xyz', codeChallenge: pkcePair().challenge }));
    expect(url.origin + url.pathname).toBe(`${fake.url}/v26.0/dialog/oauth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: PHOTOSHARE_SCOPES.join(','),
      state: 'xyz',
    });

    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('xyz');
    const code = back.searchParams.get('code')!;

    const exchanges = fake.count('GET', '/v26.0/oauth/access_token');
    const tokens = await photosharePlatform.exchangeCode!(http, settings, { code, redirectUri });
    // the code's short-lived token, then its exchange for a long-lived one (about 60 days)
    expect(fake.count('GET', '/v26.0/oauth/access_token') - exchanges).toBe(2);
    expect(Date.parse(tokens.expiresAt!) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    expect(tokens.refreshToken).toBeUndefined();

    expect(await photosharePlatform.identify(http, settings, tokens)).toEqual({
      externalId: fake.igUserId,
      handle: fake.username,
      isPrivate: false,
      followers: fake.followers,
      extra: { igUserId: fake.igUserId, pageId: fake.pageId, username: fake.username },
    });

    // a code is good once
    const reused = await failure(photosharePlatform.exchangeCode!(http, settings, { code, redirectUri }));
    expect(reused.kind).toBe('reauthorize');
    expect(reused.message).toContain('This authorization code has been used.');

    // the dialog refuses a redirect URI the app has not registered, and unknown permissions
    const elsewhere = await fetch(authorizeUrl(http, photosharePlatform.oauth, settings, { redirectUri: 'https://evil.example/cb', state: 's' }), {
      redirect: 'manual',
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('URL blocked');
    const scopes = await fetch(authorizeUrl(http, { ...photosharePlatform.oauth, scopes: ['publish_everywhere'] }, settings, { redirectUri, state: 's' }), {
      redirect: 'manual',
    });
    expect(await scopes.text()).toContain('Invalid Scopes: publish_everywhere');
  });

  it('refreshes by exchanging the long-lived token; an expired or revoked one is refused as reauthorize', async () => {
    const p = await platform();
    fakes.push(p.fake);
    const { tokens, account: own } = await connect(p);
    const renewed = await photosharePlatform.refresh!(p.http, p.settings, tokens);
    expect(renewed.accessToken).not.toBe(tokens.accessToken);
    expect(Date.parse(renewed.expiresAt!) - Date.now()).toBeGreaterThan(59 * 86_400_000);
    expect(renewed.extra).toEqual(tokens.extra);
    expect(await p.connector.fetchFollowers({ ...own, credentials: renewed })).toBe(p.fake.followers);

    p.fake.expireAccessTokens();
    const expired = await failure(p.connector.fetchFollowers({ ...own, credentials: renewed }));
    expect(expired.kind).toBe('reauthorize');
    expect(expired.message).toContain('Session has expired');
    expect((await failure(photosharePlatform.refresh!(p.http, p.settings, renewed))).kind).toBe('reauthorize');

    const again = await connect(p);
    p.fake.revokeRefreshTokens();
    const revoked = await failure(photosharePlatform.refresh!(p.http, p.settings, again.tokens));
    expect(revoked.kind).toBe('reauthorize');
    expect(revoked.message).toContain('changed their password');
  });

  it('publishes a reel: container, upload, processing, publish, first comment, an address to open; finalizing again gives the same post', async () => {
    const { fake, connector } = main;
    const post = testPost('photoshare', { format: 'reel', content: 'Launch day #clips', firstComment: 'The full video is on the profile' });
    const step = await connector.publish(account, post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('a reel is processed before it is published');
    // the container was saved before a byte moved
    expect(post.saved[0]).toMatchObject({ containerId: step.ref, uploaded: 0 });
    expect(step.checkAfterMs).toBeGreaterThanOrEqual(5_000);

    expect(await connector.check(account, step.ref)).toEqual({ state: 'ready' });
    const published = await connector.finalize(account, post, step.ref);
    const made = fake.posts.at(-1)!;
    expect(published.platformPostId).toBe(made.id);
    expect(published.platformPostUrl).toMatch(/^https:\/\/www\.[a-z]+\.com\/reel\/[\w-]{11}\/$/);
    expect(made.text).toBe('Launch day #clips');
    expect(made.video.equals(fs.readFileSync(small))).toBe(true);
    expect(fake.comments(made.id)).toEqual([expect.objectContaining({ text: 'The full video is on the profile', username: fake.username })]);

    const publishes = fake.count('POST', /\/media_publish$/);
    expect(await connector.finalize(account, post, step.ref)).toEqual(published);
    expect(fake.count('POST', /\/media_publish$/)).toBe(publishes);
    expect(fake.comments(made.id)).toHaveLength(1);
  });

  it('publishes a story, which takes no caption and no comment; a story with either is refused before any upload', async () => {
    const { fake, connector } = main;
    const post = testPost('photoshare', { format: 'story' });
    const step = await connector.publish(account, post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('a story is processed before it is published');
    expect(fake.containers().at(-1)).toMatchObject({ id: step.ref, mediaType: 'STORIES' });
    const published = await connector.finalize(account, post, step.ref);
    expect(published.platformPostUrl).toMatch(
      new RegExp(`^https://www\\.[a-z]+\\.com/stories/${fake.username.replace('.', '\\.')}/${published.platformPostId}/$`),
    );
    expect(fake.posts.at(-1)!.video.equals(fs.readFileSync(small))).toBe(true);

    const containers = fake.containers().length;
    const captioned = await failure(connector.publish(account, testPost('photoshare', { format: 'story', content: 'hello' }), mediaOf(small)));
    expect(captioned.kind).toBe('bad_request');
    const commented = await failure(connector.publish(account, testPost('photoshare', { format: 'story', firstComment: 'hi' }), mediaOf(small)));
    expect(commented.message).toContain('a story takes no comments');
    expect(fake.containers()).toHaveLength(containers);
  });

  it('uploads a 12 MB render in chunks, each sent at the offset the platform has and acknowledged before the next', async () => {
    const { fake, connector } = main;
    const size = fs.statSync(large).size;
    const chunks = Math.ceil(size / CHUNK_BYTES);
    expect(chunks).toBeGreaterThanOrEqual(3);
    const uploads = fake.count('POST', UPLOADS);
    const post = testPost('photoshare', { format: 'reel', content: 'In chunks' });
    const step = await connector.publish(account, post, mediaOf(large));
    if (step.state !== 'pending') throw new Error('pending expected');
    expect(fake.count('POST', UPLOADS) - uploads).toBe(chunks);
    // the offset saved after each acknowledged chunk
    expect(post.saved.map((p) => p.uploaded)).toEqual([0, ...Array.from({ length: chunks }, (_, i) => Math.min((i + 1) * CHUNK_BYTES, size))]);
    const published = await connector.finalize(account, post, step.ref);
    expect(fake.posts.find((p) => p.id === published.platformPostId)!.video.equals(fs.readFileSync(large))).toBe(true);
  });

  it('waits for a platform that processes slowly: pending with a sensible wait, then ready; publishing early is a retry', async () => {
    const { fake, connector } = main;
    fake.processingChecks = 3;
    try {
      const post = testPost('photoshare', { format: 'reel', content: 'Slowly' });
      const step = await connector.publish(account, post, mediaOf(small));
      if (step.state !== 'pending') throw new Error('pending expected');
      const first = await connector.check(account, step.ref);
      if (first.state !== 'pending') throw new Error('a slow platform is still processing');
      expect(first.checkAfterMs).toBeGreaterThanOrEqual(5_000);
      expect(first.checkAfterMs).toBeLessThanOrEqual(120_000);
      const early = await failure(connector.finalize(account, post, step.ref));
      expect(early.kind).toBe('retry');
      expect((await connector.check(account, step.ref)).state).toBe('pending');
      expect(await connector.check(account, step.ref)).toEqual({ state: 'ready' });
      const published = await connector.finalize(account, post, step.ref);
      expect(fake.posts.filter((p) => p.id === published.platformPostId)).toHaveLength(1);
    } finally {
      fake.processingChecks = 0;
    }
  });

  it("judges the platform's errors: throttling waits as told, a refusal keeps its words, an expired session reauthorizes, a removed app disconnects", async () => {
    const { fake, connector } = main;
    const reel = () => testPost('photoshare', { format: 'reel', content: 'Errors' });

    fake.failNext('retry');
    const throttled = await failure(connector.publish(account, reel(), mediaOf(small)));
    expect(throttled.kind).toBe('retry');
    // estimated_time_to_regain_access: 2 minutes
    expect(throttled.retryAfterMs).toBe(120_000);
    expect(throttled.message).toContain('too many calls');

    fake.failNext('bad_request');
    const refused = await failure(connector.publish(account, reel(), mediaOf(small)));
    expect(refused.kind).toBe('bad_request');
    expect(refused.message).toContain('The video format is not supported. Please check spec for supported streams format');

    fake.failNext('reauthorize');
    expect((await failure(connector.fetchFollowers(account))).kind).toBe('reauthorize');

    fake.failNext('disconnected');
    const gone = await failure(connector.fetchPostMetrics(account, fake.posts[0].id));
    expect(gone.kind).toBe('disconnected');
    expect(gone.message).toContain('has not authorized application');
  });

  it('resumes an upload cut short at the offset it saved, in the same container, and ends in one post', async () => {
    const { fake, connector } = main;
    const size = fs.statSync(large).size;
    const post = testPost('photoshare', { format: 'reel', content: 'Cut short' });
    const died = await connector.publish(account, post, mediaOf(large, { cutAt: Math.floor(CHUNK_BYTES * 1.5) })).catch((e: Error) => e);
    expect((died as Error).message).toMatch(/died mid-upload|the video ended at/);
    const container = fake.containers().at(-1)!;
    expect(post.progress).toMatchObject({ containerId: container.id, uploaded: CHUNK_BYTES });
    expect(container.received).toBe(CHUNK_BYTES);

    const uploads = fake.count('POST', UPLOADS);
    const posts = fake.posts.length;
    const step = await connector.publish(account, post, mediaOf(large));
    expect(step).toMatchObject({ state: 'pending', ref: container.id });
    expect(fake.count('POST', UPLOADS) - uploads).toBe(Math.ceil((size - CHUNK_BYTES) / CHUNK_BYTES));
    expect(fake.containers().at(-1)).toMatchObject({ id: container.id, received: size });

    const published = await connector.finalize(account, post, container.id);
    expect(fake.posts.length - posts).toBe(1);
    expect(fake.posts.at(-1)!).toMatchObject({ id: published.platformPostId });
    expect(fake.posts.at(-1)!.video.equals(fs.readFileSync(large))).toBe(true);
  });

  it('after a crash between the platform publishing (or commenting) and our saving, finalizing again gives the same post and one comment', async () => {
    const { fake, connector } = main;
    const content = { format: 'reel', content: 'Crash after publish', firstComment: 'Only once' };
    const post = testPost('photoshare', content);
    const step = await connector.publish(account, post, mediaOf(small));
    if (step.state !== 'pending') throw new Error('pending expected');

    /** A post whose progress dies the first time `field` is saved, as a worker killed right then. */
    const dyingAt = (field: string, from: Record<string, unknown>) => {
      const p = testPost('photoshare', content);
      p.progress = from;
      const save = p.saveProgress.bind(p);
      let died = false;
      p.saveProgress = async (next) => {
        if (next[field] !== undefined && !died) {
          died = true;
          throw new Error('the worker died');
        }
        await save(next);
      };
      return p;
    };

    const publishes = fake.count('POST', /\/media_publish$/);
    const first = dyingAt('mediaId', post.progress!);
    await expect(connector.finalize(account, first, step.ref)).rejects.toThrow('the worker died');
    expect(fake.count('POST', /\/media_publish$/) - publishes).toBe(1);
    const mediaId = fake.posts.at(-1)!.id;
    expect(first.progress).not.toHaveProperty('mediaId');

    // the re-run finds the post the container became, and this time dies once the comment is out
    expect(await connector.check(account, step.ref)).toEqual({ state: 'ready' });
    const second = dyingAt('commentId', first.progress!);
    await expect(connector.finalize(account, second, step.ref)).rejects.toThrow('the worker died');
    expect(second.progress).toMatchObject({ mediaId, commenting: true });
    expect(fake.comments(mediaId)).toHaveLength(1);

    const third = testPost('photoshare', content);
    third.progress = second.progress;
    const published = await connector.finalize(account, third, step.ref);
    expect(published.platformPostId).toBe(mediaId);
    expect(fake.count('POST', /\/media_publish$/) - publishes).toBe(1);
    expect(fake.posts.filter((p) => p.text === 'Crash after publish')).toHaveLength(1);
    expect(fake.comments(mediaId)).toEqual([expect.objectContaining({ text: 'Only once' })]);
    expect(third.progress).toMatchObject({ mediaId, commentId: fake.comments(mediaId)[0].id });
  });

  it("reads a post's insights and the account's followers", async () => {
    const { fake, connector } = main;
    const reel = fake.posts.find((p) => p.text === 'Launch day #clips')!;
    const i = fake.insights(reel.id);
    expect(await connector.fetchPostMetrics(account, reel.id)).toEqual({
      views: i.views,
      likes: i.likes,
      comments: i.comments,
      shares: i.shares,
      impressions: i.views,
      reach: i.reach,
      clicks: 0,
    });
    expect(i.comments).toBe(1);

    const story = fake.posts.find((p) => p.text === '')!;
    const s = fake.insights(story.id);
    expect(await connector.fetchPostMetrics(account, story.id)).toMatchObject({
      views: s.views,
      likes: 0,
      comments: s.replies,
      shares: s.shares,
      reach: s.reach,
    });

    fake.followers = 5000;
    expect(await connector.fetchFollowers(account)).toBe(5000);
  });

  it('puts no access token in any error message', () => {
    expect(messages.length).toBeGreaterThanOrEqual(10);
    const tokens = fakes.flatMap((f) => f.issuedTokens());
    for (const message of messages) for (const token of tokens) expect(message).not.toContain(token);
  });
});
