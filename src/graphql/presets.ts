import { createPresetFromProject, getPreset, listPresets, presetConfigured, readPresetUpdate, updatePreset } from '../presets/service.js';
import { savePresetMediaBody, updatePresetBody } from '../presets/schemas.js';
import { savePresetMedia } from '../presets/media.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { inputFromSchema } from './inputs.js';
import { pageArgs, toConnection } from './connections.js';
import { currentUser } from './context.js';

const PresetConfiguredType = builder.objectRef<ReturnType<typeof presetConfigured>>('PresetConfigured').implement({
  description: 'Which kinds of saved media the preset has; a toggle of a kind can be enabled only when it is true',
  fields: (t) => ({
    captions: t.exposeBoolean('captions'),
    hookTitle: t.exposeBoolean('hookTitle'),
    logo: t.exposeBoolean('logo'),
    colorFilter: t.exposeBoolean('colorFilter'),
    music: t.exposeBoolean('music'),
  }),
});

export const PresetType = builder.prismaObject('Preset', {
  description: 'A saved bundle of project settings; its saved media (caption theme, hook, logo, colour filter, music) is made in the editor',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    captions: t.exposeBoolean('captions', { description: 'apply the saved caption theme' }),
    hookTitle: t.exposeBoolean('hookTitle', { description: 'apply the saved hook title' }),
    magicZooms: t.exposeBoolean('magicZooms'),
    magicBrolls: t.exposeBoolean('magicBrolls', { description: 'automatic AI B-roll' }),
    magicBrollsPercentage: t.exposeInt('magicBrollsPercentage', { description: 'share of automatic B-roll, 0-100; used only with magicBrolls' }),
    magicBrollsTransitions: t.exposeBoolean('magicBrollsTransitions', { description: 'transition effects around automatic B-roll' }),
    logo: t.exposeBoolean('logo', { description: 'apply the saved logo' }),
    colorFilter: t.exposeBoolean('colorFilter', { description: 'apply the saved colour filter' }),
    cleanAudio: t.exposeBoolean('cleanAudio'),
    eyeContactCorrection: t.exposeBoolean('eyeContactCorrection'),
    music: t.exposeBoolean('music', { description: 'apply the saved background music' }),
    musicVolume: t.exposeInt('musicVolume', { nullable: true, description: '1-100' }),
    transitionSoundVolume: t.exposeInt('transitionSoundVolume', { nullable: true, description: '0-100; null: no transition sounds' }),
    configured: t.field({ type: PresetConfiguredType, resolve: (p) => presetConfigured(p) }),
    savedMedia: t.field({
      type: 'JSON',
      description: 'The saved media themselves, for the editor: { captions, hookTitle, logo, colorFilter, music }, each null when none is saved',
      resolve: (p) => ({ captions: p.savedCaptions, hookTitle: p.savedHookTitle, logo: p.savedLogo, colorFilter: p.savedColorFilter, music: p.savedMusic }),
    }),
    sourceProjectId: t.exposeID('sourceProjectId', { nullable: true, description: 'the project the preset was made from' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const SavePresetMediaInput = inputFromSchema(
  'SavePresetMediaInput',
  savePresetMediaBody,
  "A preset's saved media: at least one kind, each an object to save or null to remove",
);
const UpdatePresetInput = inputFromSchema('UpdatePresetInput', updatePresetBody, 'The fields to change, at least one, as in PUT /v1/presets/{id}');

/** The body of updatePreset as the service reads it, against the preset; the REST route checks its body with it. */
export const updatePresetReader = bodyReader((ctx, { id, input }: { id: string | number; input: unknown }) =>
  readPresetUpdate(ctx.app.db, currentUser(ctx).id, String(id), input),
);

builder.queryFields((t) => ({
  presets: t.connection(
    {
      type: PresetType,
      description: 'Your presets, newest first; `after` is the endCursor of the previous page',
      resolve: async (_root, args, ctx) => toConnection(await listPresets(ctx.app.db, currentUser(ctx).id, pageArgs(args))),
    },
    { name: 'PresetConnection' },
    { name: 'PresetEdge' },
  ),
  preset: t.prismaField({
    type: 'Preset',
    description: 'One of your presets',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => getPreset(ctx.app.db, currentUser(ctx).id, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  updatePreset: t.prismaField({
    type: 'Preset',
    description: 'Changes some fields of one of your presets; every violated field is reported at once and nothing changes then',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdatePresetInput, required: true }) },
    resolve: (_query, _root, { id, input }, ctx) => updatePreset(ctx.app.db, currentUser(ctx).id, String(id), input, updatePresetReader.kept(ctx)),
  }),
  savePresetMedia: t.prismaField({
    type: 'Preset',
    description:
      "The editor's door to a preset's saved media: each medium given is saved (its toggle switched on) or removed with null (switched off); those left out stay. Not in /v1, as SPEC.md says.",
    args: { presetId: t.arg.id({ required: true }), input: t.arg({ type: SavePresetMediaInput, required: true }) },
    resolve: (_query, _root, { presetId, input }, ctx) => savePresetMedia(ctx.app.db, currentUser(ctx).id, String(presetId), input),
  }),
  createPresetFromProject: t.prismaField({
    type: 'Preset',
    description: "Saves one of your projects' settings and media as a new preset",
    args: {
      projectId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true, description: '1-100 characters' }),
      description: t.arg.string({ description: 'up to 500 characters' }),
    },
    resolve: (_query, _root, { projectId, name, description }, ctx) =>
      createPresetFromProject(ctx.app.db, currentUser(ctx).id, String(projectId), { name, description }),
  }),
}));
