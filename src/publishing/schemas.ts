/**
 * The body of POST /v1/projects/{id}/publish (SPEC.md), with the words a
 * caller reads: one member per platform, each with that platform's rules;
 * texts are counted in Unicode code points, as the platforms count them.
 * What needs the database (the project, the profile's accounts and whether
 * the shortvideo account is private) is judged by publish.ts once the shape is read.
 */
import { z } from 'zod';
import { PLATFORM_KEYS } from '../catalog/platforms.js';
import { UUID_PATTERN } from '../ids.js';
import { bool, dateTime, fields, isPlainObject, issue, oneOf, postText, storableString, SENT } from '../validation.js';

import { COMMERCIAL_CONTENT_TYPES, PHOTOSHARE_FORMATS, POST_LIMITS, PRIVACY_LEVELS } from './post-limits.js';

export { COMMERCIAL_CONTENT_TYPES, PHOTOSHARE_FORMATS, POST_LIMITS, PRIVACY_LEVELS };

const firstComment = postText(POST_LIMITS.firstComment).meta({ description: `posted as the first comment, 1-${POST_LIMITS.firstComment} characters` });

const tags = z
  .array(postText(POST_LIMITS.tag, { required: true }), { error: (iss) => (iss.input === null ? 'must not be null' : 'must be an array of strings') })
  // a refinement rather than .max(): zod's length check stops the object's other checks (unknown fields)
  .refine((list) => list.length <= POST_LIMITS.videoshareTags, `must have at most ${POST_LIMITS.videoshareTags} tags`)
  .optional()
  .meta({ description: `at most ${POST_LIMITS.videoshareTags} tags, each 1-${POST_LIMITS.tag} characters` });

const videoshare = fields({
  title: postText(POST_LIMITS.videoshareTitle, { required: true }).meta({ description: `1-${POST_LIMITS.videoshareTitle} characters` }),
  description: postText(POST_LIMITS.videoshareDescription, { required: true }).meta({ description: `1-${POST_LIMITS.videoshareDescription} characters` }),
  tags,
  firstComment: firstComment.meta({ description: 'the pinned first comment' }),
}).meta({ description: 'A long-form video post', graphql: 'VideosharePostInput' });

/** `brand_content` is paid promotion, which a private post cannot carry. */
function brandedNotPrivate(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (body.commercialContentType === 'brand_content' && body.privacyLevel === 'private') {
    ctx.addIssue(issue(['privacyLevel'], 'cannot be private when commercialContentType is brand_content', SENT));
  }
}

const shortvideo = fields({
  content: postText(POST_LIMITS.shortvideoContent, { required: true }).meta({ description: `the caption, 1-${POST_LIMITS.shortvideoContent} characters` }),
  privacyLevel: oneOf(PRIVACY_LEVELS).meta({
    description: `${PRIVACY_LEVELS.join(', ')}; public when left out (a private account cannot post public)`,
    graphql: 'ShortvideoPrivacyLevel',
  }),
  allowComment: bool().meta({ description: 'true when left out' }),
  allowDuet: bool().meta({ description: 'true when left out' }),
  allowStitch: bool().meta({ description: 'true when left out' }),
  commercialContentType: oneOf(COMMERCIAL_CONTENT_TYPES).meta({
    description: 'brand_organic (your own brand) or brand_content (paid partnership); leave out when not commercial',
    graphql: 'CommercialContentType',
  }),
  videoMadeWithAi: bool().meta({ description: 'labels the video as made with AI' }),
})
  .superRefine(brandedNotPrivate, { when: () => true })
  .meta({ description: 'A short-form video post', graphql: 'ShortvideoPostInput' });

/** A reel needs its caption; a story has none to need. */
function reelCaption(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (body.format === 'reel' && body.content === undefined) ctx.addIssue(issue(['content'], 'is required when format is reel'));
}

const photoshare = fields({
  format: oneOf(PHOTOSHARE_FORMATS, { required: true }).meta({ description: 'reel or story', graphql: 'PhotoshareFormat' }),
  content: postText(POST_LIMITS.photoshareContent).meta({ description: `the caption, 1-${POST_LIMITS.photoshareContent} characters; required for a reel` }),
  firstComment,
})
  .superRefine(reelCaption, { when: () => true })
  .meta({ description: 'A reel or a story', graphql: 'PhotosharePostInput' });

const textPost = (max: number, name: string) =>
  fields({ content: postText(max, { required: true }).meta({ description: `1-${max} characters` }) }).meta({
    description: `A post of up to ${max} characters`,
    graphql: name,
  });

/** One member per platform key; at least one. */
export const platformMembers = {
  videoshare: videoshare.optional(),
  shortvideo: shortvideo.optional(),
  photoshare: photoshare.optional(),
  microblog: textPost(POST_LIMITS.microblogContent, 'MicroblogPostInput').optional(),
  socialnet: textPost(POST_LIMITS.socialnetContent, 'SocialnetPostInput').optional(),
  prosocial: textPost(POST_LIMITS.prosocialContent, 'ProsocialPostInput').optional(),
};

function somePlatform(body: Record<string, unknown>, ctx: z.RefinementCtx) {
  if (PLATFORM_KEYS.every((k) => body[k] === undefined)) {
    ctx.addIssue({ code: 'custom', message: `must have at least one platform member: ${PLATFORM_KEYS.join(', ')}`, path: [], params: { noValue: true } });
  }
}

const platforms = fields(platformMembers, 'must be an object with one member per platform')
  .superRefine(somePlatform, { when: (p) => isPlainObject(p.value) })
  .meta({ description: 'one member per platform to post to, at least one', graphql: 'PublishPlatformsInput' });

export const publishBody = fields({
  platforms: platforms,
  scheduledFor: dateTime().meta({ description: 'an ISO 8601 date-time in the future; left out, the post goes out at once' }),
  profileId: storableString({ error: (iss) => (iss.input === null ? 'must not be null' : 'must be the UUID of one of your profiles') })
    .regex(UUID_PATTERN, 'must be the UUID of one of your profiles')
    .optional()
    .meta({ description: 'the profile whose accounts post; your primary profile when left out', graphql: 'ID' }),
});

export type PublishBody = z.output<typeof publishBody>;
