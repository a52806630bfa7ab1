/**
 * A render read as an upload's chunks: exact sizes, one chunk in memory at a
 * time (the largest a platform takes is tens of MB, never the whole file).
 */
import type { Readable } from 'node:stream';

/**
 * The stream's bytes from `start` on, as Buffers of `size` bytes (the last
 * may be shorter). Bytes before `start` are read and dropped: a resumed
 * upload skips what the platform already has. A stream that ends before
 * `total` bytes (when given) is an error, not a short upload.
 */
export async function* chunksOf(stream: Readable, size: number, opts: { start?: number; total?: number } = {}): AsyncGenerator<Buffer> {
  const start = opts.start ?? 0;
  let offset = 0;
  let parts: Buffer[] = [];
  let held = 0;
  for await (const data of stream) {
    let buf = data as Buffer;
    if (offset + buf.length <= start) {
      offset += buf.length;
      continue;
    }
    if (offset < start) {
      buf = buf.subarray(start - offset);
      offset = start;
    }
    offset += buf.length;
    while (buf.length > 0) {
      const take = Math.min(size - held, buf.length);
      parts.push(buf.subarray(0, take));
      held += take;
      buf = buf.subarray(take);
      if (held === size) {
        yield Buffer.concat(parts, size);
        parts = [];
        held = 0;
      }
    }
  }
  if (opts.total !== undefined && offset < opts.total) {
    stream.destroy();
    throw new Error(`the video ended at ${offset} of ${opts.total} bytes`);
  }
  if (held > 0) yield Buffer.concat(parts, held);
}
