// The console's publish form checks a post as the user types with the rules of
// web/src/publish-rules.ts, a mirror of the service's: both must refuse and
// accept the same members, with the same limits.
import { describe, expect, it } from 'vitest';
import { POST_LIMITS, publishBody } from '../../src/publishing/schemas.js';
import { member, POST_LIMITS as CONSOLE_LIMITS, problems, type Fields } from '../../web/src/publish-rules.js';

/** Whether the service's publish body takes this one member. */
const serviceTakes = (platform: string, fields: Fields) => publishBody.safeParse({ platforms: { [platform]: member(platform, fields) } }).success;
const consoleTakes = (platform: string, fields: Fields) => Object.keys(problems(platform, fields)).length === 0;

describe("the console's publish rules", () => {
  it('have the limits of the service', () => {
    expect(CONSOLE_LIMITS).toEqual(POST_LIMITS);
  });

  it('take and refuse the same members as the service', () => {
    const emoji = (n: number) => '😀'.repeat(n);
    const cases: [string, Fields][] = [
      ['microblog', { content: emoji(280) }],
      ['microblog', { content: emoji(281) }],
      ['microblog', { content: '   ' }],
      ['microblog', { content: '' }],
      ['socialnet', { content: 'x'.repeat(5001) }],
      ['prosocial', { content: 'x'.repeat(3000) }],
      ['videoshare', { title: 'Launch', description: 'Our launch' }],
      ['videoshare', { title: emoji(101), description: 'Our launch' }],
      ['videoshare', { title: 'Launch', description: '' }],
      ['videoshare', { title: 'Launch', description: 'Ours', tags: Array.from({ length: 51 }, (_, i) => `t${i}`).join(',') }],
      ['photoshare', { format: 'reel', content: '' }],
      ['photoshare', { format: 'story', content: '' }],
      ['shortvideo', { content: 'Launch', privacyLevel: 'private', commercialContentType: 'brand_content' }],
      ['shortvideo', { content: 'Launch', privacyLevel: 'private', commercialContentType: 'brand_organic' }],
      ['shortvideo', { content: '', privacyLevel: 'public' }],
    ];
    for (const [platform, fields] of cases)
      expect(consoleTakes(platform, fields), `${platform} ${JSON.stringify(fields).slice(0, 80)}`).toBe(serviceTakes(platform, fields));
  });

  it('refuse a public shortvideo post for a private account, as the service does once it reads the account', () => {
    expect(problems('shortvideo', { content: 'Launch', privacyLevel: 'public' }, { isPrivate: true }).privacyLevel).toBe(
      'cannot be public: the shortvideo account of this profile is private',
    );
    expect(problems('shortvideo', { content: 'Launch', privacyLevel: 'followers' }, { isPrivate: true })).toEqual({});
  });
});
