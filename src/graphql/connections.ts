import { FieldErrors } from '../errors.js';
import { checkPageArgs, type CursorKind, type Page, type PageRequest } from '../pagination.js';

/** Relay connection args as the relay plugin passes them. */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/**
 * Checks connection args for the keyset pages of src/pagination.ts: forward only,
 * `first` 1-100, `after` a cursor of the listing's kind (the REST `nextCursor`).
 * Field names follow the REST query (limit, cursor) so both doors report alike.
 */
export function pageArgs(args: ConnectionArgs, cursor: CursorKind = 'id'): PageRequest {
  const errors = new FieldErrors();
  if (args.last != null || args.before != null) errors.add('before', 'only forward pagination (first, after) is supported');
  const { first, after, from } = checkPageArgs({ first: args.first, after: args.after }, { cursor, errors });
  errors.throwIfAny();
  return { first, after, from };
}

/** A keyset page as a relay connection; each edge's cursor resumes after its node. */
export function toConnection<T extends { id: string }>(page: Page<T>) {
  const edges = page.items.map((node) => ({ cursor: page.cursorOf(node), node }));
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
