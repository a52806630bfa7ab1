import busboy from 'busboy';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Upload } from 'graphql-upload-ts';
import crypto from 'node:crypto';
import { AppError } from '../src/errors.js';
import { REPLAYED_HEADER } from '../src/idempotency/keys.js';
import type { IdempotentRoute } from '../src/graphql/context.js';
import { withDigests, type UploadDigest } from '../src/idempotency/fingerprint.js';
import type { Route } from './route.js';

/**
 * A POST route under the Idempotency-Key header, as the one idempotency layer
 * (src/graphql/plugins/idempotency.ts) reads it when the route runs its
 * operation: the key is scoped to the user and the route, and the request's
 * fingerprint is its path parameters, query and JSON body, or for a form the
 * variables the route makes of its fields, with the file's name and sha-256 in
 * place of the file.
 */
export function idempotentRoute(r: Route, req: FastifyRequest, reply: FastifyReply): IdempotentRoute {
  const request = (body: unknown) => ({ params: req.params ?? {}, query: req.query ?? {}, body });
  const form = r.form;
  return {
    operation: `${r.method} ${r.url}`,
    request: form ? request : () => request(req.body ?? null),
    signal: whileConnected(reply),
    replayHttp: ({ status, headers, body }) => void reply.code(status).headers(headers).header(REPLAYED_HEADER, 'true').send(body),
    ...(form && {
      // this request's form, read for its fingerprint only: the file is hashed, not kept
      async formDigest() {
        const read = await readFormDigest(req, form.fields !== undefined);
        const file = new Upload();
        return withDigests(form.variables(read.fields, file), new Map(read.file ? [[file, read.file]] : []));
      },
    }),
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
      (file ?? Promise.resolve(null)).then(
        (digest) => resolve({ fields, file: digest }),
        (e: Error) => reject(malformed(e.message)),
      );
    });
    parser.on('error', (e) => reject(malformed((e as Error).message)));
    req.raw.once('close', () => {
      if (!req.raw.readableEnded) reject(malformed('the request ended before its form did'));
    });
    req.raw.pipe(parser);
  });
}

/** Aborts when the client goes away before its answer (a retry then stops waiting for the first request). */
function whileConnected(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new AppError('BAD_REQUEST', 'The connection closed before the answer'));
  });
  return gone.signal;
}
