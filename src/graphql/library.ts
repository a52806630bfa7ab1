import { listMusicTracks } from '../library/music.js';
import { createUserMedia, getUserMedia, listUserMedia, mediaUrl, uploadUserMedia } from '../library/user-media.js';
import { deleteUserMedia } from '../library/removal.js';
import { builder } from './builder.js';
import { pageArgs, toConnection } from './connections.js';
import { currentUser } from './context.js';
import { uploadedFile } from './uploads.js';

export const MediaTypeEnum = builder.enumType('MediaType', {
  description:
    'VIDEO, AUDIO and IMAGE as SPEC.md has them; FONT (TTF, OTF: a caption style names it by family) and LUT (.cube 3D: a colour look) are extensions',
  values: ['VIDEO', 'AUDIO', 'IMAGE', 'FONT', 'LUT'] as const,
});
export const MediaStatusEnum = builder.enumType('MediaStatus', {
  description: 'pending while the file is fetched and probed; ready to use; failed with a reason',
  values: ['pending', 'ready', 'failed'] as const,
});

export const UserMediaType = builder.prismaObject('UserMedia', {
  description: 'A file of your media library, usable in project items and as music',
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.field({ type: MediaTypeEnum, resolve: (m) => m.type }),
    status: t.field({ type: MediaStatusEnum, resolve: (m) => m.status }),
    fileName: t.exposeString('fileName'),
    url: t.string({ description: 'The stored file (a signed link) once ready; the source link before', resolve: (m, _a, ctx) => mediaUrl(ctx.app, m) }),
    metadata: t.field({
      type: 'JSON',
      description:
        'audio: duration, fileSize; video: width, height, duration, fileSize; image: width, height, fileSize; font: family, style, glyphs, fileSize; LUT: lutSize, title, fileSize',
      resolve: (m) => m.metadata ?? {},
    }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const MusicTrackType = builder.prismaObject('MusicTrack', {
  description: 'A trendy-music track; its id is valid as music.userMediaId',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    duration: t.exposeFloat('duration', { nullable: true }),
  }),
});

const CreatedUserMedia = builder.objectRef<{ userMediaId: string }>('CreatedUserMedia').implement({
  fields: (t) => ({ userMediaId: t.exposeID('userMediaId') }),
});

builder.queryFields((t) => ({
  userMedia: t.connection({
    type: UserMediaType,
    description: 'Your media library, newest first; cursors are entry ids',
    args: { type: t.arg({ type: MediaTypeEnum, required: false }) },
    resolve: async (_root, args, ctx) => {
      return toConnection(await listUserMedia(ctx.app, currentUser(ctx).id, pageArgs(args), args.type));
    },
  }),
  userMediaEntry: t.field({
    type: UserMediaType,
    description: 'One entry of your library',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => getUserMedia(ctx.app, currentUser(ctx).id, String(id)),
  }),
  music: t.field({
    type: [MusicTrackType],
    description: 'The trendy-music catalogue',
    resolve: (_root, _args, ctx) => listMusicTracks(ctx.app),
  }),
}));

builder.mutationFields((t) => ({
  createUserMedia: t.field({
    type: CreatedUserMedia,
    description: 'Adds a public, directly downloadable file to your library; it is checked now and fetched in the background',
    args: { url: t.arg.string({ required: true }) },
    resolve: async (_root, { url }, ctx) => ({ userMediaId: (await createUserMedia(ctx.app, currentUser(ctx).id, url)).id }),
  }),
  uploadUserMedia: t.field({
    type: CreatedUserMedia,
    description: 'Uploads a video, audio, image, font (TTF, OTF) or .cube LUT file to your library (multipart request)',
    args: { file: t.arg({ type: 'Upload', required: true }) },
    resolve: async (_root, { file }, ctx) => ({ userMediaId: (await uploadUserMedia(ctx.app, currentUser(ctx).id, await uploadedFile(file))).id }),
  }),
  deleteUserMedia: t.field({
    type: UserMediaType,
    description:
      'Deletes a library entry and its file, and returns it; refused (VALIDATION_ERROR on id) while a project, preset or theme still uses it, naming them',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteUserMedia(ctx.app, currentUser(ctx).id, String(id)),
  }),
}));
