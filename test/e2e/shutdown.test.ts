import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { freePort } from '../support/ports.js';
import { ROOT, spawnReady, spawnServer } from '../support/process.js';
import { generateApiKey } from '../../src/auth/keys.js';
import { createPrisma } from '../../src/db/client.js';
import { STOP_STEP_WARN_MS } from '../../src/runtime.js';

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutdown-'));
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('graceful shutdown on SIGTERM', () => {
  it('a worker finishes the job it is running before it exits, and says what its stop waits for', async () => {
    const worker = await spawnReady('test/fixtures/worker-process.ts', {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      JOB_POLL_MS: '200',
      FIXTURE_DRAIN_MS: '20000',
    });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // a job due now, that runs longer than a stop's step may before the log names it; SIGTERM arrives while it runs
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO agenda_jobs (name, data, priority, next_run_at, type) VALUES ('test.echo', '{"delayMs": ${STOP_STEP_WARN_MS + 1000}}', 0, now(), 'normal') RETURNING id`,
      );
      const jobId = rows[0].id;
      const started = Date.now();
      for (;;) {
        const r = await client.query('SELECT last_run_at FROM agenda_jobs WHERE id = $1', [jobId]);
        if (r.rows[0]?.last_run_at) break;
        if (Date.now() - started > 20_000) throw new Error(`job never started:\n${worker.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const code = await worker.stop('SIGTERM', 25_000);
      expect(code, worker.output()).toBe(0);
      expect(worker.output()).toContain('stopping: still waiting for the running jobs');
      const done = await client.query('SELECT last_finished_at, fail_reason, locked_at FROM agenda_jobs WHERE id = $1', [jobId]);
      expect(done.rows[0].last_finished_at).not.toBeNull();
      expect(done.rows[0].fail_reason).toBeNull();
      expect(done.rows[0].locked_at).toBeNull();
    } finally {
      await client.end();
    }
  });

  it('the server says where it is, stops taking requests, closes open subscriptions and exits 0', async () => {
    const server = await spawnServer({ DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    const base = server.url;
    // one line for a person, and the log as words (LOG_FORMAT=pretty) rather than JSON
    expect(server.output()).toContain(`clipcast server: console ${base}/ · API reference ${base}/docs · GraphQL ${base}/graphql`);
    expect(server.output()).toMatch(/^\d\d:\d\d:\d\d info {2}\[server\] \S/m);
    expect(server.output()).not.toMatch(/^\{"level"/m);
    // an open SSE stream must not keep the process alive
    const { key, hash, prefix } = generateApiKey();
    const db = createPrisma(database.url, { max: 1 });
    const user = await db.user.create({ data: { email: 'sse@test.local', webhookSecret: 'whsec_x', apiKeys: { create: { hash, prefix } } } });
    const job = await db.$queryRaw<{ id: string }[]>`INSERT INTO agenda_jobs (name, data, priority, next_run_at, type)
      VALUES ('test.echo', ${JSON.stringify({ userId: user.id })}::jsonb, 0, now() + interval '1 hour', 'normal') RETURNING id`;
    await db.$disconnect();
    const sse = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': key },
      body: JSON.stringify({ query: `subscription { jobEvents(jobId: "${job[0].id}") { type } }` }),
    });
    expect(sse.status).toBe(200);
    const t0 = Date.now();
    // should it hang, what it said (a slow step of the stop is named) is the failure's message
    expect(await server.stop('SIGTERM', 30_000), server.output()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(15_000);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    expect(server.output()).toMatch(/info {2}\[server\] stopping {2}signal=SIGTERM/);
    expect(server.output()).not.toMatch(/ (ERROR|FATAL) /);
  });

  it('`npm run server` stopped by a SIGTERM to npm (as `docker stop` sends to the image’s `npm start`) stops the service, not only npm', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['run', '--silent', 'server'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout!.on('data', (d) => (output += d));
    npm.stderr!.on('data', (d) => (output += d));
    const up = () =>
      fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    try {
      await expect.poll(up, { timeout: 60_000, interval: 250 }).toBe(true);
      npm.kill('SIGTERM');
      // the signal reaches the service through npm's shell and tsx: it stops as it would on its own SIGTERM,
      // where a shell in between used to die alone and leave the service running without a parent
      await expect.poll(up, { timeout: 15_000, interval: 250 }).toBe(false);
      await expect.poll(() => output, { timeout: 5_000 }).toMatch(/"msg":"stopped"/);
      expect(output).toMatch(/"signal":"SIGTERM","msg":"stopping"/);
    } finally {
      // should the service outlive npm, it is stopped here by its port's owner
      if (await up()) {
        const owner = fs
          .readdirSync('/proc')
          .filter((p) => /^\d+$/.test(p))
          .find((p) => {
            try {
              return (
                fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('src/main.ts') &&
                fs.readFileSync(`/proc/${p}/environ`, 'utf8').includes(`PORT=${port}\0`)
              );
            } catch {
              return false;
            }
          });
        if (owner) process.kill(Number(owner), 'SIGKILL');
      }
    }
  });
});
