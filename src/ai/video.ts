/**
 * B-roll from a remote text-to-video service, chosen with BROLL_PROVIDER=openai.
 *
 * There is no stable public standard for text-to-video. The protocol supported
 * here is the shape of the OpenAI videos API, and only that:
 *
 *   POST {base}/v1/videos             {model, prompt, seconds, size} → {id, status}
 *   GET  {base}/v1/videos/{id}        → {id, status, error?}; polled until
 *                                       status is `completed` (`failed` or
 *                                       `cancelled` end it with an error)
 *   GET  {base}/v1/videos/{id}/content → the mp4 bytes
 *
 * with `Authorization: Bearer OPENAI_API_KEY`. `seconds` is sent as a string,
 * the shortest of the accepted lengths (4, 8, 12) that covers the asked
 * duration, and the clip is cut to that duration with ffmpeg afterwards;
 * `size` is portrait or landscape (720x1280 / 1280x720) by the asked aspect,
 * the renderer scales it to the layout.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BrollError, type BrollGenerator, type BrollOptions } from './broll.js';
import { ProgramError, runProgram } from '../media/program.js';
import { apiEndpoint } from '../net/openai-compatible.js';

/** clip lengths the videos API accepts, seconds */
const ACCEPTED_SECONDS = [4, 8, 12];

export interface VideosApiOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** where downloaded clips are written, unless the caller gives a folder */
  workDir: string;
  /** wait between status polls (default 5 s) */
  pollMs?: number;
  /** a whole clip never takes longer (default 10 min) */
  timeoutMs?: number;
}

export class VideosApiBroll implements BrollGenerator {
  constructor(private readonly opts: VideosApiOptions) {}

  async generate(prompt: string, { durationSeconds, width, height, signal, workDir = this.opts.workDir }: BrollOptions): Promise<string> {
    if (!(durationSeconds > 0)) throw new BrollError('durationSeconds must be positive');
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 10 * 60_000);
    const sig = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const base = apiEndpoint(this.opts.baseUrl, 'videos');
    const headers = { authorization: `Bearer ${this.opts.apiKey}` };
    const seconds = ACCEPTED_SECONDS.find((s) => s >= durationSeconds) ?? ACCEPTED_SECONDS[ACCEPTED_SECONDS.length - 1];
    const size = height > width ? '720x1280' : '1280x720';

    const created = await this.json(
      await fetch(base, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ model: this.opts.model, prompt, seconds: String(seconds), size }),
        signal: sig,
      }),
      'create the video',
    );
    const id = typeof created.id === 'string' ? created.id : '';
    if (!id) throw new BrollError('the video service answered without an id');
    let status = String(created.status ?? '');
    while (status !== 'completed') {
      if (status === 'failed' || status === 'cancelled') {
        const reason = (created.error as { message?: string } | undefined)?.message;
        throw new BrollError(`the video service could not make the clip: ${reason ?? status}`);
      }
      await sleep(this.opts.pollMs ?? 5000, sig);
      const polled = await this.json(await fetch(`${base}/${encodeURIComponent(id)}`, { headers, signal: sig }), 'read the video status');
      status = String(polled.status ?? '');
      created.error = polled.error;
    }
    const content = await fetch(`${base}/${encodeURIComponent(id)}/content`, { headers, signal: sig });
    if (!content.ok) throw new BrollError(`the video service refused the download: HTTP ${content.status}`);
    const bytes = Buffer.from(await content.arrayBuffer());

    await fs.mkdir(workDir, { recursive: true });
    const stem = path.join(workDir, `broll-${crypto.randomUUID()}`);
    const raw = `${stem}-raw.mp4`;
    const out = `${stem}.mp4`;
    await fs.writeFile(raw, bytes);
    try {
      // cut to the asked length (re-encoded: a stream copy can only cut at keyframes); no audio
      await runProgram(
        'ffmpeg',
        [
          '-hide_banner',
          '-nostdin',
          '-y',
          '-i',
          raw,
          '-t',
          durationSeconds.toFixed(3),
          '-an',
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-movflags',
          '+faststart',
          out,
        ],
        { signal: sig, timeoutMs: 120_000, stdout: 'ignore' },
      );
      return out;
    } catch (e) {
      await fs.rm(out, { force: true });
      if (sig.aborted || !(e instanceof ProgramError)) throw e;
      throw new BrollError(`the clip of the video service is not a readable video: ${e.message}`, e.stderr);
    } finally {
      await fs.rm(raw, { force: true });
    }
  }

  private async json(res: Response, what: string): Promise<Record<string, unknown>> {
    if (!res.ok) throw new BrollError(`the video service could not ${what}: HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, 300)}`);
    const body = (await res.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object') throw new BrollError(`the video service could not ${what}: the answer is not JSON`);
    return body as Record<string, unknown>;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
