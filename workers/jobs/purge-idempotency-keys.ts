import type { JobDefinition } from '../registry.js';

/** Idempotency keys only have to outlive a client's retries; a day is the promise we make. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export const purgeIdempotencyKeys: JobDefinition = {
  name: 'maintenance.purge-idempotency-keys',
  every: '1 hour',
  concurrency: 1,
  async handler(_job, { app, log }) {
    const cutoff = new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS);
    const { count } = await app.db.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff } } });
    if (count > 0) log.info({ count, cutoff }, 'purged expired idempotency keys');
  },
};
