// How long a client may take to send its request (README, Connection limits). Node's
// own headersTimeout ends a request whose head is slow; the body is watched here,
// by kind: a JSON or GraphQL body must arrive whole within a deadline however
// steadily it trickles, while an upload, which may rightly take an hour, only has
// to keep moving at a floor. Either is answered 408 REQUEST_TIMEOUT in its door's
// format, and its connection closed.
import type { IncomingMessage, Server } from 'node:http';
import type { ConnectionLimits } from '../config.js';
import { AppError } from '../errors.js';
import { refuseOnConnection } from './errors.js';
import { bodyPending } from './request-end.js';

/** How many samples of an upload's progress one window holds. */
const SAMPLES_PER_WINDOW = 6;

/** Watches the body of every request `server` reads (headers: `http.headersTimeout`, set where the server is made). */
export function watchRequestBodies(server: Server, limits: ConnectionLimits): void {
  server.on('request', (req: IncomingMessage) => {
    if (!bodyPending(req)) return;
    if (req.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) watchUpload(req, limits);
    else watchDeadline(req, limits.bodyTimeoutMs);
  });
}

/** Stops `watch` once the request's body is read whole or its connection closes. */
function untilEnded(req: IncomingMessage, stop: () => void): void {
  req.once('end', stop);
  req.once('close', stop);
}

function watchDeadline(req: IncomingMessage, ms: number): void {
  const timer = setTimeout(() => {
    if (req.complete) return;
    refuseOnConnection(req.socket, new AppError('REQUEST_TIMEOUT', `The request body was not received within ${seconds(ms)}`));
  }, ms);
  timer.unref();
  untilEnded(req, () => clearTimeout(timer));
}

/**
 * Samples the bytes the connection has read; an upload that read fewer than the
 * floor over the last window is cut off. A window in which this service, not
 * the client, held the body back (its reader paused: the store was slower than
 * the client) does not count against the client.
 */
function watchUpload(req: IncomingMessage, { uploadMinBytesPerSecond: floor, uploadWindowMs: windowMs }: ConnectionLimits): void {
  if (floor === 0) return;
  const socket = req.socket;
  const need = (floor * windowMs) / 1000;
  /** bytes read at each of the last samples, oldest first; emptied when the service held the body back */
  const samples: number[] = [socket.bytesRead];
  const timer = setInterval(() => {
    if (req.complete) return stop();
    if (heldBack(req)) {
      samples.length = 0;
      samples.push(socket.bytesRead);
      return;
    }
    samples.push(socket.bytesRead);
    if (samples.length <= SAMPLES_PER_WINDOW) return;
    samples.shift();
    if (samples.at(-1)! - samples[0] >= need) return;
    stop();
    refuseOnConnection(socket, new AppError('REQUEST_TIMEOUT', `The upload was cut off: it sent less than ${floor} bytes a second over ${seconds(windowMs)}`));
  }, windowMs / SAMPLES_PER_WINDOW);
  timer.unref();
  const stop = () => clearInterval(timer);
  untilEnded(req, stop);
}

/** True while the body's reader does not take more (back-pressure from where the upload is stored). */
function heldBack(req: IncomingMessage): boolean {
  return req.readableFlowing !== true || req.readableLength >= req.readableHighWaterMark;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
