/**
 * Fair shares of the workers between users, decided where a job is claimed:
 * in the one UPDATE that locks the next job of a name, so every worker
 * process on every instance follows the same rule (the queue is shared in
 * PostgreSQL; no process keeps a view of its own).
 *
 * Among the jobs of a name that are due, the one taken is:
 * 1. not of a user already running `userCap` jobs of that name while a user
 *    under the cap has a job of that name waiting (a cap that binds only when
 *    someone it can give way to waits: a user alone on the service, or users
 *    all at the cap, still use every worker);
 * 2. of the user with the fewest jobs running now, of any name (the one
 *    with the least running work goes first: one user's fifty uploads do not
 *    hold the slots a second user's single upload waits for);
 * 3. then, as before, the earliest due and the highest priority.
 *
 * A worker may also keep a reserve slot of a kind (`reserve`): once its own
 * slots of that kind are all held, it takes one more job of the kind, but
 * only a job of a user who runs none of that kind anywhere. A user who comes
 * while another's flood holds every slot starts at once instead of waiting for
 * the flood's first job to end; the cores are shared between the two by
 * niceness (src/jobs/priority.ts, users over their share), not by waiting.
 * A user alone never fills a reserve slot, so nobody runs more of a kind at
 * once than before.
 *
 * A job's user is its data's `userId`; jobs without one (webhook deliveries,
 * sweeps) have no share to keep and are ordered as before. A job is running
 * while its lock is younger than the lock lifetime (Agenda renews it as the
 * job reports progress). The running counts read a partial index of the
 * locked jobs by user; the due jobs of the name are read once per claim
 * (measured in docs/concurrency.md).
 */
import { PostgresBackend, PostgresJobRepository } from '@agendajs/postgres-backend';
import type { JobParameters } from 'agenda';
import type pg from 'pg';
import { MACHINE_ID } from '../src/jobs/priority.js';

/** The index the running counts read: jobs locked now, by user. */
export const fairClaimIndexSql = (table: string) =>
  `CREATE INDEX IF NOT EXISTS "${table}_running_user_idx" ON "${table}" ((data->>'userId'), name, locked_at) WHERE locked_at IS NOT NULL`;

/** The machine a job was claimed on (src/jobs/priority.ts's MACHINE_ID): workers on one machine see each other's interactive work. */
export const lockedOnColumnSql = (table: string) => `ALTER TABLE "${table}" ADD COLUMN IF NOT EXISTS locked_on text`;

/**
 * The claim: the next due job of `$2` by the rules above, locked at `$1`; `$3` the scan's horizon,
 * `$4` the lock deadline, `$5` who locks, `$6` the cap, `$7` whether this is a reserve slot's claim (then only
 * a job of a user running none of `$2`), `$8` the machine it runs on (`locked_on`). Each user's running counts and the number of
 * users waiting under the cap are read once per claim (CTEs), not per candidate: a flood of ten
 * thousand waiting jobs costs one pass over them.
 */
export const fairClaimSql = (table: string) => `
  WITH running AS (
    SELECT data->>'userId' AS user_id, count(*) AS all_kinds, count(*) FILTER (WHERE name = $2) AS same_kind
    FROM "${table}"
    WHERE locked_at IS NOT NULL AND locked_at > $4 AND data->>'userId' IS NOT NULL
    GROUP BY 1
  ), under_cap AS (
    SELECT count(DISTINCT w.data->>'userId') AS users
    FROM "${table}" w LEFT JOIN running r ON r.user_id = w.data->>'userId'
    WHERE w.name = $2 AND w.disabled = FALSE AND ((w.locked_at IS NULL AND w.next_run_at <= $3) OR w.locked_at <= $4)
      AND w.data->>'userId' IS NOT NULL AND COALESCE(r.same_kind, 0) < $6
  )
  UPDATE "${table}" SET locked_at = $1, last_modified_by = $5, locked_on = $8
  WHERE id = (
    SELECT j.id FROM "${table}" j
    LEFT JOIN running r ON r.user_id = j.data->>'userId'
    CROSS JOIN under_cap
    WHERE j.name = $2
      AND j.disabled = FALSE
      AND ((j.locked_at IS NULL AND j.next_run_at <= $3) OR j.locked_at <= $4)
      AND (j.data->>'userId' IS NULL OR COALESCE(r.same_kind, 0) < $6 OR under_cap.users = 0)
      AND (NOT $7 OR (j.data->>'userId' IS NOT NULL AND COALESCE(r.same_kind, 0) = 0))
    ORDER BY COALESCE(r.all_kinds, 0) ASC, j.next_run_at ASC NULLS LAST, j.priority DESC
    LIMIT 1
    FOR UPDATE OF j SKIP LOCKED
  )
  RETURNING *`;

export interface FairClaimOptions {
  pool: pg.Pool;
  tableName: string;
  /** the cap of rule 1 (config's jobUserCap, DEFAULT_JOB_USER_CAP) */
  userCap: number;
  /** the reserve slots of this worker, if it keeps any */
  reserve?: ReserveSlots;
  /** the machine this worker runs on (MACHINE_ID unless told) */
  machine?: string;
}

/** A worker's reserve slots: one more job of each kind named in `slots`, for a user running none of it. */
export interface ReserveSlots {
  /** each kind with a reserve slot: this worker's own slots of it (its concurrency without the reserve) */
  slots: Readonly<Record<string, number>>;
  /** jobs of the kind this worker holds now (locked here, running or about to) */
  held(name: string): number;
}

/** The PostgreSQL job repository with the fair claim in place of first come, first served. */
export class FairJobRepository extends PostgresJobRepository {
  private readonly fair: FairClaimOptions;
  private readonly claimSql: string;
  /** the last claim of each kind with a reserve slot: the next one waits for it */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(options: FairClaimOptions & { ensureSchema?: boolean }) {
    super({ pool: options.pool, tableName: options.tableName, ensureSchema: options.ensureSchema ?? false });
    this.fair = options;
    this.claimSql = fairClaimSql(options.tableName);
  }

  override async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: { lastModifiedBy?: string } | undefined,
  ): Promise<JobParameters | undefined> {
    const own = this.fair.reserve?.slots[jobName];
    const claim = (reserveClaim: boolean) =>
      this.fair.pool.query(this.claimSql, [
        now ?? new Date(),
        jobName,
        nextScanAt,
        lockDeadline,
        options?.lastModifiedBy || null,
        this.fair.userCap,
        reserveClaim,
        this.fair.machine ?? MACHINE_ID,
      ]);
    let rows: unknown[];
    if (own === undefined) rows = (await claim(false)).rows;
    else {
      // Agenda may fill a kind's slots from several scans at once: its claims of a kind with a reserve
      // take turns, each after the last one's job is counted as held, so no two read the same count
      const turn = this.turns.get(jobName) ?? Promise.resolve();
      let done!: () => void;
      const mine = new Promise<void>((r) => (done = r));
      this.turns.set(
        jobName,
        turn.then(() => mine),
      );
      await turn;
      try {
        rows = (await claim(this.fair.reserve!.held(jobName) >= own)).rows;
      } finally {
        // Agenda counts a job it got as locked as soon as its own awaits resume: after this turn of the loop
        setImmediate(done);
      }
    }
    if (!rows.length) return undefined;
    // the row as the base repository reads every other row
    return (this as unknown as { rowToJob(row: unknown): JobParameters }).rowToJob(rows[0]);
  }
}

/** The PostgreSQL backend whose repository claims fairly (FairJobRepository); everything else as the package's. */
export class FairPostgresBackend extends PostgresBackend {
  constructor(options: FairClaimOptions & { channelName: string }) {
    super({ pool: options.pool, tableName: options.tableName, channelName: options.channelName, ensureSchema: false });
    (this as unknown as { _repository: PostgresJobRepository })._repository = new FairJobRepository(options);
  }
}
