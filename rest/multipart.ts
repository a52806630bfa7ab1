import busboy from 'busboy';
import type { FastifyRequest } from 'fastify';
import { Upload } from 'graphql-upload-ts';
import crypto from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, isAppError, validationError, type FieldError } from '../src/errors.js';
import type { Context } from '../src/graphql/context.js';
import { endingWith, requestEnd } from '../src/http/request-end.js';
import { workDirOf } from '../src/jobs/work-dir.js';

/** A multipart/form-data route: what its form holds and how the parts become the operation's variables. */
export interface FormSpec<TVariables = unknown> {
  /** what the caller may do, checked before a byte of the form is read (a subscription, a credit): throws the caller's error */
  caller?: (ctx: Context) => Promise<unknown>;
  /** The route's text parts; without them the operation takes the file alone, as it arrives, and text parts are not read. */
  fields?: {
    /** the route's reading of the text parts: throws the AppError naming every violated field */
    check: (ctx: Context, fields: Record<string, string>) => Promise<unknown>;
    /** the largest file the operation takes: a file held back until the fields are known is refused (413) once past it */
    maxFileBytes: (ctx: Context) => number;
  };
  variables: (fields: Record<string, string>, file: Upload) => TVariables;
}

const MAX_FIELD_BYTES = 1024 * 1024;
const FILE_FIELD = 'file';

const malformed = (message: string) => new AppError('VALIDATION_ERROR', `Invalid multipart request: ${message}`, { details: [{ field: 'body', message }] });
const cutOff = () => malformed('the request ended before its form did');
const fileRequired = (): FieldError => ({ field: FILE_FIELD, message: 'is required: send the file as a multipart part named file' });

/** The top-level field a detail names: `hookTitle.template` -> `hookTitle`, `items[1].endTime` -> `items`. */
const topField = (field: string) => field.split(/[.[]/)[0];

/**
 * A multipart/form-data request body, read after the caller is authenticated
 * and within its limits (in the operation's check), so a refused request's body
 * is never read. Its parts may come in any order:
 * - a route without text fields gets the file as it arrives, streamed to
 *   storage while the request is read;
 * - a route with text fields refuses at once a wrong field that came before
 *   the file; otherwise the file is held back in the work dir (DATA_DIR/tmp) while the
 *   rest of the form arrives, and the fields are checked once every one is known.
 * A form cut off by the client stops the file's stream with an error, so its
 * reader closes and deletes what it wrote.
 */
export class MultipartForm<TVariables = unknown> {
  private parser: busboy.Busboy | null = null;
  /** the file as the operation reads it: the request itself, or the held-back copy */
  private live: PassThrough | null = null;
  private heldBack: string | null = null;
  private held: Promise<void> | null = null;
  /** the file part being held back, as busboy gives it */
  private heldSource: Readable | null = null;
  private failed: AppError | null = null;
  /** the operation is over: what becomes of the request no longer concerns the form */
  private released = false;

  constructor(
    private readonly req: FastifyRequest,
    private readonly spec: FormSpec<TVariables>,
  ) {}

  /** Reads the form into `variables` (an operation's check); throws the caller's error. */
  async read(ctx: Context, variables: Record<string, unknown>): Promise<void> {
    await this.spec.caller?.(ctx);
    const { fields, file } = await this.parse(ctx);
    Object.assign(variables, this.spec.variables(fields, file));
  }

  /** After the operation: the held-back file goes, and a form left unread stops being read. */
  async release(): Promise<void> {
    this.released = true;
    if (this.parser && !this.req.raw.readableEnded) {
      this.req.raw.unpipe(this.parser);
      this.parser.destroy();
    }
    // a file part the parser no longer feeds would never end: its copy stops here
    if (this.heldSource && !this.heldSource.readableEnded) this.heldSource.destroy(this.failed ?? cutOff());
    await this.held?.catch(() => {});
    if (this.heldBack) await fs.rm(path.dirname(this.heldBack), { recursive: true, force: true });
  }

  private parse(ctx: Context): Promise<{ fields: Record<string, string>; file: Upload }> {
    const type = this.req.headers['content-type'] ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) {
      throw new AppError('VALIDATION_ERROR', 'Content-Type must be multipart/form-data', {
        details: [{ field: 'Content-Type', message: 'must be multipart/form-data', value: type || null }],
      });
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: this.req.headers, limits: { fieldSize: MAX_FIELD_BYTES, files: 1, fields: 100 } });
    } catch (e) {
      throw malformed((e as Error).message);
    }
    this.parser = parser;
    const checkFields = this.spec.fields && this.checkOnce(this.spec.fields.check);
    // no prototype: a part named __proto__ is a field like any other (and an unknown one)
    const fields: Record<string, string> = Object.create(null);
    let file: { filename: string; mimetype: string; encoding: string } | null = null;
    let settled = false;
    /** the form was refused or broke: what busboy still emits from the chunk it was parsing is not read */
    let broken = false;

    return new Promise((resolve, reject) => {
      // the file is whole once the request is, and once the form is: a form that breaks after the
      // file (a malformed part), or arrives entirely on a request that then breaks, is cut off
      let breakForm!: (e: Error) => void;
      const formBroken = new Promise<never>((_, reject) => (breakForm = reject));
      const requestEnded = requestEnd(this.req.raw, () => this.failed ?? cutOff());
      const ended = Promise.race([requestEnded, formBroken]);
      ended.catch(() => {}); // its readers learn it
      const upload = () => {
        const u = new Upload();
        const stream: () => Readable = this.live ? () => endingWith(this.live!, ended) : () => endingWith(createReadStream(this.heldBack!), ended);
        u.resolve({ ...file!, fieldName: FILE_FIELD, createReadStream: stream as never, capacitor: undefined as never });
        return u;
      };
      const succeed = () => {
        settled = true;
        resolve({ fields, file: upload() });
      };
      const fail = (e: unknown) => {
        broken = true;
        const err = isAppError(e) ? e : e instanceof Error ? e : new Error(String(e));
        if (isAppError(err) && !this.failed) this.failed = err;
        breakForm(this.failed ?? err);
        // a reader of the live file learns it through its stream
        this.live?.destroy(err);
        this.req.raw.unpipe(parser);
        parser.destroy();
        if (!settled) {
          settled = true;
          reject(err);
        }
      };

      parser.on('field', (name, value, info) => {
        if (broken) return;
        if (info.valueTruncated) return fail(validationError([{ field: name, message: `is longer than ${MAX_FIELD_BYTES} bytes` }]));
        if (checkFields) fields[name] = value;
      });

      parser.on('file', (name, stream, info) => {
        // busboy destroys a part's stream with its own error when the form breaks: never unhandled
        stream.on('error', () => {});
        if (name !== FILE_FIELD || file || broken) {
          stream.resume();
          return;
        }
        file = { filename: info.filename ?? 'upload', mimetype: info.mimeType, encoding: info.encoding };
        if (!checkFields) {
          this.live = new PassThrough();
          // the form may break before the operation reads the file: its reader learns it from the destroyed stream
          this.live.on('error', () => {});
          stream.on('error', () => fail(this.failed ?? cutOff()));
          stream.pipe(this.live);
          return succeed();
        }
        this.held = this.holdBack(stream, workDirOf(ctx.app.config.dataDir), this.spec.fields!.maxFileBytes(ctx)).catch((e) => {
          fail(e);
          throw e;
        });
        this.held.catch(() => {});
        // a wrong field that came first is refused now; one that is missing may still come
        const given = new Set(Object.keys(fields));
        if (given.size) {
          checkFields(ctx, { ...fields }).catch((e) => {
            const known =
              isAppError(e) && Array.isArray(e.extensions.details) ? (e.extensions.details as FieldError[]).filter((d) => given.has(topField(d.field))) : null;
            if (!known) fail(e);
            else if (known.length) fail(validationError(known));
          });
        }
      });

      parser.on('close', () => {
        if (settled || this.live) return;
        void (async () => {
          try {
            await this.held;
            if (settled) return;
            const missing = file ? [] : [fileRequired()];
            try {
              await checkFields?.(ctx, { ...fields });
            } catch (e) {
              if (!isAppError(e) || !Array.isArray(e.extensions.details)) throw e;
              throw validationError([...(e.extensions.details as FieldError[]), ...missing]);
            }
            if (missing.length) throw validationError(missing);
            succeed();
          } catch (e) {
            fail(e);
          }
        })();
      });

      parser.on('error', (e) => fail(malformed((e as Error).message)));
      // the connection closed, or the HTTP parser refused the body, before the form was read to its end: received
      // whole (complete) is not enough, since bytes still queued behind a slow reader are lost with it
      requestEnded.catch((e: Error) => {
        if (!this.released) fail(e);
      });
      this.req.raw.pipe(parser);
    });
  }

  /**
   * The fields' check, run again only for other fields: the fields that came
   * before the file are usually all of them, and the check at the form's end
   * then takes that reading instead of looking up the same presets and themes.
   */
  private checkOnce(check: NonNullable<FormSpec['fields']>['check']): typeof check {
    let last: { fields: string; read: Promise<unknown> } | null = null;
    return (ctx, fields) => {
      const key = JSON.stringify(Object.entries(fields));
      if (last?.fields !== key) last = { fields: key, read: check(ctx, fields) };
      return last.read;
    };
  }

  /** Writes the file to a temporary file of the work dir as it arrives, refusing it once past `maxBytes`. */
  private async holdBack(stream: Readable, workDir: string, maxBytes: number): Promise<void> {
    this.heldSource = stream;
    await fs.mkdir(workDir, { recursive: true });
    const dir = await fs.mkdtemp(path.join(workDir, 'upload-'));
    this.heldBack = path.join(dir, crypto.randomUUID());
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > maxBytes) return cb(new AppError('PAYLOAD_TOO_LARGE', `File is larger than the limit of ${maxBytes} bytes`));
        cb(null, chunk);
      },
    });
    try {
      await pipeline(stream, limit, createWriteStream(this.heldBack, { flags: 'wx' }));
    } catch (e) {
      throw isAppError(e) ? e : (this.failed ?? cutOff());
    }
  }
}
