/**
 * The API reference: an OpenAPI 3.1 document made of the route table and
 * nothing else. Each route gives its path, its query parameters, the zod
 * schema its check reads the body with, the schema of its answer (from its
 * GraphQL operation's data) and its own refusals; the refusals every route may
 * give, the rate limits (by the operation's root field), the API-key scheme
 * and the webhooks' payloads (their zod schemas) come from the modules that
 * enforce them. docs/api.md holds the rules a schema cannot.
 */
import { Kind } from 'graphql';
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../src/errors.js';
import { schema as graphqlSchema } from '../src/graphql/schema.js';
import { REPLAYED_HEADER } from '../src/idempotency/keys.js';
import { RATE_LIMITS } from '../src/limits/rate-limits.js';
import { PRESSURED_OPERATIONS } from '../src/limits/back-pressure.js';
import { WEBHOOK_PAYLOADS } from '../src/webhooks/events.js';
import { MAX_ATTEMPTS } from '../src/webhooks/schedule.js';
import type { QueryParam } from './query.js';
import { operationData, rootField, type JsonSchema } from './response.js';
import type { Route } from './route.js';
import { routeGroups } from './routes.js';

const JSON_TYPE = 'application/json';
const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'created', 202: 'accepted: the work goes on in the background' };
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** `/v1/projects/:id` as OpenAPI writes it, and its parameters' names. */
const pathOf = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const pathParams = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);

/**
 * A zod schema as JSON Schema 2020-12: a body's members as sent (a pipe by
 * what it checks the values as), a `fields()` object closed as its check
 * closes it, the GraphQL hints and refused fields' words of the metadata left out.
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      delete jsonSchema.graphql;
      delete jsonSchema.refused;
      // a member beyond SPEC.md says so
      if (typeof jsonSchema.extension === 'string') {
        jsonSchema['x-extension'] = jsonSchema.extension;
        delete jsonSchema.extension;
      }
      const extra = jsonSchema.additionalProperties;
      if (extra && typeof extra === 'object' && !Object.keys(extra).length) jsonSchema.additionalProperties = false;
    },
  }) as JsonSchema;
  return json;
}

/** What every refusal says: the code, the message, and what the code adds. */
const errorSchema = {
  type: 'object',
  description: 'Every refusal: its code, a message for a person, the violated fields of a VALIDATION_ERROR, the seconds to wait of a RATE_LIMIT_EXCEEDED',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', enum: Object.keys(ERROR_STATUS) },
    message: { type: 'string' },
    details: {
      anyOf: [
        { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
        { type: 'object', description: 'what an error other than a validation error adds' },
      ],
    },
    retryAfter: { type: 'integer', description: 'seconds until the limit resets (429)' },
  },
  additionalProperties: false,
};

const fieldErrorSchema = {
  type: 'object',
  required: ['field', 'message'],
  properties: {
    field: { type: 'string', description: 'the member as the body or the query names it: items[1].endTime, platforms.microblog.content, limit' },
    message: { type: 'string' },
    value: { description: 'the value sent, when there was one' },
  },
  additionalProperties: false,
};

const titleCase = (h: string) => h.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => dash + c.toUpperCase());

const header = (description: string, schema: JsonSchema = { type: 'integer' }) => ({ description, schema });

/** The response headers, described once (components.headers) and referred to. */
const HEADERS = {
  'X-RateLimit-Limit': header('requests per hour this operation allows you (not on a replayed answer, which spends nothing)'),
  'X-RateLimit-Remaining': header('requests left in the current hour'),
  'X-RateLimit-Reset': header('when the hour resets, in Unix seconds'),
  'Retry-After': header('seconds until the limit resets'),
  'x-request-id': header('the id of this request in the service logs (the one sent in x-request-id, else a new one)', { type: 'string' }),
  [titleCase(REPLAYED_HEADER)]: header('true on an answer replayed for an Idempotency-Key', { type: 'string', enum: ['true'] }),
};
const refs = (...names: Array<keyof typeof HEADERS>) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const RATE_LIMIT_HEADERS = refs('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');

/** The refusals a route may give whatever it does, with when. */
function commonErrors(r: Route, limit: number | undefined): Array<[ErrorCode, string]> {
  const out: Array<[ErrorCode, string]> = [['UNAUTHORIZED', 'the x-api-key header is missing or holds no valid key']];
  const params = pathParams(r.url);
  const reads = r.body || r.form || r.query || r.method === 'POST';
  if (reads) out.push(['VALIDATION_ERROR', 'a parameter, a member of the body or the Idempotency-Key header is invalid: details names each one']);
  if (params.length) out.push(['NOT_FOUND', `no ${params.join(' or ')} of yours`]);
  if (r.body && !r.form) {
    out.push(['UNSUPPORTED_MEDIA_TYPE', 'the body is not application/json']);
    out.push(['PAYLOAD_TOO_LARGE', 'the body is over 10 MB']);
  }
  if (r.form) out.push(['REQUEST_TIMEOUT', 'the upload moved slower than the floor of docs/api.md, Connection limits (a code beyond the first specification)']);
  else if (r.body)
    out.push([
      'REQUEST_TIMEOUT',
      'the body did not arrive whole within the deadline of docs/api.md, Connection limits (a code beyond the first specification)',
    ]);
  if (limit !== undefined) out.push(['RATE_LIMIT_EXCEEDED', `over ${limit} requests in the hour: retryAfter and Retry-After say when to come back`]);
  if (PRESSURED_OPERATIONS.has(rootField(r.operation))) {
    out.push([
      'RATE_LIMIT_EXCEEDED',
      'you have USER_MAX_WAITING jobs waiting, your share of the queue (back-pressure): retryAfter and Retry-After say when to come back',
    ]);
    out.push([
      'SERVICE_UNAVAILABLE',
      'the queue holds QUEUE_MAX_WAITING jobs waiting, or the data disk has less than DISK_MIN_FREE_MB free; answered before the body is read, nothing kept; retryAfter and Retry-After say when to come back (a code beyond the first specification)',
    ]);
  }
  out.push(['INTERNAL_SERVER_ERROR', 'a fault of the service']);
  return out;
}

/** The refusals of a route by HTTP status, each with its codes. */
function errorResponses(r: Route, limit: number | undefined): Record<string, unknown> {
  const byStatus = new Map<number, Array<[ErrorCode, string]>>();
  for (const [code, when] of [...commonErrors(r, limit), ...(Object.entries(r.errors ?? {}) as Array<[ErrorCode, string]>)]) {
    const list = byStatus.get(ERROR_STATUS[code]) ?? [];
    const same = list.find(([c]) => c === code);
    if (same) same[1] = `${same[1]}; ${when}`;
    else list.push([code, when]);
    byStatus.set(ERROR_STATUS[code], list);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => {
        const schema: JsonSchema = { allOf: [ERROR_REF], properties: { error: { enum: codes.map(([c]) => c) } } };
        if (status === 429 || status === 503) schema.required = ['retryAfter'];
        const headers = status === 429 ? { ...refs('Retry-After'), ...RATE_LIMIT_HEADERS } : status === 503 ? refs('Retry-After') : undefined;
        return [
          String(status),
          {
            description: codes.map(([c, when]) => `${c}: ${when}`).join('. '),
            ...(headers ? { headers } : {}),
            content: { [JSON_TYPE]: { schema } },
          },
        ];
      }),
  );
}

/** A form's text parts (every part is text; JSON for the members that are not a string, number or boolean) and its file. */
function formBody(r: Route, name: string) {
  const fields = r.body ? jsonSchemaOf(r.body) : { type: 'object', properties: {}, required: [] };
  const properties = {
    ...(fields.properties as Record<string, JsonSchema>),
    file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'the file' },
  };
  const encoding = Object.fromEntries(
    Object.entries(properties)
      .filter(([, s]) => !['string', 'number', 'integer', 'boolean'].includes(s.type as string))
      .map(([key]) => [key, { contentType: JSON_TYPE }]),
  );
  return {
    required: true,
    description: 'multipart/form-data; the parts in any order (text parts before the file are judged before the file is read)',
    content: {
      'multipart/form-data': {
        schema: { title: name, ...fields, properties, required: [...((fields.required as string[]) ?? []), 'file'] },
        ...(Object.keys(encoding).length ? { encoding } : {}),
      },
    },
  };
}

function operationOf(r: Route, tag: string, components: Record<string, JsonSchema>) {
  const op = r.operation.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const name = op?.kind === Kind.OPERATION_DEFINITION && op.name ? op.name.value : r.url;
  const field = rootField(r.operation);
  const limit = Object.hasOwn(RATE_LIMITS, field) ? RATE_LIMITS[field] : undefined;

  const parameters: unknown[] = pathParams(r.url).map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } }));
  for (const [p, q] of Object.entries((r.query ?? {}) as Record<string, QueryParam<unknown>>))
    parameters.push({ name: p, in: 'query', required: false, schema: q.schema });
  if (r.method === 'POST') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'makes a retry safe: the same key with the same request gets the first answer again (for 24 hours), with Idempotent-Replayed: true',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }

  let requestBody: unknown;
  if (r.form) requestBody = formBody(r, `${name}Form`);
  else if (r.body) {
    components[`${name}Body`] = jsonSchemaOf(r.body);
    const required = ((components[`${name}Body`].required as string[] | undefined)?.length ?? 0) > 0 || r.method === 'PUT';
    requestBody = { required, content: { [JSON_TYPE]: { schema: { $ref: `#/components/schemas/${name}Body` } } } };
  }

  const answer = r.answer.schema(operationData(graphqlSchema, r.operation));
  // a JSON answer is a named schema; a file (captions) is described where it is served
  if (!r.produces) components[name] = answer;
  const content = r.produces
    ? Object.fromEntries(r.produces.map((type) => [type.split(';')[0], { schema: answer }]))
    : { [JSON_TYPE]: { schema: { $ref: `#/components/schemas/${name}` } } };
  const headers = {
    ...refs('x-request-id'),
    ...(limit !== undefined ? RATE_LIMIT_HEADERS : {}),
    ...(r.method === 'POST' ? refs(titleCase(REPLAYED_HEADER)) : {}),
  };
  const status = typeof r.status === 'number' ? r.status : 200;
  const statuses = r.statuses ?? { [status]: SUCCESS[status] };
  const responses = Object.fromEntries(Object.entries(statuses).map(([code, description]) => [code, { description, headers, content }]));

  const notes = [r.extension ? `An extension of SPEC.md: ${r.extension}.` : '', limit === undefined ? '' : `Rate limit: ${limit} requests per hour.`].filter(
    Boolean,
  );
  return {
    operationId: name,
    summary: r.summary,
    tags: [tag],
    ...(r.extension ? { 'x-extension': r.extension } : {}),
    description: notes.length ? notes.join(' ') : undefined,
    parameters: parameters.length ? parameters : undefined,
    requestBody,
    responses: { ...responses, ...errorResponses(r, limit) },
  };
}

/** The webhooks (DECISIONS.md): one per event, each POSTing its payload, signed. */
function webhooks(components: Record<string, JsonSchema>) {
  const signed = [
    ['webhook-id', 'the delivery id: the same at every attempt of a delivery (deduplicate on it)'],
    ['webhook-timestamp', 'Unix seconds of this attempt'],
    ['webhook-signature', 'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}"> keyed with your whsec_ secret (Standard Webhooks)'],
  ].map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));
  const out: Record<string, unknown> = {};
  const named = new Map<unknown, string>();
  for (const [event, schema] of Object.entries(WEBHOOK_PAYLOADS)) {
    if (!named.has(schema)) {
      const name = `${titleCase(event.split('.')[0].replace(/_/g, '-')).replace(/-/g, '')}Payload`;
      named.set(schema, name);
      components[name] = jsonSchemaOf(schema);
    }
    out[event] = {
      post: {
        summary: `${event}: POSTed to the webhookUrl the request gave`,
        parameters: signed,
        requestBody: {
          required: true,
          content: { [JSON_TYPE]: { schema: { allOf: [{ $ref: `#/components/schemas/${named.get(schema)}` }], properties: { event: { const: event } } } } },
        },
        responses: {
          '2XX': {
            description: `delivered; any other answer, a redirect or no answer within 10 s is retried with a growing wait, ${MAX_ATTEMPTS} attempts in all (docs/api.md)`,
          },
        },
      },
    };
  }
  return out;
}

let made: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of /v1, made once per process. */
export function openApiDocument(): Record<string, unknown> {
  if (made) return made;
  const components: Record<string, JsonSchema> = { Error: errorSchema, FieldError: fieldErrorSchema };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [tag, group] of Object.entries(routeGroups)) {
    for (const r of group) {
      const path = (paths[pathOf(r.url)] ??= {});
      // through JSON: members left undefined are left out
      path[r.method.toLowerCase()] = JSON.parse(JSON.stringify(operationOf(r, tag, components)));
    }
  }
  made = {
    openapi: '3.1.0',
    info: {
      title: 'clipcast API',
      version: '1',
      description:
        'Video captioning, clipping and publishing. Every /v1 route needs an API key in the x-api-key header (or Authorization: Bearer); ' +
        'the GraphQL endpoint /graphql serves the same operations. Ids are UUIDs, times ISO 8601. Webhooks, limits, pagination and error ' +
        'conventions: docs/api.md of the repository.',
    },
    tags: Object.keys(routeGroups).map((name) => ({ name })),
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    webhooks: webhooks(components),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'sk-… as `npm run admin -- user create` prints it' },
        bearer: { type: 'http', scheme: 'bearer', description: 'the same key as Authorization: Bearer sk-…' },
      },
      headers: HEADERS,
      schemas: components,
    },
  };
  return made;
}
