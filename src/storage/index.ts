import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { createLocalStorage } from './local.js';
import { createS3Client, createS3Storage } from './s3.js';
import type { Storage } from './storage.js';

/**
 * The secret that signs media URLs: URL_SIGNING_SECRET, else one made once and
 * kept in DATA_DIR, which every instance sharing the local media store shares too.
 */
export function urlSigningSecret(config: Pick<Config, 'urlSigningSecret' | 'dataDir'>): string {
  if (config.urlSigningSecret) return config.urlSigningSecret;
  const file = path.join(config.dataDir, 'url-signing.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
      return secret;
    } catch {
      // another process wrote it first
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}

/**
 * The media store of this deployment: local disk under DATA_DIR/media, or the
 * bucket of STORAGE_URL=s3://…, which needs URL_SIGNING_SECRET (every instance
 * must verify the links the others signed).
 */
export function createStorage(config: Pick<Config, 'urlSigningSecret' | 'dataDir' | 'publicUrl' | 'storage'>): Storage & { secret: string } {
  // PUBLIC_URL is read at each call: tests learn their port only after listening
  const publicUrl = () => config.publicUrl;
  const settings = config.storage;
  if (settings.kind === 's3') {
    if (!config.urlSigningSecret)
      throw new Error('URL_SIGNING_SECRET is required with STORAGE_URL=s3://…: every instance must sign and verify the same media links');
    const storage = createS3Storage({
      client: createS3Client(settings),
      bucket: settings.bucket,
      prefix: settings.prefix,
      publicUrl,
      secret: config.urlSigningSecret,
      presignedUrls: settings.presignedUrls,
    });
    return Object.assign(storage, { secret: config.urlSigningSecret });
  }
  const secret = urlSigningSecret(config);
  const storage = createLocalStorage({ root: path.join(config.dataDir, 'media'), publicUrl, secret });
  return Object.assign(storage, { secret });
}
