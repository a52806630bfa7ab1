import client from 'prom-client';

/** One registry per process, served at /metrics. */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

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
