// A test file's own database with a Prisma client, for tests of services below HTTP.
import { afterAll, beforeAll } from 'vitest';
import { createPrisma, type Db } from '../../src/db/client.js';
import { createTestDatabase, type TestDatabase } from './db.js';

/**
 * A migrated database and a Prisma client on it for the calling test file: made
 * before its tests, closed and dropped after them. `use` receives the client.
 */
export function usePrismaDatabase(use: (db: Db) => void): void {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPrisma(database.url, { max: 4 });
    use(db);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });
}
