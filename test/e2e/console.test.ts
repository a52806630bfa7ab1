// The web console at /: its files as the server serves them, and the console in
// a real browser (Debian's headless Chromium driven by playwright-core): sign in,
// upload a talk with a progress bar, follow it to completed over the
// subscription, export it, play the result, download its captions, read the
// publications and the statistics, sign out. Screenshots go to test-artifacts/.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, builtConsole, CHROMIUM, chromiumFor, ROOT } from '../support/browser.js';
import { registerConsole } from '../../src/http/console.js';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { createProfile } from '../../src/publishing/profiles.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type Fixtures } from '../support/media.js';
import { SAMPLE_POSTS } from '../support/publishing.js';
import { rawRequest } from '../support/raw.js';

const hasChromium = chromiumFor('console.test.ts');

let app: TestApp;

beforeAll(async () => {
  await builtConsole();
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('the console as the server serves it', () => {
  it('serves the page at / and its hashed scripts and styles with their types; the API around it is unchanged', async () => {
    const page = await request(app, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const assets = [...String(page.body).matchAll(/(?:src|href)="(\/console\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const r = await fetch(new URL(asset, app.url));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe(asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(r.headers.get('cache-control')).toContain('immutable');
      // nothing is fetched from elsewhere: no absolute URL in what the page loads
      expect(await r.text()).not.toMatch(/(src|href)=["']?https?:\/\/|@import\s+url\(["']?https?:/);
    }
    const head = await fetch(new URL('/', app.url), { method: 'HEAD' });
    expect(head.status).toBe(200);

    for (const missing of ['/console/nothing.js', '/console/..%2F..%2Fpackage.json', '/console/index.html', '/console/.hidden.js']) {
      const r = await request(app, 'GET', missing);
      expect(r.status, missing).toBe(404);
      expect(r.body.error).toBe('NOT_FOUND');
    }
    expect((await request(app, 'GET', '/nothing-here')).body.error).toBe('NOT_FOUND');
    // the asterisk-form target, which the router would take for /
    const star = await rawRequest(app.url, 'GET * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(star.status).toBe(404);
    expect(JSON.parse(star.body).error).toBe('NOT_FOUND');
    expect((await request(app, 'GET', '/healthz')).body).toMatchObject({ status: 'ok' });
    expect((await request(app, 'GET', '/v1/languages')).status).toBe(401);
    const user = await createUser(app);
    expect((await gql(app, user.key, '{ languages { code } }')).body.data.languages.length).toBeGreaterThan(0);
    expect((await request(app, 'GET', '/metrics')).status).toBe(200);
  });
  it('says how to build the console when it is not built', async () => {
    const fastify = Fastify();
    registerConsole(fastify, path.join(ROOT, 'web/no-such-dist'));
    const r = await fastify.inject({ method: 'GET', url: '/' });
    expect(r.statusCode).toBe(503);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.body).toContain('npm run console:build');
    await fastify.close();
  });
});

describe.skipIf(!hasChromium)('the console in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let fx: Fixtures;
  let user: TestUser;
  /** what the server sent over graphql-ws: the subscription events the page received */
  const received: { type: string; id?: string; payload?: { data?: Record<string, any> } }[] = [];
  /** every URL the page asked for */
  const requested: string[] = [];
  const projectEvents = (projectId: string) =>
    received
      .map((m) => m.payload?.data?.projectUpdates)
      .filter((e): e is { projectId: string; status: string; percent: number | null } => e?.projectId === projectId);

  beforeAll(async () => {
    await fs.mkdir(ARTIFACTS, { recursive: true });
    fx = await mediaFixtures();
    user = await createUser(app, { apiCredits: 20, apiPublishing: true });
    const profile = await createProfile(app.runtime.app.db, user.id, { name: 'Brand', primary: true });
    for (const platform of ['microblog', 'socialnet'])
      await connectSandboxAccount(app.runtime.app.db, profile.id, { platform, isPrivate: false, followers: 150 });
    // root runs Chromium without its sandbox; the player may start without a click
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'] });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('request', (r) => void requested.push(r.url()));
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        try {
          received.push(JSON.parse(String(payload)));
        } catch {
          /* not a graphql-ws message */
        }
      }),
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with a key kept in the browser, uploads a talk, follows it live, exports it and plays it', async () => {
    await page.goto(app.url);
    // a wrong key is refused and not kept
    await page.getByLabel('API key').fill('sk-not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByRole('alert').filter({ hasText: 'UNAUTHORIZED' }));
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    await page.getByLabel('API key').fill(user.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Projects' }));
    expect(await page.evaluate(() => Object.values(localStorage))).toEqual([user.key]);

    await page.getByRole('link', { name: 'New project' }).first().click();
    await page.getByLabel('Title').fill('Console talk');
    await page.getByLabel('Video file (mp4 or mov)').setInputFiles(fx.talk);
    // a slow uplink, so that the upload is seen under way: its bar moves between 0 and 100
    const cdp = await context.newCDPSession(page);
    const size = (await fs.stat(fx.talk)).size;
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: size / 1.5 });
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForFunction(() => {
      const bar = document.querySelector<HTMLProgressElement>('[data-testid=upload-progress] progress');
      return !!bar && bar.value > 0 && bar.value < 100;
    });
    await page.waitForURL(/#\/projects\/[\w-]+$/, { timeout: 20_000 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const projectId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);

    // the pipeline's steps as they happen, then completed, all from the subscription
    await expectVisible(page.getByTestId('project-progress'));
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-in-progress.png') });
    await expectVisible(page.locator('[data-testid=project-status][data-status=completed]'), 60_000);
    const events = projectEvents(projectId);
    expect(events.at(-1)?.status).toBe('completed');
    expect(events.some((e) => e.status === 'transcribing' || e.status === 'exporting')).toBe(true);

    // the transcript, as the API holds it
    const words = (await gql(app, user.key, 'query($id: ID!) { project(id: $id) { words { text type } } }', { id: projectId })).body.data.project.words as {
      text: string;
      type: string;
    }[];
    const spoken = words.filter((w) => w.type === 'word').map((w) => w.text);
    expect(spoken.length).toBeGreaterThan(3);
    const transcript = await page.getByTestId('transcript').innerText();
    for (const w of spoken) expect(transcript).toContain(w);

    // a second export, followed to its end
    await expect.poll(() => page.locator('[data-testid=exports] tbody tr').count()).toBe(1);
    const before = projectEvents(projectId).length;
    await page.getByRole('button', { name: 'Export' }).click();
    await expect.poll(() => page.locator('[data-testid=exports] tbody tr').count(), { timeout: 10_000 }).toBe(2);
    await expectVisible(page.locator('[data-testid=exports] tbody tr').first().locator('[data-status=completed]'), 40_000);
    await expectVisible(page.locator('[data-testid=project-status][data-status=completed]'));
    const exportEvents = projectEvents(projectId).slice(before);
    expect(exportEvents.some((e) => e.status === 'exporting')).toBe(true);
    expect(exportEvents.at(-1)?.status).toBe('completed');

    // the rendered video plays in the page
    const player = page.getByTestId('player');
    await player.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
    });
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[data-testid=player]')?.currentTime ?? 0) > 1, undefined, { timeout: 15_000 });
    const played = await player.evaluate((v: HTMLVideoElement) => ({ duration: v.duration, width: v.videoWidth, error: v.error?.code ?? null }));
    expect(played.error).toBeNull();
    expect(played.duration).toBeGreaterThan(5);
    expect(played.width).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-playing.png'), fullPage: true });

    // the download link is the rendered file, as an attachment
    const href = await page.locator('a', { hasText: 'Download video' }).getAttribute('href');
    const file = await fetch(new URL(href!, app.url), { method: 'HEAD' });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);

    // the captions as files of the user's
    for (const [button, first] of [
      ['Captions (SRT)', /^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /],
      ['Captions (VTT)', /^WEBVTT/],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
      expect(download.suggestedFilename()).toBe(`Console-talk.${button.includes('SRT') ? 'srt' : 'vtt'}`);
      const text = await fs.readFile((await download.path())!, 'utf8');
      expect(text).toMatch(first);
      expect(text).toContain(spoken[0]);
    }

    // the list shows it completed, after a reload (the key is still kept)
    await page.reload();
    await page.getByRole('link', { name: 'Projects' }).click();
    await expectVisible(page.locator(`tr[data-project="${projectId}"] [data-status=completed]`));
  });

  it("shows publications with each post's status, and the statistics as a chart", async () => {
    const project = (await gql(app, user.key, '{ projects(first: 1) { edges { node { id } } } }')).body.data.projects.edges[0].node;
    const published = await gql(app, user.key, 'mutation($id: ID!, $input: PublishInput!) { publishProject(projectId: $id, input: $input) { id } }', {
      id: project.id,
      input: { platforms: { microblog: SAMPLE_POSTS.microblog, socialnet: SAMPLE_POSTS.socialnet } },
    });
    expect(published.body.errors).toBeUndefined();
    const publicationId = published.body.data.publishProject.id;

    await page.getByRole('link', { name: 'Publications' }).click();
    const row = page.locator(`tr[data-publication="${publicationId}"]`);
    await expectVisible(row.getByText('Console talk'));
    for (const platform of ['microblog', 'socialnet']) {
      await expectVisible(row.locator('li', { hasText: platform }).locator('[data-status=published]'), 20_000);
    }

    await page.getByRole('link', { name: 'Statistics' }).click();
    await expectVisible(page.getByTestId('stats-chart').locator('canvas'));
    // the followers of the two connected accounts
    await expectVisible(page.locator('.figure', { hasText: 'Followers' }).getByText('300'));
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-statistics.png') });
  });

  it('creates a project from a URL, which the service fetches', async () => {
    const files = await serveFolder(fx.dir);
    try {
      await page.goto(`${app.url}/#/new`);
      await page.getByLabel('Title').fill('From a link');
      await page.getByRole('button', { name: 'From a URL' }).click();
      await page.getByLabel('Video URL (a public mp4 or mov file)').fill(files.url('talk.mp4'));
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL(/#\/projects\/[\w-]+$/);
      await expectVisible(page.getByRole('heading', { name: 'From a link' }));
      // fetched, probed and at work (or already done): the page follows it
      await expectVisible(page.locator('[data-testid=project-status]:not([data-status=uploading]):not([data-status=failed])'), 20_000);
      await expectVisible(page.getByText('source 320×240'), 20_000);
    } finally {
      await files.close();
    }
  });

  it('makes magic clips with the controls a creator sets: how many, about what, from where, in which shape, two speakers’ layout, a hook each', async () => {
    const db = app.runtime.app.db;
    // a credit for the project, and one so that the wrong range is judged (a caller without credit is refused first)
    await db.user.update({ where: { id: user.id }, data: { clipsSubscription: true, clipCredits: { increment: 2 } } });
    await page.goto(`${app.url}/#/new`);
    await page.getByLabel('Title').fill('Steered clips');
    await page.getByLabel('Magic clips').check();
    await page.getByLabel('How many').fill('4');
    await page.getByLabel('Shape').selectOption('4:5');
    await page.getByLabel('Two people on screen').selectOption('split');
    await page.getByLabel('About (clips about it come first)').fill('pricing');
    await page.getByLabel('From (m:ss)').fill('1:30');
    await page.getByLabel('To (m:ss)').fill('12:00');
    await page.getByLabel('A hook title on each clip').check();
    await page.getByRole('button', { name: 'From a URL' }).click();
    await page.getByLabel(/Video page or file URL/).fill('https://vimeo.com/76979871');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/#\/projects\/[\w-]+$/);
    const id = page.url().split('/').pop()!;
    const stored = await db.project.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({
      kind: 'magic_clips',
      clipCount: 4,
      clipTopic: 'pricing',
      clipRange: { start: 90, end: 720 },
      aspectRatio: '4:5',
      speakerLayout: 'split',
    });
    expect(stored.hookTitle).toMatchObject({ autoTop: true });
    // a wrong control is refused in the service's words, on the form
    await page.goto(`${app.url}/#/new`);
    await page.getByLabel('Magic clips').check();
    await page.getByLabel('From (m:ss)').fill('2:00');
    await page.getByLabel('To (m:ss)').fill('1:00');
    await page.getByRole('button', { name: 'From a URL' }).click();
    await page.getByLabel(/Video page or file URL/).fill('https://vimeo.com/76979871');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expectVisible(page.getByText('must be greater than range.startTime (120)'));
  });

  it('shows the clips of a magic-clips project, best first, with their scores, reasons and playable previews', async () => {
    const db = app.runtime.app.db;
    const project = await db.project.create({
      data: {
        userId: user.id,
        kind: 'magic_clips',
        title: 'Long talk',
        language: 'en',
        templateName: 'classic',
        status: 'completed',
        clipTopic: 'hiring',
        clipCount: 3,
        clipsNote: 'You asked for 3 clips; the source has 2 distinct moments of whole sentences lasting 15-60 s.',
      },
    });
    const scores = (total: number) => ({ total, hook_strength: total - 5, emotional_impact: total - 10, shareability: total + 3, story_quality: total - 1 });
    for (const [i, [title, total]] of (
      [
        ['The opening', 41],
        ['The best moment', 87],
      ] as const
    ).entries()) {
      const previewKey = `previews/${project.id}/${i}.mp4`;
      await app.runtime.app.storage.put(previewKey, createReadStream(fx.video), { contentType: 'video/mp4' });
      await db.magicClip.create({
        data: {
          projectId: project.id,
          title,
          startTime: i * 20,
          endTime: i * 20 + 18,
          duration: 18,
          viralityScores: scores(total),
          // the opening is about the topic: first, whatever its score
          rank: i + 1,
          viralityReasons:
            i === 0
              ? ['About “hiring”: says “hired”', 'Opens with a question: “Why did I hire my friends?”']
              : ['Names a number in the first 3 seconds (“ten”)', 'Ends on a complete sentence'],
          ...(i === 0 ? { hookTitle: { text: 'Why I hired my friends' } } : {}),
          status: 'completed',
          previewKey,
          outputKey: previewKey,
        },
      });
    }
    await page.goto(`${app.url}/#/projects/${project.id}`);
    const cards = page.locator('article.clip');
    await expect.poll(() => cards.count()).toBe(2);
    await expectVisible(page.getByText('You asked for 3 clips; the source has 2 distinct moments'));
    expect(await cards.locator('strong').allInnerTexts()).toEqual(['#1 The opening', '#2 The best moment']);
    expect(await cards.locator('.score').allInnerTexts()).toEqual(['41', '87']);
    expect(await cards.first().locator('.reasons li').allInnerTexts()).toEqual([
      'About “hiring”: says “hired”',
      'Opens with a question: “Why did I hire my friends?”',
    ]);
    expect(await cards.first().locator('.hook').innerText()).toBe('Hook: “Why I hired my friends”');
    expect(await cards.nth(1).locator('.hook').count()).toBe(0);
    await expect.poll(() => page.getByRole('combobox', { name: 'Order' }).locator('option').first().innerText()).toBe('about “hiring” first, then best score');
    const best = cards.nth(1).locator('.scores li');
    expect(await best.locator('span:first-child').allInnerTexts()).toEqual(['hook', 'emotion', 'shareability', 'story']);
    expect(await best.locator('span:last-child').allInnerTexts()).toEqual(['82', '77', '90', '86']);
    // the previews are the stored files, playable in place
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLVideoElement>('article.clip video')].every((v) => v.readyState >= 1 && v.videoWidth > 0),
    );
    await page.getByRole('combobox', { name: 'Order' }).selectOption('source');
    expect(await cards.locator('strong').allInnerTexts()).toEqual(['#1 The opening', '#2 The best moment']);
  });

  it('signs out: the key leaves the browser', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expectVisible(page.getByLabel('API key'));
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.reload();
    await expectVisible(page.getByLabel('API key'));
    // all along, the page fetched nothing from anywhere but the service
    const origin = new URL(app.url).origin;
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !/^(blob|data):/.test(u))).toEqual([]);
  });
});

async function expectVisible(locator: ReturnType<Page['locator']>, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}
