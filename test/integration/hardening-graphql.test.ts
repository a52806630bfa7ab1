// GraphQL abuse found by the hardening probe (issue 10): rate limits through fragments and
// aliases, refused requests that spent budget, limits that missed introspection and
// __typename, and documents nested deep enough to crash the parser.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { UrlLoader } from '@graphql-tools/url-loader';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimits, type RateLimits } from '../../src/limits/rate-limits.js';
import { createUser, gql, request, startTestApp, type TestApp } from '../support/app.js';
import { serveFolder, type FileServer } from '../support/media.js';

let app: TestApp;
let files: FileServer;
let dir: string;
/** an image the library accepts by URL */
let url: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hardening-'));
  await promisify(execFile)('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=64x48',
    '-frames:v',
    '1',
    path.join(dir, 'image.png'),
  ]);
  // the API alone: the imports these tests enqueue are not the point
  [app, files] = await Promise.all([startTestApp({ role: 'server' }), serveFolder(dir)]);
  url = files.url('image.png');
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const page = 'userMedia(first: 1) { pageInfo { hasNextPage } }';
/** One request with `n` aliased userMedia lists: n calls of a limited operation (500 an hour). */
const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `m${i}: ${page}`).join(' ')} }`;
const remaining = (r: { headers: Headers }) => r.headers.get('x-ratelimit-remaining');

/** Spends `calls` userMedia calls of `key` over /graphql, 50 aliases a request. */
async function spendUserMedia(key: string, calls: number) {
  for (let left = calls; left > 0; left -= 50) {
    const r = await gql(app, key, aliased(Math.min(50, left)));
    expect(r.status).toBe(200);
  }
}

/** The value of one line of /metrics (0 when absent). */
async function metric(line: string): Promise<number> {
  const text = await (await fetch(new URL('/metrics', app.url))).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}
const rejections = (limit: string) => metric(`graphql_limit_rejections_total{limit="${limit}"}`);

describe('rate limits count what an operation executes', () => {
  it('a limited field inside an inline fragment or a named fragment spread is counted and refused', async () => {
    const u = await createUser(app);
    await spendUserMedia(u.key, 500);
    expect((await request(app, 'GET', '/v1/user-media', { key: u.key })).status).toBe(429);
    for (const query of [`{ ... on Query { ${page} } }`, `query Q { ...F } fragment F on Query { ${page} }`, `{ ... { ... on Query { x: ${page} } } }`]) {
      const g = await gql(app, u.key, query);
      expect(g.status, query).toBe(429);
      expect(g.body.errors?.[0].extensions).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
      expect(g.body.data ?? null).toBeNull();
    }
  });

  it('mutations inside fragments spend the same budget as the plain form, one call per alias', async () => {
    const u = await createUser(app);
    const inline = await gql(app, u.key, `mutation { ... on Mutation { createUserMedia(url: "${url}") { userMediaId } } }`);
    expect(inline.body.errors).toBeUndefined();
    expect(remaining(inline)).toBe('499');
    const spread = await gql(
      app,
      u.key,
      `mutation M { ...C } fragment C on Mutation { a: createUserMedia(url: "${url}") { userMediaId } b: createUserMedia(url: "${url}") { userMediaId } }`,
    );
    expect(spread.body.errors).toBeUndefined();
    expect(remaining(spread)).toBe('497');
    const plain = await request(app, 'POST', '/v1/user-media', { key: u.key, json: { url } });
    expect(plain.status).toBe(201);
    expect(remaining(plain)).toBe('496');
  });
});

describe('a refused request spends nothing; an accepted one spends what it executes', () => {
  it('more aliases than the hour has left: 429, and the budget left is still there', async () => {
    const u = await createUser(app);
    await spendUserMedia(u.key, 450);
    const over = await gql(app, u.key, aliased(60));
    expect(over.status).toBe(429);
    expect(over.body.errors?.[0].extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const rest = await gql(app, u.key, aliased(50));
    expect(rest.status).toBe(200);
    expect(Object.keys(rest.body.data ?? {})).toHaveLength(50);
    expect(remaining(rest)).toBe('0');
    expect((await request(app, 'GET', '/v1/user-media?limit=1', { key: u.key })).status).toBe(429);
  });

  it('an operation refused by one of its limits spends nothing of the others', async () => {
    const u = await createUser(app);
    await spendUserMedia(u.key, 500);
    const g = await gql(app, u.key, `{ presets(first: 1) { pageInfo { hasNextPage } } ${page} }`);
    expect(g.status).toBe(429);
    const presets = await request(app, 'GET', '/v1/presets', { key: u.key });
    expect(presets.status).toBe(200);
    expect(remaining(presets)).toBe('999');
  });

  it('1,000 aliased createUserMedia are refused without creating anything or spending the hour', async () => {
    const u = await createUser(app);
    const query = `mutation { ${Array.from({ length: 1000 }, (_, i) => `c${i}: createUserMedia(url: "${url}") { userMediaId }`).join(' ')} }`;
    const refused = await gql(app, u.key, query);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
    const one = await request(app, 'POST', '/v1/user-media', { key: u.key, json: { url } });
    expect(one.status).toBe(201);
    expect(remaining(one)).toBe('499');
  });
});

/** The counters behind the limits: two stores stand for two instances (one in memory, where nothing is shared). */
function countersSpendAtOnce(where: string, redisUrl: string | undefined) {
  describe.skipIf(redisUrl === '')(`the rate-limit counters ${where}: checked, then spent, at once`, () => {
    const stores: RateLimits[] = [];
    beforeAll(() => {
      const a = createRateLimits(redisUrl, { op: 10, other: 5 });
      stores.push(a, redisUrl ? createRateLimits(redisUrl, { op: 10, other: 5 }) : a);
    });
    afterAll(async () => {
      for (const s of new Set(stores)) await s.close();
    });

    it('concurrent requests never spend past the limit, and refused ones spend nothing', async () => {
      const user = randomUUID();
      const asks = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2].spend(user, new Map([['op', 3]]))));
      expect(asks.filter(([s]) => s.allowed)).toHaveLength(3);
      const last = await stores[0].spend(user, new Map([['op', 1]]));
      expect(last).toEqual([{ operation: 'op', calls: 1, limit: 10, remaining: 0, resetSeconds: expect.any(Number), allowed: true }]);
      expect(last[0].resetSeconds).toBeGreaterThan(3500);
      expect(last[0].resetSeconds).toBeLessThanOrEqual(3600);
      // refused by one operation: the other is not spent either; unlimited operations are left out
      const mixed = await stores[1].spend(
        user,
        new Map([
          ['other', 2],
          ['op', 1],
          ['free', 7],
        ]),
      );
      expect(mixed.map((st) => [st.operation, st.allowed, st.remaining])).toEqual([
        ['other', true, 5],
        ['op', false, 0],
      ]);
      expect((await stores[0].spend(user, new Map([['other', 5]])))[0]).toMatchObject({ allowed: true, remaining: 0 });
      expect((await stores[1].spend(user, new Map([['other', 1]])))[0]).toMatchObject({ allowed: false, remaining: 0 });
    });
  });
}
countersSpendAtOnce('in memory', undefined);
countersSpendAtOnce('on Redis, shared by two instances (needs TEST_REDIS_URL)', process.env.TEST_REDIS_URL ?? '');

describe('query limits cover every field, introspection included', () => {
  const ofTypes = (n: number) => `${'ofType { '.repeat(n)}name${' }'.repeat(n)}`;

  it('an introspection ofType chain past its depth limit is refused and counted', async () => {
    const u = await createUser(app);
    const before = await rejections('introspection_depth');
    const g = await gql(app, u.key, `{ __schema { types { ${ofTypes(37)} } } }`);
    expect(g.status).toBe(400);
    expect(g.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(g.body.errors?.[0].message).toBe('Introspection depth 40 exceeds the limit of 15');
    expect(g.body.data ?? null).toBeNull();
    const viaType = await gql(app, u.key, `{ __type(name: "Query") { ${ofTypes(20)} } }`);
    expect(viaType.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(await rejections('introspection_depth')).toBe(before + 2);
  });

  it('the standard introspection query passes, at its deepest options, and one level more does not', async () => {
    const u = await createUser(app);
    const full = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      experimentalDirectiveDeprecation: true,
      oneOf: true,
    });
    const g = await gql(app, u.key, full);
    expect(g.status).toBe(200);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data.__schema.queryType.name).toBe('Query');
    const deeper = await gql(app, u.key, getIntrospectionQuery({ typeDepth: 10 }));
    expect(deeper.status).toBe(400);
    expect(deeper.body.errors?.[0].message).toBe('Introspection depth 16 exceeds the limit of 15');
  });

  it('the schema loader of the code generator introspects the service', async () => {
    const u = await createUser(app);
    const [source] = await new UrlLoader().load(new URL('/graphql', app.url).href, { headers: { 'x-api-key': u.key } });
    expect(source.schema?.getQueryType()?.getFields().userMedia).toBeDefined();
  });

  it('__typename counts: 1,000 aliases are over the breadth limit, 10,000 over the token limit; each refusal is counted', async () => {
    const u = await createUser(app);
    const typenames = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const [breadth, tokens] = [await rejections('breadth'), await rejections('tokens')];
    const wide = await gql(app, u.key, typenames(1000));
    expect(wide.status).toBe(400);
    expect(wide.body.errors?.[0]).toMatchObject({ message: 'Query breadth 1000 exceeds the limit of 200', extensions: { code: 'BAD_REQUEST' } });
    expect(wide.body.data ?? null).toBeNull();
    const wider = await gql(app, u.key, typenames(10_000));
    expect(wider.status).toBe(400);
    expect(wider.body.errors?.[0]).toMatchObject({ message: 'The document has more than 20000 tokens', extensions: { code: 'BAD_REQUEST' } });
    expect(await rejections('breadth')).toBe(breadth + 1);
    expect(await rejections('tokens')).toBe(tokens + 1);
    expect((await gql(app, u.key, typenames(200))).status).toBe(200);
  });

  it('introspection has its own breadth limit: one standard query fits, copies of it do not', async () => {
    const u = await createUser(app);
    const before = await rejections('introspection_breadth');
    const copies = `{ ${Array.from({ length: 151 }, (_, i) => `s${i}: __schema { queryType { name } }`).join(' ')} }`;
    const g = await gql(app, u.key, copies);
    expect(g.status).toBe(400);
    expect(g.body.errors?.[0]).toMatchObject({ message: 'Introspection breadth 453 exceeds the limit of 300', extensions: { code: 'BAD_REQUEST' } });
    expect(await rejections('introspection_breadth')).toBe(before + 1);
  });

  it('the same limits hold without a key: refused before anything runs', async () => {
    const before = await rejections('breadth');
    const wide = `{ ${Array.from({ length: 300 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const g = await gql(app, undefined, wide);
    expect(g.status).toBe(400);
    expect(g.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(await rejections('breadth')).toBe(before + 1);
  });

  it('depth and complexity of ordinary fields are still limited, and each refusal is counted', async () => {
    const u = await createUser(app);
    const [depth, complexity] = [await rejections('depth'), await rejections('complexity')];
    // no type of the schema nests past 12 levels, but a document can say so before it is checked
    const deep = await gql(app, u.key, `${'{ a '.repeat(13)}${'}'.repeat(13)}`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]).toMatchObject({ message: 'Query depth 13 exceeds the limit of 12', extensions: { code: 'BAD_REQUEST' } });
    // a chain of fragments adds no field, but walking it is refused past 64 levels
    const chain = (n: number) =>
      `query { ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Query { ${i < n - 1 ? `...F${i + 1}` : '__typename'} }`).join(' ')}`;
    expect((await gql(app, u.key, chain(60))).body.data).toEqual({ __typename: 'Query' });
    const chained = await gql(app, u.key, chain(1000));
    expect(chained.status).toBe(400);
    expect(chained.body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Query depth exceeds the limit of 12/),
      extensions: { code: 'BAD_REQUEST' },
    });
    const lists = 'projects(first: 1) { edges { node { exports { id } words { id } } } }';
    const costly = await gql(app, u.key, `{ ${Array.from({ length: 25 }, (_, i) => `p${i}: ${lists}`).join(' ')} }`);
    expect(costly.status).toBe(400);
    expect(costly.body.errors?.[0].message).toMatch(/^Query complexity \d+ exceeds the limit of 5000$/);
    // the same through a fragment, which is read on its own type
    const spread = 'projects(first: 1) { edges { node { ...P } } }';
    const viaFragment = await gql(
      app,
      u.key,
      `{ ${Array.from({ length: 25 }, (_, i) => `p${i}: ${spread}`).join(' ')} } fragment P on Project { exports { id } words { id } }`,
    );
    expect(viaFragment.body.errors?.[0].message).toBe(costly.body.errors?.[0].message);
    const fits = await gql(app, u.key, `{ ${Array.from({ length: 20 }, (_, i) => `p${i}: ${lists}`).join(' ')} }`);
    expect(fits.status).toBe(200);
    expect(fits.body.errors).toBeUndefined();
    expect(await rejections('depth')).toBe(depth + 2);
    expect(await rejections('complexity')).toBe(complexity + 2);
  });
});

describe('documents nested too deep for the parser', () => {
  const list = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

  it("a list literal nested 2,000 deep is the caller's error: 400 BAD_REQUEST, with or without a key", async () => {
    const u = await createUser(app);
    for (const key of [undefined, u.key]) {
      for (const query of [`{ languages(x: ${list(2000)}) { code } }`, `mutation { createProject(input: ${list(2000)}) { id } }`]) {
        const res = await fetch(new URL('/graphql', app.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
          body: JSON.stringify({ query }),
        });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.errors).toHaveLength(1);
        expect(body.errors[0]).toMatchObject({ message: expect.stringMatching(/nested too deep/), extensions: { code: 'BAD_REQUEST' } });
      }
    }
  });

  it('a selection set nested 2,000 deep is refused the same way', async () => {
    const before = await rejections('nesting');
    const g = await gql(app, undefined, `${'{ a '.repeat(2000)}${'}'.repeat(2000)}`);
    expect(g.status).toBe(400);
    expect(g.body.errors?.[0].extensions?.code).toBe('BAD_REQUEST');
    expect(await rejections('nesting')).toBe(before + 1);
  });
});

describe('GraphQL over GET', () => {
  const get = (params: string, key?: string) =>
    fetch(new URL(`/graphql?${params}`, app.url), { headers: key ? { 'x-api-key': key } : {} }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it("variables or extensions that are not JSON are the caller's error: 400 BAD_REQUEST naming the parameter, with or without a key", async () => {
    const u = await createUser(app);
    for (const key of [undefined, u.key]) {
      for (const name of ['variables', 'extensions']) {
        const r = await get(`query=${encodeURIComponent('{ languages { code } }')}&${name}=%7B`, key);
        expect(r.status).toBe(400);
        expect(r.body.errors).toEqual([
          { message: expect.stringContaining(`${name} parameter is not JSON`), extensions: expect.objectContaining({ code: 'BAD_REQUEST' }) },
        ]);
      }
    }
  });

  it('a query with JSON variables still runs, and a mutation is still refused', async () => {
    const u = await createUser(app);
    const ok = await get(
      `query=${encodeURIComponent('query($n: Int) { presets(first: $n) { pageInfo { hasNextPage } } }')}&variables=${encodeURIComponent('{"n":1}')}&operationName=`,
      u.key,
    );
    expect(ok).toEqual({ status: 200, body: { data: { presets: { pageInfo: { hasNextPage: false } } } } });
    const mutation = await get(`query=${encodeURIComponent('mutation { createApiKey { apiKey } }')}`, u.key);
    expect(mutation.status).toBe(405);
  });
});

describe('an Accept header that names no type of answer', () => {
  const post = (key: string, accept: string, query: string) =>
    fetch(new URL('/graphql', app.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, accept },
      body: JSON.stringify({ query }),
    }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));
  const keys = async (key: string) => (await gql(app, key, '{ apiKeys { id } }')).body.data!.apiKeys.length;

  it("is refused with 406 in GraphQL's format before the operation runs: a mutation changes nothing", async () => {
    const u = await createUser(app);
    for (const accept of ['text/html', 'application/json; charset=latin1', 'image/*']) {
      const r = await post(u.key, accept, 'mutation { createApiKey { apiKey } }');
      expect(r.status, accept).toBe(406);
      expect(JSON.parse(r.text).errors).toEqual([{ message: expect.stringContaining('Not acceptable'), extensions: { code: 'BAD_REQUEST' } }]);
    }
    expect(await keys(u.key)).toBe(1);
  });

  it('types answered, named or by wildcard, still run the operation', async () => {
    const u = await createUser(app);
    for (const accept of ['application/json', 'application/*', '*/*', 'text/html, application/graphql-response+json;q=0.9']) {
      const r = await post(u.key, accept, 'mutation { createApiKey { apiKey } }');
      expect(r.status, accept).toBe(200);
      expect(JSON.parse(r.text).data.createApiKey.apiKey).toMatch(/^sk-/);
    }
    expect(await keys(u.key)).toBe(5);
  });
});
