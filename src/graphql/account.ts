import { accountOf, ledgerPage, type LedgerEntry } from '../auth/account.js';
import { builder } from './builder.js';
import { pageArgs, toConnection } from './connections.js';
import { currentUser } from './context.js';

type Account = Awaited<ReturnType<typeof accountOf>>;

const CreditKindEnum = builder.enumType('CreditKind', {
  description: 'api: publishing posts; ai: AI edits and B-roll; clip: magic clips',
  values: ['api', 'ai', 'clip'] as const,
});

const EntitlementsType = builder.objectRef<Account>('Entitlements').implement({
  fields: (t) => ({
    clipsSubscription: t.exposeBoolean('clipsSubscription', { description: 'magic clips may be made' }),
    apiPublishing: t.exposeBoolean('apiPublishing', { description: 'publications may be made through the API' }),
  }),
});

const BalancesType = builder.objectRef<Account>('Balances').implement({
  fields: (t) => ({
    apiCredits: t.exposeInt('apiCredits'),
    aiCredits: t.exposeInt('aiCredits', { nullable: true, description: 'null when unlimited (aiUnlimited)' }),
    aiUnlimited: t.boolean({ resolve: (a) => a.aiCredits === null }),
    clipCredits: t.exposeInt('clipCredits'),
  }),
});

const AccountType = builder.objectRef<Account>('Account').implement({
  description: 'Your account: what it may do and the credits it has',
  fields: (t) => ({
    email: t.exposeString('email'),
    entitlements: t.field({ type: EntitlementsType, resolve: (a) => a }),
    balances: t.field({ type: BalancesType, resolve: (a) => a }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const LedgerEntryType = builder.objectRef<LedgerEntry>('LedgerEntry').implement({
  description: 'A movement of credits: a debit (negative), a refund or a grant',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: CreditKindEnum, resolve: (e) => e.kind }),
    delta: t.exposeInt('delta', { description: 'negative for a debit' }),
    reason: t.exposeString('reason'),
    subjectId: t.exposeString('subjectId', { nullable: true, description: 'what it concerns: a project, a publication, a post' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  account: t.field({
    type: AccountType,
    description: 'Your entitlements and balances',
    resolve: (_root, _args, ctx) => accountOf(ctx.app.db, currentUser(ctx).id),
  }),
  creditLedger: t.connection({
    type: LedgerEntryType,
    description: 'Your credits’ debits, refunds and grants, newest first; cursors are entry ids',
    args: { kind: t.arg({ type: CreditKindEnum, required: false }) },
    resolve: async (_root, args, ctx) => toConnection(await ledgerPage(ctx.app.db, currentUser(ctx).id, pageArgs(args), args.kind)),
  }),
}));
