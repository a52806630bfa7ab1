import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { newWebhookSecret } from '../../src/auth/keys.js';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import { chunksOf } from '../../src/platforms/chunks.js';
import { createPlatformHttp, rebase, redact, retryAfterMs } from '../../src/platforms/http.js';
import { authorizeUrl, pkcePair } from '../../src/platforms/oauth-tokens.js';
import { vaultOf, withTokens } from '../../src/platforms/session.js';
import { PlatformError, type PlatformDefinition, type TokenSet } from '../../src/platforms/types.js';
import { createVault } from '../../src/platforms/vault.js';
import { startFake } from '../fakes/server.js';
import { usePrismaDatabase } from '../support/prisma.js';

// What every platform connector stands on: the token vault, the HTTP client,
// the chunk reader, and the session that keeps an account's tokens fresh.

let db: Db;
usePrismaDatabase((client) => (db = client));

const SECRET = crypto.randomBytes(32).toString('base64');

describe('the token vault', () => {
  it('seals with AES-GCM: nothing readable, a fresh IV each time, tampering and another key refused', () => {
    const vault = createVault(SECRET);
    const tokens = { accessToken: 'at-secret-123', refreshToken: 'rt-secret-456' };
    const a = vault.seal(tokens);
    const b = vault.seal(tokens);
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(vault.open(a)).toEqual(tokens);
    const parts = a.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    parts[4] = flipped.toString('base64url');
    expect(() => vault.open(parts.join('.'))).toThrow();
    expect(() => createVault(crypto.randomBytes(32).toString('base64')).open(a)).toThrow(/another TOKEN_ENCRYPTION_KEY/);
    expect(() => createVault('short')).toThrow(/at least 32 characters/);
    // a short key is refused when the service starts, not at the first connection
    expect(() => loadConfig({ TOKEN_ENCRYPTION_KEY: 'too-short' })).toThrow(/TOKEN_ENCRYPTION_KEY must be at least 32 characters/);
    expect(() => loadConfig({ MICROBLOG_BASE_URL: 'ftp://x' })).toThrow(/MICROBLOG_BASE_URL must be an http\(s\) URL/);
  });
});

describe('the platform HTTP client', () => {
  it('rewrites hosts to the base URL, reads Retry-After and reset headers, and keeps secrets out of messages', async () => {
    expect(rebase('https://api.example.com/2/tweets?x=1', 'http://127.0.0.1:9/base/')).toBe('http://127.0.0.1:9/base/2/tweets?x=1');
    expect(redact('https://graph.example/me?access_token=abc&fields=id&client_secret=s')).toBe(
      'https://graph.example/me?access_token=***&fields=id&client_secret=***',
    );
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'x-rate-limit-reset': String(now / 1000 + 60) }), now)).toBe(60_000);
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();

    const fake = await startFake((req) => ({ status: 200, body: { auth: req.headers.authorization, got: req.json, q: req.query.get('a') } }));
    try {
      const http = createPlatformHttp('demo', fake.url);
      const res = await http.request({ url: 'https://api.demo.example/v1/thing', token: 'tok', query: { a: 1 }, body: { b: 2 } });
      expect(res).toMatchObject({ status: 200, json: { auth: 'Bearer tok', got: { b: 2 }, q: '1' } });
    } finally {
      await fake.close();
    }
    // nobody listening: a passing failure that names the host, not the token
    const closed = createPlatformHttp('demo', 'http://127.0.0.1:9');
    const err = await closed.request({ url: 'https://api.demo.example/v1/me?access_token=tok', token: 'tok' }).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ kind: 'retry' });
    expect(err.message).not.toContain('tok');
  });

  it("builds the authorisation URL with the flow's parameters and an S256 challenge", () => {
    const http = createPlatformHttp('demo', undefined);
    const { verifier, challenge } = pkcePair();
    expect(crypto.createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);
    const url = new URL(
      authorizeUrl(
        http,
        {
          authorizeUrl: 'https://auth.demo.example/authorize',
          tokenUrl: 'https://auth.demo.example/token',
          scopes: ['a', 'b'],
          scopeSeparator: ',',
          pkce: true,
          clientAuth: 'body',
          clientIdParam: 'client_key',
          authorizeParams: { access_type: 'offline' },
        },
        { clientId: 'cid', clientSecret: 's', baseUrl: undefined },
        { redirectUri: 'https://svc.example/oauth/demo/callback', state: 'st', codeChallenge: challenge },
      ),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_key: 'cid',
      response_type: 'code',
      redirect_uri: 'https://svc.example/oauth/demo/callback',
      scope: 'a,b',
      state: 'st',
      access_type: 'offline',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.has('client_secret')).toBe(false);
  });
});

describe('chunksOf', () => {
  it('gives exact chunks from any start, and refuses a stream cut short', async () => {
    const data = crypto.randomBytes(10_000);
    const pieces = () => Readable.from([data.subarray(0, 333), data.subarray(333, 4000), data.subarray(4000)]);
    const all: Buffer[] = [];
    for await (const c of chunksOf(pieces(), 3000)) all.push(c);
    expect(all.map((c) => c.length)).toEqual([3000, 3000, 3000, 1000]);
    expect(Buffer.concat(all).equals(data)).toBe(true);
    const rest: Buffer[] = [];
    for await (const c of chunksOf(pieces(), 4096, { start: 5000, total: 10_000 })) rest.push(c);
    expect(rest.map((c) => c.length)).toEqual([4096, 904]);
    expect(Buffer.concat(rest).equals(data.subarray(5000))).toBe(true);
    await expect(async () => {
      for await (const _ of chunksOf(Readable.from([data.subarray(0, 100)]), 50, { total: 200 })) void _;
    }).rejects.toThrow(/ended at 100 of 200/);
  });
});

describe('the session around a connector', () => {
  /** A platform that follows RFC 6749 to the letter, whose refresh tokens rotate and work once. */
  async function platform() {
    let n = 0;
    const live = new Set<string>(['at-0']);
    const refreshable = new Set<string>(['rt-0']);
    const fake = await startFake(async (req) => {
      if (req.path === '/token') {
        await new Promise((r) => setTimeout(r, 50));
        if (req.headers.authorization !== `Basic ${Buffer.from('cid:cs').toString('base64')}`)
          return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
        const rt = req.form.get('refresh_token') ?? '';
        if (!refreshable.delete(rt)) return { status: 400, body: { error: 'invalid_grant', error_description: 'refresh token revoked' } };
        n += 1;
        live.add(`at-${n}`);
        refreshable.add(`rt-${n}`);
        return { body: { access_token: `at-${n}`, refresh_token: `rt-${n}`, expires_in: 3600, token_type: 'bearer' } };
      }
      if (!live.has(req.bearer ?? '')) return { status: 401, body: { error: 'expired' } };
      return { body: { followers: 42 } };
    });
    const def: PlatformDefinition = {
      key: 'microblog',
      oauth: {
        authorizeUrl: 'https://x.example/authorize',
        tokenUrl: 'https://x.example/token',
        scopes: [],
        scopeSeparator: ' ',
        pkce: true,
        clientAuth: 'basic',
      },
      identify: async () => ({ externalId: 'e', handle: null, isPrivate: false, followers: 0 }),
      connector: (http) => ({
        publish: async () => ({ state: 'published', platformPostId: 'p', platformPostUrl: 'https://x.example/p' }),
        check: async () => ({ state: 'ready' }),
        finalize: async () => ({ platformPostId: 'p', platformPostUrl: 'https://x.example/p' }),
        fetchPostMetrics: async () => ({ views: 0, likes: 0, comments: 0, shares: 0, impressions: 0, reach: 0, clicks: 0 }),
        async fetchFollowers(account) {
          const res = await http.request({ url: 'https://api.x.example/me', token: (account.credentials as TokenSet).accessToken });
          if (res.status === 401) throw new PlatformError('reauthorize', 'the token was refused');
          return (res.json as { followers: number }).followers;
        },
      }),
    };
    const config = loadConfig({ TOKEN_ENCRYPTION_KEY: SECRET, MICROBLOG_CLIENT_ID: 'cid', MICROBLOG_CLIENT_SECRET: 'cs', MICROBLOG_BASE_URL: fake.url });
    const app = { db, config, log: createLogger('silent') } as unknown as App;
    return { fake, def, app, live, refreshable, refreshes: () => n };
  }

  async function account(app: App, tokens: TokenSet) {
    const user = await db.user.create({ data: { email: `s-${crypto.randomUUID()}@test.local`, webhookSecret: newWebhookSecret() } });
    const profile = await db.profile.create({ data: { userId: user.id, name: 'P', isPrimary: true } });
    const row = await db.socialAccount.create({
      data: {
        profileId: profile.id,
        platform: 'microblog',
        connector: 'microblog',
        externalId: 'e',
        tokens: vaultOf(app.config).seal(tokens),
        tokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
      },
    });
    return { ...row, platform: 'microblog' as const };
  }

  it('refreshes a token about to expire once, however many calls need it at the same time', async () => {
    const p = await platform();
    try {
      const acc = await account(p.app, { accessToken: 'at-0', refreshToken: 'rt-0', expiresAt: new Date(Date.now() + 60_000).toISOString() });
      const connector = withTokens(p.app, p.def);
      const followers = await Promise.all(Array.from({ length: 5 }, () => connector.fetchFollowers(acc)));
      expect(followers).toEqual([42, 42, 42, 42, 42]);
      expect(p.refreshes()).toBe(1);
      const row = await db.socialAccount.findUniqueOrThrow({ where: { id: acc.id } });
      expect(vaultOf(p.app.config).open<TokenSet>(row.tokens!)).toMatchObject({ accessToken: 'at-1', refreshToken: 'rt-1' });
      expect(row.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    } finally {
      await p.fake.close();
    }
  });

  it('a token refused before its time is refreshed and the call runs once more', async () => {
    const p = await platform();
    try {
      const acc = await account(p.app, { accessToken: 'at-0', refreshToken: 'rt-0', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
      p.live.delete('at-0');
      expect(await withTokens(p.app, p.def).fetchFollowers(acc)).toBe(42);
      expect(p.refreshes()).toBe(1);
    } finally {
      await p.fake.close();
    }
  });

  it('a refresh the platform refuses disconnects the account and forgets its tokens; later calls say to connect it again', async () => {
    const p = await platform();
    try {
      const acc = await account(p.app, { accessToken: 'at-0', refreshToken: 'rt-0', expiresAt: new Date(Date.now() - 1000).toISOString() });
      p.refreshable.clear();
      const connector = withTokens(p.app, p.def);
      const err = await connector.fetchFollowers(acc).catch((e) => e);
      expect(err).toMatchObject({ kind: 'disconnected', message: expect.stringMatching(/refused to refresh.*invalid_grant.*connect it again/) });
      expect(err.message).not.toMatch(/rt-0|at-0/);
      expect(await db.socialAccount.findUniqueOrThrow({ where: { id: acc.id } })).toMatchObject({ status: 'disconnected', tokens: null });
      expect(await connector.fetchFollowers(acc).catch((e) => e)).toMatchObject({ kind: 'disconnected' });
    } finally {
      await p.fake.close();
    }
  });

  it("a refusal of the service's own client (a wrong secret) passes, naming the settings, and leaves the account connected", async () => {
    const p = await platform();
    try {
      const app = {
        ...p.app,
        config: { ...p.app.config, platforms: { ...p.app.config.platforms, microblog: { ...p.app.config.platforms.microblog, clientSecret: 'wrong' } } },
      } as unknown as App;
      const acc = await account(p.app, { accessToken: 'at-0', refreshToken: 'rt-0', expiresAt: new Date(Date.now() - 1000).toISOString() });
      const err = await withTokens(app, p.def)
        .fetchFollowers(acc)
        .catch((e) => e);
      expect(err).toMatchObject({ kind: 'retry', message: expect.stringContaining('MICROBLOG_CLIENT_SECRET') });
      expect(await db.socialAccount.findUniqueOrThrow({ where: { id: acc.id } })).toMatchObject({ status: 'connected' });
    } finally {
      await p.fake.close();
    }
  });

  it('says which variables are missing when a platform is not configured', async () => {
    const p = await platform();
    await p.fake.close();
    const app = { ...p.app, config: loadConfig({ TOKEN_ENCRYPTION_KEY: SECRET }) } as unknown as App;
    const acc = await account(p.app, { accessToken: 'at-0' });
    const err = await withTokens(app, p.def)
      .fetchFollowers(acc)
      .catch((e) => e);
    expect(err).toMatchObject({ kind: 'retry', message: expect.stringContaining('MICROBLOG_CLIENT_ID and MICROBLOG_CLIENT_SECRET') });
  });
});
