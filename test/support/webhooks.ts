import http from 'node:http';

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

/** An HTTP endpoint on 127.0.0.1 that answers 200 to every POST and keeps what it got. */
export async function webhookInbox(): Promise<WebhookInbox> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
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
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async next(match, timeoutMs = 20_000) {
      for (const t0 = Date.now(); Date.now() - t0 < timeoutMs; await new Promise((r) => setTimeout(r, 100))) {
        const hit = received.find((h) => match(h.payload));
        if (hit) return hit;
      }
      throw new Error(`no matching webhook in ${timeoutMs} ms; got ${received.map((h) => h.body).join(', ') || 'none'}`);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
