import type { FastifyReply } from 'fastify';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors.js';
import { bodyRefused } from './request-end.js';

type Extensions = { code: string; status: number; details?: unknown; retryAfter?: number };

/** `{ error, message, details?, retryAfter? }` with the error's HTTP status (SPEC.md, Errors). */
export function sendError(reply: FastifyReply, error: AppError) {
  return reply.code(statusOf(error)).type('application/json').send(errorBody(error));
}

/** The body of an error answer of /v1 and the file routes (SPEC.md, Errors). */
export function errorBody(error: AppError): Record<string, unknown> {
  const ext = error.extensions as Extensions;
  const body: Record<string, unknown> = { error: ext.code, message: error.message };
  if (ext.details !== undefined) body.details = ext.details;
  if (ext.retryAfter !== undefined) body.retryAfter = ext.retryAfter;
  return body;
}

/** The same error in GraphQL's own format, as /graphql answers: `{ errors: [{ message, extensions: { code, ... } }] }`. */
export function graphqlErrorBody(error: AppError): Record<string, unknown> {
  const { error: code, message, ...rest } = errorBody(error);
  return { errors: [{ message, extensions: { code, ...rest } }] };
}

export const statusOf = (error: AppError) => (error.extensions as Extensions).status;

/** True for the GraphQL endpoint, which answers in GraphQL's format. */
export const isGraphQLPath = (url: string) => url.split('?')[0] === '/graphql';

/** An error answer in the format of the door the request came through. */
export function sendErrorFor(url: string, reply: FastifyReply, error: AppError) {
  if (!isGraphQLPath(url)) return sendError(reply, error);
  return reply.code(statusOf(error)).type('application/json').send(graphqlErrorBody(error));
}

/** The spec's code of an answer a layer below the service gave with only an HTTP status. */
export function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return 'INTERNAL_SERVER_ERROR';
  const exact = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((c) => c !== 'VALIDATION_ERROR' && ERROR_STATUS[c] === status);
  return exact ?? 'BAD_REQUEST';
}

/** The request each connection is reading and answering, for the answer to one the HTTP parser gives up on midway. */
const inFlight = new WeakMap<Socket, { url: string; req: IncomingMessage; res: ServerResponse }>();

/** Follows the request of each connection until it is answered (see answerClientError). */
export function trackRequests(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(req.socket, { url: req.url ?? '/', req, res });
    res.once('finish', () => inFlight.delete(req.socket));
  });
}

/** How long a connection refused by the HTTP parser still reads what its client sends before it is closed. */
const PARSER_LINGER_MS = 5_000;
const answered = new WeakSet<Socket>();

/**
 * Fastify's clientErrorHandler: a request Node's HTTP parser could not read
 * (bad chunked encoding, a wrong Content-Length, headers over 16 KB) is
 * answered 400 BAD_REQUEST, one whose head did not arrive in time 408
 * REQUEST_TIMEOUT, in the format of its door, then its connection closed.
 */
export function answerClientError(err: Error & { code?: string; reason?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET') return;
  const error =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('BAD_REQUEST', 'The request line and headers are too large (at most 16 KB)')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT', 'The request line and headers were not received in time')
        : new AppError('BAD_REQUEST', `The HTTP request could not be read: ${err.reason ?? err.code ?? err.message}`);
  refuseOnConnection(socket, error, err.rawPacket);
}

/**
 * Answers `error` on a connection whose request cannot go on (its parser gave
 * up, or it was too slow: src/http/timeouts.ts), in the format of the door of
 * the request being read, then closes it. `rawPacket` is what the parser
 * refused, when it refused something.
 */
export function refuseOnConnection(socket: Socket, error: AppError, rawPacket?: unknown): void {
  if (socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  const current = inFlight.get(socket);
  const head = Buffer.isBuffer(rawPacket) ? rawPacket.toString('latin1', 0, 4096) : '';
  // the client may still be sending: what it sends is read and dropped until it closes or the linger
  // ends, so closing does not reset the connection (a reset can drop the answer before the client reads it)
  let lingering = false;
  const linger = () => {
    if (lingering) return;
    lingering = true;
    socket.on('data', () => {});
    socket.resume();
    socket.once('end', () => socket.destroy());
    setTimeout(() => socket.destroy(), PARSER_LINGER_MS).unref();
  };
  if (current?.req.complete) {
    // Node ends the exchange of a request that asked to close (Connection: close) with destroySoon(),
    // end then destroy, as soon as its answer is out: with the client still sending what broke, that
    // is a reset, which can drop the answer unread; the connection lingers instead
    socket.destroySoon = () => {
      socket.end();
      linger();
    };
    // what broke follows a request received whole and still being answered: that answer is its
    // own and goes out first (answers keep the order of their requests), then this refusal
    const refuse = () => {
      endWithError(socket, targetAfter(rawPacket, current.req), error);
      linger();
    };
    if (current.res.writableFinished) refuse();
    else current.res.once('finish', refuse);
    return;
  }
  // the request being read (its body broke), else the one whose head broke, by its request line
  const url = current?.url ?? /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '/';
  // a request whose answer has begun cannot be answered again: the connection just ends
  if (!current?.res.headersSent) endWithError(socket, url, error);
  // its body will not end: what reads it (an upload being stored) stops now, not when the linger closes the connection
  if (current) bodyRefused(current.req);
  linger();
}

/**
 * The request-target of the request that follows `req` in `packet` (the bytes
 * the HTTP parser refused), when `req` starts there and has a Content-Length;
 * else `/` (a request that could not be read names no door).
 */
function targetAfter(packet: unknown, req: IncomingMessage): string {
  if (!Buffer.isBuffer(packet)) return '/';
  const text = packet.toString('latin1', 0, 64 * 1024);
  const at = text.indexOf(`${req.method} ${req.url} HTTP/`);
  const length = Number(req.headers['content-length'] ?? 0);
  const headEnd = at < 0 ? -1 : text.indexOf('\r\n\r\n', at);
  if (headEnd < 0 || !Number.isSafeInteger(length)) return '/';
  return /^[A-Z]+ (\S+)/.exec(text.slice(headEnd + 4 + length))?.[1] ?? '/';
}

/**
 * Writes an error answer for `url`'s door straight on a connection no HTTP
 * response object owns (the HTTP parser gave up on it, or it asked to switch
 * protocols), and closes our side.
 */
export function endWithError(socket: Socket, url: string, error: AppError): void {
  if (!socket.writable) return;
  const body = JSON.stringify(isGraphQLPath(url) ? graphqlErrorBody(error) : errorBody(error));
  const status = statusOf(error);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
