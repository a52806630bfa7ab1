// The console's link to the service: the API key kept in this browser, a
// GraphQL client (queries and mutations over HTTP, subscriptions over
// graphql-ws on the same /graphql), and uploads with their progress.
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';

const KEY_ITEM = 'clipcast.apiKey';

export const storedKey = (): string | null => localStorage.getItem(KEY_ITEM);
export const storeKey = (key: string) => localStorage.setItem(KEY_ITEM, key);
export const forgetKey = () => localStorage.removeItem(KEY_ITEM);

export const GRAPHQL_PATH = '/graphql';

export interface Connection {
  key: string;
  urql: Client;
  ws: WsClient;
  dispose(): void;
}

function wsUrl(): string {
  const u = new URL(GRAPHQL_PATH, location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.href;
}

/** One client per key: signing out disposes it, with its WebSocket. */
export function connect(key: string): Connection {
  // lazy: the socket opens with the first subscription and closes after the last
  const ws = createWsClient({ url: wsUrl(), connectionParams: { apiKey: key }, lazy: true, retryAttempts: 5 });
  const urql = new Client({
    url: GRAPHQL_PATH,
    preferGetMethod: false,
    fetchOptions: () => ({ headers: { 'x-api-key': key } }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
    ],
  });
  return { key, urql, ws, dispose: () => void ws.dispose() };
}

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** The first error of an answer as one line, or null. */
export function answerError(a: GraphQLAnswer<unknown>): string | null {
  const e = a.errors?.[0];
  return e ? (e.extensions?.code ? `${e.extensions.code}: ${e.message}` : e.message) : null;
}

/** A query sent once with a key (signing in checks the key this way, before keeping it). */
export async function queryWithKey<T>(key: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(GRAPHQL_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', 'x-api-key': key },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await res.json().catch(() => ({ errors: [{ message: `HTTP ${res.status}` }] }))) as GraphQLAnswer<T>;
  const error = answerError(answer);
  if (error || !answer.data) throw new Error(error ?? `HTTP ${res.status}`);
  return answer.data;
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface Upload<T> {
  done: Promise<T>;
  abort(): void;
}

/**
 * A mutation with one Upload variable, sent as a GraphQL multipart request
 * through XMLHttpRequest: unlike fetch, it reports how much of the body is sent.
 */
export function uploadMutation<T>(
  key: string,
  query: string,
  variables: Record<string, unknown>,
  fileVariable: string,
  file: File,
  onProgress: (p: UploadProgress) => void,
): Upload<T> {
  const form = new FormData();
  // the multipart request spec: operations, then the map, then the file parts
  form.append('operations', JSON.stringify({ query, variables: { ...variables, [fileVariable]: null } }));
  form.append('map', JSON.stringify({ 0: [`variables.${fileVariable}`] }));
  form.append('0', file, file.name);
  const xhr = new XMLHttpRequest();
  const done = new Promise<T>((resolve, reject) => {
    xhr.open('POST', GRAPHQL_PATH);
    xhr.setRequestHeader('x-api-key', key);
    xhr.setRequestHeader('accept', 'application/graphql-response+json, application/json');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      const answer = (xhr.response ?? {}) as GraphQLAnswer<T>;
      const error = answerError(answer);
      if (error || !answer.data) reject(new Error(error ?? `HTTP ${xhr.status}`));
      else resolve(answer.data);
    };
    xhr.onerror = () => reject(new Error('The upload was cut off (network error)'));
    xhr.onabort = () => reject(new Error('The upload was cancelled'));
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** Saves text as a file of the user's (a caption file). */
export function saveText(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
