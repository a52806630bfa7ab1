import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import { FILES_PREFIX, verify } from '../storage/signing.js';
import type { ByteRange, Storage, StoredObject } from '../storage/storage.js';
import { sendError } from './errors.js';

/** What a store may add to an object for conditional requests (the local store does). */
type Versioned = { etag?: string; lastModified?: Date };

export type RangeRequest = { kind: 'none' } | { kind: 'unsatisfiable' } | { kind: 'range'; range: ByteRange };

/**
 * Reads a Range header against an object of `size` bytes. One range (`a-b`,
 * `a-`, `-n`) is served; a header that does not parse, another unit, or several
 * ranges get the whole object (RFC 9110 lets a server ignore Range).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'none' };
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m) return { kind: 'none' };
  const specs = m[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (specs.length !== 1) return { kind: 'none' };
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return { kind: 'none' };
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? Infinity : Number(spec[2]);
  if (end < start) return { kind: 'none' }; // an invalid range-spec: the header is ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end: Math.min(end, size - 1) } };
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(filename: string): string {
  const clean = filename.replace(/[\u0000-\u001f\u007f"\\/]/g, '_').slice(0, 200) || 'download';
  const fallback = clean.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Types a browser renders as media; anything else is served sandboxed so it cannot run as a page of this origin. */
const INERT_TYPE = /^(video|audio)\/|^image\/(png|jpeg|gif|webp|avif)\b/i;

function etagMatches(header: string, etag: string | undefined, weak: boolean): boolean {
  if (!etag) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => (weak ? bare(t) === bare(etag) : t.trim() === etag && !etag.startsWith('W/')));
}

/**
 * GET and HEAD /files/<key>?exp=&sig=[&dl=]: serves stored objects to whoever
 * holds a signed link (no API key: the signature is the credential), with
 * ranges and conditional requests so players can seek.
 */
export function registerFileRoutes(fastify: FastifyInstance, storage: Storage, secret: string): void {
  fastify.route({
    method: ['GET', 'HEAD'],
    url: `${FILES_PREFIX}*`,
    handler: async (req, reply) => {
      try {
        return await serveFile(req, reply, storage, secret);
      } catch (err) {
        if (!isAppError(err)) throw err;
        // headers of the file must not describe the error body
        for (const h of ['content-length', 'content-range', 'content-disposition', 'etag', 'last-modified']) reply.removeHeader(h);
        return sendError(reply, err);
      }
    },
  });
}

async function serveFile(req: FastifyRequest, reply: FastifyReply, storage: Storage, secret: string) {
  const url = new URL(req.raw.url ?? req.url, 'http://localhost');
  let key: string;
  try {
    // decode each segment as the signer encoded it (src/storage/signing.ts, filesPath)
    key = url.pathname.slice(FILES_PREFIX.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    return sendError(reply, new AppError('NOT_FOUND', 'File not found'));
  }
  const q = url.searchParams;
  const check = verify(key, { exp: q.get('exp') ?? undefined, sig: q.get('sig') ?? undefined, dl: q.get('dl') ?? undefined }, secret);
  if (!check.ok) return sendError(reply, new AppError('FORBIDDEN', check.message));

  for (let attempt = 0; ; attempt++) {
    reply.removeHeader('content-range');
    let obj: (StoredObject & Versioned) | null;
    try {
      obj = await storage.stat(key);
    } catch (err) {
      // a key the store refuses was never stored
      if (isAppError(err) && err.extensions.code === 'BAD_REQUEST') obj = null;
      else throw err;
    }
    if (!obj) return sendError(reply, new AppError('NOT_FOUND', 'File not found'));

    reply.header('accept-ranges', 'bytes');
    reply.header('cache-control', `private, max-age=${check.remainingSeconds}`);
    reply.header('x-content-type-options', 'nosniff');
    if (obj.etag) reply.header('etag', obj.etag);
    if (obj.lastModified) reply.header('last-modified', obj.lastModified.toUTCString());

    if (isNotModified(req, obj)) return reply.code(304).send();

    reply.header('content-type', obj.contentType);
    if (!INERT_TYPE.test(obj.contentType)) reply.header('content-security-policy', "default-src 'none'; sandbox");
    if (check.download) reply.header('content-disposition', contentDisposition(check.download));

    let wanted = parseRange(req.headers.range, obj.size);
    if (wanted.kind !== 'none' && !ifRangeHolds(req, obj)) wanted = { kind: 'none' };
    if (wanted.kind === 'unsatisfiable') {
      reply.header('content-range', `bytes */${obj.size}`);
      reply.removeHeader('content-disposition');
      return reply
        .code(416)
        .type('application/json')
        .send({ error: 'BAD_REQUEST', message: `Range not satisfiable: the file has ${obj.size} bytes` });
    }
    const range = wanted.kind === 'range' ? wanted.range : undefined;
    const length = range ? range.end - range.start + 1 : obj.size;
    reply.code(range ? 206 : 200);
    reply.header('content-length', String(length));
    if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${obj.size}`);
    if (req.method === 'HEAD') return reply.send();

    const got = await storage.get(key, range);
    const gotVersion = got as typeof got & Versioned;
    if (got.size !== obj.size || gotVersion.etag !== obj.etag) {
      // replaced between stat and open: answer from the new version
      got.body.destroy();
      if (attempt < 2) continue;
      throw new AppError('INTERNAL_SERVER_ERROR', 'The file changed while it was read');
    }
    return reply.send(got.body);
  }
}

/** If-None-Match (or, without it, If-Modified-Since) says the client's copy is current. */
function isNotModified(req: FastifyRequest, obj: Versioned): boolean {
  const inm = req.headers['if-none-match'];
  if (inm) return etagMatches(inm, obj.etag, true);
  const ims = req.headers['if-modified-since'];
  if (ims && obj.lastModified) {
    const since = Date.parse(ims);
    return Number.isFinite(since) && Math.floor(obj.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** If-Range: the range applies only to the version the client already has part of. */
function ifRangeHolds(req: FastifyRequest, obj: Versioned): boolean {
  const raw = req.headers['if-range'];
  const ir = Array.isArray(raw) ? raw[0] : raw;
  if (!ir) return true;
  if (ir.trim().startsWith('"') || ir.trim().startsWith('W/')) return etagMatches(ir, obj.etag, false);
  const date = Date.parse(ir);
  return Number.isFinite(date) && !!obj.lastModified && Math.floor(obj.lastModified.getTime() / 1000) * 1000 === date;
}
