import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { processRequest, type FileUpload } from 'graphql-upload-ts';
import type { App } from '../app.js';
import { AppError, isAppError } from '../errors.js';
import { createGraphQLServer, type GraphQLServer } from '../graphql/yoga.js';
import { httpDuration, observeQueue, queueByClass, registry } from '../metrics.js';
import { migrationsApplied } from '../db/health.js';
import { answerClientError, codeForStatus, endWithError, graphqlErrorBody, sendErrorFor, trackRequests } from './errors.js';
import { registerFileRoutes } from './files.js';
import { registerConsole } from './console.js';
import { registerCors } from './cors.js';
import { registerGraphiQLRoutes } from './graphiql.js';
import { registerOAuthCallback } from './oauth-callback.js';
import { registerPreviewRoutes } from './previews.js';
import { findUploads } from '../idempotency/fingerprint.js';
import { bodyPending, endingWith, requestEnd } from './request-end.js';
import { urlSigningSecret } from '../storage/index.js';
import { MAX_BODY_BYTES } from '../config.js';
import { watchRequestBodies } from './timeouts.js';
import { serveGraphQLOverWebSocket } from './websocket.js';

/** Longer than any id; a longer path segment cannot pass Node's 16 KB limit on a request's head anyway. */
const MAX_PATH_SEGMENT = 16 * 1024;

/** The largest file any operation accepts (magic-clips uploads); each operation enforces its own limit. */
const MAX_UPLOAD_BYTES = 10 * 1024 ** 3;

export interface HttpServer {
  fastify: FastifyInstance;
  graphql: GraphQLServer;
  listen(): Promise<string>;
  /** stops taking requests, then closes sockets (WebSocket clients included) */
  close(): Promise<void>;
}

/**
 * Fastify hosting GraphQL (HTTP, SSE and graphql-ws on /graphql), /healthz,
 * /metrics and the web console at /; the runtime mounts the /v1 REST adapter on it as a plugin.
 */
export async function createHttpServer(app: App): Promise<HttpServer> {
  const limits = app.config.connections;
  const fastify = Fastify({
    loggerInstance: app.log as FastifyBaseLogger,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // a path segment is judged by the route (an id that long names nothing: 404), not refused by the router
    routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
    // what the router and the HTTP parser refuse is answered in the service's own shapes
    frameworkErrors: (error, req, reply) => {
      const refused =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new AppError('NOT_FOUND', `Route ${req.method} ${req.url.split('?')[0].slice(0, 200)}… not found`)
          : new AppError('BAD_REQUEST', 'The path of the URL is not valid percent-encoded UTF-8');
      // the router refuses before any hook runs, the onSend one too: its answer to a request whose
      // body is still coming must close as that hook's do, or the reset of a plain close can drop it
      if (bodyPending(req.raw)) closeAfterAnswer(req.raw, reply.raw);
      return sendErrorFor(req.url, reply, refused);
    },
    clientErrorHandler: answerClientError,
    // a request without the Host header HTTP/1.1 requires is refused below, in the service's shapes,
    // rather than by Node itself with an empty 400
    // Node ends a request whose head is slow (answered 408 by clientErrorHandler); it looks every
    // connectionsCheckingInterval, so that is kept well under the limit
    http: {
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(5_000, Math.ceil(limits.headersTimeoutMs / 4)),
    },
  });
  trackRequests(fastify.server);
  watchRequestBodies(fastify.server, limits);
  // an expectation other than 100-continue is ignored (RFC 9110 allows it) rather than
  // answered by Node itself with an empty 417 outside every shape of this service
  fastify.server.on('checkExpectation', (req, res) => fastify.server.emit('request', req, res));
  const graphql = createGraphQLServer(app);

  fastify.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // RFC 9112: a server must answer 400 to an HTTP/1.1 request without Host, before anything runs
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      return sendErrorFor(req.url, reply, new AppError('BAD_REQUEST', 'An HTTP/1.1 request needs a Host header'));
    }
  });
  registerCors(fastify, app.config);
  // an answer given before the request's body was read (a refused upload, an unknown route)
  // closes the connection once sent: the client learns it at once instead of sending the rest
  fastify.addHook('onSend', async (req, reply, payload) => {
    if (bodyPending(req.raw)) closeAfterAnswer(req.raw, reply.raw);
    return payload;
  });
  fastify.addHook('onResponse', async (req, reply) => {
    httpDuration.observe({ method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  // JSON bodies that fail to parse are the caller's error, in the format of the door
  fastify.setErrorHandler((error, req, reply) => {
    const send = (e: AppError) => sendErrorFor(req.url, reply, e);
    if (isAppError(error)) return send(error);
    const fe = error as { statusCode?: number; code?: string; message: string };
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(new AppError('UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type: ${req.headers['content-type'] ?? 'none'}`));
    }
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large'));
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return send(new AppError('VALIDATION_ERROR', `Invalid request: ${fe.message}`, { details: [{ field: 'body', message: fe.message }] }));
    }
    req.log.error({ err: error }, 'unhandled error');
    return send(new AppError('INTERNAL_SERVER_ERROR', 'Internal server error'));
  });

  fastify.get('/healthz', async (_req, reply) => {
    const ok = await migrationsApplied(app.db).catch(() => false);
    if (!ok) return reply.code(503).send({ status: 'unavailable' });
    // the queue by class beside the status (an extension of the contract's answer); left out when it cannot be read
    const queue = await app.jobs
      .queueState()
      .then((s) => (s ? queueByClass(s) : undefined))
      .catch(() => undefined);
    return reply.code(200).send({ status: 'ok', ...(queue ? { queue } : {}) });
  });

  fastify.get('/metrics', async (_req, reply) => {
    await observeQueue(app).catch((err) => app.log.warn({ err }, 'the queue could not be read for /metrics'));
    return reply.type(registry.contentType).send(await registry.metrics());
  });

  // multipart bodies stay unread here: /graphql hands them to graphql-upload-ts, REST upload
  // routes stream them with busboy; neither holds a file in memory
  fastify.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null, undefined));

  // open SSE subscriptions: a graceful stop ends them, or they would keep it waiting forever
  const streams = new Set<import('node:net').Socket>();

  // GraphQL over HTTP and SSE; Yoga reads the body Fastify already parsed
  fastify.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    preValidation: async (req, reply) => {
      if (!req.headers['content-type']?.startsWith('multipart/form-data')) return;
      try {
        // the operations object, its Upload variables resolving as file parts arrive
        req.body = await processRequest(req.raw, reply.raw, { maxFileSize: MAX_UPLOAD_BYTES, maxFiles: 5 });
        // a file is whole once the request is: one whose request breaks after its last byte is cut off
        const ended = requestEnd(req.raw, () => new Error('the request ended before its form did'));
        for (const upload of findUploads(req.body)) {
          (upload as { promise: Promise<FileUpload> }).promise = upload.promise.then((file) => ({
            ...file,
            createReadStream: ((options?: Parameters<FileUpload['createReadStream']>[0]) =>
              endingWith(file.createReadStream(options), ended)) as FileUpload['createReadStream'],
          }));
          upload.promise.catch(() => {}); // read (and reported) by the operation
        }
      } catch (e) {
        // a form that breaks before its operations are known: the caller's error
        const err = e as { status?: number; message: string };
        throw err.status === 413 ? new AppError('PAYLOAD_TOO_LARGE', err.message) : new AppError('BAD_REQUEST', `Invalid multipart request: ${err.message}`);
      }
    },
    handler: async (req, reply) => {
      const responseHeaders = new Map<string, string>();
      const response = await graphql.handleNodeRequestAndResponse(req, reply, { requestId: req.id, log: req.log, responseHeaders });
      for (const [k, v] of responseHeaders) reply.header(k, v);
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        const socket = req.raw.socket;
        streams.add(socket);
        socket.once('close', () => streams.delete(socket));
      }
      response.headers.forEach((value, key) => void reply.header(key, value));
      reply.status(response.status);
      // a refusal Yoga gives with a status alone (415 for a body it cannot read) still says why, in GraphQL's format
      if (response.status >= 400 && !response.body) return reply.type('application/json').send(graphqlErrorBody(yogaRefusal(req, response.status)));
      return reply.send(response.body);
    },
  });

  registerFileRoutes(fastify, app.storage, urlSigningSecret(app.config));
  registerConsole(fastify);
  registerGraphiQLRoutes(fastify);
  registerOAuthCallback(fastify, app);
  registerPreviewRoutes(fastify, app);

  const { wss, dispose: closeSockets } = serveGraphQLOverWebSocket(app, graphql);
  // a handshake ws refuses (a wrong method, key, version or subprotocol list) is answered in GraphQL's format
  wss.on('wsClientError', (err, socket) => {
    endWithError(socket as Socket, '/graphql', new AppError('BAD_REQUEST', `WebSocket handshake refused: ${err.message}`));
    lingerAndClose(socket as Socket);
  });
  // a request to open a tunnel: this is no proxy, and Node would drop the connection unanswered
  fastify.server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    endWithError(socket, '/', new AppError('BAD_REQUEST', 'CONNECT is not served: this server is not a proxy'));
    lingerAndClose(socket);
  });
  fastify.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => {});
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/graphql') {
      // only /graphql switches protocols (to WebSocket); elsewhere Node no longer reads the request as HTTP
      endWithError(
        socket,
        req.url ?? '/',
        new AppError('BAD_REQUEST', `${req.url?.split('?')[0].slice(0, 200)} does not switch protocols: only /graphql takes a WebSocket upgrade`),
      );
      lingerAndClose(socket);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  return {
    fastify,
    graphql,
    async listen() {
      return fastify.listen({ port: app.config.port, host: app.config.host });
    },
    async close() {
      // refuse new requests first (503 while closing), then end long-lived streams
      const closing = fastify.close();
      for (const socket of streams) socket.destroy();
      await closeSockets();
      await closing;
    },
  };
}

/** How long a connection closed after an early answer still reads what its client sends. */
const LINGER_MS = 5_000;

/**
 * Answers with `Connection: close` and, once the answer is out, closes our side
 * of the connection while what the client still sends is read and dropped for
 * a moment (a lingering close): closing a socket with unread bytes would answer
 * them with a reset, and a reset can make the client's system discard our
 * answer before the client has read it.
 */
function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  const socket = req.socket;
  // Node ends a `Connection: close` exchange with destroySoon(): end, then destroy
  socket.destroySoon = () => {
    req.unpipe();
    req.resume();
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** After an answer written on a connection: what the client still sends is read and dropped for a moment, then the connection closes. */
function lingerAndClose(socket: Socket): void {
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** Why Yoga refused a request it answered with a status alone. */
function yogaRefusal(req: { method: string; headers: IncomingMessage['headers'] }, status: number): AppError {
  const code = codeForStatus(status);
  if (code === 'UNSUPPORTED_MEDIA_TYPE') {
    return new AppError(
      code,
      `Unsupported Content-Type ${req.headers['content-type'] ?? '(none)'}: send application/json, or multipart/form-data for an upload`,
    );
  }
  return new AppError(code, `The GraphQL request was refused (HTTP ${status}) for its method, headers or body`);
}
