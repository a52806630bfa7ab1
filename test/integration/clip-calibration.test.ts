// How well the clip scores rank published clips: Spearman's rho between each clip's predicted total and
// its publications' views and engagement rate, on a fixed data set whose rho is worked out by hand here,
// through REST and GraphQL; null under five clips; what does not count (a scheduled publication, a clip
// never published, another user's clips) does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';

let app: TestApp;
let user: TestUser;
let few: TestUser;
const db = () => app.runtime.app.db;

const scores = (total: number) => ({ total, shareability: total, hook_strength: total, story_quality: total, emotional_impact: total });

/** A magic-clips project of `owner` whose clips (predicted totals) have edit projects published with these (views, engagement) each. */
async function publishedClips(owner: TestUser, clips: Array<{ total: number; posts: Array<[views: number, engagement: number]>; scheduled?: boolean }>) {
  const profile = await db().profile.create({ data: { userId: owner.id, name: `Brand ${crypto.randomUUID()}` } });
  const parent = await db().project.create({
    data: { userId: owner.id, kind: 'magic_clips', title: 'Long talk', language: 'en', templateName: 'classic', status: 'completed' },
  });
  for (const [i, c] of clips.entries()) {
    const edit = await db().project.create({ data: { userId: owner.id, title: `Clip ${i}`, language: 'en', templateName: 'classic', status: 'completed' } });
    await db().magicClip.create({
      data: {
        projectId: parent.id,
        editProjectId: edit.id,
        title: `Clip ${i}`,
        startTime: i * 30,
        endTime: i * 30 + 20,
        duration: 20,
        viralityScores: scores(c.total),
        rank: i + 1,
        status: 'completed',
      },
    });
    for (const [views, engagement] of c.posts) {
      await db().publication.create({
        data: {
          id: `pub_${crypto.randomUUID()}`,
          userId: owner.id,
          projectId: edit.id,
          projectTitle: edit.title,
          profileId: profile.id,
          publishedAt: new Date(),
          status: c.scheduled ? 'scheduled' : 'published',
          scheduled: !!c.scheduled,
          platforms: ['microblog'],
          mediaKey: `projects/${edit.id}/render.mp4`,
          views,
          engagement,
        },
      });
    }
  }
}

beforeAll(async () => {
  app = await startTestApp();
  [user, few] = await Promise.all([createUser(app), createUser(app)]);
  await publishedClips(user, [
    { total: 50, posts: [[100, 10]] },
    { total: 60, posts: [[300, 30]] },
    { total: 70, posts: [[200, 40]] },
    { total: 80, posts: [[500, 25]] },
    // two publications: 400 views, 20 engagements
    {
      total: 90,
      posts: [
        [150, 12],
        [250, 8],
      ],
    },
    { total: 40, posts: [[50, 5]] },
    // not counted: a scheduled publication, a clip never published
    { total: 99, posts: [[9999, 9999]], scheduled: true },
    { total: 10, posts: [] },
  ]);
  // another user's four clips: too few for a rho, and none of the first user's
  await publishedClips(few, [
    { total: 10, posts: [[1, 1]] },
    { total: 20, posts: [[2, 1]] },
    { total: 30, posts: [[3, 1]] },
    { total: 40, posts: [[0, 0]] },
  ]);
}, 60_000);
afterAll(async () => {
  await app?.stop();
});

describe('GET /v1/magic-clips/calibration', () => {
  it("gives Spearman's rho by views and by engagement rate, as worked out by hand", async () => {
    // by views: predicted ranks (40..90) 1..6 against view ranks (50, 100, 200, 300, 400, 500 -> 1..6):
    //   clip 50 (2,2), 60 (3,4), 70 (4,3), 80 (5,6), 90 (6,5), 40 (1,1): sum d^2 = 4, rho = 1 - 6 * 4 / (6 * 35) = 0.886
    // by rate: 0.1, 0.1, 0.2, 0.05, 0.05, 0.1 -> ranks with ties averaged 4, 4, 6, 1.5, 1.5, 4 against 2, 3, 4, 5, 6, 1:
    //   Pearson of the ranks = -9 / sqrt(17.5 * 15) = -0.555
    const r = await request(app, 'GET', '/v1/magic-clips/calibration', { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ publishedClips: 6, views: { clips: 6, rho: 0.886 }, engagementRate: { clips: 6, rho: -0.555 } });
  });

  it('is null under five clips, and counts only clips with views for the rate', async () => {
    const r = await request(app, 'GET', '/v1/magic-clips/calibration', { key: few.key });
    expect(r.body).toEqual({ publishedClips: 4, views: { clips: 4, rho: null }, engagementRate: { clips: 3, rho: null } });
    const none = await createUser(app);
    expect((await request(app, 'GET', '/v1/magic-clips/calibration', { key: none.key })).body).toEqual({
      publishedClips: 0,
      views: { clips: 0, rho: null },
      engagementRate: { clips: 0, rho: null },
    });
  });

  it('GraphQL clipScoreCalibration answers the same; without a key, 401', async () => {
    const g = await gql(app, user.key, '{ clipScoreCalibration { publishedClips views { clips rho } engagementRate { clips rho } } }');
    expect(g.body.data.clipScoreCalibration).toEqual({ publishedClips: 6, views: { clips: 6, rho: 0.886 }, engagementRate: { clips: 6, rho: -0.555 } });
    expect((await request(app, 'GET', '/v1/magic-clips/calibration')).status).toBe(401);
  });
});
