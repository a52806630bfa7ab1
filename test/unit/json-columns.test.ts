// Each JSON column is read and written through its codec (src/db/json.ts): what a write
// stores reads back the same, and a stored value of another shape stops the read with an
// error naming the column. Values go through JSON text between the two, as they do in
// PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/generated/prisma/client.ts';
import { StoredJsonError, type JsonColumn } from '../../src/db/json.js';
import { responseColumn } from '../../src/idempotency/keys.js';
import { cropPathColumn } from '../../src/magic-clips/clips.js';
import { sandboxCredentialsColumn } from '../../src/platforms/sandbox.js';
import { postContentColumn, postProgressColumn } from '../../src/platforms/types.js';
import { badTakesColumn } from '../../src/projects/bad-takes.js';
import { clipHookColumn, viralityScoresColumn } from '../../src/projects/clip-records.js';
import { clipRangeColumn } from '../../src/magic-clips/settings.js';
import { hookTitleColumn, itemsColumn, musicColumn } from '../../src/projects/references.js';
import { transcriptColumn, videoMetaColumn } from '../../src/projects/service.js';
import { progressColumn } from '../../src/projects/state.js';
import { heardWordsColumn } from '../../src/projects/transcript-reuse.js';
import { payloadColumn } from '../../src/webhooks/service.js';

const stored = (json: Prisma.InputJsonValue): Prisma.JsonValue => JSON.parse(JSON.stringify(json));

interface Case<T> {
  codec: JsonColumn<T>;
  value: Exclude<T, null>;
  /** a value the column never holds */
  wrong: Prisma.JsonValue;
  /** where the error points in it */
  at: string;
}

const meta = { width: 1080, height: 1920, duration: 8.5, fps: 30, rotation: 0, hasAudio: true, size: 1234, formatName: 'mov,mp4,m4a,3gp,3g2,mj2' };
const one = <T>(c: Case<T>) => c as Case<unknown>;

const CASES: Case<unknown>[] = [
  one({ codec: clipRangeColumn, value: { start: 30, end: 330.5 }, wrong: { start: 30, end: '330' }, at: 'end' }),
  one({ codec: clipHookColumn, value: { text: 'The one habit that sticks' }, wrong: { text: '' }, at: 'text' }),
  one({
    codec: hookTitleColumn,
    value: { text: 'Watch this', template: 'banner', top: 20, size: 40 },
    wrong: { template: 'banner', top: '20', size: 40 },
    at: 'top',
  }),
  one({
    codec: musicColumn,
    value: { userMediaId: crypto.randomUUID(), volume: 40, startFromTime: 2, fade: true, source: 'library' },
    wrong: { userMediaId: 'x', volume: 40, startFromTime: 0, fade: true, source: 'radio' },
    at: 'source',
  }),
  one({
    codec: itemsColumn,
    value: [
      { type: 'user-media', startTime: 0, endTime: 1, userMediaId: crypto.randomUUID(), mediaType: 'IMAGE', layout: 'square' },
      { type: 'ai-broll', startTime: 2, endTime: 4, prompt: 'a lake at dawn', clipKey: 'projects/p/broll/1.mp4' },
    ],
    wrong: [{ type: 'ai-broll', startTime: 2, endTime: 4 }],
    at: '[0].prompt',
  }),
  one({
    codec: transcriptColumn,
    value: [
      { id: 'w_a', text: 'Hello', type: 'word', startTime: 0.1, endTime: 0.5, confidence: 0.9 },
      { id: 'w_b', text: '', type: 'silence', startTime: 0.5, endTime: 1.2 },
    ],
    wrong: [{ id: 'w_a', text: 'Hello', type: 'shout', startTime: 0.1, endTime: 0.5 }],
    at: '[0].type',
  }),
  one({ codec: badTakesColumn, value: [{ start: 1, end: 2.5 }], wrong: { start: 1, end: 2.5 }, at: '' }),
  one({
    codec: videoMetaColumn,
    value: { ...meta, audioLevels: { loudness: -20.5, peak: null, quiet: [{ start: 0, end: 0.4 }], quietThreshold: -50 } },
    wrong: { ...meta, hasAudio: 'yes' },
    at: 'hasAudio',
  }),
  one({ codec: progressColumn, value: { stage: 'clips', percent: 40, clipsDone: 1, clipsTotal: 3 }, wrong: { percent: 40 }, at: 'stage' }),
  one({
    codec: viralityScoresColumn,
    value: { total: 80, shareability: 70, hook_strength: 90, story_quality: 75, emotional_impact: 60 },
    wrong: { total: 80 },
    at: 'shareability',
  }),
  one({
    codec: cropPathColumn,
    value: { width: 608, height: 1080, keys: [{ t: 0, x: 400, y: 0 }] },
    wrong: { width: 608, height: 1080, keys: [{ t: 0, x: 400 }] },
    at: '',
  }),
  one({
    codec: sandboxCredentialsColumn,
    value: { followers: 120, since: '2026-11-25T00:00:00.000Z' },
    wrong: { followers: '120', since: '2026-11-25' },
    at: 'followers',
  }),
  one({ codec: postContentColumn, value: { content: 'Three tips', privacyLevel: 'public', allowComment: true }, wrong: ['Three tips'], at: '' }),
  one({
    codec: heardWordsColumn,
    value: [
      { text: 'Hello', type: 'word', startTime: 0.2, endTime: 0.6, confidence: 0.9 },
      { text: '', type: 'silence', startTime: 0.6, endTime: 2.1 },
    ],
    wrong: [{ text: 'Hello', type: 'word', startTime: '0.2', endTime: 0.6 }],
    at: '[0].startTime',
  }),
  one({ codec: postProgressColumn, value: { uploadUrl: 'https://upload.example/s/1', sent: 1024 }, wrong: 'https://upload.example/s/1', at: '' }),
  one({
    codec: payloadColumn,
    value: {
      event: 'project.failed',
      projectId: crypto.randomUUID(),
      status: 'failed',
      downloadUrl: null,
      directUrl: null,
      failureReason: 'no audio',
      timestamp: new Date().toISOString(),
    },
    wrong: { projectId: 7 },
    at: 'projectId',
  }),
];

describe('JSON column codecs', () => {
  it.each(CASES.map((c) => [c.codec.column, c] as const))('%s reads back what it wrote, and refuses another shape naming the column', (column, c) => {
    expect(c.codec.read(stored(c.codec.write(c.value)))).toEqual(c.value);

    let error: unknown;
    try {
      c.codec.read(c.wrong);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoredJsonError);
    expect((error as StoredJsonError).column).toBe(column);
    expect((error as Error).message).toContain(`${column} holds a value that does not fit its schema`);
    if (c.at) expect((error as Error).message).toContain(c.at);
  });

  it('every codec has its own column', () => {
    const columns = CASES.map((c) => c.codec.column);
    expect(new Set(columns).size).toBe(columns.length);
  });

  it('reads null as null where the column may be NULL, and refuses it where it may not', () => {
    for (const codec of [
      hookTitleColumn,
      musicColumn,
      itemsColumn,
      transcriptColumn,
      badTakesColumn,
      videoMetaColumn,
      progressColumn,
      cropPathColumn,
      sandboxCredentialsColumn,
      postProgressColumn,
      responseColumn,
    ]) {
      expect(codec.read(null), codec.column).toBeNull();
    }
    for (const codec of [viralityScoresColumn, postContentColumn, payloadColumn]) expect(() => codec.read(null), codec.column).toThrow(StoredJsonError);
  });

  it('keeps what a stored object holds beyond its schema', () => {
    // a preset's saved hook title is spread over the default one, with keys the editor saves
    const hook = { template: 'bold', top: 50, size: 30, text: 'Watch this first', templateName: 'bold', durationSeconds: 3 };
    expect(hookTitleColumn.read(stored(hookTitleColumn.write(hook)))).toEqual(hook);
  });

  it('MagicClip.cropPath keeps that no face was found apart from a path', () => {
    expect(cropPathColumn.read(stored(cropPathColumn.write({ none: true })))).toEqual({ none: true });
  });

  it('IdempotencyKey.response holds any JSON answer', () => {
    const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"x"}', list: [1, 'two', null, { deep: true }] };
    expect(responseColumn.read(stored(responseColumn.write(answer)))).toEqual(answer);
  });
});
