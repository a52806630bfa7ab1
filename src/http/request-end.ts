// A multipart request is whole only once its body was read to its end: the file a form
// carries may have arrived entirely while what follows it (the closing boundary, the rest of
// the announced length, the chunked framing) never does.
import type { IncomingMessage } from 'node:http';
import { finished, PassThrough, type Readable } from 'node:stream';

/** True for a request that announces a body (a length other than 0, or chunked framing). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** True while a request that has a body has not been received whole. */
export const bodyPending = (req: IncomingMessage): boolean => hasBody(req) && !req.complete;

/** Requests whose body the HTTP parser refused while it was read, and the event that says so. */
const refused = new WeakSet<IncomingMessage>();
const REFUSED = Symbol('request body refused');

/**
 * Marks a request whose body the HTTP parser refused midway: it will never
 * end, though its connection may stay open a while longer (the refusal's
 * answer lingers, src/http/errors.ts), so whoever waits on its end learns now.
 */
export function bodyRefused(req: IncomingMessage): void {
  if (refused.has(req)) return;
  refused.add(req);
  req.emit(REFUSED);
}

/**
 * Resolves once the request's body was read to its end; rejects with `cutOff()`
 * when its connection closes first (the client went away) or the HTTP parser
 * refused what followed.
 */
export function requestEnd(req: IncomingMessage, cutOff: () => Error): Promise<void> {
  const ended = new Promise<void>((resolve, reject) => {
    if (req.readableEnded) return resolve();
    if (req.destroyed || refused.has(req)) return reject(cutOff());
    const stop = () => {
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off(REFUSED, onRefused);
    };
    const onEnd = () => {
      stop();
      resolve();
    };
    const onClose = () => {
      stop();
      if (req.readableEnded) resolve();
      else reject(cutOff());
    };
    const onRefused = () => {
      stop();
      reject(cutOff());
    };
    req.once('end', onEnd);
    req.once('close', onClose);
    req.once(REFUSED, onRefused);
  });
  ended.catch(() => {}); // its readers learn it
  return ended;
}

/**
 * `source` as a stream that ends only once `ended` resolves, and breaks when it
 * rejects: whoever stores the file of a form stores nothing from a request that
 * broke after the file's last byte.
 */
export function endingWith(source: Readable, ended: Promise<void>): Readable {
  const out = new PassThrough();
  // never unhandled: its reader learns a break through the stream (finished, pipeline)
  out.on('error', () => {});
  ended.catch((e: Error) => out.destroy(e));
  // `finished` also reports a source that broke before this stream was made, whose error event has gone
  finished(source, (e) => {
    if (e) out.destroy(e);
    else
      ended.then(
        () => out.end(),
        () => {},
      );
  });
  source.pipe(out, { end: false });
  return out;
}
