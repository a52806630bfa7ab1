import client from 'prom-client';
import type { App, QueueState } from './app.js';
import { JOB_CLASSES, type JobClass, type JobName } from './jobs/names.js';

/** One registry per process, served at /metrics. */
export const registry = new client.Registry();
/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_*` (ms). prom-client's
 * default, 10 ms, wakes an idle process a hundred times a second: about 1 % of a core for each
 * server and worker, doing nothing else (0.38 s of CPU in 30 s against 0.06 s without, here);
 * at 50 ms, 0.13 s. A stall of 50 ms or more is still seen whole; a shorter one may be read short.
 */
const EVENT_LOOP_SAMPLE_MS = 50;
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });

export const httpDuration = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const graphqlOperations = new client.Counter({
  name: 'graphql_operations_total',
  help: 'GraphQL operations by name, type and outcome (ok, error code)',
  labelNames: ['operation', 'type', 'outcome'] as const,
  registers: [registry],
});

export const subscriptionEvents = new client.Counter({
  name: 'graphql_subscription_events_total',
  help: "Subscription events answered, by how: executed (the event's answer was run) or shared (an alike subscriber's answer to the same event was handed on)",
  labelNames: ['answer'] as const,
  registers: [registry],
});

export const jobEvents = new client.Counter({
  name: 'job_events_total',
  help: 'Background job lifecycle events seen by this process',
  labelNames: ['job', 'type'] as const,
  registers: [registry],
});

export const graphqlLimitRejections = new client.Counter({
  name: 'graphql_limit_rejections_total',
  help: 'GraphQL requests refused before running, by the limit that refused them (nesting, depth, introspection_depth, breadth, introspection_breadth, complexity, rate)',
  labelNames: ['limit'] as const,
  registers: [registry],
});

/** A gauge of this process's registry, set at each scrape. */
const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new client.Gauge<L>({ name, help, labelNames, registers: [registry] });

const queueWaiting = gauge('job_queue_waiting', 'Jobs due and not running, by job and class (read from the shared queue at each scrape)', ['job', 'class']);
const queueRunning = gauge('job_queue_running', 'Jobs running now on every worker, by job and class', ['job', 'class']);
const queueWait = gauge('job_queue_wait_seconds', 'How long the jobs waiting now have waited so far, by class, at the 0.5, 0.95 and 0.99 quantiles', [
  'class',
  'quantile',
]);
const userRunning = gauge('user_running_jobs', 'Jobs running now per user (the 100 users running most)', ['user']);

/** The queue by class: waiting and running counts, and the longest p50/p95/p99 wait of the class's kinds (s). */
export function queueByClass(state: QueueState): Record<JobClass, { waiting: number; running: number; waitP50: number; waitP95: number; waitP99: number }> {
  const out = {} as ReturnType<typeof queueByClass>;
  for (const cls of ['interactive', 'batch', 'upkeep'] as const) out[cls] = { waiting: 0, running: 0, waitP50: 0, waitP95: 0, waitP99: 0 };
  for (const n of state.byName) {
    const c = out[JOB_CLASSES[n.name as JobName] ?? 'upkeep'];
    c.waiting += n.waiting;
    c.running += n.running;
    c.waitP50 = Math.max(c.waitP50, n.waitP50);
    c.waitP95 = Math.max(c.waitP95, n.waitP95);
    c.waitP99 = Math.max(c.waitP99, n.waitP99);
  }
  return out;
}

/** Sets the queue gauges from one reading of the shared queue (at a scrape of /metrics). */
export async function observeQueue(app: Pick<App, 'jobs'>): Promise<void> {
  const state = await app.jobs.queueState();
  if (!state) return;
  queueWaiting.reset();
  queueRunning.reset();
  userRunning.reset();
  for (const n of state.byName) {
    const cls = JOB_CLASSES[n.name as JobName] ?? 'upkeep';
    queueWaiting.set({ job: n.name, class: cls }, n.waiting);
    queueRunning.set({ job: n.name, class: cls }, n.running);
  }
  for (const [cls, c] of Object.entries(queueByClass(state))) {
    queueWait.set({ class: cls, quantile: '0.5' }, c.waitP50);
    queueWait.set({ class: cls, quantile: '0.95' }, c.waitP95);
    queueWait.set({ class: cls, quantile: '0.99' }, c.waitP99);
  }
  for (const u of state.runningByUser) userRunning.set({ user: u.userId }, u.running);
}
