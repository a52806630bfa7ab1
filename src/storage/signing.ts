import crypto from 'node:crypto';

/** How long a media URL stays valid when the caller names no lifetime. */
export const DEFAULT_URL_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** The path prefix under which signed objects are served (src/http/files.ts). */
export const FILES_PREFIX = '/files/';

/**
 * HMAC-SHA256 over key, expiry and download name. The fields are joined with
 * newlines, which neither a storage key nor the decimal expiry can contain, and
 * the download name comes last, so two different triples never sign the same text.
 */
export function signature(key: string, exp: number, secret: string, download?: string): string {
  return crypto
    .createHmac('sha256', secret)
    .update(`files-v1\n${key}\n${exp}\n${download ?? ''}`)
    .digest('base64url');
}

/** `/files/<key>` with each key segment percent-encoded. */
export function filesPath(key: string): string {
  return FILES_PREFIX + key.split('/').map(encodeURIComponent).join('/');
}

/**
 * `/files/<key>?exp=<unix seconds>&sig=<base64url>[&dl=<filename>]`: prefix it with
 * PUBLIC_URL. `expiresAt` is a Date or unix seconds; `download` makes the answer
 * an attachment with that file name.
 */
export function signedPath(key: string, expiresAt: Date | number, secret: string, download?: string): string {
  const exp = typeof expiresAt === 'number' ? Math.floor(expiresAt) : Math.floor(expiresAt.getTime() / 1000);
  const q = new URLSearchParams({ exp: String(exp), sig: signature(key, exp, secret, download || undefined) });
  if (download) q.set('dl', download);
  return `${filesPath(key)}?${q.toString()}`;
}

/** A full signed URL under `publicUrl`, valid for `expiresInSeconds` (7 days by default). */
export function signedUrl(publicUrl: string, key: string, secret: string, opts: { expiresInSeconds?: number; download?: string; now?: number } = {}): string {
  const now = opts.now ?? Date.now();
  const exp = Math.floor(now / 1000) + (opts.expiresInSeconds ?? DEFAULT_URL_LIFETIME_SECONDS);
  return publicUrl.replace(/\/+$/, '') + signedPath(key, exp, secret, opts.download);
}

export type VerifyResult =
  | { ok: true; exp: number; download?: string /** seconds left before the link expires */; remainingSeconds: number }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired'; message: string };

/**
 * Checks the query of a signed URL for `key`. The signature is checked before the
 * expiry, so a forged `exp` reads as an invalid link, not an expired one.
 */
export function verify(key: string, query: { exp?: unknown; sig?: unknown; dl?: unknown }, secret: string, now: number = Date.now()): VerifyResult {
  const { exp: expRaw, sig, dl } = query;
  if (typeof expRaw !== 'string' || typeof sig !== 'string' || !expRaw || !sig) {
    return { ok: false, reason: 'missing', message: 'Missing link signature' };
  }
  if (dl !== undefined && typeof dl !== 'string') return { ok: false, reason: 'invalid', message: 'Invalid link signature' };
  if (!/^\d{1,15}$/.test(expRaw)) return { ok: false, reason: 'invalid', message: 'Invalid link signature' };
  const exp = Number(expRaw);
  const expected = Buffer.from(signature(key, exp, secret, dl || undefined));
  const given = Buffer.from(sig);
  // timingSafeEqual needs equal lengths; the length of a valid signature is public anyway
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'invalid', message: 'Invalid link signature' };
  }
  const remainingSeconds = exp - Math.floor(now / 1000);
  if (remainingSeconds <= 0) return { ok: false, reason: 'expired', message: 'Link expired' };
  return { ok: true, exp, remainingSeconds, ...(dl ? { download: dl } : {}) };
}
