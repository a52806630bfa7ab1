import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export { Prisma } from '../generated/prisma/client.ts';
export type Db = PrismaClient;

/** A Prisma client on the PostgreSQL driver adapter (real server or the embedded one alike). */
export function createPrisma(url: string, { max = 10 }: { max?: number } = {}): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}
