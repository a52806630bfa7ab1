import { PLATFORM_KEYS } from '../catalog/platforms.js';
import {
  disconnectProfileAccount,
  platformStatuses,
  RETURN_URL_DESCRIPTION,
  startConnection,
  type Authorization,
  type PlatformStatus,
} from '../publishing/connections.js';
import { listPublications } from '../publishing/listing.js';
import { cancelPublication, findPublication, publishProject, readPublish } from '../publishing/publish.js';
import { publicationEvent, type PublicationEvent } from '../publishing/events.js';
import { loadPublications, type PostAnalytics, type PostView, type PublicationView } from '../publishing/records.js';
import { publishBody } from '../publishing/schemas.js';
import {
  createProfile,
  createProfileBody,
  deleteProfile,
  readCreateProfile,
  readUpdateProfile,
  updateProfile,
  updateProfileBody,
} from '../publishing/profiles.js';
import { bodyReader } from './body-reads.js';
import { builder } from './builder.js';
import { currentUser, type Context } from './context.js';
import { inputFromSchema } from './inputs.js';

const PublishStatusEnum = builder.enumType('PublishStatus', { values: ['published', 'scheduled', 'processing', 'failed'] as const });
const SyncStatusEnum = builder.enumType('SyncStatus', { values: ['synced', 'pending', 'failed'] as const });
const PlatformEnum = builder.enumType('PlatformKey', {
  description: 'The six social platforms under their neutral keys',
  values: PLATFORM_KEYS as unknown as readonly [string, ...string[]],
});

const PostAnalyticsType = builder.objectRef<PostAnalytics>('PostAnalytics').implement({
  description: "A post's totals as of the latest analytics sync",
  fields: (t) => ({
    views: t.exposeInt('views'),
    likes: t.exposeInt('likes'),
    comments: t.exposeInt('comments'),
    shares: t.exposeInt('shares'),
    impressions: t.exposeInt('impressions'),
    reach: t.exposeInt('reach'),
    clicks: t.exposeInt('clicks'),
    engagementRate: t.exposeFloat('engagementRate', { description: '(likes + comments + shares) / views; 0 without views' }),
  }),
});

const PostType = builder.objectRef<PostView>('Post').implement({
  description: 'One platform post of a publication',
  fields: (t) => ({
    platform: t.field({ type: PlatformEnum, resolve: (p) => p.platform }),
    platformPostId: t.exposeString('platformPostId', { nullable: true, description: 'the id the platform gave the post' }),
    platformPostUrl: t.exposeString('platformPostUrl', { nullable: true, description: 'where the post is, publicly' }),
    publishStatus: t.field({ type: PublishStatusEnum, resolve: (p) => p.publishStatus as never }),
    syncStatus: t.field({ type: SyncStatusEnum, resolve: (p) => p.syncStatus as never }),
    error: t.exposeString('error', { nullable: true, description: 'why the post failed, or why its last attempt did' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    analytics: t.field({ type: PostAnalyticsType, nullable: true, description: 'once an analytics sync has read the post', resolve: (p) => p.analytics }),
  }),
});

const TotalsType = builder.objectRef<PublicationView['totals']>('PublicationTotals').implement({
  description: 'Totals over the posts of a publication',
  fields: (t) => ({
    views: t.exposeInt('views'),
    engagement: t.exposeInt('engagement', { description: 'likes + comments + shares' }),
    followersGained: t.exposeInt('followersGained', { description: "the change of its accounts' followers from the day it went out to the latest sync" }),
  }),
});

const ProjectRefType = builder.objectRef<{ id: string; title: string }>('PublishedProject').implement({
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title') }),
});

/** A publication; `status` of a publish answer is the spec's (`published` once dispatched), of a read is its posts'. */
export const PublicationType = builder.objectRef<PublicationView>('Publication').implement({
  description: 'An exported project posted (or to be posted) to one or more platforms through one profile',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'pub_<uuid>' }),
    projectId: t.exposeID('projectId'),
    profileId: t.exposeID('profileId'),
    scheduled: t.exposeBoolean('scheduled'),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', description: 'when published, or when it is scheduled to be' }),
    status: t.field({ type: PublishStatusEnum, resolve: (p) => p.status as never }),
    platforms: t.field({ type: [PlatformEnum], resolve: (p) => p.platforms }),
    project: t.field({ type: ProjectRefType, resolve: (p) => p.project }),
    totals: t.field({ type: TotalsType, resolve: (p) => p.totals }),
    posts: t.field({ type: [PostType], resolve: (p) => p.posts }),
  }),
});

export const CancelledType = builder.objectRef<{ id: string; refundedCredits: number }>('CancelledPublication').implement({
  fields: (t) => ({ id: t.exposeID('id'), refundedCredits: t.exposeInt('refundedCredits', { description: 'API credits given back' }) }),
});

const PublicationsPageType = builder.objectRef<{ items: PublicationView[]; nextCursor: string | null }>('PublicationPage').implement({
  description: 'A page of publications; pass nextCursor as cursor for the next one',
  fields: (t) => ({
    data: t.field({ type: [PublicationType], resolve: (p) => p.items }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'null on the last page' }),
  }),
});

const PublishInput = inputFromSchema('PublishInput', publishBody, 'The body of POST /v1/projects/{id}/publish');

builder.queryFields((t) => ({
  publications: t.field({
    type: PublicationsPageType,
    description:
      "Your publications with their project, totals and posts; sortBy publishedAt (default), views or engagement; the cursor pins the first page's instant, so pages neither repeat nor skip while publications arrive and totals grow",
    args: {
      platform: t.arg.string(),
      profileId: t.arg.string(),
      from: t.arg.string({ description: 'ISO 8601; publishedAt from' }),
      to: t.arg.string({ description: 'ISO 8601; publishedAt up to; default now' }),
      sortBy: t.arg.string({ description: 'publishedAt, views or engagement' }),
      direction: t.arg.string({ description: 'asc or desc (default)' }),
      limit: t.arg.int({ description: '1-100; 25 when left out' }),
      cursor: t.arg.string(),
    },
    resolve: (_root, args, ctx) => listPublications(ctx.app.db, currentUser(ctx).id, args),
  }),
  publication: t.field({
    type: PublicationType,
    description: 'One of your publications, as in the listing',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const p = await findPublication(ctx.app, currentUser(ctx).id, String(id));
      return (await loadPublications(ctx.app.db, [p.id]))[0];
    },
  }),
}));

/** The body of publishProject as the service reads it, with the project and the profile's accounts; the REST route checks its body with it. */
export const publishProjectReader = bodyReader((ctx, { projectId, input }: { projectId: string | number; input: unknown }) =>
  readPublish(ctx.app, currentUser(ctx), String(projectId), input),
);

builder.mutationFields((t) => ({
  publishProject: t.field({
    type: PublicationType,
    description:
      'Posts an exported project to connected platforms at once (status published: accepted and dispatched) or at scheduledFor (status scheduled); 1 API credit per platform, given back for a post that fails for a reason that is not yours',
    authScopes: { apiPublishing: true },
    args: { projectId: t.arg.id({ required: true }), input: t.arg({ type: PublishInput, required: true }) },
    resolve: async (_root, { projectId, input }, ctx) => {
      const { publication, status } = await publishProject(ctx.app, currentUser(ctx), String(projectId), input, publishProjectReader.kept(ctx));
      const [view] = await loadPublications(ctx.app.db, [publication.id]);
      return { ...view, status };
    },
  }),
  cancelPublication: t.field({
    type: CancelledType,
    description: 'Cancels a scheduled publication before it fires; its credits come back',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => cancelPublication(ctx.app, currentUser(ctx).id, String(id)),
  }),
}));

const PostEventType = builder.objectRef<PublicationEvent['posts'][number]>('PostStatusEvent').implement({
  fields: (t) => ({
    platform: t.exposeString('platform'),
    publishStatus: t.exposeString('publishStatus'),
    platformPostId: t.exposeString('platformPostId', { nullable: true }),
    platformPostUrl: t.exposeString('platformPostUrl', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const PublicationEventType = builder.objectRef<PublicationEvent>('PublicationUpdate').implement({
  description: "A publication's status and its posts', after a change",
  fields: (t) => ({
    publicationId: t.exposeID('publicationId'),
    status: t.exposeString('status', { description: 'published, scheduled, processing, failed; cancelled when a scheduled one was cancelled' }),
    posts: t.field({ type: [PostEventType], resolve: (e) => e.posts }),
    at: t.exposeString('at'),
  }),
});

builder.subscriptionFields((t) => ({
  publicationUpdates: t.field({
    type: PublicationEventType,
    description: "Your publication's status and each post's, starting with the current state; ends once every post has ended or it was cancelled",
    args: { publicationId: t.arg.id({ required: true }) },
    subscribe: async (_root, { publicationId }, ctx) => {
      const found = await findPublication(ctx.app, currentUser(ctx).id, String(publicationId));
      // listen before reading the state: nothing that happens in between is lost
      const events = ctx.app.pubsub.subscribe('publicationUpdated', found.id)[Symbol.asyncIterator]();
      const first = events.next();
      const current = await publicationEvent(ctx.app, found.id);
      const ended = (e: PublicationEvent) =>
        e.status === 'cancelled' || (e.status !== 'scheduled' && e.posts.every((p) => p.publishStatus === 'published' || p.publishStatus === 'failed'));
      return (async function* () {
        try {
          if (!current) return;
          yield current;
          if (ended(current)) return;
          for (let next = await first; !next.done; next = await events.next()) {
            if (next.value.at < current.at) continue;
            yield next.value;
            if (ended(next.value)) return;
          }
        } finally {
          await events.return?.();
        }
      })();
    },
    resolve: (e) => e,
  }),
}));

interface AccountRow {
  id: string;
  platform: string;
  handle: string | null;
  isPrivate: boolean;
  followers: number;
  connector: string;
  status: 'connected' | 'disconnected';
  statusReason: string | null;
  createdAt: Date;
}

const AccountStatusEnum = builder.enumType('AccountStatus', {
  description: 'connected: posts go out; disconnected: publishing to it is refused until it is connected again',
  values: ['connected', 'disconnected'] as const,
});

const SocialAccountType = builder.objectRef<AccountRow>('SocialAccount').implement({
  description: "A profile's connected account on one platform",
  fields: (t) => ({
    id: t.exposeID('id'),
    platform: t.field({ type: PlatformEnum, resolve: (a) => a.platform as never }),
    handle: t.exposeString('handle', { nullable: true }),
    isPrivate: t.exposeBoolean('isPrivate', { description: 'a private account cannot post public shortvideo posts' }),
    followers: t.exposeInt('followers', { description: 'as of the latest analytics sync' }),
    connector: t.exposeString('connector', {
      description: "what publishes for it: the platform's key for an account connected through its OAuth flow, sandbox for one connected by the operator CLI",
    }),
    status: t.field({ type: AccountStatusEnum, resolve: (a) => a.status }),
    statusReason: t.exposeString('statusReason', {
      nullable: true,
      description: 'why it is disconnected: by its owner, or a refresh of its authorisation the platform refused',
    }),
    connectedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** A profile's accounts as ProfileType lists them. */
const WITH_ACCOUNTS = { accounts: { orderBy: { platform: 'asc' as const } } };

const ProfileType = builder.objectRef<{ id: string; name: string; isPrimary: boolean; createdAt: Date; accounts: AccountRow[] }>('Profile').implement({
  description: 'A brand you publish as: at most one connected account per platform',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    isPrimary: t.exposeBoolean('isPrimary', { description: 'publications without a profileId go through it' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    accounts: t.field({ type: [SocialAccountType], resolve: (p) => p.accounts }),
  }),
});

const PlatformAvailabilityType = builder.objectRef<PlatformStatus>('PlatformAvailability').implement({
  description: 'A platform, and whether accounts can be connected on it here',
  fields: (t) => ({
    key: t.field({ type: PlatformEnum, resolve: (p) => p.key }),
    kind: t.exposeString('kind'),
    available: t.exposeBoolean('available', { description: 'connectAccount works for it: the operator configured its OAuth client' }),
    reason: t.exposeString('reason', { nullable: true, description: 'why it is not available' }),
    redirectUri: t.exposeString('redirectUri', { description: "the OAuth redirect URI to register in the platform's developer console" }),
    scopes: t.exposeStringList('scopes', { description: 'the permissions asked of the user' }),
  }),
});

const AccountAuthorizationType = builder.objectRef<Authorization>('AccountAuthorization').implement({
  description: "Where to send the user's browser to connect an account",
  fields: (t) => ({
    authorizationUrl: t.exposeString('authorizationUrl', { description: "the platform's consent page; it redirects back to redirectUri" }),
    redirectUri: t.exposeString('redirectUri'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'the URL works once, until then' }),
  }),
});

builder.queryFields((t) => ({
  platforms: t.field({
    type: [PlatformAvailabilityType],
    description: 'The six platforms: which can connect accounts here, their redirect URIs and scopes',
    resolve: (_root, _args, ctx) => platformStatuses(ctx.app.config),
  }),
  profiles: t.field({
    type: [ProfileType],
    description: 'Your profiles, the primary one first, with their connected accounts',
    resolve: (_root, _args, ctx) =>
      ctx.app.db.profile.findMany({
        where: { userId: currentUser(ctx).id },
        orderBy: [{ isPrimary: 'desc' }, { createdAt: 'asc' }],
        include: WITH_ACCOUNTS,
      }),
  }),
}));

builder.mutationFields((t) => ({
  connectAccount: t.field({
    type: AccountAuthorizationType,
    description:
      "Starts connecting a profile's account on a platform: send the user's browser to authorizationUrl; once they consent, the platform redirects to the service, which connects the account (a reconnection keeps the account's posts) and sends the browser on to returnUrl",
    args: {
      profileId: t.arg.id({ required: true }),
      platform: t.arg({ type: PlatformEnum, required: true }),
      returnUrl: t.arg.string({ description: RETURN_URL_DESCRIPTION }),
    },
    resolve: (_root, args, ctx) =>
      startConnection(ctx.app, currentUser(ctx).id, { profileId: String(args.profileId), platform: args.platform, returnUrl: args.returnUrl }),
  }),
  disconnectAccount: t.field({
    type: SocialAccountType,
    description:
      "Disconnects a profile's account on a platform: its tokens are forgotten, its posts and history kept; publishing to it is refused until it is connected again",
    args: { profileId: t.arg.id({ required: true }), platform: t.arg({ type: PlatformEnum, required: true }) },
    resolve: (_root, args, ctx) => disconnectProfileAccount(ctx.app, currentUser(ctx).id, { profileId: String(args.profileId), platform: args.platform }),
  }),
}));

const CreateProfileInput = inputFromSchema('CreateProfileInput', createProfileBody, 'The body of POST /v1/profiles');
const UpdateProfileInput = inputFromSchema('UpdateProfileInput', updateProfileBody, 'The body of PUT /v1/profiles/{id}: some fields, at least one');

/** The /v1 checks of profile bodies, before GraphQL coerces them. */
export const createProfileReader = bodyReader((_ctx, { input }: { input: unknown }) => readCreateProfile(input));
export const updateProfileReader = bodyReader((ctx, { id, input }: { id: string | number; input: unknown }) =>
  readUpdateProfile(ctx.app.db, currentUser(ctx).id, String(id), input),
);

/** A changed profile as ProfileType reads it: with its accounts. */
const withAccounts = (ctx: Context, id: string) => ctx.app.db.profile.findUniqueOrThrow({ where: { id }, include: WITH_ACCOUNTS });

builder.mutationFields((t) => ({
  createProfile: t.field({
    type: ProfileType,
    description: 'Adds a profile (a brand you publish as); your first is primary',
    args: { input: t.arg({ type: CreateProfileInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      // a new profile has no account yet: nothing to read back
      return { ...(await createProfile(ctx.app.db, currentUser(ctx).id, readCreateProfile(input))), accounts: [] };
    },
  }),
  updateProfile: t.field({
    type: ProfileType,
    description: 'Renames a profile, or makes it the primary one',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateProfileInput, required: true }) },
    resolve: async (_root, { id, input }, ctx) => withAccounts(ctx, (await updateProfile(ctx.app.db, currentUser(ctx).id, String(id), input)).id),
  }),
  deleteProfile: t.field({
    type: ProfileType,
    description:
      'Deletes a profile that holds nothing (no connected account, no publication) and returns it; when it was primary, your oldest other profile becomes primary',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => ({ ...(await deleteProfile(ctx.app.db, currentUser(ctx).id, String(id))), accounts: [] }),
  }),
}));
