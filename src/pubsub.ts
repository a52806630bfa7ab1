import { createPubSub } from 'graphql-yoga';
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
  if (!redisUrl) return Object.assign(createPubSub<Topics>(), { close: async () => {} });
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  const pubsub = createPubSub<Topics>({ eventTarget });
  return Object.assign(pubsub, {
    distributed: true,
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  });
}

export const isDistributed = (p: PubSub) => (p as { distributed?: boolean }).distributed === true;
