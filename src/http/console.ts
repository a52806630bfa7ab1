import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

/** Where `npm install` builds the web console (scripts/build-console.mjs, from web/). */
export const CONSOLE_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The prefix of the console's scripts and styles (web/vite.config.ts, assetsDir): no API path starts with it. */
const ASSETS = '/console/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The page may load only its own scripts and styles and talk only to this
 * origin (HTTP and WebSocket); media links are signed URLs under PUBLIC_URL,
 * which may name this host differently than the browser does.
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "connect-src 'self' ws: wss:",
  'media-src * blob:',
  'img-src * data: blob:',
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web console at /: its page, and its hashed scripts and styles under
 * /console/ (kept a year: a new build has new names). Nothing else of the
 * folder is served, and a name that is not a plain file name is no file of it.
 */
export function registerConsole(fastify: FastifyInstance, dir = CONSOLE_DIR): void {
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/',
    handler: async (req, reply) => {
      // the router takes the asterisk-form target (`GET *`) for / too: that one names no page
      if (!req.url.startsWith('/')) return sendError(reply, new AppError('NOT_FOUND', `Route ${req.method} ${req.url.slice(0, 200)} not found`));
      const page = await fs.readFile(path.join(dir, 'index.html')).catch(() => null);
      if (!page) return notBuilt(reply);
      return reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', PAGE_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .type(TYPES['.html'])
        .send(page);
    },
  });
  fastify.route({
    method: ['GET', 'HEAD'],
    url: `${ASSETS}:name`,
    handler: async (req, reply) => {
      const { name } = req.params as { name: string };
      const type = TYPES[path.extname(name)];
      const body = type && /^[\w.-]+$/.test(name) && !name.startsWith('.') ? await fs.readFile(path.join(dir, ASSETS, name)).catch(() => null) : null;
      if (!body) return sendError(reply, new AppError('NOT_FOUND', `${ASSETS}${name.slice(0, 200)} is no file of the web console`));
      return reply.header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').type(type).send(body);
    },
  });
}

function notBuilt(reply: FastifyReply) {
  return reply
    .code(503)
    .type('text/plain; charset=utf-8')
    .send('The web console is not built: run `npm run console:build` (it needs the dev dependencies), then reload.\n');
}
