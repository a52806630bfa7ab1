// Counts operations per name, type and outcome; it runs last so it sees the final outcome.
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlOperations } from '../../metrics.js';
import type { Context } from '../context.js';

export function useMetrics(): Plugin<Context> {
  return {
    onExecute({ args }) {
      const op = (args.document as DocumentNode).definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode | undefined;
      const name = args.operationName ?? op?.name?.value ?? 'anonymous';
      const type = op?.operation ?? 'unknown';
      return {
        onExecuteDone: ({ result }) => {
          const errors = 'errors' in result ? result.errors : undefined;
          const outcome = errors?.length ? String(errors[0].extensions?.code ?? 'ERROR') : 'ok';
          graphqlOperations.inc({ operation: name, type, outcome });
        },
      };
    },
  };
}
