import type { Followed, FollowOptions } from './ws.js';

/**
 * Reads a GraphQL-over-SSE response: each event's `data` payload goes through
 * `pick`; collection stops (and the stream is cancelled) once `until` says so.
 * A payload with errors rejects.
 */
export async function readSse<T>(
  res: Response,
  pick: (data: Record<string, any>) => T | undefined,
  until: (e: T) => boolean,
  /** the request's signal: once it aborts, reading fails with `aborted(events)` */
  opts: { signal?: AbortSignal; aborted?: (events: T[]) => Error } = {},
): Promise<T[]> {
  const events: T[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    const { done, value } = await reader.read().catch((e: unknown) => {
      throw opts.signal?.aborted && opts.aborted ? opts.aborted(events) : e;
    });
    if (done) return events;
    buf += decoder.decode(value, { stream: true });
    const blocks = buf.split('\n\n');
    buf = blocks.pop()!;
    for (const block of blocks) {
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      if (!data) continue;
      const payload = JSON.parse(data);
      if (payload.errors) throw new Error(JSON.stringify(payload.errors));
      const e = payload.data ? pick(payload.data) : undefined;
      if (e === undefined) continue;
      events.push(e);
      if (until(e)) {
        await reader.cancel();
        return events;
      }
    }
  }
}

/** Opens a subscription over SSE on /graphql. */
export const subscribeSse = (url: string, key: string, query: string, variables: Record<string, unknown>, signal?: AbortSignal) =>
  fetch(new URL('/graphql', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': key },
    body: JSON.stringify({ query, variables }),
    signal,
  });

/**
 * Follows a subscription over SSE until the server ends the stream, `until`
 * holds, or `withinMs` passes (the request is aborted then).
 */
export async function followSse<T>(
  url: string,
  key: string,
  query: string,
  variables: Record<string, unknown>,
  pick: (data: Record<string, any>) => T,
  { until = () => false, withinMs = 20_000 }: FollowOptions<T> = {},
): Promise<Followed<T>> {
  const signal = AbortSignal.timeout(withinMs);
  const res = await subscribeSse(url, key, query, variables, signal);
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`not a stream: ${res.status} ${await res.text()}`);
  let held = false;
  let timedOut: T[] | undefined;
  const events = await readSse(res, pick, (e) => (held = until(e)), {
    signal,
    aborted: (so) => {
      timedOut = so;
      return new Error('timed out');
    },
  }).catch((err: unknown) => {
    if (timedOut) return timedOut;
    throw err;
  });
  return { events, ended: timedOut ? 'timeout' : held ? 'until' : 'server' };
}
