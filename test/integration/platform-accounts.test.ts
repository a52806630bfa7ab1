import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformKey } from '../../src/catalog/platforms.js';
import { loadConfig } from '../../src/config.js';
import { DEFINITIONS } from '../../src/platforms/index.js';
import { vaultOf } from '../../src/platforms/session.js';
import { syncAnalytics } from '../../src/publishing/analytics.js';
import { createProfile } from '../../src/publishing/profiles.js';
import type { MicroblogFake } from '../fakes/microblog.js';
import type { PhotoshareFake } from '../fakes/photoshare.js';
import type { ProsocialFake } from '../fakes/prosocial.js';
import type { PlatformFake } from '../fakes/server.js';
import type { ShortvideoFake } from '../fakes/shortvideo.js';
import { SOCIALNET_PAGES } from '../fakes/socialnet.js';
import type { VideoshareFake } from '../fakes/videoshare.js';
import { createUser, gql, logLines, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';
import { SAMPLE_POSTS } from '../support/publishing.js';

// Real accounts through the whole service: each platform's OAuth flow from the
// authorisation URL to the callback, a rendered export published through every
// connector to its platform's imitation (test/fakes/), tokens refreshed, a
// refused refresh disconnecting the account, and disconnection by the user.

const KEYS = Object.keys(DEFINITIONS) as PlatformKey[];
const RETURN_ORIGIN = 'https://app.example';
let app: TestApp;
let files: FileServer;
const fakes = {} as Record<PlatformKey, PlatformFake>;
const db = () => app.runtime.app.db;
const config = () => app.runtime.app.config;
/** Every line the service logs, at info and above. */
const log = logLines();

beforeAll(async () => {
  const fx = await mediaFixtures();
  [app, files] = await Promise.all([
    startTestApp({
      env: {
        TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
        RENDER_PRESET: 'ultrafast',
        PUBLISH_RETRY_BASE_MS: '50',
        PUBLISH_CHECK_MAX_MS: '100',
        LOG_LEVEL: 'info',
        // the app the browser returns to is elsewhere than the service
        OAUTH_RETURN_ORIGINS: RETURN_ORIGIN,
      },
      logDestination: log.destination,
    }),
    serveFolder(fx.dir),
  ]);
  for (const key of KEYS) {
    const { startPlatformFake } = (await import(`../fakes/${key}.ts`)) as { startPlatformFake: (o: { redirectUri: string }) => Promise<PlatformFake> };
    const fake = await startPlatformFake({ redirectUri: `${app.url}/oauth/${key}/callback` });
    fakes[key] = fake;
    config().platforms[key] = { clientId: fake.clientId, clientSecret: fake.clientSecret, baseUrl: fake.url };
  }
});
afterAll(async () => {
  await Promise.all(Object.values(fakes).map((f) => f.close()));
  await files?.close();
  await app?.stop();
});

interface Owner extends TestUser {
  profileId: string;
}

async function owner(credits = 50): Promise<Owner> {
  const user = await createUser(app, { apiCredits: credits, apiPublishing: true });
  const profile = await createProfile(db(), user.id, { name: 'Brand', primary: true });
  return { ...user, profileId: profile.id };
}

const startConnect = (o: Owner, platform: string, json: Record<string, unknown> = {}, profileId = o.profileId) =>
  request(app, 'POST', `/v1/profiles/${profileId}/accounts/${platform}/connect`, { key: o.key, json });

/** The user's consent: the platform's page redirects to the callback at once; the callback's answer. */
async function consent(authorizationUrl: string) {
  const atPlatform = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(atPlatform.status, await atPlatform.clone().text()).toBe(302);
  const back = atPlatform.headers.get('location')!;
  return { back, res: await fetch(back, { redirect: 'manual' }) };
}

async function connect(o: Owner, platform: PlatformKey) {
  const r = await startConnect(o, platform);
  expect(r.status).toBe(200);
  const { res } = await consent(r.body.authorizationUrl);
  expect(res.status, await res.clone().text()).toBe(200);
  return db().socialAccount.findUniqueOrThrow({ where: { profileId_platform: { profileId: o.profileId, platform } } });
}

let exported: Promise<{ projectId: string; bytes: Buffer }> | undefined;

/** One project of the user's, transcribed and rendered by the service, and the bytes of its render. */
async function exportedProject(o: Owner) {
  const r = await request(app, 'POST', '/v1/projects', {
    key: o.key,
    json: { title: 'Launch', language: 'en', videoUrl: files.url('talk.mp4'), autoRender: false },
  });
  await waitProject(app, o.key, r.body.id, (p) => p.status === 'completed');
  await request(app, 'POST', `/v1/projects/${r.body.id}/export`, { key: o.key, json: { width: 180, height: 320, fps: 15 } });
  const done = await waitProject(app, o.key, r.body.id, (p) => p.status === 'completed' && p.downloadUrl);
  const bytes = Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer());
  return { projectId: r.body.id as string, bytes };
}

let round = 0;

/** A publish of the sample posts, their texts made new each time: platforms refuse the same text twice as a duplicate. */
function publish(o: Owner, projectId: string, platforms: readonly string[], extra: Record<string, Record<string, unknown>> = {}) {
  round += 1;
  const fresh = (post: Record<string, string>) => Object.fromEntries(Object.entries(post).map(([k, v]) => [k, k === 'format' ? v : `${v} #${round}`]));
  return request(app, 'POST', `/v1/projects/${projectId}/publish`, {
    key: o.key,
    json: { platforms: Object.fromEntries(platforms.map((k) => [k, { ...fresh(SAMPLE_POSTS[k]), ...extra[k] }])) },
  });
}

async function settled(o: Owner, id: string, ms = 60_000) {
  for (const end = Date.now() + ms; ; ) {
    const r = await request(app, 'GET', `/v1/projects/published/${id}`, { key: o.key });
    if (r.status === 200 && r.body.posts.every((x: { publishStatus: string }) => ['published', 'failed'].includes(x.publishStatus))) return r.body;
    if (Date.now() > end) throw new Error(`publication ${id} not delivered: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

const credits = async (o: TestUser) => (await db().user.findUniqueOrThrow({ where: { id: o.id } })).apiCredits;

describe('platforms and account connection', () => {
  it('GET /v1/platforms and the platforms query say which platforms can connect, with the redirect URI and scopes to register', async () => {
    const o = await owner();
    const saved = config().platforms.prosocial;
    config().platforms.prosocial = { ...saved, clientId: undefined };
    try {
      const r = await request(app, 'GET', '/v1/platforms', { key: o.key });
      expect(r.status).toBe(200);
      expect(r.body.data.map((p: { key: string }) => p.key)).toEqual(['videoshare', 'shortvideo', 'photoshare', 'microblog', 'socialnet', 'prosocial']);
      const prosocial = r.body.data.find((p: { key: string }) => p.key === 'prosocial');
      expect(prosocial).toMatchObject({
        available: false,
        reason: expect.stringContaining('PROSOCIAL_CLIENT_ID'),
        redirectUri: `${app.url}/oauth/prosocial/callback`,
      });
      for (const key of KEYS.filter((k) => k !== 'prosocial')) {
        expect(r.body.data.find((p: { key: string }) => p.key === key)).toMatchObject({
          available: true,
          reason: null,
          scopes: [...DEFINITIONS[key]!.oauth.scopes],
        });
      }
      // an unconfigured platform is refused at once, not after the user's consent
      const refused = await startConnect(o, 'prosocial');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('PROSOCIAL_CLIENT_ID') });
      const q = await gql(app, o.key, '{ platforms { key available reason } }');
      expect(q.body.data.platforms.find((p: { key: string }) => p.key === 'prosocial')).toMatchObject({ available: false });
    } finally {
      config().platforms.prosocial = saved;
    }
  });

  it("refuses a bad platform, another user's profile and a bad returnUrl, writing nothing", async () => {
    const [o, other] = [await owner(), await owner()];
    const bad = await startConnect(o, 'myspace');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'platform' }] });
    expect((await startConnect(o, 'videoshare', {}, other.profileId)).body).toMatchObject({ error: 'NOT_FOUND', message: 'Profile not found' });
    expect((await startConnect(o, 'videoshare', {}, 'not-a-uuid')).status).toBe(404);
    const url = await startConnect(o, 'videoshare', { returnUrl: 'javascript:alert(1)' });
    expect(url.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'returnUrl' }] });
    expect(await db().oAuthAttempt.count({ where: { userId: o.id } })).toBe(0);
  });

  it.each(KEYS)('%s: consent and callback connect the account with its identity and followers; its tokens are sealed at rest', async (key) => {
    const o = await owner();
    const r = await startConnect(o, key);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      authorizationUrl: expect.stringMatching(/^http/),
      redirectUri: `${app.url}/oauth/${key}/callback`,
      expiresAt: expect.any(String),
    });
    const { back, res } = await consent(r.body.authorizationUrl);
    expect(back.startsWith(`${app.url}/oauth/${key}/callback?`)).toBe(true);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`Your ${key} account is connected`);
    const profiles = await request(app, 'GET', '/v1/profiles', { key: o.key });
    const [account] = profiles.body.data[0].accounts;
    expect(account).toMatchObject({ platform: key, connector: key, status: 'connected', statusReason: null, followers: expect.any(Number) });
    const row = await db().socialAccount.findUniqueOrThrow({ where: { id: account.id } });
    expect(row.tokens).toMatch(/^v1\./);
    // no token the platform issued is readable in the row
    expect(JSON.stringify(row)).not.toMatch(/access|refresh|Bearer/i);
  });

  it('the state is checked: used once, signed, for its platform, unexpired; a refusal at the platform connects nothing', async () => {
    const o = await owner();
    const key = KEYS[0];
    const started = await startConnect(o, key, { returnUrl: 'https://app.example/settings?tab=accounts' });
    const { back, res } = await consent(started.body.authorizationUrl);
    expect(res.status).toBe(303);
    const landed = new URL(res.headers.get('location')!);
    expect(landed.origin + landed.pathname).toBe('https://app.example/settings');
    expect(landed.searchParams.get('tab')).toBe('accounts');
    expect(landed.searchParams.get('connected')).toBe(key);
    const accountId = landed.searchParams.get('accountId');
    // the same redirect again: the attempt is spent
    const again = await fetch(back, { redirect: 'manual' });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('already used or has expired');
    // a state with its signature changed, or taken to another platform's callback
    const url = new URL(back);
    const state = url.searchParams.get('state')!;
    url.searchParams.set('state', `${state.slice(0, -2)}xx`);
    const forged = await fetch(url, { redirect: 'manual' });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('invalid or has expired');
    const elsewhere = new URL(back.replace(`/oauth/${key}/`, `/oauth/${KEYS[1]}/`));
    expect((await fetch(elsewhere, { redirect: 'manual' })).status).toBe(400);
    // an attempt past its time
    const late = await startConnect(o, key);
    await db().oAuthAttempt.updateMany({ where: { userId: o.id, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await consent(late.body.authorizationUrl)).res.status).toBe(400);
    // the user declines on the platform's page
    const declined = await startConnect(o, KEYS[1], { returnUrl: 'https://app.example/done' });
    const deny = new URL(`${app.url}/oauth/${KEYS[1]}/callback`);
    deny.searchParams.set('error', 'access_denied');
    deny.searchParams.set('error_description', 'The user denied the request');
    deny.searchParams.set(
      'state',
      new URL((await fetch(declined.body.authorizationUrl, { redirect: 'manual' })).headers.get('location')!).searchParams.get('state')!,
    );
    const denied = await fetch(deny, { redirect: 'manual' });
    expect(new URL(denied.headers.get('location')!).searchParams.get('error')).toContain('The user denied the request');
    const accounts = await db().socialAccount.findMany({ where: { profileId: o.profileId } });
    expect(accounts.map((a) => [a.platform, a.id])).toEqual([[key, accountId]]);
  });

  it('a link already used or expired shows the page on every replay, never a redirect to its returnUrl', async () => {
    const o = await owner();
    const key = KEYS[2];
    const returnUrl = `${RETURN_ORIGIN}/settings`;
    const started = await startConnect(o, key, { returnUrl });
    const { back, res } = await consent(started.body.authorizationUrl);
    expect(res.status).toBe(303);
    const pageOnly = async (replay: Response) => {
      expect(replay.status).toBe(400);
      expect(replay.headers.get('location')).toBeNull();
      expect(replay.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await replay.text()).toContain('already used or has expired');
    };
    for (let i = 0; i < 3; i++) await pageOnly(await fetch(back, { redirect: 'manual' }));
    // an attempt past its time whose state is still signed as unexpired
    const late = await startConnect(o, key, { returnUrl });
    await db().oAuthAttempt.updateMany({ where: { userId: o.id, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await pageOnly((await consent(late.body.authorizationUrl)).res);
  });

  it('a returnUrl with a user name or password, on another origin, or too long once percent-encoded is refused through either door, writing nothing', async () => {
    const o = await owner();
    const viaGraphQL = (returnUrl: string) =>
      gql(app, o.key, 'mutation($p: ID!, $k: PlatformKey!, $r: String) { connectAccount(profileId: $p, platform: $k, returnUrl: $r) { authorizationUrl } }', {
        p: o.profileId,
        k: KEYS[0],
        r: returnUrl,
      });
    // 1792 characters once percent-encoded (é is %C3%A9), 322 as written
    const longest = `${RETURN_ORIGIN}/back?x=${'é'.repeat(294)}a`;
    const refused: Array<[string, RegExp]> = [
      [`https://user:pass@app.example/settings`, /user name or password/],
      [`https://user@app.example/settings`, /user name or password/],
      ['https://evil.example/settings', /origin this service returns to \(OAUTH_RETURN_ORIGINS\): https:\/\/app\.example$/],
      [`${RETURN_ORIGIN}/${'é'.repeat(2000)}`, /at most 1792 characters once percent-encoded/],
      [`${longest}a`, /at most 1792 characters once percent-encoded/],
    ];
    for (const [returnUrl, message] of refused) {
      const details = [{ field: 'returnUrl', message: expect.stringMatching(message) }];
      const rest = await startConnect(o, KEYS[0], { returnUrl });
      expect(rest.status, returnUrl).toBe(400);
      expect(rest.body, returnUrl).toMatchObject({ error: 'VALIDATION_ERROR', details });
      const graphql = await viaGraphQL(returnUrl);
      expect(graphql.body.errors?.[0].extensions, returnUrl).toMatchObject({ code: 'VALIDATION_ERROR', details });
    }
    expect(await db().oAuthAttempt.count({ where: { userId: o.id } })).toBe(0);
    expect((await startConnect(o, KEYS[0], { returnUrl: longest })).status).toBe(200);
    expect((await viaGraphQL(longest)).body.data.connectAccount.authorizationUrl).toMatch(/^http/);
  });

  it('OAUTH_RETURN_ORIGINS takes origins, as browsers write them, and nothing else', () => {
    expect(loadConfig({ OAUTH_RETURN_ORIGINS: 'https://App.example, http://127.0.0.1:3000/,https://b.example:443' }).oauthReturnOrigins).toEqual([
      'https://app.example',
      'http://127.0.0.1:3000',
      'https://b.example',
    ]);
    for (const bad of ['https://app.example/settings', 'app.example', 'ftp://app.example', 'https://u:p@app.example', 'https://app.example?x=1']) {
      expect(() => loadConfig({ OAUTH_RETURN_ORIGINS: bad }), bad).toThrow(/OAUTH_RETURN_ORIGINS must be comma-separated http\(s\) origins/);
    }
  });

  it("without OAUTH_RETURN_ORIGINS a returnUrl must be on PUBLIC_URL's origin", async () => {
    const saved = config().oauthReturnOrigins;
    config().oauthReturnOrigins = undefined;
    try {
      const o = await owner();
      const elsewhere = await startConnect(o, KEYS[0], { returnUrl: `${RETURN_ORIGIN}/settings` });
      expect(elsewhere.body).toMatchObject({
        error: 'VALIDATION_ERROR',
        details: [{ field: 'returnUrl', message: expect.stringMatching(new RegExp(`: ${app.url}$`)) }],
      });
      const here = await startConnect(o, KEYS[0], { returnUrl: `${app.url}/settings` });
      expect(here.status).toBe(200);
      const { res } = await consent(here.body.authorizationUrl);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(new RegExp(`^${app.url}/settings\\?connected=${KEYS[0]}&accountId=`));
    } finally {
      config().oauthReturnOrigins = saved;
    }
  });

  it('the Location sent is at most 2048 characters: the callback adds its parameters to the longest returnUrl, and cuts a long error to fit', async () => {
    const o = await owner();
    const x = `${'é'.repeat(294)}a`;
    const returnUrl = `${RETURN_ORIGIN}/back?x=${x}`;
    const started = await startConnect(o, KEYS[3], { returnUrl });
    const { res } = await consent(started.body.authorizationUrl);
    expect(res.status).toBe(303);
    const connected = res.headers.get('location')!;
    expect(connected.length).toBeLessThanOrEqual(2048);
    expect(Object.fromEntries(new URL(connected).searchParams)).toMatchObject({ x, connected: KEYS[3], accountId: expect.any(String) });

    // the user declines and the platform describes it at length
    const declined = await startConnect(o, KEYS[4], { returnUrl });
    const atPlatform = await fetch(declined.body.authorizationUrl, { redirect: 'manual' });
    const deny = new URL(`${app.url}/oauth/${KEYS[4]}/callback`);
    deny.searchParams.set('error', 'access_denied');
    deny.searchParams.set('error_description', 'ü'.repeat(1000));
    deny.searchParams.set('state', new URL(atPlatform.headers.get('location')!).searchParams.get('state')!);
    const denied = await fetch(deny, { redirect: 'manual' });
    expect(denied.status).toBe(303);
    const location = denied.headers.get('location')!;
    expect(location.length).toBeLessThanOrEqual(2048);
    expect(location.length).toBeGreaterThan(2030);
    const landed = new URL(location).searchParams;
    expect(landed.get('x')).toBe(x);
    expect(landed.get('error')).toMatch(new RegExp(`^The ${KEYS[4]} account was not connected: the platform said "ü+…$`));
  });

  it('a returnUrl whose origin is no longer allowed when the browser comes back gets the page instead of a redirect', async () => {
    const o = await owner();
    const key = KEYS[5];
    const started = await startConnect(o, key, { returnUrl: `${RETURN_ORIGIN}/settings` });
    const saved = config().oauthReturnOrigins;
    config().oauthReturnOrigins = ['https://other.example'];
    try {
      const { res } = await consent(started.body.authorizationUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(`Your ${key} account is connected`);
    } finally {
      config().oauthReturnOrigins = saved;
    }
  });
});

/** What each platform's imitation reports as the account's followers; any JSON value, a string included. */
const followersSaid: Record<PlatformKey, { get(): unknown; set(v: unknown): void }> = {
  videoshare: {
    get: () => (fakes.videoshare as VideoshareFake).subscriberCount,
    set: (v) => ((fakes.videoshare as VideoshareFake).subscriberCount = v as number),
  },
  shortvideo: { get: () => (fakes.shortvideo as ShortvideoFake).followers, set: (v) => ((fakes.shortvideo as ShortvideoFake).followers = v as number) },
  photoshare: { get: () => (fakes.photoshare as PhotoshareFake).followers, set: (v) => ((fakes.photoshare as PhotoshareFake).followers = v as number) },
  microblog: { get: () => (fakes.microblog as MicroblogFake).user.followers, set: (v) => ((fakes.microblog as MicroblogFake).user.followers = v as number) },
  socialnet: { get: () => SOCIALNET_PAGES[1].followers, set: (v) => ((SOCIALNET_PAGES[1] as { followers: unknown }).followers = v) },
  prosocial: {
    get: () => (fakes.prosocial as ProsocialFake).member.followers,
    set: (v) => ((fakes.prosocial as ProsocialFake).member.followers = v as number),
  },
};

/** An HTML page's text as a reader sees it (its character references read). */
const pageText = (html: string) => html.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

describe('what the service keeps and logs of a connection', () => {
  it("a follower count that is not a whole number from 0 to 2147483647 is the platform's bad answer, on every platform: the connection fails saying so, and the sync keeps the last count", async () => {
    const o = await owner();
    const said = Object.fromEntries(KEYS.map((k) => [k, followersSaid[k].get()])) as Record<PlatformKey, unknown>;
    try {
      for (const key of KEYS) {
        for (const bad of ['99999999999999999999', 1e20, 'abc', -5, 2.5]) {
          followersSaid[key].set(bad);
          const { res } = await consent((await startConnect(o, key)).body.authorizationUrl);
          const text = pageText(await res.text());
          expect(res.status, `${key}, ${bad}`).toBe(400);
          expect(text, `${key}, ${bad}`).toMatch(
            new RegExp(`The ${key} account was not connected: ${key}: the account's followers were .+, not a whole number from 0 to 2147483647`),
          );
        }
      }
      expect(await db().socialAccount.count({ where: { profileId: o.profileId } })).toBe(0);
      // the largest count that fits is kept
      for (const key of KEYS) {
        followersSaid[key].set(2_147_483_647);
        expect((await connect(o, key)).followers, key).toBe(2_147_483_647);
      }
      // a bad count at the sync: the account keeps its count, the other accounts are read
      for (const key of KEYS) followersSaid[key].set(key === 'microblog' ? 1e20 : 7);
      const synced = await syncAnalytics(app.runtime.app);
      expect(synced.failedAccounts).toBeGreaterThanOrEqual(1);
      const kept = await db().socialAccount.findMany({ where: { profileId: o.profileId } });
      expect(Object.fromEntries(kept.map((a) => [a.platform, a.followers]))).toEqual(
        Object.fromEntries(KEYS.map((k) => [k, k === 'microblog' ? 2_147_483_647 : 7])),
      );
    } finally {
      for (const key of KEYS) followersSaid[key].set(said[key]);
    }
  });

  it("no log line carries a sealed token, nor the callback's code and state; a failed query's line says what failed without its arguments", async () => {
    const o = await owner();
    const account = await connect(o, 'microblog');
    const callback = log.lines.filter((l) => typeof l.req?.url === 'string' && l.req.url.startsWith('/oauth/microblog/callback'));
    expect(callback.length).toBeGreaterThan(0);
    for (const line of callback) expect(line.req.url).not.toMatch(/[?&](code|state)=/);
    // a query that fails with a token among its arguments, logged as the service logs a fault
    const sealed = vaultOf(config()).seal({ accessToken: 'an-access-token' });
    const err = await db()
      .socialAccount.update({ where: { id: account.id }, data: { tokens: sealed, followers: 1e20 } })
      .catch((e: unknown) => e);
    app.runtime.app.log.error({ err, accountId: account.id }, 'account connection failed');
    const line = log.lines.filter((l) => l.msg === 'account connection failed' && l.accountId === account.id).at(-1);
    expect(line?.err).toMatchObject({
      type: 'PrismaClientValidationError',
      message: expect.stringMatching(/^Invalid `.*socialAccount\.update\(\)` invocation: .*followers/),
    });
    const all = log.lines.map((l) => JSON.stringify(l)).join('\n');
    expect(all).not.toContain(sealed.split('.').at(-1));
    // nor any other sealed value (v1.<key id>.<iv>.<tag>.<data>)
    expect(all).not.toMatch(/v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]{20,}/);
    expect(all).not.toContain(vaultOf(config()).open<{ accessToken: string }>(account.tokens!).accessToken);
  });
});

describe('publishing through the connectors', () => {
  let o: Owner;
  let project: { projectId: string; bytes: Buffer };
  beforeAll(async () => {
    o = await owner();
    for (const key of KEYS) await connect(o, key);
    project = await (exported ??= exportedProject(o));
  }, 120_000);

  it("publishes a rendered export to every platform: one post each, the exact bytes, the platform's ids and URLs", async () => {
    const before = Object.fromEntries(KEYS.map((k) => [k, fakes[k].posts.length]));
    const r = await publish(o, project.projectId, KEYS, { videoshare: { firstComment: 'Links below' }, photoshare: { firstComment: 'Links below' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await settled(o, r.body.id);
    for (const post of done.posts) {
      expect(post, post.platform).toMatchObject({
        publishStatus: 'published',
        error: null,
        platformPostId: expect.any(String),
        platformPostUrl: expect.stringMatching(/^https:\/\//),
      });
      const made = fakes[post.platform as PlatformKey].posts;
      expect(made.length - before[post.platform]).toBe(1);
      expect(made.at(-1)!.id).toBe(post.platformPostId);
      expect(made.at(-1)!.video.equals(project.bytes)).toBe(true);
    }
    expect(await credits(o)).toBe(50 - KEYS.length);

    const sync = await syncAnalytics(app.runtime.app);
    expect(sync.failedPosts).toBe(0);
    expect(sync.failedAccounts).toBe(0);
    const read = await request(app, 'GET', `/v1/projects/published/${r.body.id}`, { key: o.key });
    for (const post of read.body.posts) expect(post.syncStatus, post.platform).toBe('synced');
  });

  it('an expired access token is refreshed and the post goes out', async () => {
    // photoshare renews its long-lived token a week ahead, while it is still valid, and
    // socialnet's page token does not expire: an expired one of theirs means connecting again
    const refreshable = KEYS.filter((k) => k !== 'socialnet' && k !== 'photoshare');
    for (const k of refreshable) fakes[k].expireAccessTokens();
    const r = await publish(o, project.projectId, refreshable);
    const done = await settled(o, r.body.id);
    for (const post of done.posts) expect(post, `${post.platform}: ${post.error}`).toMatchObject({ publishStatus: 'published' });
  });

  it('a refresh the platform refuses disconnects the account: the post fails saying so, its credit comes back, publishing again is 412', async () => {
    const key = 'microblog';
    fakes[key].revokeRefreshTokens();
    fakes[key].expireAccessTokens();
    const before = await credits(o);
    const r = await publish(o, project.projectId, [key]);
    const done = await settled(o, r.body.id);
    expect(done.posts[0]).toMatchObject({ publishStatus: 'failed', error: expect.stringContaining('connect it again') });
    expect(await credits(o)).toBe(before);
    const account = await db().socialAccount.findUniqueOrThrow({ where: { profileId_platform: { profileId: o.profileId, platform: key } } });
    expect(account).toMatchObject({ status: 'disconnected', tokens: null, statusReason: expect.stringContaining('refused') });
    const refused = await publish(o, project.projectId, [key]);
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({
      error: 'PRECONDITION_FAILED',
      details: [{ field: `platforms.${key}`, message: expect.stringContaining('disconnected') }],
    });
    // connecting it again gives the same account back, connected
    const again = await connect(o, key);
    expect(again).toMatchObject({ id: account.id, status: 'connected', statusReason: null });
  });

  it('disconnects through REST and GraphQL: posts are kept, publishing is 412 until connected again', async () => {
    const [a, b] = KEYS.slice(-2);
    const rest = await request(app, 'DELETE', `/v1/profiles/${o.profileId}/accounts/${a}`, { key: o.key });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ platform: a, status: 'disconnected', statusReason: 'disconnected by its owner' });
    const q = await gql(app, o.key, 'mutation($p: ID!, $k: PlatformKey!) { disconnectAccount(profileId: $p, platform: $k) { platform status } }', {
      p: o.profileId,
      k: b,
    });
    expect(q.body.data.disconnectAccount).toEqual({ platform: b, status: 'disconnected' });
    const refused = await publish(o, project.projectId, [a, b]);
    expect(refused.status).toBe(412);
    expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual([`platforms.${a}`, `platforms.${b}`]);
    expect(await db().post.count({ where: { account: { profileId: o.profileId, platform: a } } })).toBeGreaterThan(0);
    // twice is fine; an account never connected is 404
    expect((await request(app, 'DELETE', `/v1/profiles/${o.profileId}/accounts/${a}`, { key: o.key })).status).toBe(200);
    const stranger = await owner();
    expect((await request(app, 'DELETE', `/v1/profiles/${stranger.profileId}/accounts/${a}`, { key: stranger.key })).status).toBe(404);
    expect((await request(app, 'DELETE', `/v1/profiles/${o.profileId}/accounts/${a}`, { key: stranger.key })).body).toMatchObject({ error: 'NOT_FOUND' });
    for (const k of [a, b]) await connect(o, k);
    const back = await publish(o, project.projectId, [a, b]);
    expect(back.status).toBe(200);
    for (const post of (await settled(o, back.body.id)).posts) expect(post.publishStatus).toBe('published');
  });
});

describe('tokens that are renewed ahead', () => {
  it('photoshare: a long-lived token within a week of expiry is renewed by the analytics sync, before it can lapse', async () => {
    const o = await owner();
    const account = await connect(o, 'photoshare');
    const vault = (await import('../../src/platforms/session.js')).vaultOf(config());
    const tokens = vault.open<{ accessToken: string; expiresAt?: string }>(account.tokens!);
    const soon = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    await db().socialAccount.update({ where: { id: account.id }, data: { tokens: vault.seal({ ...tokens, expiresAt: soon }), tokenExpiresAt: soon } });
    await syncAnalytics(app.runtime.app);
    const after = await db().socialAccount.findUniqueOrThrow({ where: { id: account.id } });
    expect(after.status).toBe('connected');
    const renewed = vault.open<{ accessToken: string; expiresAt?: string }>(after.tokens!);
    expect(renewed.accessToken).not.toBe(tokens.accessToken);
    expect(Date.parse(renewed.expiresAt!)).toBeGreaterThan(Date.now() + 30 * 24 * 3600_000);
  });
});
