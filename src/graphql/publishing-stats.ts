import { PLATFORM_KEYS } from '../catalog/platforms.js';
import {
  MAX_WINDOW_DAYS,
  profileStats,
  publishingStats,
  STATS_METRICS,
  type Comparison,
  type ProfileStats,
  type PublishingStats,
  type StatsDay,
  type StatsPeriod,
} from '../stats/service.js';
import { builder } from './builder.js';
import { currentUser } from './context.js';

const StatsPeriodType = builder.objectRef<StatsPeriod>('StatsPeriod').implement({
  description: 'The window and the prior one, as long and ending where the window starts; a UTC day counts in the window holding its midnight',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    priorFrom: t.expose('priorFrom', { type: 'DateTime' }),
    priorTo: t.expose('priorTo', { type: 'DateTime' }),
  }),
});

const StatsComparisonType = builder.objectRef<Comparison>('StatsComparison').implement({
  description: 'A figure over the window and over the prior one',
  fields: (t) => ({
    current: t.exposeFloat('current'),
    prior: t.exposeFloat('prior'),
  }),
});

const StatsSummaryType = builder.objectRef<PublishingStats['summary']>('StatsSummary').implement({
  fields: (t) => ({
    views: t.expose('views', { type: StatsComparisonType, description: 'views the posts gained in the window' }),
    engagement: t.expose('engagement', { type: StatsComparisonType, description: 'likes + comments + shares the posts gained in the window' }),
    followers: t.expose('followers', { type: StatsComparisonType, description: 'followers at the end of the window, summed over the accounts' }),
  }),
});

const StatsPlatformValueType = builder.objectRef<StatsDay['breakdown'][number]>('StatsPlatformValue').implement({
  fields: (t) => ({
    platform: t.exposeString('platform', { description: 'a platform key' }),
    value: t.exposeFloat('value'),
  }),
});

const StatsDayType = builder.objectRef<StatsDay>('StatsDay').implement({
  description: "One UTC day of the window: the chosen metric's value, per platform of the connected accounts in catalogue order",
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD' }),
    total: t.exposeFloat('total'),
    breakdown: t.expose('breakdown', { type: [StatsPlatformValueType] }),
  }),
});

const StatsProfileType = builder.objectRef<ProfileStats['profile']>('StatsProfile').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    isPrimary: t.exposeBoolean('isPrimary'),
  }),
});

const StatsType = builder.interfaceRef<PublishingStats>('Stats').implement({
  description: 'What posts gained in a window and in the window before it, and the followers of their accounts',
  resolveType: (stats) => ('profile' in stats ? 'ProfileStats' : 'PublishingStats'),
  fields: (t) => ({
    period: t.expose('period', { type: StatsPeriodType }),
    summary: t.expose('summary', { type: StatsSummaryType, description: 'all three metrics, whichever is chosen' }),
    metric: t.exposeString('metric', { description: 'the chosen metric' }),
    timeseries: t.expose('timeseries', { type: [StatsDayType], description: 'one entry per UTC day of the window, days without data included with 0' }),
  }),
});

const PublishingStatsType = builder.objectRef<PublishingStats>('PublishingStats').implement({
  description: 'Statistics over all of your profiles',
  interfaces: [StatsType],
});

const ProfileStatsType = builder.objectRef<ProfileStats>('ProfileStats').implement({
  description: 'Statistics of one of your profiles',
  interfaces: [StatsType],
  fields: (t) => ({
    profile: t.expose('profile', { type: StatsProfileType }),
  }),
});

builder.queryFields((t) => {
  const window = {
    from: t.arg.string({ description: `an ISO 8601 date-time with an offset; 7 days before to when left out; at most ${MAX_WINDOW_DAYS} days before to` }),
    to: t.arg.string({ description: 'an ISO 8601 date-time with an offset; now when left out' }),
    platform: t.arg.string({ description: `only this platform: ${PLATFORM_KEYS.join(', ')}` }),
    metric: t.arg.string({ description: `the timeseries' metric: ${STATS_METRICS.join(', ')}; views when left out` }),
  };
  return {
    profileStats: t.field({
      type: ProfileStatsType,
      description: 'What the posts of one of your profiles gained in a window and in the window before it; every violated argument is reported at once',
      args: { profileId: t.arg.id({ required: true }), ...window },
      resolve: (_root, { profileId, ...query }, ctx) => profileStats(ctx.app.db, currentUser(ctx).id, String(profileId), query),
    }),
    publishingStats: t.field({
      type: PublishingStatsType,
      description: 'profileStats over all of your profiles',
      args: window,
      resolve: (_root, query, ctx) => publishingStats(ctx.app.db, currentUser(ctx).id, query),
    }),
  };
});
