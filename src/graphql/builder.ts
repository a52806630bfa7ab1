import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, Kind } from 'graphql';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-ts';
import { isProduction } from '../config.js';
import { forbidden, unauthorized } from '../errors.js';
import type PrismaTypes from '../generated/pothos-prisma-types.ts';
import { getDatamodel } from '../generated/pothos-prisma-types.ts';
import type { Context } from './context.js';

/** Plugins and scalars only; types live in one file per domain (STYLE.md). */
export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  AuthScopes: { user: boolean; clipsSubscription: boolean; apiPublishing: boolean };
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    Upload: { Input: Promise<FileUpload>; Output: never };
  };
}>({
  // scope-auth first, so authorization runs before anything else wraps a resolver
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      user: ctx.user !== null,
      clipsSubscription: ctx.user?.clipsSubscription === true,
      apiPublishing: ctx.user?.apiPublishing === true,
    }),
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (!ctx.user) return unauthorized();
      return forbidden(
        result.failure.kind === 'AuthScope' && result.failure.scope === 'clipsSubscription'
          ? 'A clips subscription is required'
          : result.failure.kind === 'AuthScope' && result.failure.scope === 'apiPublishing'
            ? 'Your plan does not allow API publishing'
            : result.message,
      );
    },
  },
  prisma: {
    client: (ctx) => ctx.app.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: isProduction() ? null : 'warn',
  },
  relay: {
    // ids stay plain UUIDs: connections only, no global ids or node fields
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
  },
  // field costs only; plugins/query-limits.ts measures every document against the limits before it runs
  complexity: {
    defaultComplexity: 1,
    defaultListMultiplier: 10,
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 timestamp in UTC',
  serialize: (v) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString()),
  parseValue: (v) => {
    const d = typeof v === 'string' ? new Date(v) : new Date(NaN);
    if (Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return d;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: function literal(ast): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => literal(v));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value)]));
      default:
        throw new GraphQLError('JSON literals cannot hold variables');
    }
  },
});

// multipart requests (GraphQL multipart request spec), streamed to temporary files by graphql-upload-ts
builder.addScalarType('Upload', GraphQLUpload);

// Every root field needs an authenticated caller unless it says otherwise.
builder.queryType({ authScopes: { user: true } });
builder.mutationType({ authScopes: { user: true } });
builder.subscriptionType({ authScopes: { user: true } });
