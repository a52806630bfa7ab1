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

export interface PacedAnswer extends RawAnswer {
  /** body bytes written before the server answered or closed */
  sent: number;
}

export interface Pace {
  /** bytes of the body written at a time */
  piece?: number;
  /** bytes of the head written at a time (all at once by default) */
  headPiece?: number;
  /** the wait between two pieces (ms) */
  everyMs: number;
  /** how long to wait for the server after the last piece (ms) */
  waitMs?: number;
}

/**
 * A slow client: writes `head` and `body` piece by piece, one piece every
 * `everyMs`, and stops writing as soon as a whole answer came or the server
 * closed; resolves once the server closes, or `waitMs` after the last piece.
 */
function sendPaced(baseUrl: string, head: Buffer, body: Buffer, { piece = 1, headPiece = Infinity, everyMs, waitMs = 5_000 }: Pace) {
  const pieces: Array<{ bytes: Buffer; body: boolean }> = [];
  const cut = (bytes: Buffer, size: number, isBody: boolean) => {
    for (let i = 0; i < bytes.length; i += size) pieces.push({ bytes: bytes.subarray(i, i + size), body: isBody });
  };
  cut(head, Math.min(headPiece, head.length) || 1, false);
  cut(body, piece, true);
  const { hostname, port } = new URL(baseUrl);
  const headPieces = pieces.filter((p) => !p.body).length;
  return new Promise<{ received: Buffer; closed: boolean; sent: number; headSent: boolean; answeredMs: number; ms: number }>((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const t0 = Date.now();
    let received = Buffer.alloc(0);
    let answeredMs = -1;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received, closed, sent, headSent: next >= headPieces, answeredMs: answeredMs < 0 ? Date.now() - t0 : answeredMs, ms: Date.now() - t0 });
    };
    socket.on('data', (d) => {
      received = Buffer.concat([received, d]);
      if (answeredMs < 0 && parseAnswers(received).answers.length) answeredMs = Date.now() - t0;
    });
    socket.on('error', () => {});
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    let next = 0;
    const write = () => {
      if (done || socket.destroyed) return;
      if (next === pieces.length || answeredMs >= 0) {
        timer = setTimeout(() => finish(false), answeredMs >= 0 ? Math.min(waitMs, 1_000) : waitMs);
        return;
      }
      const { bytes, body: isBody } = pieces[next++];
      if (isBody) sent += bytes.length;
      socket.write(bytes);
      timer = setTimeout(write, !isBody && headPiece === Infinity ? 0 : everyMs);
    };
    write();
  });
}

/** One request sent slowly (sendPaced), and its answer. */
export async function pacedRequest(baseUrl: string, head: string, body: Buffer | string, pace: Pace): Promise<PacedAnswer> {
  const r = await sendPaced(baseUrl, Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body), pace);
  return { ...parseAnswer(r.received), answeredMs: r.answeredMs, closed: r.closed, sent: r.sent };
}

/** `bytes` (a head and its body, the head up to the blank line) sent slowly, as `exchange` reads answers; `headSent` tells whether the head went whole. */
export async function pacedExchange(baseUrl: string, bytes: Buffer, pace: Pace): Promise<Exchange & { headSent: boolean }> {
  const end = bytes.indexOf('\r\n\r\n') + 4;
  const r = await sendPaced(baseUrl, bytes.subarray(0, end), bytes.subarray(end), pace);
  return { ...parseAnswers(r.received), closed: r.closed, ms: r.ms, headSent: r.headSent };
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
export function multipartBody(
  boundary: string,
  parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>,
  { close = true } = {},
): Buffer {
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

export interface Exchange {
  /** the answers, in order (several when requests were pipelined) */
  answers: Array<{ status: number; headers: Record<string, string>; body: Buffer }>;
  /** bytes after the last whole answer (an answer cut off by the server) */
  rest: Buffer;
  /** the server closed the connection within the wait */
  closed: boolean;
  ms: number;
}

export interface ExchangeOptions {
  /** how long to wait for the server after the last byte is written (ms) */
  waitMs?: number;
  /** after the last byte, close our side for writing (the server reads the end of the request) */
  halfClose?: boolean;
  /** stop waiting once this many whole answers came (the connection is then dropped) */
  answers?: number;
  /** the request is a HEAD: its answers have no body whatever their length says */
  head?: boolean;
}

/**
 * Writes `bytes` on a fresh connection to `baseUrl` and reads what comes back
 * until the server closes, `answers` whole answers came, or `waitMs` passed.
 */
export function exchange(
  baseUrl: string,
  bytes: Buffer,
  { waitMs = 10_000, halfClose = false, answers: wanted = Infinity, head = false }: ExchangeOptions = {},
): Promise<Exchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseAnswers(received, head), closed, ms: Date.now() - t0 });
    };
    socket.on('data', (d) => {
      received = Buffer.concat([received, d]);
      if (parseAnswers(received, head).answers.length >= wanted) finish(false);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true));
    socket.on('end', () => finish(true));
    socket.write(bytes, () => {
      if (halfClose && !socket.destroyed) socket.end();
    });
    timer = setTimeout(() => finish(false), waitMs);
  });
}

/** HTTP/1.1 answers one after another, as far as they are whole. */
export function parseAnswers(bytes: Buffer, head = false): Pick<Exchange, 'answers' | 'rest'> {
  const answers: Exchange['answers'] = [];
  let rest = bytes;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const i = l.indexOf(':');
      if (i > 0) {
        const name = l.slice(0, i).trim().toLowerCase();
        headers[name] = headers[name] === undefined ? l.slice(i + 1).trim() : `${headers[name]}, ${l.slice(i + 1).trim()}`;
      }
    }
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
    let after = rest.subarray(end + 4);
    let body: Buffer;
    if (status === 100) {
      // an interim answer: the final one follows
      rest = after;
      continue;
    }
    if (head) {
      body = Buffer.alloc(0);
    } else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const chunks: Buffer[] = [];
      let whole = false;
      for (;;) {
        const eol = after.indexOf('\r\n');
        if (eol < 0) break;
        const size = parseInt(after.subarray(0, eol).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const trailerEnd = after.indexOf('\r\n\r\n', eol);
          if (trailerEnd < 0) break;
          after = after.subarray(trailerEnd + 4);
          whole = true;
          break;
        }
        if (after.length < eol + 2 + size + 2) break;
        chunks.push(after.subarray(eol + 2, eol + 2 + size));
        after = after.subarray(eol + 4 + size);
      }
      if (!whole) break;
      body = Buffer.concat(chunks);
    } else {
      const length = headers['content-length'] === undefined ? (status === 304 || status === 204 ? 0 : null) : Number(headers['content-length']);
      if (length === null) {
        // the body runs to the end of the connection
        body = after;
        after = Buffer.alloc(0);
      } else {
        if (after.length < length) break;
        body = after.subarray(0, length);
        after = after.subarray(length);
      }
    }
    answers.push({ status, headers, body });
    rest = after;
    if (!rest.length) break;
  }
  return { answers, rest };
}
