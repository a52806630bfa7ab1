/** Talking to a running service over HTTP: REST, GraphQL, and waiting for a project or a library entry. */
import { checkAnswer } from './openapi.js';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** What the HTTP helpers need of a running service (a TestApp, or a service a bench started). */
export interface Reachable {
  url: string;
}

/** A request over the real HTTP port, JSON in and out; a /v1 answer must fit the API reference (openapi.ts). */
export async function request<T = any>(
  app: Reachable,
  method: string,
  url: string,
  { key, json, headers = {}, body }: { key?: string; json?: unknown; headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<Answer<T>> {
  const h: Record<string, string> = { ...headers };
  if (key) h['x-api-key'] = key;
  if (json !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(new URL(url, app.url), { method, headers: h, body: json !== undefined ? JSON.stringify(json) : body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  checkAnswer(method, url, res.status, res.headers, parsed);
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** A GraphQL operation over HTTP. */
export const gql = <T = any>(app: Reachable, key: string | undefined, query: string, variables?: Record<string, unknown>) =>
  request<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, any> }> }>(app, 'POST', '/graphql', { key, json: { query, variables } });

/** Runs `check` until it passes (every 100 ms); past `timeoutMs`, its last failure is thrown. */
export async function eventually(check: () => Promise<void>, timeoutMs = 5_000) {
  for (const t0 = Date.now(); ; ) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() - t0 > timeoutMs) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Reads GET /v1/projects/{id} until `until` holds; fails with the last record after `timeoutMs`.
 * A service in the test's own process is read again as soon as it publishes a change of the
 * project (the event its subscribers get), a remote one every 250 ms.
 */
export async function waitProject(app: Reachable | Observable, key: string, id: string, until: (p: any) => boolean, timeoutMs = 120_000) {
  const changes = 'runtime' in app ? changesOf(app, id) : undefined;
  try {
    for (const t0 = Date.now(); ; ) {
      const r = await request(app, 'GET', `/v1/projects/${id}`, { key });
      if (r.status === 200 && until(r.body)) return r.body;
      if (Date.now() - t0 > timeoutMs) throw new Error(`project ${id}: ${JSON.stringify(r.body).slice(0, 400)}`);
      // a change the read above missed is already queued; a second read each second covers writes that publish nothing
      await (changes ? changes.next(1_000) : new Promise((res) => setTimeout(res, 250)));
    }
  } finally {
    changes?.close();
  }
}

/** A service running in the test's process, whose project events the waits can follow. */
export interface Observable extends Reachable {
  runtime: { app: { pubsub: { subscribe(topic: 'projectUpdated', id: string): AsyncIterable<unknown> } } };
}

/** The project's published changes: `next` settles at the next one (or one already seen since the last call), or after `ms`. */
function changesOf(app: Observable, id: string) {
  const events = app.runtime.app.pubsub.subscribe('projectUpdated', id)[Symbol.asyncIterator]();
  let pending = 0;
  let wake: (() => void) | undefined;
  let open = true;
  void (async () => {
    while (open) {
      const { done } = await events.next();
      if (done) return;
      pending++;
      wake?.();
    }
  })().catch(() => {});
  return {
    next(ms: number): Promise<void> {
      if (pending > 0) {
        pending = 0;
        return Promise.resolve();
      }
      return new Promise<void>((res) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          pending = 0;
          res();
        }
        wake = done;
      });
    },
    close() {
      open = false;
      void events.return?.();
    },
  };
}

/** Polls a library entry (GraphQL userMediaEntry) until `until` holds, by default until it is no longer pending. */
export async function waitEntry(app: Reachable, key: string, id: string, until = (m: any) => m.status !== 'pending', timeoutMs = 20_000) {
  for (const t0 = Date.now(); ; ) {
    const r = await gql(app, key, 'query($id: ID!) { userMediaEntry(id: $id) { id type status fileName url metadata failureReason createdAt } }', { id });
    const m = r.body.data?.userMediaEntry;
    if (m && until(m)) return m;
    if (Date.now() - t0 > timeoutMs) throw new Error(`entry ${id} still ${JSON.stringify(m ?? r.body)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}
