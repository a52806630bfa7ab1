import { at, constant, extended, fields } from '../answer.js';
import {
  ConnectAccountDocument,
  CreateProfileDocument,
  DeleteProfileDocument,
  DisconnectAccountDocument,
  PlatformsDocument,
  ProfilesDocument,
  UpdateProfileDocument,
  type CreateProfileInput,
  type PlatformKey,
  type UpdateProfileInput,
} from '../generated/operations.js';
import { createProfileReader, updateProfileReader } from '../../src/graphql/publishing.js';
import { createProfileBody, updateProfileBody } from '../../src/publishing/profiles.js';
import { isPlatformKey, PLATFORM_KEYS } from '../../src/catalog/platforms.js';
import { fieldError } from '../../src/errors.js';
import { connectBody } from '../../src/publishing/connections.js';
import { route } from '../route.js';

type Params = { profileId: string; platform: string };
const PROFILES_EXTENSION = 'profiles made, renamed and deleted through /v1, beyond SPEC.md (which lists them)';

/** A platform in the path is one of the six keys, or the request is refused before it reaches the operation. */
function platformParam(req: { params: unknown }): PlatformKey {
  const { platform } = req.params as Params;
  if (!isPlatformKey(platform)) throw fieldError('platform', `must be one of ${PLATFORM_KEYS.join(', ')}`, platform);
  return platform as PlatformKey;
}

export const accountRoutes = [
  route({
    method: 'GET',
    url: '/v1/platforms',
    summary: 'The six platforms: which can connect accounts on this service, with the redirect URI to register and the scopes asked',
    operation: PlatformsDocument,
    answer: fields({ data: at('platforms') }),
  }),
  route({
    method: 'GET',
    url: '/v1/profiles',
    summary: 'Your profiles, the primary one first, with their accounts',
    operation: ProfilesDocument,
    answer: fields({ data: at('profiles') }),
  }),
  route({
    method: 'POST',
    url: '/v1/profiles',
    summary: 'Adds a profile (a brand you publish as); your first is primary',
    extension: PROFILES_EXTENSION,
    operation: CreateProfileDocument,
    body: createProfileBody,
    variables: (req) => ({ input: (req.body ?? {}) as CreateProfileInput }),
    check: createProfileReader.check,
    answer: at('createProfile'),
    status: 201,
  }),
  route({
    method: 'PUT',
    url: '/v1/profiles/:id',
    summary: 'Renames a profile, or makes it the primary one',
    extension: PROFILES_EXTENSION,
    operation: UpdateProfileDocument,
    body: updateProfileBody,
    variables: (req) => ({ id: (req.params as { id: string }).id, input: (req.body ?? {}) as UpdateProfileInput }),
    check: updateProfileReader.check,
    answer: at('updateProfile'),
  }),
  route({
    method: 'DELETE',
    url: '/v1/profiles/:id',
    summary: 'Deletes a profile with no connected account and no publication; the oldest other one becomes primary if it was',
    extension: PROFILES_EXTENSION,
    operation: DeleteProfileDocument,
    variables: (req) => ({ id: (req.params as { id: string }).id }),
    answer: at('deleteProfile', extended({ deleted: constant(true, { const: true }) })),
    errors: { BAD_REQUEST: 'the profile has connected accounts or publications' },
  }),
  route({
    method: 'POST',
    url: '/v1/profiles/:profileId/accounts/:platform/connect',
    summary:
      "Starts connecting a profile's account on a platform: send the user's browser to authorizationUrl; the platform redirects back to the service, which connects the account and sends the browser on to returnUrl",
    operation: ConnectAccountDocument,
    body: connectBody,
    variables: (req) => ({
      profileId: (req.params as Params).profileId,
      platform: platformParam(req),
      returnUrl: (req.body as { returnUrl?: string } | undefined)?.returnUrl,
    }),
    answer: at('connectAccount'),
    errors: { NOT_FOUND: 'the profile is not yours', BAD_REQUEST: 'the platform is not configured on this service (GET /v1/platforms says why)' },
  }),
  route({
    method: 'DELETE',
    url: '/v1/profiles/:profileId/accounts/:platform',
    summary:
      "Disconnects a profile's account on a platform: its tokens are forgotten, its posts kept; publishing to it is refused (412) until it is connected again",
    operation: DisconnectAccountDocument,
    variables: (req) => ({ profileId: (req.params as Params).profileId, platform: platformParam(req) }),
    answer: at('disconnectAccount'),
    errors: { NOT_FOUND: 'the profile is not yours, or it has no account on the platform' },
  }),
];
