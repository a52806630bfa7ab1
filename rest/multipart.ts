import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { Upload } from 'graphql-upload-ts';
import type { Readable } from 'node:stream';
import { AppError, fieldError } from '../src/errors.js';

export interface MultipartForm {
  /** the text parts that came before the file */
  fields: Record<string, string>;
  /** the file part as a GraphQL Upload: its stream flows while the request arrives */
  file: Upload;
  /** resolves once the whole request body has been read */
  done: Promise<void>;
}

const MAX_FIELD_BYTES = 1024 * 1024;

/**
 * Streams a multipart/form-data request: resolves as soon as the file part
 * begins, with the text parts seen so far and the file as an Upload whose
 * stream is the request body itself (nothing is held in memory or on disk
 * here). Text parts must come before the file, as browsers send form fields
 * in order; a part after the file is refused.
 */
export function readMultipart(req: FastifyRequest, fileField = 'file'): Promise<MultipartForm> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(
      new AppError('VALIDATION_ERROR', 'Content-Type must be multipart/form-data', {
        details: [{ field: 'Content-Type', message: 'must be multipart/form-data', value: type || null }],
      }),
    );
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fieldSize: MAX_FIELD_BYTES, files: 1, fields: 100 } });
    } catch (e) {
      reject(new AppError('VALIDATION_ERROR', `Invalid multipart request: ${(e as Error).message}`, { details: [{ field: 'body', message: (e as Error).message }] }));
      return;
    }
    const fields: Record<string, string> = {};
    let started = false;
    let fileStream: Readable | null = null;
    const done = new Promise<void>((resolveDone) => parser.once('close', () => resolveDone()));
    parser.on('field', (name, value, info) => {
      if (started) {
        fileStream?.destroy(fieldError(name, 'must come before the file part'));
        return;
      }
      if (info.valueTruncated) return reject(fieldError(name, `is longer than ${MAX_FIELD_BYTES} bytes`));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== fileField || started) {
        stream.resume();
        return;
      }
      started = true;
      fileStream = stream;
      const upload = new Upload();
      upload.resolve({
        filename: info.filename ?? 'upload',
        fieldName: name,
        mimetype: info.mimeType,
        encoding: info.encoding,
        createReadStream: () => stream as never,
        capacitor: undefined as never,
      });
      resolve({ fields, file: upload, done });
    });
    parser.on('error', (e) => {
      const err = new AppError('VALIDATION_ERROR', `Invalid multipart request: ${(e as Error).message}`, { details: [{ field: 'body', message: (e as Error).message }] });
      if (fileStream) fileStream.destroy(err);
      else reject(err);
    });
    parser.on('close', () => {
      if (!started) reject(fieldError(fileField, 'is required: send the file as a multipart part named file'));
    });
    req.raw.pipe(parser);
  });
}
