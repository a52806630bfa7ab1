/**
 * The credit ledger (DESIGN.md, Data): the three balances of a user (API, AI,
 * clip) move only through these functions, each movement written to
 * CreditLedger with its reason and the id it concerns, always inside the
 * caller's transaction so the movement commits or rolls back with what it pays for.
 * A null AI balance is unlimited: it is never debited, granted or refunded.
 */
import type { CreditKind, Prisma } from '../generated/prisma/client.ts';

export type { CreditKind };

/** The User column that holds each balance. */
const BALANCE = { api: 'apiCredits', ai: 'aiCredits', clip: 'clipCredits' } as const satisfies Record<CreditKind, keyof Prisma.UserWhereInput>;

export interface Movement {
  kind: CreditKind;
  /** credits moved, a positive whole number; 0 moves nothing */
  amount: number;
  reason: string;
  /** what the movement concerns (project, post, ...) */
  subjectId?: string | null;
}

export interface DebitOptions {
  /** the error thrown when the balance is too low: each caller words it for its door */
  shortfall(balance: number): Error;
}

type Tx = Prisma.TransactionClient;

/**
 * Takes `amount` credits from a balance in one conditional UPDATE (never
 * below 0); a too-low balance throws the caller's `shortfall`. Returns the
 * credits taken: 0 for an unlimited AI balance, which is left alone.
 */
export async function debit(tx: Tx, userId: string, m: Movement, opts: DebitOptions): Promise<number> {
  if (m.amount <= 0) return 0;
  const column = BALANCE[m.kind];
  const { count } = await tx.user.updateMany({ where: { id: userId, [column]: { gte: m.amount } }, data: { [column]: { decrement: m.amount } } });
  if (count === 0) {
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { apiCredits: true, aiCredits: true, clipCredits: true } });
    const balance = user[column];
    if (balance !== null) throw opts.shortfall(balance);
    return 0;
  }
  await tx.creditLedger.create({ data: { userId, kind: m.kind, delta: -m.amount, reason: m.reason, subjectId: m.subjectId ?? null } });
  return m.amount;
}

/**
 * Gives back up to `amount` credits of a subject, never more than its net
 * debit (what was taken minus what came back already), so nothing returns
 * that was not taken. Returns the credits refunded.
 */
export async function refund(tx: Tx, userId: string, m: Movement & { subjectId: string }): Promise<number> {
  if (m.amount <= 0) return 0;
  // the user's row lock orders concurrent refunds of one subject: the second sees the first's entry
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
  const net = await tx.creditLedger.aggregate({ where: { userId, subjectId: m.subjectId, kind: m.kind }, _sum: { delta: true } });
  const amount = Math.min(m.amount, -(net._sum.delta ?? 0));
  if (amount <= 0) return 0;
  await credit(tx, userId, { ...m, amount });
  return amount;
}

/** Adds credits to a balance (an opening balance, an operator's top-up); nothing on an unlimited AI balance. */
export async function grant(tx: Tx, userId: string, m: Movement): Promise<number> {
  if (m.amount <= 0) return 0;
  return (await credit(tx, userId, m)) ? m.amount : 0;
}

/** The reason of an operator's grant: a new user's opening balances, a top-up. */
export const OPERATOR_GRANT = 'operator grant';

/** Grants several balances at once (a new user's opening balances), one ledger entry per balance moved. */
export async function grantBalances(tx: Tx, userId: string, amounts: Partial<Record<CreditKind, number>>, reason = OPERATOR_GRANT): Promise<void> {
  for (const kind of Object.keys(BALANCE) as CreditKind[]) await grant(tx, userId, { kind, amount: amounts[kind] ?? 0, reason });
}

async function credit(tx: Tx, userId: string, m: Movement): Promise<boolean> {
  const column = BALANCE[m.kind];
  const where = m.kind === 'ai' ? { id: userId, aiCredits: { not: null } } : { id: userId };
  const { count } = await tx.user.updateMany({ where, data: { [column]: { increment: m.amount } } });
  if (count === 0) return false;
  await tx.creditLedger.create({ data: { userId, kind: m.kind, delta: m.amount, reason: m.reason, subjectId: m.subjectId ?? null } });
  return true;
}
