// Generates the Prisma client and the Pothos types from schema/schema.prisma.
// `prisma generate` never runs the schema engine, but it refuses to start without
// one; pointing it at any existing file keeps it from trying to download one.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
  PATH: `${root}node_modules/.bin:${process.env.PATH}`,
};
const r = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { cwd: root, env, stdio: 'inherit' });
process.exit(r.status ?? 1);
