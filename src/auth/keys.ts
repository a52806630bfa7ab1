import crypto from 'node:crypto';

/** API keys look like `sk-<43 url-safe chars>`; only their SHA-256 is stored. */
export const KEY_PREFIX = 'sk-';

export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = `${KEY_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 10) };
}

export const hashApiKey = (key: string) => crypto.createHash('sha256').update(key, 'utf8').digest('hex');

/** The key of a request: `x-api-key`, else `Authorization: Bearer <key>`. */
export function keyFromHeaders(get: (name: string) => string | null | undefined): string | undefined {
  const direct = get('x-api-key');
  if (direct?.trim()) return direct.trim();
  const auth = get('authorization');
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return m ? m[1].trim() : undefined;
}

/** The key a WebSocket client gives in its connection_init payload: `x-api-key` or `apiKey`, else `Authorization` (Bearer). */
export function keyFromConnectionParams(params: Record<string, unknown>): string | undefined {
  return keyFromHeaders((n) => {
    const v = params[n] ?? params[n === 'x-api-key' ? 'apiKey' : 'Authorization'];
    return typeof v === 'string' ? v : undefined;
  });
}

export const newWebhookSecret = () => `whsec_${crypto.randomBytes(24).toString('base64')}`;
