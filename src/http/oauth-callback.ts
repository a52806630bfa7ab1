/**
 * GET /oauth/<platform>/callback: where a platform sends the user's browser
 * back after consent (src/publishing/connections.ts). A redirect carries no
 * API key; the signed, expiring, single-use `state` stands in for it. The
 * browser goes on to the `returnUrl` given when the connection started, with
 * `connected=<platform>&accountId=…` or `error=…` added, or is shown a short
 * page saying what happened.
 */
import type { FastifyInstance } from 'fastify';
import type { App } from '../app.js';
import { finishConnection, type ConnectionOutcome } from '../publishing/connections.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style></head>
<body><h1>${escape(title)}</h1><p>${escape(message)}</p></body></html>`;
}

function returnTo(outcome: ConnectionOutcome): string | null {
  if (!outcome.returnUrl) return null;
  const url = new URL(outcome.returnUrl);
  if (outcome.ok) {
    url.searchParams.set('connected', outcome.platform);
    url.searchParams.set('accountId', outcome.account.id);
  } else {
    url.searchParams.set('error', outcome.message);
  }
  return url.toString();
}

export function registerOAuthCallback(fastify: FastifyInstance, app: App): void {
  fastify.get<{ Params: { platform: string }; Querystring: Record<string, unknown> }>('/oauth/:platform/callback', async (req, reply) => {
    const outcome = await finishConnection(app, req.params.platform, req.query ?? {});
    // the page must not be kept, nor leak the code in a Referer
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const next = returnTo(outcome);
    if (next) return reply.redirect(next, 303);
    if (outcome.ok) {
      const name = outcome.account.handle ? ` as ${outcome.account.handle}` : '';
      return reply.type('text/html; charset=utf-8').send(page('Account connected', `Your ${outcome.platform} account is connected${name}. You can close this window.`));
    }
    return reply.code(400).type('text/html; charset=utf-8').send(page('Account not connected', outcome.message));
  });
}
