/**
 * What subscribers of a publication see: its status and each post's, sent
 * after every change by whichever process made it.
 */
import type { App } from '../app.js';
import type { PublicationEvent } from '../pubsub.js';

export type { PublicationEvent };

/**
 * The publication's state now, or null once it is gone. Its row and its posts
 * are read in one snapshot: read apart, a post ending in between would show
 * every post ended under a publication still processing, and a subscriber
 * would stop at that event.
 */
export async function publicationEvent(app: App, publicationId: string): Promise<PublicationEvent | null> {
  const p = await app.db.$transaction(
    (tx) =>
      tx.publication.findUnique({
        where: { id: publicationId },
        select: {
          userId: true,
          status: true,
          posts: { select: { platform: true, publishStatus: true, platformPostId: true, platformPostUrl: true, error: true }, orderBy: { platform: 'asc' } },
        },
      }),
    { isolationLevel: 'RepeatableRead' },
  );
  if (!p) return null;
  return { publicationId, userId: p.userId, status: p.status, posts: p.posts, at: new Date().toISOString() };
}

/** Tells subscribers the publication's state; a failure to tell them never fails the change. */
export async function publishPublicationEvent(app: App, publicationId: string, gone?: { userId: string }): Promise<void> {
  try {
    const event = gone
      ? { publicationId, userId: gone.userId, status: 'cancelled', posts: [], at: new Date().toISOString() }
      : await publicationEvent(app, publicationId);
    if (event) app.pubsub.publish('publicationUpdated', publicationId, event);
  } catch (err) {
    app.log.warn({ err, publicationId }, 'could not tell subscribers of a publication change');
  }
}
