import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { App } from '../../src/app.js';
import { newWebhookSecret } from '../../src/auth/keys.js';
import { debit } from '../../src/credits/ledger.js';
import { createPrisma, type Db } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import type { ProjectKind, ProjectStatus } from '../../src/generated/prisma/client.ts';
import { fail, move, MOVES, ruleOf, webhookEvent } from '../../src/projects/lifecycle.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

// The table of project moves against a real database; the rest of the app is recorded, not run.

let database: TestDatabase;
let db: Db;
let app: App;
const published: Array<{ id: string; status: string }> = [];
const enqueued: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrisma(database.url, { max: 4 });
  app = {
    db,
    log: createLogger('silent'),
    pubsub: { publish: (_topic: string, id: string, e: { status: string }) => void published.push({ id, status: e.status }) },
    jobs: { enqueue: async (name: string) => (enqueued.push(name), crypto.randomUUID()) },
    storage: { url: (key: string) => `https://files.test/${key}` },
  } as unknown as App;
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function project(kind: ProjectKind, status: ProjectStatus, data: { clipCredits?: number; aiCredits?: number; items?: object[] } = {}) {
  const user = await db.user.create({
    data: {
      email: `l-${crypto.randomUUID()}@test.local`,
      webhookSecret: newWebhookSecret(),
      clipCredits: data.clipCredits ?? 0,
      aiCredits: data.aiCredits ?? 0,
    },
  });
  return db.project.create({
    data: { userId: user.id, kind, status, title: 'T', language: 'en', templateName: 'x', webhookUrl: 'https://hooks.test/in', items: data.items },
  });
}

const deliveries = (subjectId: string) => db.webhookDelivery.findMany({ where: { subjectId }, select: { event: true, payload: true } });

describe('the table of moves', () => {
  test('refuses a move its kind does not list, and leaves the row alone', async () => {
    expect(() => ruleOf('magic_clips', 'export')).toThrow('a magic_clips project has no move "export"');
    const p = await project('magic_clips', 'processing');
    await expect(move(app, p, 'transcribe')).rejects.toThrow('has no move "transcribe"');
    expect((await db.project.findUniqueOrThrow({ where: { id: p.id } })).status).toBe('processing');
  });

  test('a listed move applies only from its from states', async () => {
    const p = await project('edit', 'processing');
    expect(await move(app, p, 'complete')).toBeNull();
    expect((await db.project.findUniqueOrThrow({ where: { id: p.id } })).status).toBe('processing');
    expect(await deliveries(p.id)).toEqual([]);
  });

  test('every move of every kind leads somewhere and starts somewhere', () => {
    for (const [kind, moves] of Object.entries(MOVES)) {
      for (const [name, rule] of Object.entries(moves)) expect(rule.from.length, `${kind}.${name}`).toBeGreaterThan(0);
    }
  });

  test('of two concurrent attempts at a move, one wins: one event, one webhook', async () => {
    const p = await project('edit', 'transcribing');
    published.length = 0;
    const results = await Promise.all([move(app, p, 'complete'), move(app, p, 'complete')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(results.find(Boolean)).toMatchObject({ status: 'completed', transcriptionStatus: 'COMPLETED' });
    expect(published.filter((e) => e.id === p.id)).toEqual([{ id: p.id, status: 'completed' }]);
    expect(await deliveries(p.id)).toEqual([
      { event: 'project.completed', payload: expect.objectContaining({ event: 'project.completed', projectId: p.id, status: 'completed' }) },
    ]);
  });
});

describe('side effects by kind', () => {
  test('webhook event names come from the kind', () => {
    expect(webhookEvent('edit', 'failed')).toBe('project.failed');
    expect(webhookEvent('magic_clips', 'completed')).toBe('magic_clips.completed');
  });

  test('an edit project that fails gives back the AI credits of the clips not made', async () => {
    const items = [
      { type: 'ai-broll', prompt: 'a', startTime: 0, endTime: 2 },
      { type: 'ai-broll', prompt: 'b', startTime: 3, endTime: 4, clipKey: 'k' },
    ];
    const p = await project('edit', 'processing', { aiCredits: 6, items });
    await db.$transaction((tx) =>
      debit(tx, p.userId, { kind: 'ai', amount: 6, reason: '2 AI B-roll item(s)', subjectId: p.id }, { shortfall: () => new Error('short') }),
    );
    expect(await fail(app, p, 'it broke')).toMatchObject({ status: 'failed', failureReason: 'it broke', transcriptionStatus: 'FAILED' });
    expect((await db.user.findUniqueOrThrow({ where: { id: p.userId } })).aiCredits).toBe(3);
    expect((await deliveries(p.id)).map((d) => d.event)).toEqual(['project.failed']);
  });

  test('magic clips: the failed webhook is magic_clips.failed and the clip credit comes back unless the caller caused it', async () => {
    for (const [cause, balance] of [
      ['service', 1],
      ['caller', 0],
    ] as const) {
      const p = await project('magic_clips', 'processing', { clipCredits: 1 });
      await db.$transaction((tx) =>
        debit(tx, p.userId, { kind: 'clip', amount: 1, reason: 'magic clips', subjectId: p.id }, { shortfall: () => new Error('short') }),
      );
      expect(await fail(app, p, 'no speech', cause)).toMatchObject({ status: 'failed' });
      expect((await db.user.findUniqueOrThrow({ where: { id: p.userId } })).clipCredits).toBe(balance);
      const [hook] = await deliveries(p.id);
      expect(hook).toMatchObject({
        event: 'magic_clips.failed',
        payload: { event: 'magic_clips.failed', projectId: p.id, status: 'failed', title: 'T', magicClips: [] },
      });
    }
  });

  test('magic clips complete with their clips in the webhook', async () => {
    const p = await project('magic_clips', 'processing');
    await db.magicClip.create({
      data: {
        projectId: p.id,
        title: 'Best bit',
        startTime: 1,
        endTime: 31,
        duration: 30,
        viralityScores: { total: 80, shareability: 78, hook_strength: 85, story_quality: 74, emotional_impact: 81 },
        rank: 1,
        status: 'completed',
        outputKey: 'c.mp4',
        previewKey: 'c.jpg',
      },
    });
    await move(app, p, 'complete');
    const [hook] = await deliveries(p.id);
    expect(hook.payload).toMatchObject({
      event: 'magic_clips.completed',
      status: 'completed',
      magicClips: [{ title: 'Best bit', duration: 30, status: 'completed', previewUrl: 'https://files.test/c.jpg', directUrl: 'https://files.test/c.mp4' }],
    });
  });
});
