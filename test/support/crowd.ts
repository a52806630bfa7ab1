import WebSocket from 'ws';

/**
 * Many graphql-ws subscribers of one subscription, one WebSocket each, spread
 * over several instances of the API: the protocol spoken by hand (no client
 * library per socket), so that thousands fit in one process and a message's
 * arrival is timed before anything else is done with it.
 */
export interface Crowd {
  size: number;
  /**
   * For each subscriber, the instant (performance.now()) of its first message
   * after `since` whose data matches; rejects naming how many heard it when
   * some have not within `withinMs`.
   */
  heard(match: (data: Record<string, any>) => boolean, since: number, withinMs?: number): Promise<number[]>;
  close(): void;
}

interface Subscriber {
  socket: WebSocket;
  /** arrival instants and raw texts of the `next` messages, parsed only when asked */
  messages: Array<{ at: number; text: string }>;
}

/**
 * Opens `count` subscribers, round-robin over `urls` (http bases), `batch` at a
 * time; resolves once every one has had its first message (a subscription
 * that starts with the current state).
 */
export async function subscribeCrowd(
  urls: readonly string[],
  key: string,
  query: string,
  variables: Record<string, unknown>,
  count: number,
  { batch = 100, withinMs = 60_000 }: { batch?: number; withinMs?: number } = {},
): Promise<Crowd> {
  const subscribers: Subscriber[] = [];
  const open = (url: string) =>
    new Promise<Subscriber>((resolve, reject) => {
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
      const s: Subscriber = { socket, messages: [] };
      const timer = setTimeout(() => reject(new Error(`a subscriber of ${url} had no first message in ${withinMs} ms`)), withinMs);
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { 'x-api-key': key } })));
      socket.on('message', (raw) => {
        const at = performance.now();
        const text = String(raw);
        if (text.startsWith('{"type":"next"') || text.includes('"type":"next"')) {
          s.messages.push({ at, text });
          if (s.messages.length === 1) {
            clearTimeout(timer);
            resolve(s);
          }
          return;
        }
        const m = JSON.parse(text) as { type: string; payload?: unknown };
        if (m.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
        else if (m.type === 'error') reject(new Error(`a subscription was refused: ${JSON.stringify(m.payload)}`));
      });
      socket.on('close', (code, reason) => reject(new Error(`a subscriber's socket closed: ${code} ${reason}`)));
      socket.on('error', reject);
    });
  try {
    for (let i = 0; i < count; i += batch) {
      subscribers.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, j) => open(urls[(i + j) % urls.length])))));
    }
  } catch (e) {
    for (const s of subscribers) s.socket.terminate();
    throw e;
  }
  const close = () => {
    for (const s of subscribers) {
      s.socket.removeAllListeners('close');
      s.socket.terminate();
    }
  };
  return {
    size: subscribers.length,
    close,
    async heard(match, since, withinMs = 30_000) {
      const t0 = performance.now();
      // first, until every subscriber has had a message since `since`, only their arrival instants are
      // looked at: parsing messages while others still arrive would hold up this process's reading of those
      while (subscribers.some((s) => !((s.messages.at(-1)?.at ?? -1) >= since)) && performance.now() - t0 <= withinMs) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const found: Array<number | undefined> = subscribers.map(() => undefined);
      const looked = subscribers.map(() => 0);
      for (;;) {
        subscribers.forEach((s, i) => {
          for (; found[i] === undefined && looked[i] < s.messages.length; looked[i]++) {
            const m = s.messages[looked[i]];
            if (m.at >= since && match((JSON.parse(m.text) as { payload: { data: Record<string, any> } }).payload.data)) found[i] = m.at;
          }
        });
        const missing = found.filter((t) => t === undefined).length;
        if (!missing) return found as number[];
        if (performance.now() - t0 > withinMs)
          throw new Error(`${subscribers.length - missing} of ${subscribers.length} subscribers heard it in ${withinMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** The spread of arrival instants: each one's delay after the first, in ms, at the given percentiles. */
export function spread(times: readonly number[], percentiles: readonly number[] = [50, 99, 100]): Record<string, number> {
  const first = Math.min(...times);
  const delays = times.map((t) => t - first).sort((a, b) => a - b);
  return Object.fromEntries(percentiles.map((p) => [`p${p}`, delays[Math.min(delays.length - 1, Math.ceil((p / 100) * delays.length) - 1)]]));
}
