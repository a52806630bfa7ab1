import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fanOutPubSub, type ProjectEvent } from '../../src/pubsub.js';

const event = (status: string): ProjectEvent => ({
  projectId: 'p1',
  userId: 'u1',
  status,
  stage: null,
  percent: null,
  failureReason: null,
  at: new Date().toISOString(),
});

describe('the pub/sub of live updates', () => {
  it('keeps one listener per topic on its target however many subscribe, and hands each subscriber every event', async () => {
    const target = new EventTarget();
    const pubsub = fanOutPubSub(target);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const subs = Array.from({ length: 200 }, () => pubsub.subscribe('projectUpdated', 'p1'));
      // a subscription listens once it is first read
      const firsts = subs.map((s) => s.next());
      await new Promise((r) => setTimeout(r, 0));
      expect(getEventListeners(target, 'projectUpdated:p1')).toHaveLength(1);
      pubsub.publish('projectUpdated', 'p1', event('processing'));
      const got = await Promise.all(firsts);
      expect(got.every((g) => (g.value as ProjectEvent).status === 'processing')).toBe(true);
      // another topic: its own single listener; the first topic's subscribers hear nothing of it
      const other = pubsub.subscribe('projectUpdated', 'p2');
      const otherNext = other.next();
      await new Promise((r) => setTimeout(r, 0));
      expect(getEventListeners(target, 'projectUpdated:p2')).toHaveLength(1);
      pubsub.publish('projectUpdated', 'p2', { ...event('completed'), projectId: 'p2' });
      expect(((await otherNext).value as ProjectEvent).projectId).toBe('p2');

      // half stop: the others still hear; all stop: the listener is gone
      await Promise.all(subs.slice(0, 100).map((s) => s.return(undefined)));
      const seconds = subs.slice(100).map((s) => s.next());
      pubsub.publish('projectUpdated', 'p1', event('completed'));
      expect((await Promise.all(seconds)).map((g) => (g.value as ProjectEvent).status)).toEqual(Array(100).fill('completed'));
      await Promise.all([...subs.slice(100), other].map((s) => s.return(undefined)));
      expect(getEventListeners(target, 'projectUpdated:p1')).toHaveLength(0);
      expect(getEventListeners(target, 'projectUpdated:p2')).toHaveLength(0);
      await new Promise((r) => setTimeout(r, 0));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
