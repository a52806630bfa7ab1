import crypto from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the signed
 * content is `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 keyed
 * with the base64 part of the `whsec_` secret, sent as `v1,<base64>`.
 */

const SECRET_PREFIX = 'whsec_';
/** how far a webhook-timestamp may be from the receiver's clock, either way (the spec's suggestion) */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

function secretKey(secret: string): Buffer {
  const base64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(base64, 'base64');
  if (key.length === 0) throw new Error('the webhook secret is empty');
  return key;
}

/** `v1,<base64 HMAC-SHA256>` of one message as sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = crypto.createHmac('sha256', secretKey(secret));
  mac.update(`${id}.${timestamp}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/** The headers of one signed request, `content-type` included. */
export function webhookHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : bag[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a received webhook as a receiver would: the three headers present, the
 * timestamp within `toleranceSeconds` of now, and one of the space-separated
 * `v1,` signatures matching (compared in constant time). `body` must be the raw
 * bytes received, not a re-serialisation. Returns the parsed payload; throws a
 * WebhookVerificationError otherwise.
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderBag,
  body: string | Buffer,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() }: { toleranceSeconds?: number; now?: Date } = {},
): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a unix time in seconds');
  const ts = Number(timestamp);
  if (Math.abs(now.getTime() / 1000 - ts) > toleranceSeconds) throw new WebhookVerificationError('webhook-timestamp is too old or too far in the future');

  const expected = Buffer.from(signWebhook(secret, id, ts, body).slice('v1,'.length), 'base64');
  const matches = signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches');
  try {
    return JSON.parse(body.toString());
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
