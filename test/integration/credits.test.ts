import crypto from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { newWebhookSecret } from '../../src/auth/keys.js';
import { debit, grant, refund, type Movement } from '../../src/credits/ledger.js';
import { paymentRequired } from '../../src/credits/shortfall.js';
import type { Db } from '../../src/db/client.js';
import { AppError } from '../../src/errors.js';
import { usePrismaDatabase } from '../support/prisma.js';

// The credit ledger against a real database: every movement inside the caller's transaction.

let db: Db;
usePrismaDatabase((client) => (db = client));

async function user(balances: { apiCredits?: number; aiCredits?: number | null; clipCredits?: number } = {}) {
  const u = await db.user.create({ data: { email: `c-${crypto.randomUUID()}@test.local`, webhookSecret: newWebhookSecret(), ...balances } });
  return u.id;
}

const balances = (id: string) => db.user.findUniqueOrThrow({ where: { id }, select: { apiCredits: true, aiCredits: true, clipCredits: true } });
const ledger = (userId: string) =>
  db.creditLedger.findMany({ where: { userId }, orderBy: { createdAt: 'asc' }, select: { kind: true, delta: true, reason: true, subjectId: true } });

class Short extends Error {}
const shortfall = { shortfall: (balance: number) => new Short(`have ${balance}`) };

describe('debit', () => {
  test('takes the credits from the balance of its kind and records the reason and the subject', async () => {
    const id = await user({ apiCredits: 5, aiCredits: 9, clipCredits: 2 });
    const subjectId = crypto.randomUUID();
    const taken = await db.$transaction((tx) => debit(tx, id, { kind: 'clip', amount: 1, reason: 'magic clips', subjectId }, shortfall));
    expect(taken).toBe(1);
    expect(await balances(id)).toEqual({ apiCredits: 5, aiCredits: 9, clipCredits: 1 });
    expect(await ledger(id)).toEqual([{ kind: 'clip', delta: -1, reason: 'magic clips', subjectId }]);
  });

  test("a too-low balance throws the caller's error and the transaction writes nothing", async () => {
    const id = await user({ apiCredits: 2 });
    const run = db.$transaction(async (tx) => {
      await tx.creditLedger.create({ data: { userId: id, kind: 'api', delta: 0, reason: 'written before the debit' } });
      await debit(tx, id, { kind: 'api', amount: 3, reason: 'publish', subjectId: null }, shortfall);
    });
    await expect(run).rejects.toThrow(new Short('have 2'));
    expect(await balances(id)).toMatchObject({ apiCredits: 2 });
    expect(await ledger(id)).toEqual([]);
  });

  test('the 402 shortfall of publishing and magic clips', () => {
    const e = paymentRequired('api', 2, 'Publishing to 2 platforms')(1);
    expect(e).toBeInstanceOf(AppError);
    expect(e.extensions).toMatchObject({ code: 'PAYMENT_REQUIRED', status: 402 });
    expect(e.message).toBe('Publishing to 2 platforms costs 2 API credits; you have 1');
  });

  test('an unlimited AI balance is never debited and records nothing', async () => {
    const id = await user({ aiCredits: null });
    const taken = await db.$transaction((tx) => debit(tx, id, { kind: 'ai', amount: 300, reason: 'AI B-roll', subjectId: crypto.randomUUID() }, shortfall));
    expect(taken).toBe(0);
    expect((await balances(id)).aiCredits).toBeNull();
    expect(await ledger(id)).toEqual([]);
  });

  test('two concurrent debits never take the balance below zero', async () => {
    const id = await user({ clipCredits: 1 });
    const one = () => db.$transaction((tx) => debit(tx, id, { kind: 'clip', amount: 1, reason: 'magic clips', subjectId: crypto.randomUUID() }, shortfall));
    const results = await Promise.allSettled([one(), one()]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await balances(id)).clipCredits).toBe(0);
    expect(await ledger(id)).toHaveLength(1);
  });
});

describe('refund', () => {
  test('gives back at most the net debit of the subject', async () => {
    const id = await user({ aiCredits: 9 });
    const subjectId = crypto.randomUUID();
    const m: Movement & { subjectId: string } = { kind: 'ai', amount: 6, reason: 'refund', subjectId };
    await db.$transaction((tx) => debit(tx, id, { kind: 'ai', amount: 6, reason: '2 AI B-roll item(s)', subjectId }, shortfall));
    expect(await db.$transaction((tx) => refund(tx, id, { ...m, amount: 3 }))).toBe(3);
    expect(await db.$transaction((tx) => refund(tx, id, { ...m, amount: 9 }))).toBe(3);
    expect(await db.$transaction((tx) => refund(tx, id, m))).toBe(0);
    expect((await balances(id)).aiCredits).toBe(9);
    expect(await ledger(id)).toEqual([
      { kind: 'ai', delta: -6, reason: '2 AI B-roll item(s)', subjectId },
      { kind: 'ai', delta: 3, reason: 'refund', subjectId },
      { kind: 'ai', delta: 3, reason: 'refund', subjectId },
    ]);
  });

  test('nothing comes back for another subject, another kind, or an unlimited balance', async () => {
    const id = await user({ apiCredits: 4 });
    const subjectId = crypto.randomUUID();
    await db.$transaction((tx) => debit(tx, id, { kind: 'api', amount: 4, reason: 'publish', subjectId }, shortfall));
    expect(await db.$transaction((tx) => refund(tx, id, { kind: 'api', amount: 4, reason: 'refund', subjectId: crypto.randomUUID() }))).toBe(0);
    expect(await db.$transaction((tx) => refund(tx, id, { kind: 'clip', amount: 4, reason: 'refund', subjectId }))).toBe(0);
    const unlimited = await user({ aiCredits: null });
    await db.$transaction((tx) => debit(tx, unlimited, { kind: 'ai', amount: 3, reason: 'AI B-roll', subjectId }, shortfall));
    expect(await db.$transaction((tx) => refund(tx, unlimited, { kind: 'ai', amount: 3, reason: 'refund', subjectId }))).toBe(0);
    expect(await balances(id)).toMatchObject({ apiCredits: 0 });
    expect(await ledger(unlimited)).toEqual([]);
  });

  test('two concurrent refunds of one subject give back the debit once', async () => {
    const id = await user({ apiCredits: 1 });
    const subjectId = crypto.randomUUID();
    await db.$transaction((tx) => debit(tx, id, { kind: 'api', amount: 1, reason: 'publish', subjectId }, shortfall));
    const one = () => db.$transaction((tx) => refund(tx, id, { kind: 'api', amount: 1, reason: 'refund: the post failed', subjectId }));
    expect((await Promise.all([one(), one()])).sort()).toEqual([0, 1]);
    expect((await balances(id)).apiCredits).toBe(1);
  });
});

describe('grant', () => {
  test('adds to the balance with its reason; an unlimited AI balance stays unlimited', async () => {
    const id = await user({ aiCredits: null });
    await db.$transaction(async (tx) => {
      expect(await grant(tx, id, { kind: 'api', amount: 100, reason: 'operator grant' })).toBe(100);
      expect(await grant(tx, id, { kind: 'ai', amount: 10, reason: 'operator grant' })).toBe(0);
      expect(await grant(tx, id, { kind: 'clip', amount: 0, reason: 'operator grant' })).toBe(0);
    });
    expect(await balances(id)).toEqual({ apiCredits: 100, aiCredits: null, clipCredits: 0 });
    expect(await ledger(id)).toEqual([{ kind: 'api', delta: 100, reason: 'operator grant', subjectId: null }]);
  });
});
