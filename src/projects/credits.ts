/** What AI B-roll costs a project, through the credit ledger (src/credits). */
import { validationError } from '../errors.js';
import { debit, refund } from '../credits/ledger.js';
import type { Prisma, Project } from '../generated/prisma/client.ts';
import { itemsColumn } from './references.js';
import { AI_BROLL_CREDITS } from './settings.js';

/**
 * Debits the AI credits of AI B-roll items in the transaction that accepts them
 * (a null balance is unlimited); too few credits refuse the request whole, as
 * a VALIDATION_ERROR on `field`.
 */
export async function debitAiBroll(tx: Prisma.TransactionClient, userId: string, count: number, subjectId: string, field = 'items') {
  const cost = count * AI_BROLL_CREDITS;
  await debit(
    tx,
    userId,
    { kind: 'ai', amount: cost, reason: `${count} AI B-roll item(s)`, subjectId },
    { shortfall: (balance) => validationError([{ field, message: `${count} AI B-roll item(s) cost ${cost} AI credits; you have ${balance}`, value: count }]) },
  );
}

/**
 * Gives back the AI credits of `count` AI B-roll items of `subjectId` whose
 * clips could not be made, in the transaction that records the failure.
 * Returns the credits refunded.
 */
export const refundAiBroll = (tx: Prisma.TransactionClient, userId: string, count: number, subjectId: string): Promise<number> =>
  refund(tx, userId, { kind: 'ai', amount: count * AI_BROLL_CREDITS, reason: `refund: ${count} AI B-roll clip(s) could not be made`, subjectId });

/** How many AI B-roll items of a project have no clip yet. */
export function missingClips(p: Pick<Project, 'items'>): number {
  const items = itemsColumn.read(p.items) ?? [];
  return items.filter((i) => i.type === 'ai-broll' && !i.clipKey).length;
}

/** A project that fails gives back the credits of the AI B-roll clips that will not be made. */
export const refundMissingBroll = (tx: Prisma.TransactionClient, p: Pick<Project, 'id' | 'userId' | 'items'>) =>
  refundAiBroll(tx, p.userId, missingClips(p), p.id);
