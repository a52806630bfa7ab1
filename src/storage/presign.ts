import crypto from 'node:crypto';

/**
 * Query-string SigV4 presigning of a GET (the scheme of the S3 SDK's
 * getSignedUrl), done synchronously: `Storage.url` returns a string, and the
 * SDK's presigner is async only because it may have to fetch credentials,
 * which the S3 store resolves ahead of time.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 */
export interface PresignCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** S3 refuses presigned URLs valid for longer than seven days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60;

/** RFC 3986 encoding, as SigV4 requires (encodeURIComponent leaves !'()* alone). */
export const uriEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data).digest();

export function presignGet(opts: {
  /** the object's URL without a query (path-style or virtual-hosted) */
  objectUrl: URL;
  region: string;
  credentials: PresignCredentials;
  expiresInSeconds: number;
  /** extra query parameters, signed with the rest (response-content-disposition) */
  query?: Record<string, string>;
  now?: Date;
}): string {
  const now = opts.now ?? new Date();
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, ''); // YYYYMMDDTHHMMSSZ
  const day = amzDate.slice(0, 8);
  const scope = `${day}/${opts.region}/s3/aws4_request`;
  const params: Record<string, string> = {
    ...opts.query,
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
    'X-Amz-Credential': `${opts.credentials.accessKeyId}/${scope}`,
    'X-Amz-Date': amzDate,
    'X-Amz-Expires': String(Math.max(1, Math.min(MAX_PRESIGN_SECONDS, Math.floor(opts.expiresInSeconds)))),
    'X-Amz-SignedHeaders': 'host',
    ...(opts.credentials.sessionToken ? { 'X-Amz-Security-Token': opts.credentials.sessionToken } : {}),
  };
  const canonicalQuery = Object.keys(params)
    .sort()
    .map((k) => `${uriEncode(k)}=${uriEncode(params[k])}`)
    .join('&');
  // the path is already percent-encoded segment by segment by whoever built objectUrl
  const canonicalRequest = ['GET', opts.objectUrl.pathname, canonicalQuery, `host:${opts.objectUrl.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, crypto.createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  let key = hmac(`AWS4${opts.credentials.secretAccessKey}`, day);
  for (const part of [opts.region, 's3', 'aws4_request']) key = hmac(key, part);
  const signature = crypto.createHmac('sha256', key).update(stringToSign).digest('hex');
  return `${opts.objectUrl.origin}${opts.objectUrl.pathname}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}
