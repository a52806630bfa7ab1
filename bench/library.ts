import type { Row } from './row.js';
import { admin, startService, withPgDatabase } from './support.js';
import pg from 'pg';

const SECTION = 'library';
const ENTRIES = 10_000;
const PAGE = 100;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
}

/**
 * GET /v1/user-media over HTTP against a library of 10,000 entries: the time of
 * one 100-item page, and of walking every page by nextCursor. Keyset pages cost
 * the same at any depth, so the last pages take as long as the first.
 */
export async function library(): Promise<Row[]> {
  return withPgDatabase(async (url) => {
    const svc = await startService({ DATABASE_URL: url });
    try {
      const { userId, apiKey } = await admin(svc.env, 'user', 'create', '--email', `bench-lib-${Date.now()}@bench.local`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // 10,000 entries, some sharing a timestamp (ties are broken by id)
      await client.query(
        `INSERT INTO "UserMedia" (id, "userId", type, status, "fileName", metadata, "createdAt", "updatedAt")
         SELECT gen_random_uuid(), $1::uuid, (ARRAY['VIDEO','AUDIO','IMAGE'])[1 + i % 3]::"MediaType", 'ready', 'f' || i || '.mp4',
                jsonb_build_object('fileSize', i), now() - (i / 3) * interval '1 second', now()
         FROM generate_series(1, $2) AS i`,
        [userId, ENTRIES],
      );
      await client.query('ANALYZE "UserMedia"');
      await client.end();
      const get = async (cursor?: string) => {
        const res = await fetch(`${svc.url}/v1/user-media?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { 'x-api-key': apiKey } });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
        return (await res.json()) as { items: Array<{ id: string }>; hasMore: boolean; nextCursor?: string };
      };
      for (let i = 0; i < 5; i++) await get(); // warm up
      const first: number[] = [];
      for (let i = 0; i < 20; i++) first.push((await timed(() => get()))[1]);

      const pageTimes: number[] = [];
      let cursor: string | undefined;
      let seen = 0;
      const [, walkMs] = await timed(async () => {
        for (;;) {
          const [page, ms] = await timed(() => get(cursor));
          pageTimes.push(ms);
          seen += page.items.length;
          if (!page.hasMore) break;
          cursor = page.nextCursor;
        }
      });
      if (seen !== ENTRIES) throw new Error(`walked ${seen} entries, expected ${ENTRIES}`);
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const tenth = Math.floor(pageTimes.length / 10);
      return [
        { section: SECTION, metric: `GET /v1/user-media, one ${PAGE}-item page (median of 20)`, value: median(first), unit: 'ms' },
        { section: SECTION, metric: `walk ${ENTRIES} entries page by page (${pageTimes.length} pages)`, value: walkMs, unit: 'ms' },
        { section: SECTION, metric: 'walk: median page, first tenth of the pages', value: median(pageTimes.slice(0, tenth)), unit: 'ms' },
        { section: SECTION, metric: 'walk: median page, last tenth of the pages', value: median(pageTimes.slice(-tenth)), unit: 'ms' },
      ];
    } finally {
      await svc.stop();
    }
  });
}
