import { AccountDocument, ApiKeysDocument, CreateApiKeyDocument, CreditLedgerPageDocument, RevokeApiKeyDocument } from '../generated/operations.js';
import { at, fields, merged, pageOf, withoutNulls } from '../answer.js';
import { enumParam, pageSize, textParam } from '../query.js';
import { noVariables, route } from '../route.js';

type Params = { id: string };
const EXTENSION = 'the account through /v1, beyond SPEC.md: balances, the credit ledger and API keys';
const CREDIT_KINDS = ['api', 'ai', 'clip'] as const;

export const ownAccountRoutes = [
  route({
    method: 'GET',
    url: '/v1/account',
    summary: 'Your entitlements and balances (aiCredits null and aiUnlimited true: unlimited)',
    extension: EXTENSION,
    operation: AccountDocument,
    variables: noVariables,
    answer: at('account'),
  }),
  route({
    method: 'GET',
    url: '/v1/account/ledger',
    summary: 'Your credits’ debits (negative), refunds and grants, newest first, a page at a time',
    extension: EXTENSION,
    operation: CreditLedgerPageDocument,
    query: {
      limit: pageSize(50),
      cursor: textParam({ description: 'the nextCursor of the previous page' }),
      kind: enumParam(CREDIT_KINDS, { description: 'only movements of this credit' }),
    },
    variables: (_req, q) => ({ first: q.limit, after: q.cursor, kind: q.kind }),
    answer: merged(fields({ items: at('creditLedger.edges[].node', withoutNulls(['subjectId'])) }), pageOf('creditLedger.pageInfo')),
  }),
  route({
    method: 'GET',
    url: '/v1/api-keys',
    summary: 'Your API keys that work, newest first: prefix, creation, last use (to the minute), and whether this request came with it',
    extension: EXTENSION,
    operation: ApiKeysDocument,
    variables: noVariables,
    answer: fields({ items: at('apiKeys') }),
  }),
  route({
    method: 'POST',
    url: '/v1/api-keys',
    summary: 'Issues another API key: apiKey is shown this once',
    extension: EXTENSION,
    operation: CreateApiKeyDocument,
    variables: noVariables,
    answer: at('createApiKey'),
    status: 201,
  }),
  route({
    method: 'DELETE',
    url: '/v1/api-keys/:id',
    summary: 'Revokes one of your keys; the key of this request only while another works',
    extension: EXTENSION,
    operation: RevokeApiKeyDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('revokeApiKey'),
    errors: { BAD_REQUEST: 'it is the last key that works and this request came with it' },
  }),
];
