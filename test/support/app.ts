import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config.js';
import { startRuntime, type Runtime, type StartOptions } from '../../src/runtime.js';
import { generateApiKey, newWebhookSecret } from '../../src/auth/keys.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import type { App } from '../../src/app.js';

export interface TestApp {
  runtime: Runtime;
  url: string;
  database: TestDatabase;
  dataDir: string;
  stop(): Promise<void>;
}

/** The whole service (API and workers by default) on a random port over a fresh database. */
export async function startTestApp(
  opts: { role?: StartOptions['role']; env?: Record<string, string>; database?: TestDatabase } & Pick<StartOptions, 'definitions' | 'logDestination'> = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-test-'));
  const config: Config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JOB_POLL_MS: '500',
    ALLOW_PRIVATE_NETWORK: '1',
    // x264's fastest preset: what the tests measure (sizes, durations, frames, pixels) does not
    // depend on it, and renders the tests never wait for cost the files beside them less
    RENDER_PRESET: 'ultrafast',
    // the transcription engines' programs
    PATH: process.env.PATH ?? '',
    ...opts.env,
  });
  const runtime = await startRuntime({
    role: opts.role ?? 'all',
    config,
    definitions: opts.definitions,
    logDestination: opts.logDestination,
    drainTimeoutMs: 10_000,
  });
  if (runtime.url) config.publicUrl = runtime.url;
  return {
    runtime,
    url: runtime.url ?? '',
    database,
    dataDir,
    async stop() {
      await runtime.stop();
      if (!opts.database) await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A destination for startTestApp's `logDestination`, and the lines written to it, parsed. */
export function logLines(): { destination: Writable; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { destination, lines };
}

export interface TestUser {
  id: string;
  key: string;
}

/** A user with one API key, written straight to the database (the CLI has its own tests). */
export async function createUser(
  app: TestApp,
  data: Partial<{ apiCredits: number; aiCredits: number | null; clipCredits: number; clipsSubscription: boolean; apiPublishing: boolean }> = {},
): Promise<TestUser> {
  const { key, hash, prefix } = generateApiKey();
  const user = await app.runtime.app.db.user.create({
    data: {
      email: `u-${Math.random().toString(36).slice(2)}@test.local`,
      webhookSecret: newWebhookSecret(),
      ...data,
      apiKeys: { create: { hash, prefix } },
    },
  });
  return { id: user.id, key };
}

/**
 * Waits until job `jobId` of a service in this process has finished a run (or is gone), waking on
 * the job's events rather than on a timer; returns where it stands.
 */
export async function jobEnded(app: App, jobId: string, timeoutMs = 30_000) {
  const events = app.pubsub.subscribe('jobEvent', jobId)[Symbol.asyncIterator]();
  try {
    for (const t0 = Date.now(); ; ) {
      const state = await app.jobs.stateOf(jobId);
      if (!state || (state.lastFinishedAt && !state.running)) return state;
      if (Date.now() - t0 > timeoutMs) throw new Error(`job ${jobId} did not end: ${JSON.stringify(state)}`);
      // an event, or a second (a finish whose event this process did not see)
      await Promise.race([events.next(), new Promise((r) => setTimeout(r, 1_000))]);
    }
  } finally {
    await events.return?.();
  }
}

export { eventually, gql, request, waitEntry, waitProject, type Answer, type Reachable } from './http.js';
