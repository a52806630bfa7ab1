/** HTTP spoken byte by byte over a TCP socket, for requests no HTTP client would send. */
import net from 'node:net';

export interface RawAnswer {
  /** 0 when no answer came */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte sent to the whole answer */
  answeredMs: number;
  /** the server closed the connection (within the wait) */
  closed: boolean;
}

/**
 * Sends `head` (and `body`, if any) on a fresh connection and reads one answer.
 * Resolves when the server closes the connection, or `waitMs` after the last
 * byte sent (`closed` tells which). With `keepSending`, filler bytes go on being
 * written after the body until the server answers: a client still uploading.
 */
export function rawRequest(
  baseUrl: string,
  head: string,
  body: Buffer | string = '',
  { waitMs = 5_000, keepSending = false }: { waitMs?: number; keepSending?: boolean } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const t0 = Date.now();
    let received = Buffer.alloc(0);
    let answeredMs = -1;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswer(received), answeredMs: answeredMs < 0 ? Date.now() - t0 : answeredMs, closed });
    };
    socket.on('data', (d) => {
      received = Buffer.concat([received, d]);
      if (answeredMs < 0 && parseAnswer(received).complete) answeredMs = Date.now() - t0;
    });
    socket.on('error', () => {});
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.write(head);
    if (body.length) socket.write(body);
    timer = setTimeout(() => finish(false), waitMs);
    if (keepSending) {
      const filler = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        if (done || socket.destroyed || answeredMs >= 0) return;
        if (socket.write(filler)) setTimeout(pump, 5);
        else socket.once('drain', pump);
      };
      pump();
    }
  });
}

function parseAnswer(bytes: Buffer): Omit<RawAnswer, 'answeredMs' | 'closed'> & { complete: boolean } {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '', complete: false };
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]) || 0;
  let rest = bytes.subarray(end + 4);
  if (headers['transfer-encoding']?.includes('chunked')) {
    const chunks: Buffer[] = [];
    for (;;) {
      const eol = rest.indexOf('\r\n');
      if (eol < 0) return { status, headers, body: Buffer.concat(chunks).toString(), complete: false };
      const size = parseInt(rest.subarray(0, eol).toString(), 16);
      if (size === 0) return { status, headers, body: Buffer.concat(chunks).toString(), complete: true };
      if (rest.length < eol + 2 + size) return { status, headers, body: Buffer.concat(chunks).toString(), complete: false };
      chunks.push(rest.subarray(eol + 2, eol + 2 + size));
      rest = rest.subarray(eol + 4 + size);
    }
  }
  const length = headers['content-length'] === undefined ? rest.length : Number(headers['content-length']);
  return { status, headers, body: rest.subarray(0, length).toString(), complete: rest.length >= length };
}

/** The answer's body as JSON, or null when it is not JSON. */
export function jsonOf(a: RawAnswer): any {
  try {
    return JSON.parse(a.body);
  } catch {
    return null;
  }
}

/** A multipart/form-data body of `parts` in their order; a file part has a `filename`. */
export function multipartBody(boundary: string, parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>, { close = true } = {}): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    out.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    out.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    out.push(Buffer.from('\r\n'));
  }
  if (close) out.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(out);
}
