/**
 * Every /v1 answer and every webhook a test receives, checked against the API reference: its
 * status is one the document gives the route, its body fits the schema of that
 * status and media type, and a rate-limited route's success carries the
 * rate-limit headers (but for a replay, which spends nothing). A mismatch fails the calling test, naming the route, the
 * status and what does not fit. Validators are compiled once per process, on
 * first use of each route and status.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../rest/openapi.js';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
}

interface Webhook {
  post: { parameters: Array<{ name: string }>; requestBody: { content: Record<string, { schema: unknown }> } };
}

interface Compiled {
  ajv: Ajv2020;
  routes: Array<{ method: string; path: string; pattern: RegExp; operation: Operation }>;
  webhooks: Record<string, Webhook>;
  validators: Map<string, ValidateFunction>;
}

let compiled: Compiled | undefined;

function load(): Compiled {
  if (compiled) return compiled;
  const doc = openApiDocument() as { paths: Record<string, Record<string, Operation>>; webhooks: Record<string, Webhook> };
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the document's other keywords are not schema keywords
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
      operation,
    })),
  );
  // static paths before templated ones, as the router matches them
  routes.sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  compiled = { ajv, routes, webhooks: doc.webhooks, validators: new Map() };
  return compiled;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validator(c: Compiled, ref: string): ValidateFunction {
  let v = c.validators.get(ref);
  if (!v) c.validators.set(ref, (v = c.ajv.compile({ $ref: `openapi.json#/${ref}` })));
  return v;
}

/**
 * Throws when an answer of a /v1 route does not fit the reference. A path no
 * route has must be the service's 404 (or 401 without a key), in the error shape.
 */
export function checkAnswer(method: string, url: string, status: number, headers: Headers, body: unknown): void {
  const pathname = new URL(url, 'http://x').pathname;
  if (!pathname.startsWith('/v1/')) return;
  const c = load();
  const route = c.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(pathname));
  const name = route ? `${route.method} ${route.path}` : `${method} ${pathname}`;
  const fail = (why: string) => {
    throw new Error(`${name} answered ${status}, which does not fit the API reference (/openapi.json): ${why}\nbody: ${JSON.stringify(body)?.slice(0, 600)}`);
  };
  if (!route) {
    if (status !== 404 && status !== 401) fail('no route of the reference has this path and method, and the answer is not 404 (or 401)');
    const v = validator(c, pointer('components', 'schemas', 'Error'));
    if (!v(body)) fail(c.ajv.errorsText(v.errors));
    return;
  }
  const response = route.operation.responses[String(status)];
  if (!response) return fail(`the reference gives it the statuses ${Object.keys(route.operation.responses).join(', ')}`);
  if (status === 304 || !response.content) return;
  const type = (headers.get('content-type') ?? '').split(';')[0].trim();
  if (!response.content[type]) return fail(`its Content-Type ${type || '(none)'} is not one the reference gives (${Object.keys(response.content).join(', ')})`);
  const v = validator(c, pointer('paths', route.path, route.method.toLowerCase(), 'responses', String(status), 'content', type, 'schema'));
  if (!v(body)) fail(c.ajv.errorsText(v.errors, { separator: '; ' }));
  // a replayed answer spends nothing, so it carries no rate-limit headers
  const replayed = headers.get('idempotent-replayed') === 'true';
  if (status < 300 && !replayed && response.headers?.['X-RateLimit-Limit'] && !headers.get('x-ratelimit-limit'))
    fail('a rate-limited route answered without X-RateLimit-Limit');
}

/** Throws when a webhook the service sent does not fit the reference's `webhooks`: its event, signature headers and payload. */
export function checkWebhook(headers: Record<string, string | string[] | undefined>, payload: unknown): void {
  const c = load();
  const event = (payload as { event?: unknown } | null)?.event;
  const fail = (why: string) => {
    throw new Error(`a webhook does not fit the API reference (/openapi.json): ${why}\npayload: ${JSON.stringify(payload)?.slice(0, 600)}`);
  };
  if (typeof event !== 'string' || !Object.hasOwn(c.webhooks, event))
    return fail(`its event ${String(event)} is not one of ${Object.keys(c.webhooks).join(', ')}`);
  const hook = c.webhooks[event];
  for (const p of hook.post.parameters) if (!headers[p.name]) fail(`${event} came without the header ${p.name}`);
  const v = validator(c, pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema'));
  if (!v(payload)) fail(`${event}: ${c.ajv.errorsText(v.errors, { separator: '; ' })}`);
}
