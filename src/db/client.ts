import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export { Prisma } from '../generated/prisma/client.ts';
export type Db = PrismaClient;

/**
 * Transactions may run for 20 s (the default is 5 s). A process's first query
 * loads the query compiler, and when that query opens a transaction, as an
 * operator command's does, a loaded machine spent more than 5 s there and the
 * command failed with an expired transaction.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

/** A Prisma client on the PostgreSQL driver adapter (real server or the embedded one alike). */
export function createPrisma(url: string, { max = 10 }: { max?: number } = {}): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }), transactionOptions: TRANSACTION_OPTIONS });
}
