import { defineConfig } from 'prisma/config';

// Only `prisma generate` reads this file; migrations run through src/db/migrate.ts.
export default defineConfig({
  schema: 'schema/schema.prisma',
  migrations: { path: 'schema/migrations' },
});
