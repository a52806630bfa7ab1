import { startRuntime } from './runtime.js';
import type { Role } from '../workers/agenda.js';

const ROLES: Role[] = ['all', 'server', 'worker'];
const role = (process.argv[2] ?? 'all') as Role;
if (!ROLES.includes(role)) {
  console.error(`usage: main.ts ${ROLES.join('|')}`);
  process.exit(2);
}

const runtime = await startRuntime({ role }).catch((err) => {
  console.error(`failed to start: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});

// one line for the person who started it; the JSON log lines are for machines
if (runtime.url) {
  const base = runtime.app.config.publicUrl;
  process.stderr.write(`clipcast ${role}: console ${base}/ · API reference ${base}/docs · GraphQL ${base}/graphql (listening on ${runtime.url})\n`);
} else {
  process.stderr.write(`clipcast ${role}: taking jobs from the queue\n`);
}

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    runtime.app.log.info({ signal }, 'stopping');
    // a second signal, or a stuck drain, must not keep the process alive forever
    setTimeout(() => process.exit(1), 90_000).unref();
    runtime.stop().then(
      () => process.exit(0),
      (err) => {
        runtime.app.log.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  });
}
