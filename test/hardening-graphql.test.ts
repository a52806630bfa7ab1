// GraphQL abuse found by the hardening probe (issue 10): limits that missed introspection
// and __typename, and documents nested deep enough to crash the parser.
import { UrlLoader } from '@graphql-tools/url-loader';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, gql, startTestApp, type TestApp } from './support/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
});
afterAll(async () => {
  await app?.stop();
});

/** The value of one line of /metrics (0 when absent). */
async function metric(line: string): Promise<number> {
  const text = await (await fetch(new URL('/metrics', app.url))).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}
const rejections = (limit: string) => metric(`graphql_limit_rejections_total{limit="${limit}"}`);

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
    const chain = (n: number) => `query { ...F0 } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Query { ${i < n - 1 ? `...F${i + 1}` : '__typename'} }`).join(' ')}`;
    expect((await gql(app, u.key, chain(60))).body.data).toEqual({ __typename: 'Query' });
    const chained = await gql(app, u.key, chain(1000));
    expect(chained.status).toBe(400);
    expect(chained.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Query depth exceeds the limit of 12/), extensions: { code: 'BAD_REQUEST' } });
    const lists = 'projects(first: 1) { edges { node { exports { id } words { id } } } }';
    const costly = await gql(app, u.key, `{ ${Array.from({ length: 25 }, (_, i) => `p${i}: ${lists}`).join(' ')} }`);
    expect(costly.status).toBe(400);
    expect(costly.body.errors?.[0].message).toMatch(/^Query complexity \d+ exceeds the limit of 5000$/);
    const fits = await gql(app, u.key, `{ ${Array.from({ length: 20 }, (_, i) => `p${i}: ${lists}`).join(' ')} }`);
    expect(fits.status).toBe(200);
    expect(fits.body.errors).toBeUndefined();
    expect(await rejections('depth')).toBe(depth + 2);
    expect(await rejections('complexity')).toBe(complexity + 1);
  });
});

describe('documents nested too deep for the parser', () => {
  const list = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;

  it('a list literal nested 2,000 deep is the caller\'s error: 400 BAD_REQUEST, with or without a key', async () => {
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
