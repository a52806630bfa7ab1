import { FieldErrors } from '../errors.js';
import { checkPageArgs, type Page } from '../pagination.js';

/** Relay connection args as the relay plugin passes them. */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/**
 * Checks connection args for the keyset pages of src/pagination.ts: forward only,
 * `first` 1-100, `after` the UUID of the last row seen (the REST `nextCursor`).
 * Field names follow the REST query (limit, cursor) so both doors report alike.
 */
export function pageArgs(args: ConnectionArgs) {
  const errors = new FieldErrors();
  if (args.last != null || args.before != null) errors.add('before', 'only forward pagination (first, after) is supported');
  const { first, after } = checkPageArgs({ first: args.first, after: args.after }, undefined, errors);
  errors.throwIfAny();
  return { first, after };
}

/** A keyset page as a relay connection whose cursors are the rows' UUIDs. */
export function toConnection<T extends { id: string }>(page: Page<T>) {
  const edges = page.items.map((node) => ({ cursor: node.id, node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasMore,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
