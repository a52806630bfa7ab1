import crypto from 'node:crypto';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import { pageHeaders } from '../http/page-headers.js';
import { staticAsset, type StaticAsset } from '../http/static-asset.js';

/**
 * GraphiQL for a person who opens /graphql in a browser. The page and every
 * asset it loads (script, styles, editor workers, icon) come from this service,
 * out of the @graphql-yoga/render-graphiql bundle: nothing from a CDN, so it
 * works offline. The page holds no script of its own, only its options as
 * data, and no site may frame it (useGraphiQLHeaders). The key goes in the
 * headers editor, open and prefilled with an `x-api-key` placeholder;
 * subscriptions go over SSE with those headers.
 */

/** Where the page's assets are served (src/http/graphiql.ts), outside /graphql. */
export const GRAPHIQL_ASSETS = '/graphiql';

const KEY_PLACEHOLDER = 'sk-your-api-key';

export const graphiqlOptions: GraphiQLOptions = {
  title: 'clipcast GraphiQL',
  headers: JSON.stringify({ 'x-api-key': KEY_PLACEHOLDER }, null, 2),
  defaultEditorToolsVisibility: 'headers',
  // graphql-yoga's own GraphQL over SSE: a fetch that sends the headers above, as /graphql serves it
  subscriptionsProtocol: 'SSE',
  defaultQuery: [
    '# 1. Your API key goes in the Headers tab below.',
    '# 2. Reload the schema: the circular arrow (Shift+Ctrl+R).',
    '# 3. Run:',
    '{ projects(first: 5) { edges { node { id title status } } } }',
    '',
    '# A project followed until no work is left on it',
    '# (follow: true keeps the stream open):',
    '# subscription {',
    '#   projectUpdates(projectId: "…") { status stage percent }',
    '# }',
    '',
  ].join('\n'),
};

/**
 * The page's start: the editors' workers are this service's files, and
 * GraphiQL renders with the options the page carries as data. A script of its
 * own, so the page's policy allows scripts of this origin alone.
 */
const START = `{
  const { workers, options } = JSON.parse(document.getElementById('graphiql-options').textContent);
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workers[label] };
  addEventListener('DOMContentLoaded', () => YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), options));
}
`;

/**
 * What the page may load (test/e2e/browser-pages.test.ts uses it in Chromium): scripts,
 * editor workers and requests of this origin; styles of this origin and inline ones,
 * which the editor (Monaco) writes as it goes; images and fonts of the styles, which
 * are data: URLs, and the icon.
 */
const PAGE_HEADERS = pageHeaders([
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  'font-src data:',
]);

type Bundle = typeof import('@graphql-yoga/render-graphiql/graphiql');

/** The assets by file name: the bundle is 9 MB of text, loaded on the first page or asset asked for. */
let assets: Promise<{ files: Map<string, StaticAsset>; version: string }> | undefined;

function loadAssets() {
  assets ??= import('@graphql-yoga/render-graphiql/graphiql').then((b: Bundle) => {
    const js = 'text/javascript; charset=utf-8';
    const files = new Map<string, StaticAsset>([
      ['graphiql.js', staticAsset(js, b.js)],
      ['graphiql.css', staticAsset('text/css; charset=utf-8', b.css)],
      ['editor.worker.js', staticAsset(js, b.editorWorkerService)],
      ['json.worker.js', staticAsset(js, b.jsonWorker)],
      ['graphql.worker.js', staticAsset(js, b.graphqlWorker)],
      ['favicon.ico', staticAsset('image/x-icon', Buffer.from(b.favicon.slice(b.favicon.indexOf(',') + 1), 'base64'))],
      ['start.js', staticAsset(js, START)],
    ]);
    // in every asset URL, so a browser's cached copy is dropped when the bundle changes
    const version = crypto.createHash('sha256').update(b.js).update(b.css).update(START).digest('hex').slice(0, 12);
    return { files, version };
  });
  return assets;
}

/** One asset of the page, or null for a name that is none. */
export async function graphiqlAsset(name: string): Promise<StaticAsset | null> {
  return (await loadAssets()).files.get(name) ?? null;
}

const escapeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page Yoga answers a browser's GET /graphql with (its `renderGraphiQL`). */
export async function renderGraphiQLPage(opts: GraphiQLOptions): Promise<string> {
  const { version } = await loadAssets();
  const url = (name: string) => `${GRAPHIQL_ASSETS}/${name}?v=${version}`;
  const workers = { editorWorkerService: url('editor.worker.js'), json: url('json.worker.js'), graphql: url('graphql.worker.js') };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${opts.title ?? 'GraphiQL'}</title>
    <link rel="icon" href="${url('favicon.ico')}" />
    <link rel="stylesheet" href="${url('graphiql.css')}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>GraphiQL needs JavaScript.</noscript>
    <div id="root"></div>
    <script type="application/json" id="graphiql-options">${escapeJson({ workers, options: opts })}</script>
    <script src="${url('start.js')}"></script>
    <script src="${url('graphiql.js')}"></script>
  </body>
</html>
`;
}

/** Gives the page its headers (src/http/page-headers.ts): Yoga answers with the page and its type alone. */
export const useGraphiQLHeaders = (): Plugin => ({
  onResponse({ response }) {
    if (!response.headers.get('content-type')?.startsWith('text/html')) return;
    for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  },
});
