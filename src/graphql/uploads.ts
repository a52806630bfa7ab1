// The file of an Upload argument, as the resolvers of uploads read it.
import type { FileUpload } from 'graphql-upload-ts';
import { finished, PassThrough, type Readable } from 'node:stream';
import { AppError, isAppError } from '../errors.js';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  stream: Readable;
}

/**
 * The file of an Upload argument. A multipart request whose file part is
 * missing or cut off is the caller's error, 400 BAD_REQUEST (past the size
 * limit 413 PAYLOAD_TOO_LARGE): at once when the part is missing, through the
 * stream when the request breaks while it is read.
 */
export async function uploadedFile(file: Promise<FileUpload>): Promise<UploadedFile> {
  let upload: FileUpload;
  let source: Readable;
  try {
    upload = await file;
    source = upload.createReadStream();
  } catch (e) {
    throw requestError(e);
  }
  const stream = new PassThrough();
  // the request may break before the resolver reads the file; its reader learns it from the destroyed stream
  stream.on('error', () => {});
  // `finished` also reports a source that broke before this reader came, whose error event has gone
  finished(source, (e) => {
    if (e) stream.destroy(requestError(e) as Error);
  });
  source.pipe(stream);
  return { filename: upload.filename, mimetype: upload.mimetype, stream };
}

/** A failure of the request's multipart body as the caller's error; a fault of this server (a system error: disk full) stays as it is. */
function requestError(e: unknown): unknown {
  if (isAppError(e) || !(e instanceof Error) || typeof (e as NodeJS.ErrnoException).errno === 'number') return e;
  const status = (e as { status?: number }).status;
  const err = status === 413 ? new AppError('PAYLOAD_TOO_LARGE', e.message) : new AppError('BAD_REQUEST', `Invalid multipart request: ${e.message}`);
  // the HTTP status of the GraphQL answer: this is about the request, not its data
  (err.extensions as Record<string, unknown>).http = { status: err.extensions.status };
  return err;
}
