import type { DestinationStream } from 'pino';
import { createAiProviders, type AiProviders } from './ai/providers.js';
import type { App } from './app.js';
import { loadConfig, type Config } from './config.js';
import { createPrisma } from './db/client.js';
import { openDatabase } from './db/database.js';
import { applyMigrations } from './db/migrate/index.js';
import { createHttpServer, type HttpServer } from './http/server.js';
import { createRateLimits } from './limits/rate-limits.js';
import { createStorage } from './storage/index.js';
import { bridgeRemoteProjectEvents } from './projects/bridge.js';
import { createLogger } from './logger.js';
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
  const closers: Array<() => Promise<unknown>> = [() => database.close()];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch((err) => log.warn({ err }, 'shutdown step failed'));
  };
  try {
    const { applied } = await applyMigrations(database.url, { log: (msg) => log.info(msg) });
    if (applied.length) log.info({ applied }, 'migrations applied');

    const db = createPrisma(database.url, { max: database.embedded ? 4 : 10 });
    closers.push(() => db.$disconnect());
    const pubsub = createAppPubSub(config.redisUrl);
    closers.push(() => pubsub.close());
    const limits = createRateLimits(config.redisUrl);
    closers.push(() => limits.close());
    const storage = createStorage(config);
    const jobs = await createAgenda({ config, databaseUrl: database.url, log, role: opts.role, definitions: opts.definitions });
    const ai = { ...createAiProviders(config), ...opts.ai };
    const transcriber = opts.transcriber ?? configuredTranscriber(config);
    if (!opts.transcriber && transcriber.close) closers.push(() => transcriber.close!());
    const app: App = { config, db, log, pubsub, jobs, limits, storage, ai, transcriber };
    jobs.attach(app);
    // what a killed process left a day ago or more: swept in the background, awaited before the pools close
    const sweeping = sweepLeftovers(app, log).catch((err) => log.warn({ err }, 'sweeping leftovers failed'));
    closers.push(() => sweeping);
    // with an in-process pub/sub, events of jobs other processes ran arrive through Agenda only
    const unforward = forwardJobEvents(jobs.agenda, pubsub, { includeRemote: !isDistributed(pubsub), log, ownerOf: (id) => jobs.ownerOf(id) });
    closers.push(async () => unforward());
    if (!isDistributed(pubsub)) {
      const unbridge = bridgeRemoteProjectEvents(app, jobs.agenda);
      closers.push(async () => unbridge());
    }
    await jobs.start();
    let drained = false;
    closers.push(async () => {
      if (!drained) await jobs.drain(opts.drainTimeoutMs ?? 60_000);
    });

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
        if (http) await http.close().catch((err) => log.warn({ err }, 'http close failed'));
        await jobs.drain(opts.drainTimeoutMs ?? 60_000).catch((err) => log.warn({ err }, 'job drain failed'));
        drained = true;
        await closeAll();
        log.info('stopped');
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
