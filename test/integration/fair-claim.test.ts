// Fair shares in the claim query (workers/fair-claim.ts), on a real jobs table: two workers (two
// repositories, each with its own connection pool, as two processes have) claim from one queue where
// one user floods it and another adds one job.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MACHINE_ID } from '../../src/jobs/priority.js';
import { fairClaimIndexSql, FairJobRepository, lockedOnColumnSql } from '../../workers/fair-claim.js';
import { createEmptyDatabase, type TestDatabase } from '../support/db.js';

const TABLE = 'fair_jobs';
const LIFETIME_MS = 60_000;
let database: TestDatabase;
let pools: pg.Pool[];
let workers: FairJobRepository[];
const t0 = new Date(Date.now() - 60_000);
const at = (ms: number) => new Date(t0.getTime() + ms);

/** A waiting job of `userId` (none: a job of no user), due at t0 + `dueMs`. */
async function add(name: string, userId: string | null, dueMs: number, tag: string): Promise<void> {
  await pools[0].query(`INSERT INTO "${TABLE}" (name, data, next_run_at) VALUES ($1, $2, $3)`, [name, { ...(userId ? { userId } : {}), tag }, at(dueMs)]);
}

/** A job of `userId` running now (locked a moment ago). */
async function running(name: string, userId: string, tag: string): Promise<void> {
  await pools[0].query(`INSERT INTO "${TABLE}" (name, data, next_run_at, locked_at) VALUES ($1, $2, $3, now())`, [name, { userId, tag }, t0]);
}

/** Worker `w` claims the next job of `name`: its tag, or null when none may be taken. */
async function claim(w: number, name: string): Promise<string | null> {
  const now = new Date();
  const job = await workers[w].getNextJobToRun(name, now, new Date(now.getTime() - LIFETIME_MS), now, { lastModifiedBy: `worker-${w}` });
  return job ? ((job.data as { tag: string }).tag ?? null) : null;
}

beforeAll(async () => {
  database = await createEmptyDatabase('fair');
  pools = [new pg.Pool({ connectionString: database.url, max: 2 }), new pg.Pool({ connectionString: database.url, max: 2 })];
  workers = pools.map((pool, i) => new FairJobRepository({ pool, tableName: TABLE, userCap: 2, ensureSchema: i === 0 }));
  await workers[0].connect();
  await workers[1].connect();
  await pools[0].query(fairClaimIndexSql(TABLE));
  await pools[0].query(lockedOnColumnSql(TABLE));
}, 60_000);
afterAll(async () => {
  await Promise.all((pools ?? []).map((p) => p.end()));
  await database?.drop();
});
beforeEach(async () => {
  await pools[0].query(`DELETE FROM "${TABLE}"`);
});

describe('the fair claim', () => {
  it("takes a light user's job before a flood's later ones, across two workers", async () => {
    // the flood: ten renders queued first; then one of another user
    for (let i = 0; i < 10; i++) await add('render', 'flood', i, `flood-${i}`);
    await add('render', 'light', 20, 'light');
    const order = [await claim(0, 'render'), await claim(1, 'render'), await claim(0, 'render'), await claim(1, 'render')];
    // first come first: the flood's first; then the light user, who runs nothing, before the flood's second
    expect(order).toEqual(['flood-0', 'light', 'flood-1', 'flood-2']);
  });

  it('names the machine each job is claimed on: this one unless told, as workers on one machine read it', async () => {
    await add('render', 'a', 0, 'here');
    await add('render', 'b', 1, 'there');
    expect(await claim(0, 'render')).toBe('here');
    const elsewhere = new FairJobRepository({ pool: pools[1], tableName: TABLE, userCap: 2, machine: 'another-machine' });
    const now = new Date();
    await elsewhere.getNextJobToRun('render', now, new Date(now.getTime() - LIFETIME_MS), now, { lastModifiedBy: 'worker-x' });
    const { rows } = await pools[0].query(`SELECT data->>'tag' AS tag, locked_on, last_modified_by FROM "${TABLE}" ORDER BY 1`);
    expect(rows).toEqual([
      { tag: 'here', locked_on: MACHINE_ID, last_modified_by: 'worker-0' },
      { tag: 'there', locked_on: 'another-machine', last_modified_by: 'worker-x' },
    ]);
  });

  it('orders by the running work of every kind: the user running less goes first', async () => {
    await running('pipeline', 'busy', 'busy-pipeline-1');
    await running('pipeline', 'busy', 'busy-pipeline-2');
    await add('render', 'busy', 0, 'busy-render');
    await add('render', 'idle', 5, 'idle-render');
    expect(await claim(0, 'render')).toBe('idle-render');
    expect(await claim(1, 'render')).toBe('busy-render');
  });

  it('caps a user at JOB_USER_CAP jobs of a kind while another waits, and not when nobody does', async () => {
    await running('render', 'a', 'a-1');
    await running('render', 'a', 'a-2');
    // b runs more work of another kind: by the ordering alone, a would go first
    for (let i = 0; i < 3; i++) await running('pipeline', 'b', `b-pipeline-${i}`);
    await add('render', 'a', 0, 'a-3');
    await add('render', 'b', 10, 'b-render');
    expect(await claim(0, 'render')).toBe('b-render');
    // nobody else waits now: a's third render runs, the worker is not left idle
    expect(await claim(1, 'render')).toBe('a-3');
    expect(await claim(0, 'render')).toBeNull();
  });

  it('lets users who are all at the cap take a free slot rather than leave it idle', async () => {
    for (const u of ['a', 'b']) {
      await running('render', u, `${u}-1`);
      await running('render', u, `${u}-2`);
    }
    await add('render', 'a', 0, 'a-3');
    await add('render', 'b', 5, 'b-3');
    expect(await claim(0, 'render')).toBe('a-3');
    expect(await claim(1, 'render')).toBe('b-3');
  });

  it('lets a user alone on the service use every slot', async () => {
    for (let i = 0; i < 5; i++) await add('render', 'solo', i, `solo-${i}`);
    const got: Array<string | null> = [];
    for (let i = 0; i < 5; i++) got.push(await claim(i % 2, 'render'));
    expect(got).toEqual(['solo-0', 'solo-1', 'solo-2', 'solo-3', 'solo-4']);
  });

  it('orders jobs of no user as before, and takes a job whose lock lapsed', async () => {
    await add('deliver-webhook', null, 5, 'second');
    await add('deliver-webhook', null, 0, 'first');
    expect(await claim(0, 'deliver-webhook')).toBe('first');
    expect(await claim(1, 'deliver-webhook')).toBe('second');
    // a run that died: its lock is older than the lifetime, so it is claimed again
    await pools[0].query(`INSERT INTO "${TABLE}" (name, data, next_run_at, locked_at) VALUES ('render', '{"userId":"x","tag":"lapsed"}', $1, $2)`, [
      t0,
      new Date(Date.now() - 2 * LIFETIME_MS),
    ]);
    expect(await claim(0, 'render')).toBe('lapsed');
  });

  it("keeps a reserve slot for a user running none of the kind: a flood's next job stays waiting, a newcomer's starts", async () => {
    // a worker with one render slot of its own and one in reserve; it holds its own slot now
    let held = 1;
    const reserved = new FairJobRepository({ pool: pools[1], tableName: TABLE, userCap: 2, reserve: { slots: { render: 1 }, held: () => held } });
    const claimReserve = async () => {
      const now = new Date();
      const job = await reserved.getNextJobToRun('render', now, new Date(now.getTime() - LIFETIME_MS), now, { lastModifiedBy: 'worker-r' });
      return job ? (job.data as { tag: string }).tag : null;
    };
    await running('render', 'flood', 'flood-running');
    for (let i = 0; i < 5; i++) await add('render', 'flood', i, `flood-${i}`);
    await add('deliver-webhook', null, 0, 'no-user');
    // only the flood waits: the reserve stays free (the flood runs a render already)
    expect(await claimReserve()).toBeNull();
    // a user running other work but no render is a newcomer to renders
    await running('pipeline', 'light', 'light-pipeline');
    await add('render', 'light', 20, 'light');
    expect(await claimReserve()).toBe('light');
    // the reserve taken, the light user runs a render: nothing more for the reserve
    expect(await claimReserve()).toBeNull();
    // with its own slot free again the worker takes the flood's next, as any claim would
    held = 0;
    expect(await claimReserve()).toBe('flood-0');
    // a kind without a reserve claims as before
    held = 5;
    const now = new Date();
    const delivery = await reserved.getNextJobToRun('deliver-webhook', now, new Date(now.getTime() - LIFETIME_MS), now, { lastModifiedBy: 'worker-r' });
    expect((delivery?.data as { tag?: string } | undefined)?.tag).toBe('no-user');
  });

  it('never hands one job to two workers claiming at once', async () => {
    for (let i = 0; i < 20; i++) await add('render', `u${i % 4}`, i, `job-${i}`);
    const claims = await Promise.all(Array.from({ length: 24 }, (_, i) => claim(i % 2, 'render')));
    const taken = claims.filter((c): c is string => c !== null);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length).toBeGreaterThan(0);
  });
});
