import { currentUser } from '../../src/graphql/context.js';
import { readPresetUpdate } from '../../src/presets/service.js';
import { PresetDocument, PresetsDocument, UpdatePresetDocument, type UpdatePresetInput } from '../generated/operations.js';
import { nextCursorOf, queryInt, queryString } from '../query.js';
import { route } from '../route.js';

type Params = { id: string };

export const presetRoutes = [
  route({
    method: 'GET',
    url: '/v1/presets',
    operation: PresetsDocument,
    variables: (req) => ({ first: queryInt(req, 'limit'), after: queryString(req, 'cursor') }),
    respond: ({ presets: { edges, pageInfo } }) => ({
      data: edges.map((e) => e.node),
      pagination: { hasMore: pageInfo.hasNextPage, ...nextCursorOf(pageInfo) },
    }),
  }),
  route({
    method: 'GET',
    url: '/v1/presets/:id',
    operation: PresetDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    respond: (d) => d.preset,
  }),
  route({
    method: 'PUT',
    url: '/v1/presets/:id',
    operation: UpdatePresetDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as UpdatePresetInput }),
    check: (ctx, { id, input }) => readPresetUpdate(ctx.app.db, currentUser(ctx).id, id, input),
    respond: (d) => d.updatePreset,
  }),
];
