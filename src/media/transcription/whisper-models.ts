/**
 * The ggml models whisper.cpp publishes, and their download (`npm run model -- base.en`).
 * whisper.cpp publishes a SHA-1 for each file (models/README.md), not a SHA-256: a download
 * is checked against that SHA-1, then read whole as a model (ggml-model.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readWhisperModel, type WhisperModelInfo } from './ggml-model.js';

/** where whisper.cpp's ggml models are published; WHISPER_MODEL_BASE_URL replaces it */
export const DEFAULT_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

export interface PublishedModel {
  name: string;
  /** the file as published (ggml-<name>.bin) */
  file: string;
  sha1: string;
  /** as whisper.cpp lists it */
  size: string;
}

const model = (name: string, size: string, sha1: string): PublishedModel => ({ name, file: `ggml-${name}.bin`, sha1, size });

/** whisper.cpp's models/README.md, "Available models" */
export const WHISPER_MODELS: readonly PublishedModel[] = [
  model('tiny', '75 MiB', 'bd577a113a864445d4c299885e0cb97d4ba92b5f'),
  model('tiny.en', '75 MiB', 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df'),
  model('base', '142 MiB', '465707469ff3a37a2b9b8d8f89f2f99de7299dac'),
  model('base.en', '142 MiB', '137c40403d78fd54d454da0f9bd998f78703390c'),
  model('small', '466 MiB', '55356645c2b361a969dfd0ef2c5a50d530afd8d5'),
  model('small.en', '466 MiB', 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022'),
  model('medium', '1.5 GiB', 'fd9727b6e1217c2f614f9b698455c4ffd82463b4'),
  model('medium.en', '1.5 GiB', '8c30f0e44ce9560643ebd10bbe50cd20eafd3723'),
  model('large-v2', '2.9 GiB', '0f4c8e34f21cf1a914c59d8b3ce882345ad349d6'),
  model('large-v2-q5_0', '1.1 GiB', '00e39f2196344e901b3a2bd5814807a769bd1630'),
  model('large-v3', '2.9 GiB', 'ad82bf6a9043ceed055076d0fd39f5f186ff8062'),
  model('large-v3-q5_0', '1.1 GiB', 'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de'),
];

export class ModelDownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelDownloadError';
  }
}

export interface DownloadOptions {
  /** folder the model is saved in */
  dir: string;
  baseUrl?: string;
  /** the catalogue (tests serve their own files) */
  models?: readonly PublishedModel[];
  /** bytes received and expected (null when the server does not say) */
  onProgress?: (received: number, total: number | null) => void;
  signal?: AbortSignal;
}

/**
 * Downloads a published model into `dir`: streamed into a temporary file beside the target,
 * its SHA-1 compared with the catalogue's, read whole as a model, then renamed into place, so
 * the target is either absent or a checked model. A model already there is checked, not fetched.
 */
export async function downloadWhisperModel(name: string, opts: DownloadOptions): Promise<{ path: string; model: WhisperModelInfo; downloaded: boolean }> {
  const models = opts.models ?? WHISPER_MODELS;
  const entry = models.find((m) => m.name === name);
  if (!entry) throw new ModelDownloadError(`unknown model "${name}"; one of: ${models.map((m) => m.name).join(', ')}`);
  await fsp.mkdir(opts.dir, { recursive: true });
  const target = path.resolve(opts.dir, entry.file);
  if (fs.existsSync(target) && (await sha1Of(target)) === entry.sha1) return { path: target, model: readWhisperModel(target), downloaded: false };

  const url = `${(opts.baseUrl || DEFAULT_MODEL_BASE_URL).replace(/\/+$/, '')}/${entry.file}`;
  let res: Response;
  try {
    res = await fetch(url, { signal: opts.signal, redirect: 'follow' });
  } catch (e) {
    throw new ModelDownloadError(`cannot reach ${url}: ${(e as Error).message}`);
  }
  if (!res.ok || !res.body) throw new ModelDownloadError(`${url} answered HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length')) || null;
  const temp = `${target}.${process.pid}.part`;
  const hash = crypto.createHash('sha1');
  let received = 0;
  try {
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      received += chunk.length;
      opts.onProgress?.(received, total);
    });
    await pipeline(body, fs.createWriteStream(temp), { signal: opts.signal });
    const sha1 = hash.digest('hex');
    if (sha1 !== entry.sha1) {
      throw new ModelDownloadError(
        `checksum mismatch for ${entry.file}: SHA-1 ${sha1}, whisper.cpp publishes ${entry.sha1} (${received} bytes from ${url}); nothing was saved`,
      );
    }
    const info = readWhisperModel(temp);
    await fsp.rename(temp, target);
    return { path: target, model: { ...info, path: target }, downloaded: true };
  } finally {
    await fsp.rm(temp, { force: true });
  }
}

async function sha1Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha1');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}
