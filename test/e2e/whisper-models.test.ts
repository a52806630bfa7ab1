import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadWhisperModel, WHISPER_MODELS, type PublishedModel } from '../../src/media/transcription/whisper-models.js';
import { runEntry } from '../support/process.js';
import { generatedTinyEn } from '../support/whisper-model.js';

// `npm run model` against a local server that serves the generated tiny.en-shaped model.

let dir: string;
let model: string;
let sha1: string;
let server: http.Server;
let baseUrl: string;
const requests: string[] = [];

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'whisper-models-'));
  model = generatedTinyEn();
  sha1 = crypto
    .createHash('sha1')
    .update(await fsp.readFile(model))
    .digest('hex');
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    // any ggml-*.bin is the generated model; anything else is missing
    if (!/^\/models\/ggml-[\w.-]+\.bin$/.test(req.url ?? '')) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-length': fs.statSync(model).size, 'content-type': 'application/octet-stream' });
    fs.createReadStream(model).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/models`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

const cli = (args: string[], env: Record<string, string>) => runEntry(['src/cli/model.ts', ...args], { ...process.env, ...env });

describe('whisper model download', () => {
  it('saves a model whose checksum matches, checked whole, and does not fetch it again', async () => {
    const catalogue: PublishedModel[] = [{ name: 'tiny.en', file: 'ggml-tiny.en.bin', sha1, size: '75 MiB' }];
    const target = path.join(dir, 'ok');
    const progress: number[] = [];
    const got = await downloadWhisperModel('tiny.en', { dir: target, baseUrl, models: catalogue, onProgress: (n) => progress.push(n) });
    expect(got).toMatchObject({ path: path.join(target, 'ggml-tiny.en.bin'), downloaded: true, model: { type: 'tiny.en', weights: 'f16', tensors: 167 } });
    expect(await fsp.readdir(target)).toEqual(['ggml-tiny.en.bin']);
    expect(fs.statSync(got.path).size).toBe(fs.statSync(model).size);
    expect(progress.at(-1)).toBe(fs.statSync(model).size);
    const before = requests.length;
    await expect(downloadWhisperModel('tiny.en', { dir: target, baseUrl, models: catalogue })).resolves.toMatchObject({ downloaded: false });
    expect(requests.length).toBe(before);
  });

  it('refuses a download whose checksum differs from the published one, leaving nothing behind', async () => {
    const target = path.join(dir, 'mismatch');
    const run = await cli(['base.en', '--dir', target], { WHISPER_MODEL_BASE_URL: baseUrl });
    expect(run.code).toBe(1);
    const published = WHISPER_MODELS.find((m) => m.name === 'base.en')!.sha1;
    expect(run.stderr).toContain(`checksum mismatch for ggml-base.en.bin: SHA-1 ${sha1}, whisper.cpp publishes ${published}`);
    expect(run.stdout).toBe('');
    expect(requests.at(-1)).toBe('/models/ggml-base.en.bin');
    expect(await fsp.readdir(target)).toEqual([]);
  });

  it('says what is wrong with an unknown model or a missing file', async () => {
    const unknown = await cli(['huge.en', '--dir', dir], { WHISPER_MODEL_BASE_URL: baseUrl });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown model "huge.en"[\s\S]*base\.en\s+142 MiB/);
    await expect(downloadWhisperModel('tiny', { dir, baseUrl: `${baseUrl}/nowhere` })).rejects.toThrow(/answered HTTP 404/);
  });
});
