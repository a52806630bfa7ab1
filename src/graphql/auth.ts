import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.js';
import { builder } from './builder.js';
import { currentUser } from './context.js';

export const ApiKeyType = builder.prismaObject('ApiKey', {
  description: 'An API key of yours; the key itself is shown only when it is created',
  fields: (t) => ({
    id: t.exposeID('id'),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    current: t.boolean({ description: 'the key this request came with', resolve: (k, _a, ctx) => k.id === ctx.user?.keyId }),
  }),
});

interface CreatedApiKeyShape {
  apiKey: string;
  key: { id: string };
}

const CreatedApiKey = builder.objectRef<CreatedApiKeyShape>('CreatedApiKey').implement({
  fields: (t) => ({
    apiKey: t.exposeString('apiKey', { description: 'The new key (sk-...); store it now, it is not shown again' }),
    key: t.field({ type: ApiKeyType, resolve: (r) => r.key as never }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.prismaField({
    type: ['ApiKey'],
    description: 'Your API keys that work, newest first; with includeRevoked, the revoked ones too',
    args: { includeRevoked: t.arg.boolean({ required: false, defaultValue: false }) },
    resolve: (query, _root, { includeRevoked }, ctx) => listApiKeys(ctx.app.db, currentUser(ctx).id, { ...query, includeRevoked: includeRevoked ?? false }),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    description: 'Issues another key for your account',
    resolve: (_root, _args, ctx) => createApiKey(ctx.app.db, currentUser(ctx).id),
  }),
  revokeApiKey: t.prismaField({
    type: 'ApiKey',
    description:
      'Revokes one of your working keys; requests with it then get UNAUTHORIZED. The key of this request can be revoked only while another works (BAD_REQUEST); a revoked key is NOT_FOUND',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => revokeApiKey(ctx.app.db, currentUser(ctx), String(id)),
  }),
}));
