// The ingest steps on their own, as a second pipeline calls them: no project
// row, its own progress callback and its own transcriber.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { TimedWord } from '../../src/media/transcript.js';
import type { TranscribeOptions, Transcriber } from '../../src/media/transcription/types.js';
import { readWavInfo } from '../../src/media/wav.js';
import { failureReason, fetchSource, isPassingFailure, probeSource, ProjectFailure, transcribeSource, type IngestStage } from '../../src/projects/ingest.js';
import { createLocalStorage } from '../../src/storage/local.js';
import { localFiles } from '../../src/storage/storage.js';
import { mediaFixtures, serveFolder, type FileServer, type Fixtures } from '../support/media.js';

describe('ingest', () => {
  let dir: string;
  let fx: Fixtures;
  let files: FileServer;
  let app: Parameters<typeof fetchSource>[0];

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ingest-'));
    fx = await mediaFixtures();
    files = await serveFolder(fx.dir);
    app = {
      config: loadConfig({ DATA_DIR: dir, ALLOW_PRIVATE_NETWORK: '1' }),
      storage: createLocalStorage({ root: path.join(dir, 'media'), publicUrl: 'http://127.0.0.1', secret: 's' }),
    };
  });
  afterAll(async () => {
    await files?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const recorder = () => {
    const seen: Array<[IngestStage, number]> = [];
    return { seen, report: async (stage: IngestStage, percent: number) => void seen.push([stage, Math.round(percent)]) };
  };

  it('fetches, probes, measures and transcribes a source, reporting each step to the caller', async () => {
    const { seen, report } = recorder();
    const projectId = crypto.randomUUID();
    const key = await fetchSource(app, { projectId, url: files.url('talk.mp4'), maxBytes: 10 * 1024 ** 2, report });
    expect(await fs.readFile(app.storage.localPath(key)!)).toEqual(await fs.readFile(fx.talk));

    const local = localFiles(app.storage, path.join(dir, 'scratch'));
    const meta = await probeSource({ key, files: local, report });
    expect(meta).toMatchObject({ width: 320, height: 240, fps: 30, hasAudio: true });
    expect(meta.duration).toBeGreaterThan(6);

    const heard: Array<{ duration: number; opts: TranscribeOptions }> = [];
    const transcriber: Transcriber = {
      name: 'whisper',
      supports: () => true,
      async transcribe(wav, opts) {
        heard.push({ duration: (await readWavInfo(wav)).duration, opts });
        opts.onProgress?.(0.5);
        const w = (text: string, startTime: number, endTime: number): TimedWord => ({ text, type: 'word', startTime, endTime });
        return [w('Hello', 0.2, 0.6), w('kwokka', 0.7, 1.2), w('again', 5.5, 6)];
      },
    };
    const { transcript, audioLevels } = await transcribeSource(app, {
      projectId,
      key,
      files: local,
      meta,
      language: 'en',
      dictionary: ['Quokka'],
      transcriber,
      report,
    });

    // the engine hears the whole sound, with the caller's language and dictionary
    expect(heard).toHaveLength(1);
    expect(heard[0].duration).toBeCloseTo(meta.duration, 1);
    expect(heard[0].opts).toMatchObject({ language: 'en', dictionary: ['Quokka'] });
    // the words come back post-processed: ids, dictionary spellings, silences up to the end
    expect(transcript.filter((x) => x.type === 'word').map((x) => x.text)).toEqual(['Hello', 'Quokka', 'again']);
    expect(new Set(transcript.map((x) => x.id)).size).toBe(transcript.length);
    expect(transcript.at(-1)).toMatchObject({ type: 'silence', endTime: meta.duration });
    // the 1.5 s pause between the two sentences is measured as quiet
    expect(audioLevels.loudness).toEqual(expect.any(Number));
    expect(audioLevels.quiet.some((q) => q.end - q.start > 1)).toBe(true);
    // the temporary sound is gone
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);

    const stages = seen.map(([s]) => s).filter((s, i, all) => s !== all[i - 1]);
    expect(stages).toEqual(['fetch', 'probe', 'extract', 'transcribe']);
    expect(seen).toContainEqual(['fetch', 100]);
    expect(seen).toContainEqual(['transcribe', 50]);
  }, 60_000);

  it('a source over the size limit or that is no video fails at once, with the reason a project shows', async () => {
    const { report } = recorder();
    const tooBig = await fetchSource(app, { projectId: crypto.randomUUID(), url: files.url('talk.mp4'), maxBytes: 1000, report }).catch((e: unknown) => e);
    expect(isPassingFailure(tooBig)).toBe(false);
    expect(failureReason(tooBig)).toBe('The video could not be downloaded: The file is larger than the limit of 1000 bytes');

    const key = await fetchSource(app, { projectId: crypto.randomUUID(), url: files.url('noise.bin'), maxBytes: 1024 ** 2, report });
    const notVideo = await probeSource({ key, files: localFiles(app.storage, path.join(dir, 'scratch')), report }).catch((e: unknown) => e);
    expect(notVideo).toBeInstanceOf(ProjectFailure);
    expect(isPassingFailure(notVideo)).toBe(false);
    expect(failureReason(notVideo)).toBe('The file at videoUrl is not an mp4 or mov video');
  });
});
