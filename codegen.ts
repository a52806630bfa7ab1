import type { CodegenConfig } from '@graphql-codegen/cli';

// Typed documents for the REST adapter: one named operation per /v1 route.
// `npm run codegen` rewrites rest/generated/; a test fails when it is stale.
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['rest/operations/*.graphql'],
  generates: {
    'rest/generated/operations.ts': {
      plugins: ['typescript-operations', 'typed-document-node'],
      config: {
        onlyOperationTypes: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true },
        scalars: { DateTime: 'string', JSON: 'unknown', Upload: 'unknown' },
        useTypeImports: true,
      },
    },
  },
  hooks: {},
};

export default config;
