import type { Agenda, JobStateNotification, JobWithId, RetryDetails } from 'agenda';
import type { Logger } from '../src/logger.js';
import type { JobEvent, PubSub } from '../src/pubsub.js';

export interface ForwardJobEventsOptions {
  /**
   * Also forward events of jobs run by other processes (they arrive over the backend's
   * notification channel). True with the in-process pub/sub; false with Redis, where the
   * process that ran the job has published them already: `includeRemote: !isDistributed(pubsub)`.
   */
  includeRemote: boolean;
  log: Logger;
  /** owner of a job, for events that do not carry the job's data (remote ones, or local without data.userId) */
  ownerOf?: (jobId: string) => Promise<string | null>;
}

type Source = JobWithId | JobStateNotification;
type EventType = JobEvent['type'];

const isRemote = (remote: unknown) => remote === true;
const OWNER_CACHE_SIZE = 1000;

/**
 * Publishes Agenda's job lifecycle events to `jobEvent` (keyed by job id). Events are
 * published in the order Agenda emitted them, even when an owner lookup is slow.
 * Returns the function that stops forwarding.
 */
export function forwardJobEvents(agenda: Agenda, pubsub: PubSub, opts: ForwardJobEventsOptions): () => void {
  const { includeRemote, log, ownerOf } = opts;
  // every progress tick of a job would otherwise repeat the owner query
  const owners = new Map<string, string | null>();
  let queue: Promise<void> = Promise.resolve();

  const lookupOwner = async (jobId: string): Promise<string | null> => {
    if (!ownerOf) return null;
    if (owners.has(jobId)) return owners.get(jobId) ?? null;
    const owner = await ownerOf(jobId);
    if (owners.size >= OWNER_CACHE_SIZE) owners.delete(owners.keys().next().value as string);
    owners.set(jobId, owner);
    return owner;
  };

  const forward = (type: EventType, source: Source, remote: boolean, error?: string | null) => {
    if (remote && !includeRemote) return;
    queue = queue
      .then(async () => {
        const event = remote
          ? await fromNotification(type, source as JobStateNotification, error, lookupOwner)
          : await fromJob(type, source as JobWithId, error, lookupOwner);
        pubsub.publish('jobEvent', event.jobId, event);
        if (type === 'complete') owners.delete(event.jobId);
      })
      .catch((err) => log.warn({ err, type }, 'could not forward job event'));
  };

  const onStart = (job: Source, remote?: boolean) => forward('start', job, isRemote(remote));
  const onProgress = (job: Source, remote?: boolean) => forward('progress', job, isRemote(remote));
  const onSuccess = (job: Source, remote?: boolean) => forward('success', job, isRemote(remote));
  const onComplete = (job: Source, remote?: boolean) => forward('complete', job, isRemote(remote));
  // local: (Error, job); remote: (message, notification, true)
  const onFail = (err: Error | string | undefined, job: Source, remote?: boolean) =>
    forward('fail', job, isRemote(remote), typeof err === 'string' ? err : (err?.message ?? null));
  const onRetry = (job: Source, details: RetryDetails | undefined, remote?: boolean) =>
    forward('retry', job, isRemote(remote), details?.error?.message ?? null);

  agenda.on('start', onStart);
  agenda.on('progress', onProgress);
  agenda.on('success', onSuccess);
  agenda.on('complete', onComplete);
  agenda.on('fail', onFail);
  agenda.on('retry', onRetry);
  return () => {
    agenda.off('start', onStart);
    agenda.off('progress', onProgress);
    agenda.off('success', onSuccess);
    agenda.off('complete', onComplete);
    agenda.off('fail', onFail);
    agenda.off('retry', onRetry);
  };
}

async function fromJob(
  type: EventType,
  job: JobWithId,
  error: string | null | undefined,
  lookupOwner: (jobId: string) => Promise<string | null>,
): Promise<JobEvent> {
  const jobId = String(job.attrs._id);
  const data = job.attrs.data as { userId?: unknown } | null | undefined;
  const userId = typeof data?.userId === 'string' ? data.userId : await lookupOwner(jobId);
  return {
    jobId,
    jobName: job.attrs.name,
    type,
    progress: type === 'progress' ? (job.attrs.progress ?? null) : null,
    error: error ?? (type === 'fail' ? (job.attrs.failReason ?? null) : null),
    userId,
    at: new Date().toISOString(),
  };
}

async function fromNotification(
  type: EventType,
  n: JobStateNotification,
  error: string | null | undefined,
  lookupOwner: (jobId: string) => Promise<string | null>,
): Promise<JobEvent> {
  const jobId = String(n.jobId);
  return {
    jobId,
    jobName: n.jobName,
    type,
    progress: n.progress ?? null,
    error: error ?? n.error ?? null,
    userId: await lookupOwner(jobId),
    at: (n.timestamp instanceof Date ? n.timestamp : new Date(n.timestamp ?? Date.now())).toISOString(),
  };
}
