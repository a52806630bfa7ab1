// A multipart request is whole only once its body was read to its end: the file a form
// carries may have arrived entirely while what follows it (the closing boundary, the rest of
// the announced length, the chunked framing) never does.
import type { IncomingMessage } from 'node:http';
import { finished, PassThrough, type Readable } from 'node:stream';

/**
 * Resolves once the request's body was read to its end; rejects with `cutOff()`
 * when its connection closes first (the client went away, or the HTTP parser
 * refused what followed).
 */
export function requestEnd(req: IncomingMessage, cutOff: () => Error): Promise<void> {
  const ended = new Promise<void>((resolve, reject) => {
    if (req.readableEnded) return resolve();
    if (req.destroyed) return reject(cutOff());
    const onEnd = () => {
      req.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      req.off('end', onEnd);
      if (req.readableEnded) resolve();
      else reject(cutOff());
    };
    req.once('end', onEnd);
    req.once('close', onClose);
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
    else ended.then(() => out.end(), () => {});
  });
  source.pipe(out, { end: false });
  return out;
}
