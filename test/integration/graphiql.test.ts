import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';
import { readSse } from '../support/sse.js';

/** What a browser sends for a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const TYPES: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, ico: /^image\/x-icon/ };

let app: TestApp;
let files: FileServer;
let user: TestUser;

beforeAll(async () => {
  const fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp(), serveFolder(fx.dir)]);
  user = await createUser(app);
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
});

describe('GraphiQL at /graphql in a browser', () => {
  it('is a page whose every asset is served by the service itself, with its content type', async () => {
    const res = await fetch(new URL('/graphql', app.url), { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain('id="graphiql-options"');

    // the page carries its options as data, which its start script (start.js) reads:
    // the headers editor opens, prefilled with the key's header
    const { options, workers } = JSON.parse(/<script type="application\/json" id="graphiql-options">(.*)<\/script>/.exec(page)![1]);
    expect(options).toMatchObject({ defaultEditorToolsVisibility: 'headers', subscriptionsProtocol: 'SSE' });
    expect(Object.keys(JSON.parse(options.headers))).toEqual(['x-api-key']);
    // no script in the page itself
    expect(page.match(/<script>/g)).toBeNull();

    // every URL the page loads: its src and href attributes and the editor workers' URLs
    const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).concat(Object.values(workers as Record<string, string>));
    expect(urls.length).toBe(7);
    for (const url of urls) {
      expect(url, url).toMatch(/^\/graphiql\/[\w.]+\?v=\w+$/); // on this host, no scheme, no CDN
      const asset = await fetch(new URL(url, app.url));
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get('content-type'), url).toMatch(TYPES[/\.(\w+)\?/.exec(url)![1]]);
      const body = Buffer.from(await asset.arrayBuffer());
      expect(body.length, url).toBeGreaterThan(200);
      // what the styles load (fonts, images) is inline, and no script is fetched from elsewhere
      if (url.includes('.css')) expect(body.toString().match(/url\((?!["']?data:)[^)]*\)|@import/g)).toBeNull();
    }
    expect(page).not.toMatch(/https?:\/\//);
    const start = await (await fetch(new URL(urls.find((u) => u.includes('start.js'))!, app.url))).text();
    expect(start).toContain('YogaGraphiQL.renderYogaGraphiQL');
    const missing = await fetch(new URL('/graphiql/nothing.js', app.url));
    expect(missing.status).toBe(404);
  });

  it('a GraphQL request to /graphql is still answered as GraphQL, not with the page', async () => {
    const r = await request(app, 'GET', '/graphql?query=%7B__typename%7D', { key: user.key, headers: { accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { __typename: 'Query' } });
  });

  it("a subscription over GraphiQL's transport (GET, text/event-stream, the headers editor's x-api-key) streams to its end", async () => {
    const created = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'From GraphiQL', language: 'en', videoUrl: files.url('clip.mp4'), autoRender: false },
    });
    expect(created.status).toBe(201);
    const url = new URL('/graphql', app.url);
    url.searchParams.set('query', 'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage } }');
    url.searchParams.set('variables', JSON.stringify({ id: created.body.id }));
    // as GraphiQL's fetcher sends it: GET with the headers of the editor and Accept: text/event-stream
    const res = await fetch(url, { headers: { accept: 'text/event-stream', 'x-api-key': user.key }, signal: AbortSignal.timeout(30_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(
      res,
      (d) => d.projectUpdates as { status: string; stage: string },
      () => false,
    );
    expect(events.at(-1)).toEqual({ status: 'completed', stage: 'done' });

    const withoutKey = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(await withoutKey.text()).toMatch(/UNAUTHENTICATED|API key/i);
  });
});
