import autocannon from 'autocannon';
import type { Row } from './row.js';
import { admin, startService, withPgDatabase } from './support.js';

const SECTION = 'foundation';
const DURATION_S = 10;
const CONNECTIONS = 20;

async function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...opts }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/**
 * Cold start of `npm start` (embedded database, then PostgreSQL), and the request
 * rate of GET /v1/templates over REST against the same query sent to /graphql,
 * measured against one running service in one run.
 */
export async function foundation(): Promise<Row[]> {
  const rows: Row[] = [];

  // the first embedded start creates the database (initdb); the second one is a restart
  const embedded = await startService({ DATABASE_URL: '' }, 'start', true);
  rows.push({ section: SECTION, metric: 'cold start, embedded (new data dir)', value: embedded.coldStartMs, unit: 'ms' });
  await embedded.stop();
  const restarted = await startService({ DATABASE_URL: '', DATA_DIR: embedded.env.DATA_DIR! });
  rows.push({ section: SECTION, metric: 'cold start, embedded (restart)', value: restarted.coldStartMs, unit: 'ms' });
  await restarted.stop();

  await withPgDatabase(async (url) => {
    const first = await startService({ DATABASE_URL: url });
    rows.push({ section: SECTION, metric: 'cold start, PostgreSQL (migrations applied)', value: first.coldStartMs, unit: 'ms' });
    await first.stop();
    const svc = await startService({ DATABASE_URL: url });
    rows.push({ section: SECTION, metric: 'cold start, PostgreSQL (restart)', value: svc.coldStartMs, unit: 'ms' });
    try {
      const { apiKey } = await admin(svc.env, 'user', 'create', '--email', `bench-${Date.now()}@bench.local`);
      const headers = { 'x-api-key': apiKey };
      const rest = await cannon({ url: `${svc.url}/v1/templates`, headers });
      const graphql = await cannon({
        url: `${svc.url}/graphql`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query CaptionTemplateNames { captionTemplates { name } }' }),
      });
      for (const [door, r] of [
        ['REST GET /v1/templates', rest],
        ['GraphQL captionTemplates', graphql],
      ] as const) {
        const bad = r.non2xx + r.errors;
        rows.push({
          section: SECTION,
          metric: `${door}: requests/s`,
          value: r.requests.average,
          unit: 'req/s',
          note: `${CONNECTIONS} connections, ${DURATION_S} s${bad ? `, ${bad} failed` : ''}`,
        });
        rows.push({ section: SECTION, metric: `${door}: p99 latency`, value: r.latency.p99, unit: 'ms' });
      }
      rows.push({ section: SECTION, metric: 'REST / GraphQL request rate', value: rest.requests.average / graphql.requests.average, unit: 'ratio' });
    } finally {
      await svc.stop();
    }
  });
  return rows;
}
