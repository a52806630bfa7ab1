import { updatePresetReader } from '../../src/graphql/presets.js';
import { PresetDocument, PresetsDocument, UpdatePresetDocument, type UpdatePresetInput } from '../generated/operations.js';
import { updatePresetBody } from '../../src/presets/schemas.js';
import { nextCursorOf, pageSize, textParam } from '../query.js';
import { boolean, object, string } from '../response.js';
import { route } from '../route.js';

type Params = { id: string };

export const presetRoutes = [
  route({
    method: 'GET',
    url: '/v1/presets',
    summary: 'Your presets, newest first, a page at a time',
    operation: PresetsDocument,
    query: { limit: pageSize(50), cursor: textParam({ description: 'the nextCursor of the previous page' }) },
    variables: (_req, q) => ({ first: q.limit, after: q.cursor }),
    respond: ({ presets: { edges, pageInfo } }) => ({
      data: edges.map((e) => e.node),
      pagination: { hasMore: pageInfo.hasNextPage, ...nextCursorOf(pageInfo) },
    }),
    response: (d) =>
      object({
        data: d.at('presets.edges[].node'),
        pagination: object({ hasMore: boolean, nextCursor: { ...string, description: 'present only when hasMore' } }, ['nextCursor']),
      }),
  }),
  route({
    method: 'GET',
    url: '/v1/presets/:id',
    summary: 'One of your presets',
    operation: PresetDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    respond: (d) => d.preset,
    response: (d) => d.at('preset'),
  }),
  route({
    method: 'PUT',
    url: '/v1/presets/:id',
    summary: "Changes a preset's settings; a toggle of saved media only when configured says it is saved",
    operation: UpdatePresetDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as UpdatePresetInput }),
    body: updatePresetBody,
    check: updatePresetReader.check,
    respond: (d) => d.updatePreset,
    response: (d) => d.at('updatePreset'),
  }),
];
