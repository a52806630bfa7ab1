// The console's project editor, publishing and accounts in a real browser
// (Debian's headless Chromium driven by playwright-core) against the whole
// service: a word corrected in the transcript shows in the next export's
// frame; another caption template changes the live preview; a post goes out
// to a sandbox account; an account is connected through a platform's OAuth
// flow (a local imitation) and the browser comes back to the console; a
// project is deleted with its files. Screenshots go to test-artifacts/ and
// docs/images/.
import crypto from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, axeScriptFor, builtConsole, CHROMIUM, chromiumFor, DOC_IMAGES, expectAccessible } from '../support/browser.js';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { createProfile } from '../../src/publishing/profiles.js';
import type { PlatformFake } from '../fakes/server.js';
import { startPlatformFake } from '../fakes/prosocial.js';
import { createUser, gql, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { frameAt, frameDiff, mediaFixtures, serveFolder, type FileServer } from '../support/media.js';

const hasChromium = chromiumFor('console-editor.test.ts');
const AXE = axeScriptFor('console-editor.test.ts');

const PROJECT = `query($id: ID!) { project(id: $id) { status downloadUrl words { id text type startTime endTime } exports { id status downloadUrl } } }`;

describe.skipIf(!hasChromium)('the project editor, publishing and accounts in Chromium', () => {
  let app: TestApp;
  let files: FileServer;
  let oauth: PlatformFake;
  let browser: Browser;
  let page: Page;
  let user: TestUser;
  let profileId: string;
  let projectId: string;
  const requested: string[] = [];

  /** A screenshot of the viewport with `locator` at its top, to test-artifacts/ and, when named so, to docs/images/. */
  async function shot(name: string, locator?: ReturnType<Page['locator']>, docs = false) {
    if (locator) await locator.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const file = path.join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path: file });
    if (docs && DOC_IMAGES) await fs.copyFile(file, path.join(DOC_IMAGES, `${name}.png`));
  }

  beforeAll(async () => {
    const fx = await mediaFixtures();
    await Promise.all([fs.mkdir(ARTIFACTS, { recursive: true }), builtConsole()]);
    [app, files] = await Promise.all([startTestApp({ env: { TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64') } }), serveFolder(fx.dir)]);
    oauth = await startPlatformFake({ redirectUri: `${app.url}/oauth/prosocial/callback` });
    app.runtime.app.config.platforms.prosocial = { clientId: oauth.clientId, clientSecret: oauth.clientSecret, baseUrl: oauth.url };
    user = await createUser(app, { apiCredits: 20, apiPublishing: true });
    profileId = (await createProfile(app.runtime.app.db, user.id, { name: 'Brand', primary: true })).id;
    for (const platform of ['microblog', 'socialnet'])
      await connectSandboxAccount(app.runtime.app.db, profileId, { platform, isPrivate: false, followers: 150 });
    const created = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Editor talk', language: 'en', videoUrl: files.url('talk.mp4') },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    projectId = created.body.id;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // signed in: the key kept in the browser, as the sign-in form keeps it
    await context.addInitScript((key) => localStorage.setItem('clipcast.apiKey', key), user.key);
    page = await context.newPage();
    page.on('request', (r) => void requested.push(r.url()));
    await waitProject(app, user.key, projectId, (p) => p.status === 'completed' && p.downloadUrl, 60_000);
  }, 90_000);
  afterEach(async (ctx) => {
    // what the page showed when a step failed
    if (ctx.task.result?.state === 'fail')
      await page?.screenshot({ path: path.join(ARTIFACTS, `console-editor-failed-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}.png`), fullPage: true });
  });
  afterAll(async () => {
    await browser?.close();
    await oauth?.close();
    await files?.close();
    await app?.stop();
  });

  it('corrects a word in the transcript, saves it, and the next export shows it', async () => {
    const before = (await gql(app, user.key, PROJECT, { id: projectId })).body.data.project;
    const spoken = before.words.filter((w: { type: string }) => w.type === 'word');
    // a word of the first sentence, long enough to find in a frame
    const target = spoken.find((w: { startTime: number; endTime: number }, i: number) => i >= 2 && w.endTime - w.startTime >= 0.2) ?? spoken[2];
    const firstRender = before.downloadUrl as string;

    await page.goto(`${app.url}/#/projects/${projectId}`);
    const editor = page.getByTestId('editor');
    const word = editor.getByRole('button', { name: target.text, exact: true }).first();
    await word.waitFor();
    // by the keyboard: focus the word, Enter opens its tools
    await word.focus();
    await page.keyboard.press('Enter');
    expect(await word.getAttribute('aria-pressed')).toBe('true');
    await editor.getByLabel('Word text').fill('Zebra');
    await expectVisible(editor.getByRole('button', { name: 'Zebra', exact: true }));
    // the spoken word is lit as the video plays: seek the player to the word
    await page.getByTestId('editor-player').evaluate(
      (v: HTMLVideoElement, t: number) => {
        v.currentTime = t;
      },
      (target.startTime + target.endTime) / 2,
    );
    await expectVisible(editor.locator('button.word.spoken', { hasText: 'Zebra' }));
    await shot('console-editor', editor, true);
    await editor.getByRole('button', { name: 'Save transcript' }).click();
    await expectVisible(editor.getByRole('status').filter({ hasText: 'Saved' }));
    const saved = (await gql(app, user.key, PROJECT, { id: projectId })).body.data.project;
    expect(saved.words.find((w: { id: string }) => w.id === target.id)?.text).toBe('Zebra');

    // the next export, followed live on the page
    // the export dialog: a shape or a custom size (the source's here, for the frames to compare), and the frame rate
    const sizeButton = page.getByRole('button', { name: 'Size and frame rate…' });
    await expect.poll(() => sizeButton.isEnabled()).toBe(true);
    await sizeButton.click();
    const dialog = page.getByRole('dialog', { name: 'Export' });
    await expectVisible(dialog.getByText('9:16 (vertical), 1080×1920'));
    await dialog.getByLabel('Custom size').check();
    await dialog.getByLabel('Width').fill('320');
    await dialog.getByLabel('Height').fill('240');
    await dialog.getByLabel('Frames per second').fill('30');
    await dialog.getByRole('button', { name: 'Start render' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(
        async () => {
          const alert = page.locator('article', { has: sizeButton }).getByRole('alert');
          if (await alert.count()) throw new Error(`the export was refused: ${await alert.first().innerText()}`);
          return page.locator('[data-testid=exports] tbody tr').count();
        },
        { timeout: 10_000 },
      )
      .toBe(2);
    await expectVisible(page.locator('[data-testid=exports] tbody tr').first().locator('[data-status=completed]'), 40_000);
    await expectVisible(page.locator('[data-testid=exports] tbody tr').first().getByText('320×240 at 30 fps'));
    const after = (await gql(app, user.key, PROJECT, { id: projectId })).body.data.project;
    const download = async (url: string, name: string) => {
      const file = path.join(app.dataDir, name);
      await fs.writeFile(file, Buffer.from(await (await fetch(new URL(url, app.url))).arrayBuffer()));
      return file;
    };
    const [old, fresh] = await Promise.all([download(firstRender, 'first.mp4'), download(after.exports[0].downloadUrl, 'second.mp4')]);
    const at = (target.startTime + target.endTime) / 2;
    const changed = frameDiff(await frameAt(old, at), await frameAt(fresh, at));
    // a moment of the other sentence, whose caption page did not change
    const last = spoken.at(-1);
    const same = frameDiff(await frameAt(old, (last.startTime + last.endTime) / 2), await frameAt(fresh, (last.startTime + last.endTime) / 2));
    expect(changed).toBeGreaterThan(0.3);
    expect(changed).toBeGreaterThan(same * 3);
    const srt = (await gql(app, user.key, 'query($id: ID!) { project(id: $id) { captions(format: srt) } }', { id: projectId })).body.data.project.captions;
    expect(srt).toContain('Zebra');
  });

  it('switches the caption template, and the live preview changes', async () => {
    const panel = page.getByTestId('style-panel');
    const preview = panel.getByTestId('preview');
    await preview.waitFor({ timeout: 15_000 });
    const first = await preview.getAttribute('src');
    const pixels = () =>
      preview.evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const g = c.getContext('2d')!;
        g.drawImage(img, 0, 0);
        return Array.from(g.getImageData(0, 0, c.width, c.height).data);
      });
    const before = await pixels();
    const templates = panel.getByRole('radio');
    expect(await templates.count()).toBeGreaterThan(1);
    const chosen = await panel.locator('.template.chosen input').getAttribute('value');
    const other = panel.locator(`.template input:not([value="${chosen}"])`).first();
    // the templates' stills, rendered on their first fetch, come a few at a time
    await expect
      .poll(() => panel.locator('.template img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length), {
        timeout: 15_000,
      })
      .toBeGreaterThan(2);
    await other.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => preview.getAttribute('src'), { timeout: 15_000 }).not.toBe(first);
    const after = await pixels();
    expect(after.length === before.length && after.every((v, i) => v === before[i])).toBe(false);
    await shot('console-style', panel, true);

    // the look kept as a theme: chosen at once, and the project takes it when the style is saved
    await panel.getByPlaceholder('Theme name').fill('Launch look');
    await panel.getByRole('button', { name: 'Save as a theme' }).click();
    const theme = panel.getByRole('radio', { name: /Launch look/ });
    await expect.poll(() => theme.isChecked(), { timeout: 10_000 }).toBe(true);
    await panel.getByRole('button', { name: 'Save style' }).click();
    const saved = async () =>
      (await gql(app, user.key, 'query($id: ID!) { project(id: $id) { userThemeId } userThemes { id name basedOn } }', { id: projectId })).body.data;
    await expect.poll(async () => (await saved()).project.userThemeId, { timeout: 10_000 }).toBeTruthy();
    const { project, userThemes } = await saved();
    expect(userThemes).toEqual([{ id: project.userThemeId, name: 'Launch look', basedOn: expect.any(String) }]);
  });

  it('publishes to a sandbox account with the rules checked as the user types, and shows the post published', async () => {
    await page.goto(`${app.url}/#/projects/${projectId}`);
    const form = page.getByTestId('publish-form');
    await form.getByRole('checkbox', { name: /microblog/ }).check();
    const text = form.getByLabel('microblog post');
    // counted in code points: 281 emoji are 562 UTF-16 units, one over the limit
    await text.fill('😀'.repeat(281));
    await expectVisible(form.getByText('281 / 280'));
    await expectVisible(form.getByText('Post must be 1-280 characters'));
    await text.fill('We launched 🚀');
    await expectVisible(form.getByText('13 / 280'));
    await text.fill('');
    await expectVisible(form.getByText('Post is required'));
    await text.fill('We launched our captioned talk');
    await expectVisible(form.getByText('30 / 280'));
    // a schedule in the past is refused before it is sent
    await form.getByLabel('Publish at').fill('2020-01-01T10:00');
    await expectVisible(form.getByText('must be in the future'));
    await form.getByLabel('Publish at').fill('');
    await shot('console-publish', form, true);
    await form.getByRole('button', { name: 'Publish now' }).click();
    await page.waitForURL(/#\/publications\/[\w-]+$/);
    await expectVisible(page.locator('[data-testid=posts] tr[data-platform=microblog] [data-status=published]'), 20_000);
    const publicationId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    const r = await request(app, 'GET', `/v1/projects/published/${publicationId}`, { key: user.key });
    expect(r.body.posts.map((p: { platform: string; publishStatus: string }) => [p.platform, p.publishStatus])).toEqual([['microblog', 'published']]);

    // a scheduled one, cancelled
    await page.goto(`${app.url}/#/projects/${projectId}`);
    await form.getByRole('checkbox', { name: /socialnet/ }).check();
    await form.getByLabel('socialnet post').fill('Tomorrow');
    const tomorrow = new Date(Date.now() + 86_400_000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await form.getByLabel('Publish at').fill(local);
    await form.getByRole('button', { name: 'Schedule' }).click();
    await page.waitForURL(/#\/publications\/[\w-]+$/);
    await expectVisible(page.locator('[data-testid=publication-status][data-status=scheduled]'));
    await page.getByRole('button', { name: 'Cancel scheduled publication' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: '1 credits given back' }));
    await expectVisible(page.locator('[data-testid=publication-status][data-status=cancelled]'));
    const scheduledId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    expect((await request(app, 'GET', `/v1/projects/published/${scheduledId}`, { key: user.key })).status).toBe(404);
  });

  it('connects an account through the platform and comes back to the console seeing it connected; disconnects it', async () => {
    await page.goto(`${app.url}/#/profiles`);
    const row = page.locator(`[data-profile="${profileId}"] tr[data-platform=prosocial]`);
    await row.getByRole('button', { name: 'Connect prosocial' }).click();
    // through the platform's consent page and the service's callback, back here
    await page.waitForURL((u) => u.origin === new URL(app.url).origin && u.hash === '#/profiles' && u.pathname === '/', { timeout: 15_000 });
    await expectVisible(page.getByTestId('oauth-outcome').filter({ hasText: 'Your prosocial account is connected' }));
    await expectVisible(row.locator('[data-status=connected]'));
    await expectVisible(page.locator(`[data-profile="${profileId}"] tr[data-platform=microblog]`).getByText('sandbox account'));
    expect(new URL(page.url()).search).toBe('');
    await shot('console-accounts', page.getByRole('heading', { name: 'Profiles' }), true);
    const account = await app.runtime.app.db.socialAccount.findUniqueOrThrow({ where: { profileId_platform: { profileId, platform: 'prosocial' } } });
    expect(account.status).toBe('connected');

    await row.getByRole('button', { name: 'Disconnect prosocial' }).click();
    await expectVisible(row.locator('[data-status=disconnected]'));
    await expectVisible(row.getByRole('button', { name: 'Connect prosocial' }));
  });

  it.skipIf(!AXE)('has no serious accessibility problem in the editor, the publish form, a publication and the profiles page', async () => {
    const script = await fs.readFile(AXE!, 'utf8');
    // the page's policy allows no inline script: this context lets the checker's in
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    try {
      const checked = await context.newPage();
      await checked.goto(app.url);
      await checked.evaluate((key) => localStorage.setItem('clipcast.apiKey', key), user.key);
      await checked.goto(`${app.url}/#/projects/${projectId}`);
      await checked.reload();
      await checked.addScriptTag({ content: script });
      const check = (what: string) => expectAccessible(checked, what);
      await checked.getByTestId('editor').getByRole('button', { name: 'Zebra', exact: true }).click();
      await checked
        .getByTestId('publish-form')
        .getByRole('checkbox', { name: /socialnet/ })
        .check();
      await check('the project page');
      await checked.getByRole('link', { name: 'Publications', exact: true }).click();
      await checked.locator('tr[data-publication] a', { hasText: 'published' }).first().click();
      await checked.getByTestId('posts').waitFor();
      await check('a publication');
      await checked.getByRole('link', { name: 'Profiles', exact: true }).click();
      await checked.locator(`[data-profile="${profileId}"]`).waitFor();
      await check('the profiles page');
    } finally {
      await context.close();
    }
  });

  it('deletes a project after asking, and it is gone from the list with its files', async () => {
    const stored = path.join(app.dataDir, 'media', 'projects', projectId);
    expect(existsSync(stored)).toBe(true);
    await page.goto(`${app.url}/#/projects/${projectId}`);
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog');
    await expectVisible(dialog.getByText('Editor talk'));
    // Escape keeps it
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete project' }).click();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/#\/projects$/);
    await expectVisible(page.getByRole('heading', { name: 'Projects' }));
    await expect.poll(() => page.locator(`tr[data-project="${projectId}"]`).count()).toBe(0);
    await expectVisible(page.getByText('No project yet'));
    expect((await request(app, 'GET', `/v1/projects/${projectId}`, { key: user.key })).status).toBe(404);
    await expect.poll(() => existsSync(stored), { timeout: 10_000 }).toBe(false);

    // nothing was fetched from anywhere but the service and the platform's consent page
    const allowed = [new URL(app.url).origin, new URL(oauth.url).origin];
    expect(requested.filter((u) => !allowed.some((o) => u.startsWith(`${o}/`)) && !/^(blob|data):/.test(u))).toEqual([]);
  });
});

async function expectVisible(locator: ReturnType<Page['locator']>, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}
