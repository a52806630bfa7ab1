/**
 * Platform tokens at rest: sealed with AES-256-GCM under a key derived
 * (HKDF-SHA256) from TOKEN_ENCRYPTION_KEY, so a copy of the database alone
 * reveals no token. A sealed value reads `v1.<key id>.<iv>.<tag>.<data>`
 * (base64url): the key id names the key that sealed it, so a value sealed
 * under another key is refused with a clear message rather than a failed
 * decryption. The same secret also keys the HMAC of the OAuth `state`
 * (connections.ts), under its own derivation.
 */
import crypto from 'node:crypto';

/** The shortest secret accepted: 32 characters, as `openssl rand -base64 32` gives 44. */
export const MIN_SECRET_LENGTH = 32;

export interface Vault {
  seal(value: unknown): string;
  open<T>(sealed: string): T;
  /** an HMAC-SHA256 of `data` (base64url), under a key of its own */
  sign(data: string): string;
}

const derive = (secret: string, info: string) => Buffer.from(crypto.hkdfSync('sha256', secret, 'clipcast-platform-tokens', info, 32));

export function createVault(secret: string): Vault {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`TOKEN_ENCRYPTION_KEY must be at least ${MIN_SECRET_LENGTH} characters (openssl rand -base64 32)`);
  const key = derive(secret, 'aes-256-gcm');
  const macKey = derive(secret, 'oauth-state');
  const keyId = crypto.createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return {
    seal(value) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return ['v1', keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open<T>(sealed: string): T {
      const [version, id, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !data) throw new Error('the stored tokens are not in a known sealed form');
      if (id !== keyId)
        throw new Error('the stored tokens were sealed under another TOKEN_ENCRYPTION_KEY; set the key they were sealed with, or connect the account again');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as T;
    },
    sign: (data) => crypto.createHmac('sha256', macKey).update(data).digest('base64url'),
  };
}
