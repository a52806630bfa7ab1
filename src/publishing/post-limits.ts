/**
 * The limits of a publish body's texts and its fixed choices: plain data, read
 * by the body's schema (schemas.ts) and by the console's form as the user
 * types (web/src/publish-rules.ts), so both judge a post the same way.
 * Texts the spec leaves without a limit get the platform's own (docs/publishing.md).
 */
export const POST_LIMITS = {
  videoshareTitle: 100,
  videoshareDescription: 5000,
  videoshareTags: 50,
  tag: 100,
  shortvideoContent: 2200,
  photoshareContent: 2200,
  microblogContent: 280,
  socialnetContent: 5000,
  prosocialContent: 3000,
  firstComment: 2200,
} as const;

export const PRIVACY_LEVELS = ['public', 'friends', 'followers', 'private'] as const;
export const COMMERCIAL_CONTENT_TYPES = ['brand_organic', 'brand_content'] as const;
export const PHOTOSHARE_FORMATS = ['reel', 'story'] as const;
