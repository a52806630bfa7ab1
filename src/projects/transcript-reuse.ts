/**
 * Audio a user has had transcribed before is not transcribed again. A creator often makes
 * several projects of one video (another template, another preset, a clips project of the
 * talk an edit was made of); the engine is the slowest step of each, and it would hear the
 * same words every time. The engine's words are kept per user (HeardAudio), keyed by a hash
 * of the extracted audio and of all else that shapes them: the engine and its model, the
 * language, the dictionary. A project whose audio and settings match takes the kept words,
 * and post-processing runs on them as on fresh ones.
 *
 * Never across users: another user's project of the same audio runs the engine, so how long
 * a transcription takes tells no one what others have uploaded.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import type { App } from '../app.js';
import type { Config } from '../config.js';
import { jsonColumn } from '../db/json.js';
import type { TimedWord } from '../media/transcript.js';
import type { Transcriber } from '../media/transcription/transcriber.js';

/** Kept words older than this go with the maintenance sweep. */
export const HEARD_AUDIO_DAYS = 30;

export const heardWordsColumn = jsonColumn<TimedWord[]>(
  'HeardAudio.words',
  z.array(
    z.object({
      text: z.string(),
      type: z.enum(['word', 'silence', 'punctuation']),
      startTime: z.number(),
      endTime: z.number(),
      confidence: z.number().optional(),
    }),
  ),
);

/** What besides the audio decides the engine's words: its name and, where it has one, its model. */
function engineIdentity(engine: Transcriber, config: Pick<Config, 'whisper' | 'openai'>): string {
  if (engine.name === 'whisper') return `whisper:${config.whisper.model ?? ''}`;
  if (engine.name === 'openai') return `openai:${config.openai.baseUrl ?? ''}:${config.openai.transcriptionModel}`;
  return engine.name;
}

async function audioKey(wavPath: string, engine: string, language: string, dictionary: readonly string[] | undefined): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(wavPath)) hash.update(chunk as Buffer);
  hash.update(`\0${engine}\0${language}\0${[...(dictionary ?? [])].sort().join('\n')}`);
  return hash.digest('hex');
}

/**
 * `engine` for one user's project: words kept for the same audio and settings come back at
 * once; fresh ones are kept for next time. A failed lookup or keep only costs the engine run.
 */
export function reusingTranscripts(app: Pick<App, 'db' | 'config' | 'log'>, userId: string, engine: Transcriber): Transcriber {
  return {
    name: engine.name,
    supports: (language) => engine.supports(language),
    async transcribe(wavPath, opts) {
      const key = await audioKey(wavPath, engineIdentity(engine, app.config), opts.language, opts.dictionary);
      const kept = await app.db.heardAudio.findUnique({ where: { userId_key: { userId, key } } });
      if (kept) {
        try {
          const words = heardWordsColumn.read(kept.words);
          opts.onProgress?.(1);
          return words;
        } catch (err) {
          app.log.warn({ err }, 'kept words of this audio are unreadable: transcribing again');
        }
      }
      const words = await engine.transcribe(wavPath, opts);
      await app.db.heardAudio
        .upsert({
          where: { userId_key: { userId, key } },
          create: { userId, key, words: heardWordsColumn.write(words) },
          update: { words: heardWordsColumn.write(words), createdAt: new Date() },
        })
        .catch((err: unknown) => app.log.warn({ err }, 'the transcript could not be kept for reuse'));
      return words;
    },
  };
}

/** Drops kept words older than HEARD_AUDIO_DAYS; how many went. */
export async function sweepHeardAudio(app: Pick<App, 'db'>, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - HEARD_AUDIO_DAYS * 24 * 60 * 60 * 1000);
  return (await app.db.heardAudio.deleteMany({ where: { createdAt: { lt: before } } })).count;
}
