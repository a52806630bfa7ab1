import { AppError } from '../errors.js';
import type { CreditKind } from './ledger.js';

const NAMES: Record<CreditKind, string> = { api: 'API', ai: 'AI', clip: 'clip' };

/**
 * The shortfall of a paid request answered 402 PAYMENT_REQUIRED (publishing,
 * magic clips); kept apart from the ledger so the operator CLI loads no GraphQL.
 */
export const paymentRequired = (kind: CreditKind, cost: number, what: string) => (balance: number) =>
  new AppError('PAYMENT_REQUIRED', `${what} costs ${cost} ${NAMES[kind]} credit${cost === 1 ? '' : 's'}; you have ${balance}`);
