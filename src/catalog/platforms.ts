/**
 * The six social platforms under their neutral keys (SPEC.md: the keys are the
 * same in the publish body, listing filters, post records and statistics), with
 * the text limits of their publish members (SPEC.md, Limits).
 */
export interface Platform {
  key: string;
  kind: string;
  /** the longest text of each limited publish field, in characters (`tags`: the most tags) */
  limits: Readonly<Record<string, number>>;
}

export const PLATFORMS = [
  { key: 'videoshare', kind: 'long-form video sharing platform', limits: { title: 100, tags: 50 } },
  { key: 'shortvideo', kind: 'short-form video platform', limits: { content: 2200 } },
  { key: 'photoshare', kind: 'photo and reel sharing platform', limits: {} },
  { key: 'microblog', kind: 'short-text microblogging platform', limits: { content: 280 } },
  { key: 'socialnet', kind: 'general social network', limits: { content: 5000 } },
  { key: 'prosocial', kind: 'professional social network', limits: { content: 3000 } },
] as const satisfies readonly Platform[];

export type PlatformKey = (typeof PLATFORMS)[number]['key'];

export const PLATFORM_KEYS: readonly PlatformKey[] = PLATFORMS.map((p) => p.key);

export const isPlatformKey = (s: unknown): s is PlatformKey => typeof s === 'string' && (PLATFORM_KEYS as readonly string[]).includes(s);

export const findPlatform = (key: string) => PLATFORMS.find((p) => p.key === key);
