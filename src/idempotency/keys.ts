/**
 * Idempotency keys: the `Idempotency-Key` header a client sends with a POST of
 * /v1 or a GraphQL mutation, and the row that makes a retry return the first
 * answer instead of doing the work again. The row is the arbiter between
 * requests and between server instances: the request whose insert wins runs,
 * any other one with the same user, operation and key waits for its answer.
 */
import type { Db, Prisma } from '../db/client.js';
import { anyJson, jsonColumn } from '../db/json.js';
import { isUniqueViolation } from '../db/errors.js';
import { fieldError, type AppError } from '../errors.js';

/** Keys only have to outlive a client's retries; a day is the promise we make (the hourly purge deletes older ones). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a running first request holds its key without renewing it; a retry then takes the key over (that process died). */
export const IDEMPOTENCY_LEASE_MS = 30_000;
const RENEW_EVERY_MS = IDEMPOTENCY_LEASE_MS / 3;
const MAX_KEY_LENGTH = 255;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer that is the stored answer of an earlier request. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** The field an error about the header names. */
const FIELD = 'Idempotency-Key';

/**
 * The key of a request, or undefined without the header. 1 to 255 printable
 * ASCII characters; the quoted form of the IETF draft (`"abc"`) is read as abc.
 */
export function readIdempotencyKey(value: string | string[] | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) throw fieldError(FIELD, 'must be sent once');
  let key = value.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1);
  if (!key) throw fieldError(FIELD, 'must not be empty');
  if (key.length > MAX_KEY_LENGTH) throw fieldError(FIELD, `must be at most ${MAX_KEY_LENGTH} characters`);
  if (!/^[\x20-\x7e]+$/.test(key)) throw fieldError(FIELD, 'must be printable ASCII characters');
  return key;
}

/** The same key again with another request: the client's bug, never a replay. */
export const reusedKey = (): AppError =>
  fieldError(FIELD, 'was already used with another request body on this operation; it stays taken for 24 hours, send a new key for a new request');

/**
 * Whether an answer is kept for replay: any success or refusal of the request
 * itself (4xx), but not a refusal before any work that a retry may pass (401,
 * 429 with its Retry-After) nor a fault of the service (5xx): a retry runs again.
 */
export const keepsAnswer = (status: number) => status < 500 && status !== 401 && status !== 429;

/** One key of one user on one operation (`POST /v1/projects`, `mutation createProject`). */
export interface KeyScope {
  userId: string;
  operation: string;
  key: string;
}

/** What a request under a key may do. */
export type Claim<T> =
  /** run the work, then finish (its answer is kept) or release (a retry runs it again) */
  | { kind: 'owner'; finish(fingerprint: string, status: number, answer: T): Promise<void>; release(): Promise<void> }
  /** an earlier request under this key answered: replay `answer` if `fingerprint` is this request's */
  | { kind: 'done'; fingerprint: string; answer: T }
  /** the key is held (running or done) for a request of another fingerprint */
  | { kind: 'reused' };

export interface ClaimOptions {
  /** stops waiting for a running first request (the client went away) */
  signal?: AbortSignal;
  log?: WarningLog;
}

/** Fastify's request logger or pino's. */
interface WarningLog {
  warn(obj: object, msg: string): void;
}

/**
 * Takes the key for this request, or waits until the request holding it has
 * answered. `fingerprint` is the hash of the request's canonical form, or null
 * while it cannot be known yet (an upload: its file has not been read); a
 * known fingerprint is compared at once, an unknown one by the caller once the
 * answer is there.
 */
export async function claimKey<T>(db: Db, scope: KeyScope, fingerprint: string | null, opts: ClaimOptions = {}): Promise<Claim<T>> {
  for (let pause = 25; ; pause = Math.min(pause * 1.5, 500)) {
    opts.signal?.throwIfAborted();
    try {
      const row = await db.idempotencyKey.create({
        data: { ...scope, requestHash: fingerprint ?? '', lockedUntil: leaseEnd() },
        select: { id: true },
      });
      return owner(db, row.id, opts.log);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
    }
    const row = await db.idempotencyKey.findUnique({ where: { userId_operation_key: scope } });
    if (!row) continue; // released meanwhile: try again
    if (row.createdAt.getTime() < Date.now() - IDEMPOTENCY_KEY_TTL_MS) {
      // expired, and the hourly purge has not come by yet
      await db.idempotencyKey.deleteMany({ where: { id: row.id, createdAt: row.createdAt } });
      continue;
    }
    if (fingerprint && row.requestHash && row.requestHash !== fingerprint) return { kind: 'reused' };
    if (row.statusCode !== null) return { kind: 'done', fingerprint: row.requestHash, answer: fromStored(responseColumn.read(row.response)) as T };
    if (!row.lockedUntil || row.lockedUntil.getTime() < Date.now()) {
      // its request stopped renewing the lease: that process is gone, the work is this request's now
      const { count } = await db.idempotencyKey.updateMany({
        where: { id: row.id, statusCode: null, lockedUntil: row.lockedUntil },
        data: { requestHash: fingerprint ?? '', lockedUntil: leaseEnd() },
      });
      if (count === 1) {
        opts.log?.warn({ operation: scope.operation }, 'idempotency key taken over from a request that stopped renewing it');
        return owner(db, row.id, opts.log);
      }
      continue;
    }
    await sleep(pause, opts.signal);
  }
}

const leaseEnd = () => new Date(Date.now() + IDEMPOTENCY_LEASE_MS);

/** IdempotencyKey.response: an answer as JSON holds it, null while its request runs; what answer it is, its operation knows */
export const responseColumn = jsonColumn('IdempotencyKey.response', anyJson);

/** The key under which an answer is kept as its JSON text. */
const AS_TEXT = 'jsonText';

/**
 * An answer as the JSON column can hold it. PostgreSQL refuses a NUL character
 * and an unpaired surrogate in JSON strings, and a refusal may quote the
 * caller's value holding one: such an answer is kept as its JSON text, where
 * they are escapes.
 */
function storable(answer: unknown): Prisma.InputJsonValue {
  const text = JSON.stringify(answer);
  // JSON.stringify escapes NUL as \u0000 and an unpaired surrogate as \udXXX (paired ones it writes as they are)
  // else the answer as JSON makes it, which is what Prisma would have stored of the answer itself
  return responseColumn.write(/\\u0000|\\ud[89a-f]/i.test(text) ? { [AS_TEXT]: text } : JSON.parse(text));
}

function fromStored(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const text = (value as Record<string, unknown>)[AS_TEXT];
    if (typeof text === 'string' && Object.keys(value).length === 1) return JSON.parse(text);
  }
  return value;
}

function owner<T>(db: Db, id: string, log?: WarningLog): Claim<T> {
  const renew = setInterval(() => {
    db.idempotencyKey
      .updateMany({ where: { id, statusCode: null }, data: { lockedUntil: leaseEnd() } })
      .catch((err) => log?.warn({ err }, 'could not renew an idempotency key'));
  }, RENEW_EVERY_MS);
  renew.unref();
  let settled = false;
  const settle = () => {
    clearInterval(renew);
    const first = !settled;
    settled = true;
    return first;
  };
  return {
    kind: 'owner',
    async finish(fingerprint, status, answer) {
      if (!settle()) return;
      try {
        await db.idempotencyKey.update({
          where: { id },
          data: { requestHash: fingerprint, statusCode: status, response: storable(answer), lockedUntil: null },
        });
      } catch (e) {
        // not kept: the key goes, so that a retry runs again instead of waiting out the lease
        await db.idempotencyKey.deleteMany({ where: { id, statusCode: null } }).catch(() => {});
        throw e;
      }
    },
    async release() {
      if (!settle()) return;
      await db.idempotencyKey.deleteMany({ where: { id, statusCode: null } });
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      if (signal?.aborted) reject(signal.reason);
      else resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
