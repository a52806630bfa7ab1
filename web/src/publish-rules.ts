// The service's rules for a publish body, checked in the browser as the user
// types. The platform keys and the limits are the service's own (its catalogue
// and src/publishing/post-limits.ts); the checks mirror src/publishing/schemas.ts
// and publish.ts, which use zod and the database and are not bundled
// (test/unit/console-publish-rules.test.ts holds them to the same answers).
import { PLATFORM_KEYS } from '../../src/catalog/platforms.ts';
import { COMMERCIAL_CONTENT_TYPES, PHOTOSHARE_FORMATS, POST_LIMITS, PRIVACY_LEVELS } from '../../src/publishing/post-limits.ts';

export { PLATFORM_KEYS };

export { COMMERCIAL_CONTENT_TYPES, PHOTOSHARE_FORMATS, POST_LIMITS, PRIVACY_LEVELS };

/** Characters as the platforms count them: Unicode code points. */
export const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

export type Fields = Record<string, string | boolean | undefined>;

export interface Field {
  name: string;
  label: string;
  kind: 'text' | 'textarea' | 'select' | 'checkbox' | 'tags';
  max?: number;
  required?: boolean;
  options?: readonly string[];
}

/** Each platform's member of the publish body, as a form. */
export const PLATFORM_FIELDS: Record<string, Field[]> = {
  videoshare: [
    { name: 'title', label: 'Title', kind: 'text', max: POST_LIMITS.videoshareTitle, required: true },
    { name: 'description', label: 'Description', kind: 'textarea', max: POST_LIMITS.videoshareDescription, required: true },
    { name: 'tags', label: 'Tags (comma separated)', kind: 'tags', max: POST_LIMITS.videoshareTags },
    { name: 'firstComment', label: 'Pinned first comment', kind: 'textarea', max: POST_LIMITS.firstComment },
  ],
  shortvideo: [
    { name: 'content', label: 'Caption', kind: 'textarea', max: POST_LIMITS.shortvideoContent, required: true },
    { name: 'privacyLevel', label: 'Who can see it', kind: 'select', options: PRIVACY_LEVELS },
    { name: 'commercialContentType', label: 'Commercial content', kind: 'select', options: ['', ...COMMERCIAL_CONTENT_TYPES] },
    { name: 'allowComment', label: 'Allow comments', kind: 'checkbox' },
    { name: 'allowDuet', label: 'Allow duets', kind: 'checkbox' },
    { name: 'allowStitch', label: 'Allow stitches', kind: 'checkbox' },
    { name: 'videoMadeWithAi', label: 'Made with AI', kind: 'checkbox' },
  ],
  photoshare: [
    { name: 'format', label: 'Format', kind: 'select', options: PHOTOSHARE_FORMATS, required: true },
    { name: 'content', label: 'Caption', kind: 'textarea', max: POST_LIMITS.photoshareContent },
    { name: 'firstComment', label: 'First comment', kind: 'textarea', max: POST_LIMITS.firstComment },
  ],
  microblog: [{ name: 'content', label: 'Post', kind: 'textarea', max: POST_LIMITS.microblogContent, required: true }],
  socialnet: [{ name: 'content', label: 'Post', kind: 'textarea', max: POST_LIMITS.socialnetContent, required: true }],
  prosocial: [{ name: 'content', label: 'Post', kind: 'textarea', max: POST_LIMITS.prosocialContent, required: true }],
};

/** A new member's starting values: the service's defaults, shown. */
export function defaults(platform: string): Fields {
  if (platform === 'shortvideo') return { privacyLevel: 'public', allowComment: true, allowDuet: true, allowStitch: true, videoMadeWithAi: false };
  if (platform === 'photoshare') return { format: 'reel' };
  return {};
}

const tagsOf = (s: string) =>
  s
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** What is wrong with a member, by field, as the service would say it. */
export function problems(platform: string, v: Fields, account?: { isPrivate: boolean }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of PLATFORM_FIELDS[platform] ?? []) {
    const value = v[f.name];
    if (f.kind === 'tags') {
      const tags = tagsOf(String(value ?? ''));
      if (f.max && tags.length > f.max) out[f.name] = `must have at most ${f.max} tags`;
      else if (tags.some((t) => codePoints(t) > POST_LIMITS.tag)) out[f.name] = `each tag must be 1-${POST_LIMITS.tag} characters`;
      continue;
    }
    if (typeof value !== 'string') continue;
    const needed = f.required || (platform === 'photoshare' && f.name === 'content' && v.format === 'reel');
    if (f.max && value !== '' && (codePoints(value) > f.max || value.trim() === '')) out[f.name] = `must be 1-${f.max} characters, not only spaces`;
    else if (needed && value.trim() === '') out[f.name] = f.name === 'content' && platform === 'photoshare' ? 'is required when format is reel' : 'is required';
  }
  if (platform === 'shortvideo') {
    if (v.commercialContentType === 'brand_content' && v.privacyLevel === 'private')
      out.privacyLevel = 'cannot be private when commercialContentType is brand_content';
    else if (account?.isPrivate && (v.privacyLevel ?? 'public') === 'public')
      out.privacyLevel = 'cannot be public: the shortvideo account of this profile is private';
  }
  return out;
}

/** The member sent for a platform: empty optional texts left out. */
export function member(platform: string, v: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of PLATFORM_FIELDS[platform] ?? []) {
    const value = v[f.name];
    if (f.kind === 'tags') {
      const tags = tagsOf(String(value ?? ''));
      if (tags.length) out[f.name] = tags;
    } else if (typeof value === 'boolean') out[f.name] = value;
    else if (typeof value === 'string' && value !== '') out[f.name] = value;
  }
  return out;
}

/** A datetime-local value (the browser's local time) as an ISO 8601 instant with its offset; '' when empty. */
export function scheduledFor(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}
