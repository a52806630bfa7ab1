/**
 * `npm run bench -- subscribers`: live progress at scale. BENCH_SUBSCRIBERS
 * (default 10,000) graphql-ws subscribers of one project, each on a WebSocket
 * of its own, spread evenly over two API servers that share PostgreSQL, Redis
 * and the store (cluster.ts); then the project's export moves its status and
 * every subscriber's arrival of that move is timed in this process.
 *
 * Reported per round (BENCH_SUBSCRIBER_ROUNDS, default 2, a project each):
 * the spread of arrivals (each one's delay after the first: p50, p99, the
 * last), the first and the last arrival after the export's POST was sent,
 * how long the subscribers took to connect and hear the current state, and
 * the servers' memory per idle subscriber (their Node processes' resident
 * memory with the subscribers connected, less before, over the subscribers).
 *
 * The subscribers are this process's: it reads 10,000 sockets on the same two
 * cores as the servers and Redis, so the spread includes its own reading.
 * Each server's own subscribers' spread is reported too: one server writing
 * its share against the two starting apart. Last, the same crowd is read from
 * two bare fan-out servers (bare-fan-out.ts), which write one prepared message
 * to each socket in a loop: the spread of the sockets' writes and reads alone,
 * the floor on this machine that the service's spread compares with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { spread, subscribeCrowd } from '../test/support/crowd.js';
import { nodeOf, startCluster } from './cluster.js';
import type { Row } from './row.js';
import { ROOT, rssKiB, withPgDatabase } from './support.js';

const SECTION = 'subscribers';
const COUNT = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_SUBSCRIBER_ROUNDS ?? 2);
const SPREAD_TARGET_MS = 100;
const SERVERS = 2;
const QUERY = 'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status stage percent } }';

/** A transcribed project written straight to its table: the export's POST is all this bench needs of it. */
async function transcribedProject(db: pg.Client, userId: string): Promise<string> {
  const words = ['Every', 'subscriber', 'hears', 'this'].map((text, i) => ({ id: `w${i}`, text, type: 'word', startTime: i, endTime: i + 0.8 }));
  const meta = { width: 1080, height: 1920, duration: 4, fps: 30, rotation: 0, hasAudio: true, size: 1, formatName: 'mov,mp4,m4a,3gp,3g2,mj2' };
  const {
    rows: [{ id }],
  } = await db.query(
    `INSERT INTO "Project" (id, "userId", kind, title, language, "templateName", status, "transcriptionStatus", "sourceKey", "videoMeta", transcript, "updatedAt")
     VALUES (gen_random_uuid(), $1, 'edit', 'Followed by thousands', 'en', 'classic', 'completed', 'COMPLETED', 'bench/none.mp4', $2, $3, now()) RETURNING id`,
    [userId, meta, JSON.stringify(words)],
  );
  return id;
}

export async function subscribers(): Promise<Row[]> {
  const rows = await service();
  // the same crowd against the floor, once the service's processes are gone
  rows.push(...(await bareFanOut(SERVERS)));
  return rows;
}

async function service(): Promise<Row[]> {
  return withPgDatabase(async (url) => {
    // no workers: the export's POST moves the project, and its render waits in the queue
    const cluster = await startCluster(url, { servers: SERVERS, workers: 0, env: { WS_MAX_SOCKETS_PER_KEY: String(COUNT), LOG_LEVEL: 'warn' } });
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const rows: Row[] = [];
    const row = (metric: string, value: number, unit: string, note?: string) => rows.push({ section: SECTION, metric, value, unit, ...(note ? { note } : {}) });
    try {
      const user = await cluster.user();
      const urls = cluster.servers.map((s) => s.url);
      const nodes = cluster.servers.map((s) => nodeOf(s.child));
      for (let round = 1; round <= ROUNDS; round++) {
        const projectId = await transcribedProject(db, user.id);
        const before = nodes.map(rssKiB);
        const t0 = performance.now();
        const crowd = await subscribeCrowd(urls, user.apiKey, QUERY, { id: projectId }, COUNT, { batch: 250, withinMs: 120_000 });
        const connectMs = performance.now() - t0;
        // idle: nothing moves for a moment, then the servers' memory is read
        await new Promise((r) => setTimeout(r, 3000));
        const after = nodes.map(rssKiB);
        try {
          const since = performance.now();
          const res = await fetch(`${urls[0]}/v1/projects/${projectId}/export`, {
            method: 'POST',
            headers: { 'x-api-key': user.apiKey, 'content-type': 'application/json' },
            body: '{}',
          });
          if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
          const times = await crowd.heard((d) => d.projectUpdates.status === 'exporting', since, 60_000);
          const s = spread(times);
          const first = Math.min(...times) - since;
          const last = Math.max(...times) - since;
          const tag = `round ${round}, ${crowd.size} subscribers over ${urls.length} servers`;
          row(`spread of the arrivals, p50 (${tag})`, s.p50, 'ms');
          row(`spread of the arrivals, p99 (${tag})`, s.p99, 'ms', `target p99 <= ${SPREAD_TARGET_MS} ms: ${s.p99 <= SPREAD_TARGET_MS ? 'met' : 'MISSED'}`);
          row(`spread of the arrivals, last (${tag})`, s.p100, 'ms');
          // each server's own subscribers (the crowd opened them round-robin): how much of the spread is one
          // server writing its share, and how much the servers starting apart
          for (const [k, url] of urls.entries()) {
            const mine = times.filter((_, i) => i % urls.length === k);
            const own = spread(mine);
            row(
              `spread of server ${k + 1}'s arrivals, p99 (${tag})`,
              own.p99,
              'ms',
              `${mine.length} subscribers of ${new URL(url).host}; its first ${(Math.min(...mine) - since).toFixed(0)} ms after the POST, last ${(Math.max(...mine) - since).toFixed(0)} ms`,
            );
          }
          row(`first arrival after the export's POST was sent (${tag})`, first, 'ms');
          row(`last arrival after the export's POST was sent (${tag})`, last, 'ms');
          row(`subscribers connected and hearing the current state (${tag})`, connectMs / 1000, 's', `${Math.round(COUNT / (connectMs / 1000))} a second`);
          const perSubscriber = ((after[0] - before[0] + (after[1] - before[1])) * 1024) / COUNT;
          row(
            `servers' memory per idle subscriber (${tag})`,
            perSubscriber / 1024,
            'KiB',
            `resident memory of the two servers' Node processes: ${before.map((k) => Math.round(k / 1024)).join(' and ')} MiB before, ${after.map((k) => Math.round(k / 1024)).join(' and ')} MiB with the subscribers`,
          );
        } finally {
          crowd.close();
        }
        // the sockets' close is heard before the next round
        await new Promise((r) => setTimeout(r, 2000));
      }
      return rows;
    } finally {
      await db.end();
      await cluster.stop();
    }
  });
}

/**
 * The machine's floor: as many subscribers, spread over as many bare fan-out servers (bare-fan-out.ts),
 * each writing one prepared message to its sockets in a loop when told to, both told at once. Its spread
 * is the sockets' writes and this process's reads alone, on the same cores.
 */
async function bareFanOut(servers: number): Promise<Row[]> {
  const started = await Promise.all(Array.from({ length: servers }, () => startBareServer()));
  try {
    const urls = started.map((s) => s.url);
    const crowd = await subscribeCrowd(urls, 'none', QUERY, {}, COUNT, { batch: 250, withinMs: 120_000 });
    try {
      await new Promise((r) => setTimeout(r, 3000));
      const since = performance.now();
      await Promise.all(urls.map((u) => fetch(`${u}/go`, { method: 'POST' }).then((r) => r.text())));
      const times = await crowd.heard((d) => d.projectUpdates.status === 'exporting', since, 60_000);
      const s = spread(times);
      const tag = `${crowd.size} subscribers over ${urls.length} bare fan-out servers: the machine's floor`;
      return [
        { section: SECTION, metric: `spread of the arrivals, p50 (${tag})`, value: s.p50, unit: 'ms' },
        {
          section: SECTION,
          metric: `spread of the arrivals, p99 (${tag})`,
          value: s.p99,
          unit: 'ms',
          note: 'one prepared message written to each socket in a loop',
        },
      ];
    } finally {
      crowd.close();
    }
  } finally {
    for (const s of started) s.child.kill('SIGTERM');
  }
}

function startBareServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/bare-fan-out.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, url: `http://127.0.0.1:${String(d).trim()}` }));
    child.once('exit', (code) => reject(new Error(`the bare fan-out server exited (${code})`)));
  });
}
