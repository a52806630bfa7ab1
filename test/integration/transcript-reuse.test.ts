/**
 * A user's audio is transcribed once: a second project of the same video (same language and
 * dictionary) takes the words the engine gave the first, while another dictionary, another
 * user or another video runs the engine again. Kept words go after 30 days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../../src/media/transcription/transcriber.js';
import { sweepHeardAudio } from '../../src/projects/transcript-reuse.js';
import { createUser, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';

let app: TestApp;
let files: FileServer;
let alice: TestUser;
let bob: TestUser;
/** the audio the engine was given, one entry a run */
const heard: string[] = [];

beforeAll(async () => {
  const fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp(), serveFolder(fx.dir)]);
  [alice, bob] = await Promise.all([createUser(app), createUser(app)]);
  const core = app.runtime.app;
  const engine = core.transcriber;
  const counting: Transcriber = {
    name: engine.name,
    supports: (language) => engine.supports(language),
    transcribe(wav, opts) {
      heard.push(wav);
      return engine.transcribe(wav, opts);
    },
  };
  core.transcriber = counting;
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
});

/** A project of `video` for `user`, transcribed: its words' texts and times. */
async function transcribed(user: TestUser, video: string, extra: Record<string, unknown> = {}) {
  const r = await request(app, 'POST', '/v1/projects', {
    key: user.key,
    json: { title: 'Again', language: 'en', videoUrl: files.url(video), autoRender: false, ...extra },
  });
  expect(r.status).toBe(201);
  const p = await waitProject(app, user.key, r.body.id, (x) => x.status !== 'processing' && x.status !== 'transcribing', 90_000);
  expect(p.status, p.failureReason).toBe('completed');
  return (p.words as Array<{ text: string; type: string; startTime: number; endTime: number }>).map(({ text, type, startTime, endTime }) => ({
    text,
    type,
    startTime,
    endTime,
  }));
}

describe('transcripts reused', () => {
  it('a second project of the same audio takes the first one’s words without running the engine', async () => {
    const first = await transcribed(alice, 'talk.mp4');
    expect(heard).toHaveLength(1);
    expect(first.filter((w) => w.type === 'word').length).toBeGreaterThan(8);
    const again = await transcribed(alice, 'talk.mp4', { title: 'Another template', templateName: 'classic' });
    expect(heard).toHaveLength(1);
    expect(again).toEqual(first);
    // the same file under another name is the same audio
    expect(await transcribed(alice, 'talk.mov')).toEqual(first);
    expect(heard).toHaveLength(1);
  });

  it('another dictionary, another user or other audio runs the engine', async () => {
    await transcribed(alice, 'talk.mp4', { dictionary: ['captions'] });
    expect(heard).toHaveLength(2);
    await transcribed(bob, 'talk.mp4');
    expect(heard).toHaveLength(3);
    await transcribed(alice, 'clip.mp4');
    expect(heard).toHaveLength(4);
    expect(await app.runtime.app.db.heardAudio.count()).toBe(4);
  });

  it('kept words go with the sweep once 30 days old', async () => {
    const db = app.runtime.app.db;
    const [old] = await db.heardAudio.findMany({ where: { userId: bob.id } });
    await db.heardAudio.update({ where: { userId_key: { userId: old.userId, key: old.key } }, data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    expect(await sweepHeardAudio(app.runtime.app)).toBe(1);
    expect(await db.heardAudio.count({ where: { userId: bob.id } })).toBe(0);
    expect(await db.heardAudio.count()).toBe(3);
    // bob's next project runs the engine again
    await transcribed(bob, 'talk.mp4');
    expect(heard).toHaveLength(5);
  });
});
