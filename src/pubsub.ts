import { Repeater, type createPubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';

/** A job's lifecycle as seen by subscribers, whichever process ran it. */
export interface JobEvent {
  jobId: string;
  jobName: string;
  type: 'start' | 'progress' | 'complete' | 'success' | 'fail' | 'retry';
  progress?: number | null;
  error?: string | null;
  /** owner of the job's subject, when the job carries one */
  userId?: string | null;
  at: string;
}

/** A project's status and the progress of its running step, as subscribers see it. */
export interface ProjectEvent {
  projectId: string;
  userId: string;
  status: string;
  /** the running step: queued, fetch, probe, transcribe, render, ... */
  stage: string | null;
  percent: number | null;
  /** magic clips: clips ended and clips in all */
  clipsDone?: number | null;
  clipsTotal?: number | null;
  failureReason: string | null;
  at: string;
}

/** A publication's status and each post's, as subscribers see it after a change. */
export interface PublicationEvent {
  publicationId: string;
  userId: string;
  /** `cancelled` once a scheduled publication is cancelled (and gone) */
  status: string;
  posts: Array<{ platform: string; publishStatus: string; platformPostId: string | null; platformPostUrl: string | null; error: string | null }>;
  at: string;
}

/** Topics: a name and the payload type; keyed topics take the key first. */
export type Topics = {
  jobEvent: [jobId: string, event: JobEvent];
  projectUpdated: [projectId: string, event: ProjectEvent];
  publicationUpdated: [publicationId: string, event: PublicationEvent];
};

export type PubSub = ReturnType<typeof createPubSub<Topics>> & { close(): Promise<void> };

/**
 * In-process by default; with REDIS_URL every instance publishes to and listens
 * on Redis, so a subscriber on one server sees what a worker elsewhere did.
 */
export function createAppPubSub(redisUrl?: string): PubSub {
  if (!redisUrl) return Object.assign(fanOutPubSub(new EventTarget()), { close: async () => {} });
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  const pubsub = fanOutPubSub(eventTarget);
  return Object.assign(pubsub, {
    distributed: true,
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  });
}

export const isDistributed = (p: PubSub) => (p as { distributed?: boolean }).distributed === true;

/**
 * The pub/sub of graphql-yoga's createPubSub, with one listener per topic on
 * the event target however many subscribe: the topic's listener hands each
 * event to a set of subscribers. (The package's own adds a listener per
 * subscriber, and past ten on one topic Node warns of a leak; over Redis the
 * target also keeps one channel subscription per topic either way.) The set
 * is copied before each delivery, so a subscriber that stops while an event
 * is handed out neither misses the others nor breaks the loop.
 */
export function fanOutPubSub(target: EventTarget): ReturnType<typeof createPubSub<Topics>> {
  const subscribers = new Map<string, { each: Set<(detail: unknown) => void>; listener: (e: Event) => void }>();
  const topicOf = (routingKey: string, id: unknown) => (id === undefined ? routingKey : `${routingKey}:${id}`);
  return {
    publish(routingKey: string, ...args: unknown[]) {
      const payload = args[1] ?? args[0] ?? null;
      const topic = args[1] === undefined ? routingKey : `${routingKey}:${args[0]}`;
      target.dispatchEvent(new CustomEvent(topic, { detail: payload }));
    },
    subscribe(routingKey: string, id?: unknown) {
      const topic = topicOf(routingKey, id);
      return new Repeater((next, stop) => {
        let entry = subscribers.get(topic);
        if (!entry) {
          const each = new Set<(detail: unknown) => void>();
          const listener = (e: Event) => {
            for (const deliver of [...each]) deliver((e as CustomEvent).detail);
          };
          entry = { each, listener };
          subscribers.set(topic, entry);
          target.addEventListener(topic, listener);
        }
        const mine = entry;
        const deliver = (detail: unknown) => void next(detail);
        mine.each.add(deliver);
        stop.then(() => {
          mine.each.delete(deliver);
          if (mine.each.size === 0 && subscribers.get(topic) === mine) {
            subscribers.delete(topic);
            target.removeEventListener(topic, mine.listener);
          }
        });
      });
    },
  } as unknown as ReturnType<typeof createPubSub<Topics>>;
}
