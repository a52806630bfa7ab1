import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

export interface Followed<T> {
  events: T[];
  /** why following stopped: the server completed the subscription, `until` held, or time ran out */
  ended: 'server' | 'until' | 'timeout';
}

/** When a follower stops by itself: once `until` holds for an event, or after `withinMs` (default 20 s). */
export interface FollowOptions<T> {
  until?: (e: T) => boolean;
  withinMs?: number;
}

/**
 * Follows a subscription over graphql-ws (the key in connectionParams) until the
 * server completes it, `until` holds, or `withinMs` passes; the connection is
 * closed in every case. A payload with errors rejects.
 */
export function followWs<T>(
  url: string,
  key: string,
  query: string,
  variables: Record<string, unknown>,
  pick: (data: Record<string, any>) => T,
  { until = () => false, withinMs = 20_000 }: FollowOptions<T> = {},
): Promise<Followed<T>> {
  const client = createClient({
    url: `${url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { 'x-api-key': key },
    retryAttempts: 0,
  });
  const events: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  return new Promise<Followed<T>>((resolve, reject) => {
    let stop = () => {};
    const end = (ended: Followed<T>['ended']) => {
      stop();
      resolve({ events: [...events], ended });
    };
    timer = setTimeout(() => end('timeout'), withinMs);
    stop = client.subscribe<Record<string, any>>(
      { query, variables },
      {
        next: (r) => {
          if (r.errors) return reject(new Error(JSON.stringify(r.errors)));
          const e = pick(r.data!);
          events.push(e);
          if (until(e)) end('until');
        },
        error: (err) => reject(err instanceof Error ? err : new Error(JSON.stringify(err))),
        complete: () => end('server'),
      },
    );
  }).finally(() => {
    clearTimeout(timer);
    return client.dispose();
  });
}
