import type { NotificationChannel } from 'agenda';

/**
 * Makes a channel publish its job state notifications in the order they were asked for.
 *
 * Agenda publishes each state notification fire-and-forget. On PostgreSQL every publish is a
 * `NOTIFY` on whichever pooled connection is free, so a job's `fail` and its `complete`, asked for
 * a moment apart, can leave on two connections and reach the listeners swapped: a subscriber then
 * sees the job complete and its stream ends before the failure arrives. Chained, each publish waits
 * for the one before it; a publish that fails does not hold up the ones after it.
 */
export function publishStatesInOrder(channel: NotificationChannel): void {
  const publish = channel.publishState?.bind(channel);
  if (!publish) return;
  let last: Promise<unknown> = Promise.resolve();
  channel.publishState = (notification) => {
    const sent = last.then(() => publish(notification));
    last = sent.catch(() => {});
    return sent;
  };
}
