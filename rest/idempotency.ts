import busboy from 'busboy';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { Upload } from 'graphql-upload-ts';
import crypto from 'node:crypto';
import type { Db } from '../src/db/client.js';
import { AppError } from '../src/errors.js';
import { fingerprintOf, hashUploads, withDigests, type UploadDigest } from '../src/idempotency/fingerprint.js';
import { claimKey, IDEMPOTENCY_HEADER, keepsAnswer, readIdempotencyKey, REPLAYED_HEADER, reusedKey, type Claim } from '../src/idempotency/keys.js';
import { callerOf } from './caller.js';
import type { FormSpec } from './multipart.js';
import type { Route } from './route.js';

/** An answer as kept: its status, the headers that describe its body, the body's bytes as sent. */
interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Headers replayed with a kept answer; rate-limit headers are not: a replay spends nothing. */
const KEPT_HEADERS = ['content-type', 'location'];

/** The requests of this process that hold their key, until their answer is kept (onSend below). */
const holders = new WeakMap<FastifyRequest, { claim: Extract<Claim<KeptAnswer>, { kind: 'owner' }>; fingerprint: () => string | null }>();

/** Runs a route: its variables, or its form (read by the operation, as `form` says), the operation, the answer. */
export type RunRoute = (req: FastifyRequest, reply: FastifyReply, form?: FormSpec) => Promise<unknown>;

/**
 * The handler of a POST route under the Idempotency-Key header (src/idempotency/).
 * Without the header it is `run` as it was. Else the key is scoped to the user
 * and the route; the request's fingerprint is its path parameters, query and
 * JSON body, or for a form the variables the route makes of its fields, with
 * the file's name and sha-256 in place of the file.
 */
export function idempotent(db: Db, r: Route, run: RunRoute): RouteHandlerMethod {
  return async function handler(req, reply) {
    const sent = req.headers[IDEMPOTENCY_HEADER];
    if (sent === undefined) return run(req, reply);
    const user = callerOf(req);
    // refused by authentication (401): nothing is recorded
    if (!user) return run(req, reply);
    const scope = { userId: user.id, operation: `${r.method} ${r.url}`, key: readIdempotencyKey(sent)! };
    const request = (body: unknown) => ({ params: req.params ?? {}, query: req.query ?? {}, body });
    // a form's fingerprint needs its file, known once the file was read
    const known = r.form ? null : fingerprintOf(request(req.body ?? null));

    const claim = await claimKey<KeptAnswer>(db, scope, known, { signal: whileConnected(reply), log: req.log });
    if (claim.kind === 'owner') {
      const holder = { claim, fingerprint: () => known };
      holders.set(req, holder);
      const spec = r.form;
      if (!spec) return run(req, reply);
      return run(req, reply, {
        ...spec,
        variables: (fields, file) => {
          const variables = spec.variables(fields, file);
          const hashed = hashUploads([file]);
          holder.fingerprint = () => {
            const digests = hashed.digests();
            return digests && fingerprintOf(request(withDigests(variables, digests)));
          };
          return variables;
        },
      });
    }
    if (claim.kind === 'done' && r.form) {
      // this request's form, read for its fingerprint only: the file is hashed, not kept
      const form = await readFormDigest(req, r.form.fields !== undefined);
      const file = new Upload();
      const variables = r.form.variables(form.fields, file);
      const digests = new Map(form.file ? [[file, form.file]] : []);
      if (fingerprintOf(request(withDigests(variables, digests))) !== claim.fingerprint) throw reusedKey();
    } else if (claim.kind === 'reused' || claim.fingerprint !== known) {
      throw reusedKey();
    }
    const { status, headers, body } = claim.answer;
    return reply.code(status).headers(headers).header(REPLAYED_HEADER, 'true').send(body);
  };
}

/**
 * A form's text parts and the digest of its file part, read as MultipartForm
 * reads them (the first part named file; text parts only for a route that has
 * fields), keeping nothing.
 */
function readFormDigest(req: FastifyRequest, withFields: boolean): Promise<{ fields: Record<string, string>; file: UploadDigest | null }> {
  const malformed = (message: string) => new AppError('VALIDATION_ERROR', `Invalid multipart request: ${message}`, { details: [{ field: 'body', message }] });
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: 1024 * 1024, files: 1, fields: 100 } });
    } catch (e) {
      reject(malformed((e as Error).message));
      return;
    }
    // no prototype: a part named __proto__ is a field like any other (and an unknown one)
    const fields: Record<string, string> = Object.create(null);
    let file: Promise<UploadDigest> | null = null;
    parser.on('field', (name, value) => {
      if (withFields) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.on('error', () => {}).resume();
        return;
      }
      const hash = crypto.createHash('sha256');
      file = new Promise((done, fail) => {
        stream.on('data', (chunk: Buffer) => hash.update(chunk));
        stream.on('end', () => done({ filename: info.filename ?? 'upload', sha256: hash.digest('hex') }));
        stream.on('error', fail);
      });
      file.catch(() => {});
    });
    parser.on('close', () => {
      (file ?? Promise.resolve(null)).then((digest) => resolve({ fields, file: digest }), (e: Error) => reject(malformed(e.message)));
    });
    parser.on('error', (e) => reject(malformed((e as Error).message)));
    req.raw.once('close', () => {
      if (!req.raw.readableEnded) reject(malformed('the request ended before its form did'));
    });
    req.raw.pipe(parser);
  });
}

/**
 * The onSend hook of the POST routes: keeps the answer of a request that held
 * its key (or gives the key up when the answer is not kept), before the answer
 * leaves, so that a retry arriving after it finds it.
 */
export async function keepAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const holder = holders.get(req);
  if (!holder) return payload;
  holders.delete(req);
  const status = reply.statusCode;
  try {
    const fingerprint = holder.fingerprint();
    if (keepsAnswer(status) && fingerprint !== null && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const headers: Record<string, string> = {};
      for (const h of KEPT_HEADERS) {
        const v = reply.getHeader(h);
        if (v !== undefined) headers[h] = String(v);
      }
      await holder.claim.finish(fingerprint, status, { status, headers, body: payload.toString() } satisfies KeptAnswer);
    } else {
      await holder.claim.release();
    }
  } catch (err) {
    req.log.error({ err }, 'could not keep the answer of an idempotent request');
    await holder.claim.release().catch(() => {});
  }
  return payload;
}

/** Aborts when the client goes away before its answer (a retry then stops waiting for the first request). */
function whileConnected(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new AppError('BAD_REQUEST', 'The connection closed before the answer'));
  });
  return gone.signal;
}
