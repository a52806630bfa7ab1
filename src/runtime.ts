import type { DestinationStream } from 'pino';
import { createAiProviders, type AiProviders } from './ai/providers.js';
import type { App } from './app.js';
import { loadConfig, type Config } from './config.js';
import { createPrisma } from './db/client.js';
import { openDatabase } from './db/database.js';
import { applyMigrations } from './db/migrate/index.js';
import { createHttpServer, type HttpServer } from './http/server.js';
import { markPrograms } from './jobs/priority.js';
import { createRateLimits } from './limits/rate-limits.js';
import { createStorage } from './storage/index.js';
import { bridgeRemoteProjectEvents } from './projects/bridge.js';
import { createLogger, type Logger } from './logger.js';
import { configuredTranscriber } from './media/transcription/transcriber.js';
import type { Transcriber } from './media/transcription/types.js';
import { createAppPubSub, isDistributed } from './pubsub.js';
import { restPlugin } from '../rest/index.js';
import { createAgenda, type Role } from '../workers/agenda.js';
import { forwardJobEvents } from '../workers/events.js';
import { sweepLeftovers } from '../workers/jobs/maintenance.js';
import type { JobDefinition } from '../workers/types.js';

export interface Runtime {
  app: App;
  role: Role;
  http?: HttpServer;
  /** the address the HTTP server listens on (server and all roles) */
  url?: string;
  /** graceful: stop taking requests, drain running jobs, close sockets and pools */
  stop(): Promise<void>;
}

export interface StartOptions {
  role: Role;
  config?: Config;
  /** job definitions instead of the registry's (tests) */
  definitions?: JobDefinition[];
  /** how long a graceful stop waits for running jobs */
  drainTimeoutMs?: number;
  /** where log lines go (default stdout) */
  logDestination?: DestinationStream;
  /** AI providers instead of the configured ones (tests) */
  ai?: Partial<AiProviders>;
  /** a transcription engine instead of the configured one (tests) */
  transcriber?: Transcriber;
}

/** How long a step of a graceful stop runs before the log says what the stop waits for (and again at each such interval). */
export const STOP_STEP_WARN_MS = 5_000;

/** One step of a graceful stop; a slow one is named in the log while it runs, so a stop that hangs says where. */
async function stopStep(log: Logger, what: string, step: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  const timer = setInterval(() => log.warn({ waitingMs: Math.round(performance.now() - t0) }, `stopping: still waiting for ${what}`), STOP_STEP_WARN_MS);
  try {
    await step();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Starts one process of the service: `all` (API and workers, what `npm start`
 * runs), `server` (API only) or `worker` (jobs only). Every role applies pending
 * migrations first; concurrent starts serialise on an advisory lock.
 */
export async function startRuntime(opts: StartOptions): Promise<Runtime> {
  const config = opts.config ?? loadConfig();
  const log = createLogger(config.logLevel, { role: opts.role }, opts.logDestination, config.logFormat);
  const t0 = performance.now();
  const database = await openDatabase(config, { role: 'service', log: (msg) => log.info(msg) });
  /** what a stop closes, in the reverse order of their opening, each named for the log should it be slow */
  const closers: Array<[what: string, close: () => Promise<unknown>]> = [['the database', () => database.close()]];
  const closeAll = async () => {
    for (const [what, close] of closers.reverse()) await stopStep(log, what, close).catch((err) => log.warn({ err }, 'shutdown step failed'));
  };
  try {
    const { applied } = await applyMigrations(database.url, { log: (msg) => log.info(msg) });
    if (applied.length) log.info({ applied }, 'migrations applied');

    const db = createPrisma(database.url, { max: database.embedded ? 4 : 10 });
    closers.push(['the query pool', () => db.$disconnect()]);
    const pubsub = createAppPubSub(config.redisUrl);
    closers.push(['the pub/sub connections', () => pubsub.close()]);
    const limits = createRateLimits(config.redisUrl);
    closers.push(['the rate limits connection', () => limits.close()]);
    const storage = createStorage(config);
    // this service's programs on the machine know each other by the mark (src/jobs/priority.ts, renderThreads)
    markPrograms(database.url);
    const jobs = await createAgenda({ config, databaseUrl: database.url, log, role: opts.role, definitions: opts.definitions });
    const ai = { ...createAiProviders(config), ...opts.ai };
    const transcriber = opts.transcriber ?? configuredTranscriber(config);
    if (!opts.transcriber && transcriber.close) closers.push(['the speech engine', () => transcriber.close!()]);
    const app: App = { config, db, log, pubsub, jobs, limits, storage, ai, transcriber };
    jobs.attach(app);
    // what a killed process left a day ago or more: swept in the background, awaited before the pools close
    const sweeping = sweepLeftovers(app, log).catch((err) => log.warn({ err }, 'sweeping leftovers failed'));
    closers.push(['the sweep of leftovers', () => sweeping]);
    // with an in-process pub/sub, events of jobs other processes ran arrive through Agenda only
    const unforward = forwardJobEvents(jobs.agenda, pubsub, { includeRemote: !isDistributed(pubsub), log, ownerOf: (id) => jobs.ownerOf(id) });
    closers.push(['the job events forwarder', async () => unforward()]);
    if (!isDistributed(pubsub)) {
      const unbridge = bridgeRemoteProjectEvents(app, jobs.agenda);
      closers.push(['the project events bridge', async () => unbridge()]);
    }
    await jobs.start();
    // the last opened, so the first a stop closes: running jobs drain before the connections they use
    closers.push(['the running jobs', () => jobs.drain(opts.drainTimeoutMs ?? 60_000)]);

    let http: HttpServer | undefined;
    let url: string | undefined;
    if (opts.role !== 'worker') {
      http = await createHttpServer(app);
      await http.fastify.register(restPlugin, { graphql: http.graphql, db: app.db, app });
      url = await http.listen();
    }
    log.info({ url, embedded: database.embedded, startupMs: Math.round(performance.now() - t0) }, 'started');

    return {
      app,
      role: opts.role,
      http,
      url,
      async stop() {
        // requests first (no new work arrives), then jobs, then the connections they used
        if (http) await stopStep(log, 'the HTTP server', () => http!.close()).catch((err) => log.warn({ err }, 'http close failed'));
        await closeAll();
        log.info('stopped');
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
