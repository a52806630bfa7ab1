// The unit tier (README, Tests) runs inside its own process alone: no program, no database.
// A test of it that starts either fails here, naming the tier it belongs to, rather than
// passing by chance on a machine that has what it needs.
import cp from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';

const refusal = (what: string) => new Error(`a unit test uses ${what}: it belongs in test/integration (or test/e2e for service processes and browsers)`);
const refuse = (what: string) => () => {
  throw refusal(what);
};
/** for what answers with a promise: it rejects, as a real failure would */
const refuseAsync = (what: string) => () => Promise.reject(refusal(what));

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
  (cp as unknown as Record<string, unknown>)[name] = refuse(`a program (child_process.${name})`);
}
// named imports of node:child_process see the functions above too
syncBuiltinESMExports();
pg.Client.prototype.connect = refuseAsync('PostgreSQL (pg.Client.connect)') as never;
PGlite.create = refuseAsync('the embedded database (PGlite.create)') as never;
