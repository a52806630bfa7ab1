import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { checkWebhook } from './openapi.js';
import { selfSignedCert } from './tls.js';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  /** the raw body, as signed */
  body: string;
  payload: any;
}

export interface WebhookInbox {
  url: string;
  received: ReceivedWebhook[];
  /** the first delivery (received or to come) whose payload matches; rejects after `timeoutMs` */
  next(match: (payload: any) => boolean, timeoutMs?: number): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

export interface HttpsWebhookInbox extends WebhookInbox {
  /** the receiver's self-signed certificate (PEM file): NODE_EXTRA_CA_CERTS of the processes that send to it */
  cert: string;
}

function inbox(server: http.Server, scheme: 'http' | 'https', received: ReceivedWebhook[], onClose: () => Promise<void> = async () => {}) {
  return new Promise<WebhookInbox>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `${scheme}://127.0.0.1:${port}/hook`,
        received,
        async next(match, timeoutMs = 20_000) {
          for (const t0 = Date.now(); Date.now() - t0 < timeoutMs; await new Promise((r) => setTimeout(r, 100))) {
            const hit = received.find((h) => match(h.payload));
            // what a test waits for must also be what the reference describes
            if (hit) {
              checkWebhook(hit.headers, hit.payload);
              return hit;
            }
          }
          throw new Error(`no matching webhook in ${timeoutMs} ms; got ${received.map((h) => h.body).join(', ') || 'none'}`);
        },
        close: () => new Promise<void>((r) => server.close(() => r())).then(onClose),
      });
    }),
  );
}

/** Answers 200 to every POST and keeps what it got. */
function keep(received: ReceivedWebhook[]): http.RequestListener {
  return (req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {
        // kept raw
      }
      received.push({ headers: req.headers as Record<string, string>, body, payload });
      res.writeHead(200).end();
    });
  };
}

/** An HTTP endpoint on 127.0.0.1 that answers 200 to every POST and keeps what it got. */
export async function webhookInbox(): Promise<WebhookInbox> {
  const received: ReceivedWebhook[] = [];
  return inbox(http.createServer(keep(received)), 'http', received);
}

/**
 * The same over HTTPS (project webhooks must be https), with a self-signed
 * certificate that the service's processes trust through NODE_EXTRA_CA_CERTS.
 */
export async function httpsWebhookInbox(): Promise<HttpsWebhookInbox> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'inbox-'));
  const tls = await selfSignedCert(dir, 'localhost', 'IP:127.0.0.1,DNS:localhost', { ca: true });
  const received: ReceivedWebhook[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert }, keep(received));
  const box = await inbox(server, 'https', received, () => fs.rm(dir, { recursive: true, force: true }));
  return { ...box, cert: tls.certPath };
}
