/**
 * GET /oauth/<platform>/callback: where a platform sends the user's browser
 * back after consent (src/publishing/connections.ts). A redirect carries no
 * API key; the signed, expiring, single-use `state` stands in for it. The
 * browser goes on to the `returnUrl` given when the connection started, with
 * `connected=<platform>&accountId=…` or `error=…` added, or is shown a short
 * page saying what happened: always the page for a link already used or
 * expired, and for a returnUrl whose origin is no longer allowed.
 */
import type { FastifyInstance } from 'fastify';
import type { App } from '../app.js';
import { finishConnection, MAX_RETURN_LOCATION, type ConnectionOutcome } from '../publishing/connections.js';

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
    return url.href;
  }
  return withError(url, outcome.message);
}

/**
 * The URL with `error=<message>` added, the message cut short (ending in …)
 * where the whole would be longer than MAX_RETURN_LOCATION: a platform's error
 * description can be of any length. The page would say it whole.
 */
function withError(url: URL, message: string): string {
  const sent = (text: string) => {
    url.searchParams.set('error', text);
    return url.href;
  };
  const whole = sent(message);
  if (whole.length <= MAX_RETURN_LOCATION) return whole;
  // the longest start of the message that fits, found by halving
  const chars = Array.from(message);
  const cut = (n: number) => sent(`${chars.slice(0, n).join('')}…`);
  let [fits, tooLong] = [0, chars.length];
  while (tooLong - fits > 1) {
    const mid = (fits + tooLong) >> 1;
    if (cut(mid).length <= MAX_RETURN_LOCATION) fits = mid;
    else tooLong = mid;
  }
  return cut(fits);
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
      return reply
        .type('text/html; charset=utf-8')
        .send(page('Account connected', `Your ${outcome.platform} account is connected${name}. You can close this window.`));
    }
    return reply.code(400).type('text/html; charset=utf-8').send(page('Account not connected', outcome.message));
  });
}
