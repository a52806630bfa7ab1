import type { ProjectQuery, ProjectRecordFragment } from '../generated/operations.js';
import { CreateProjectDocument, ProjectDocument, UploadProjectDocument } from '../generated/operations.js';
import { readMultipart } from '../multipart.js';
import { route } from '../route.js';

type Params = { id: string };

/**
 * The Project record of SPEC.md: always its identity, status and effect flags;
 * every other field only when it applies (was given, or came from a preset or
 * AI edit template).
 */
export function projectRecord(p: ProjectRecordFragment) {
  const { magicBrollsPercentage, dictionary, disableCaptions, autoRender, ...rest } = p;
  const record: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) if (v !== null && v !== undefined) record[k] = v;
  if (p.magicBrolls) record.magicBrollsPercentage = magicBrollsPercentage;
  if (dictionary.length) record.dictionary = dictionary;
  if (disableCaptions) record.disableCaptions = true;
  if (!autoRender) record.autoRender = false;
  return record;
}

/** GET /v1/projects/{id}: the record plus transcript, status details and outputs (DECISIONS.md). */
function fullRecord(p: NonNullable<ProjectQuery['project']>) {
  const { transcriptionStatus, failureReason, videoMetaData, words, downloadUrl, directUrl, previewUrl, ...base } = p;
  return {
    ...projectRecord(base),
    ...(transcriptionStatus ? { transcriptionStatus } : {}),
    ...(failureReason ? { failureReason } : {}),
    ...(videoMetaData ? { videoMetaData } : {}),
    ...(words ? { words } : {}),
    ...(downloadUrl ? { downloadUrl } : {}),
    ...(directUrl ? { directUrl } : {}),
    ...(previewUrl ? { previewUrl } : {}),
  };
}

const BOOLEAN_FIELDS = new Set(['magicZooms', 'magicBrolls', 'removeBadTakes', 'cleanAudio', 'disableCaptions']);
const NUMBER_FIELDS = new Set(['captionPositionY', 'captionPositionX', 'magicBrollsPercentage']);
const JSON_FIELDS = new Set(['dictionary', 'items', 'music', 'hookTitle']);

/**
 * Multipart parts are all text (SPEC.md): booleans as true/false, numbers as
 * digits, dictionary/items/music/hookTitle as JSON. A part that does not parse
 * is passed on as its text, so the service names it along with every other
 * violated field.
 */
export function fromFormFields(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(fields)) {
    const t = text.trim();
    if (BOOLEAN_FIELDS.has(name)) body[name] = t === 'true' ? true : t === 'false' ? false : text;
    else if (NUMBER_FIELDS.has(name)) body[name] = /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : text;
    else if (JSON_FIELDS.has(name)) {
      try {
        body[name] = JSON.parse(t);
      } catch {
        body[name] = text;
      }
    } else body[name] = text;
  }
  return body;
}

export const projectRoutes = [
  route({
    method: 'POST',
    url: '/v1/projects',
    operation: CreateProjectDocument,
    variables: (req) => ({ input: req.body ?? {} }),
    respond: (d) => projectRecord(d.createProject),
    status: 201,
  }),
  route({
    method: 'POST',
    url: '/v1/projects/upload',
    operation: UploadProjectDocument,
    variables: async (req) => {
      const form = await readMultipart(req);
      return { input: fromFormFields(form.fields), file: form.file };
    },
    respond: (d) => projectRecord(d.uploadProject),
    status: 201,
  }),
  route({
    method: 'GET',
    url: '/v1/projects/:id',
    operation: ProjectDocument,
    variables: (req) => ({ id: (req.params as Params).id }),
    respond: (d) => fullRecord(d.project),
  }),
];
