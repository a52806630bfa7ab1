/**
 * The API reference over HTTP, without an API key: the OpenAPI document at
 * /openapi.json and a page at /docs that renders it with swagger-ui, whose
 * files this server serves itself (the page works without internet).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pageHeaders } from './page-headers.js';
import { sendAsset, staticAsset, type StaticAsset } from './static-asset.js';

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page's own start-up script: an inline script would need a looser Content-Security-Policy. */
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  persistAuthorization: true,
  // the public validator's badge would call out to the internet
  validatorUrl: null,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clipcast API reference</title>
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * What the page may load (test/e2e/browser-pages.test.ts uses it in Chromium): scripts,
 * styles and requests of this origin (the document, and "Try it out"); images of
 * this origin (the icon) and of the styles, which are data: URLs.
 */
const PAGE_HEADERS = pageHeaders(["script-src 'self'", "connect-src 'self'", "style-src 'self'", "img-src 'self' data:"]);

/** The files of /docs/: swagger-ui's, and the start-up script. */
const ASSETS: Record<string, { type: string; body: () => Buffer }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: () => fs.readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: () => fs.readFileSync(path.join(SWAGGER_UI_DIR, 'swagger-ui-bundle.js')) },
  'favicon-32x32.png': { type: 'image/png', body: () => fs.readFileSync(path.join(SWAGGER_UI_DIR, 'favicon-32x32.png')) },
  'init.js': { type: 'text/javascript; charset=utf-8', body: () => Buffer.from(INIT) },
};

/** Mounts /openapi.json, /docs and its files; `document` is made on the first request. */
export function registerReference(fastify: FastifyInstance, document: () => unknown): void {
  let json: StaticAsset | undefined;
  const files = new Map<string, StaticAsset>();
  const page = staticAsset('text/html; charset=utf-8', Buffer.from(PAGE));

  fastify.get('/openapi.json', async (req, reply) => {
    json ??= staticAsset('application/json; charset=utf-8', Buffer.from(JSON.stringify(document())));
    return sendAsset(req, reply, json, 'no-cache');
  });
  fastify.get('/docs', async (req, reply) => sendAsset(req, reply.headers(PAGE_HEADERS), page, 'no-cache'));
  fastify.get('/docs/', async (_req, reply) => reply.redirect('/docs', 301));
  fastify.get<{ Params: { file: string } }>('/docs/:file', async (req, reply) => {
    const asset = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (!asset) return reply.callNotFound();
    let file = files.get(req.params.file);
    if (!file) files.set(req.params.file, (file = staticAsset(asset.type, asset.body())));
    // a day, then revalidated by ETag: the names carry no version
    return sendAsset(req, reply, file, 'public, max-age=86400');
  });
}
