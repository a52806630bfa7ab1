/**
 * The caller's own account, as the dashboard shows it: entitlements and
 * balances, and the credit ledger a page at a time (the keys: api-keys.ts).
 */
import type { Db } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.ts';
import { keysetPage, modelSource, type Page, type PageRequest } from '../pagination.js';

export type CreditKind = Prisma.CreditLedgerModel['kind'];
export type LedgerEntry = Prisma.CreditLedgerModel;

/** Entitlements and balances; a null AI balance is unlimited. */
export function accountOf(db: Db, userId: string) {
  return db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { id: true, email: true, clipsSubscription: true, apiPublishing: true, apiCredits: true, aiCredits: true, clipCredits: true, createdAt: true },
  });
}

/** The user's debits, refunds and grants, newest first, keyset pages; one kind of credit when asked. */
export function ledgerPage(db: Db, userId: string, page: PageRequest, kind?: CreditKind | null): Promise<Page<LedgerEntry>> {
  return keysetPage(modelSource<LedgerEntry>(db.creditLedger as never, { scope: { userId }, where: { userId, ...(kind ? { kind } : {}) } }), page);
}
