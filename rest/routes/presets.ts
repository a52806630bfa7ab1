import { PresetDocument, PresetsDocument, UpdatePresetDocument } from '../generated/operations.js';
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
    // the body goes through untouched (JSON): the service names unknown fields and wrong types along with every other violation
    variables: (req) => ({ id: (req.params as Params).id, input: req.body ?? {} }),
    respond: (d) => d.updatePreset,
  }),
];
