import { updatePresetReader } from '../../src/graphql/presets.js';
import { PresetDocument, PresetsDocument, UpdatePresetDocument, type UpdatePresetInput } from '../generated/operations.js';
import { updatePresetBody } from '../../src/presets/schemas.js';
import { at, fields, pageOf } from '../answer.js';
import { pageSize, textParam } from '../query.js';
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
    answer: fields({ data: at('presets.edges[].node'), pagination: pageOf('presets.pageInfo') }),
  }),
  route({
    method: 'GET',
    url: '/v1/presets/:id',
    summary: 'One of your presets',
    operation: PresetDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    answer: at('preset'),
  }),
  route({
    method: 'PUT',
    url: '/v1/presets/:id',
    summary: "Changes a preset's settings; a toggle of saved media only when configured says it is saved",
    operation: UpdatePresetDocument,
    variables: (req) => ({ id: (req.params as Params).id, input: (req.body ?? {}) as UpdatePresetInput }),
    body: updatePresetBody,
    check: updatePresetReader.check,
    answer: at('updatePreset'),
  }),
];
