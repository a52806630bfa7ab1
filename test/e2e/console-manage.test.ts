// The console's library, presets and account pages in a real browser (Debian's
// headless Chromium driven by playwright-core) against the real service: a file
// uploaded to the library, listed with its metadata and deleted; a project saved
// as a preset whose saved media are edited and switched; balances, the credit
// ledger, an API key created and revoked, a webhook redelivered; every page
// checked with axe-core and worked with the keyboard. Screenshots go to
// test-artifacts/.
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, axeScriptFor, builtConsole, CHROMIUM, chromiumFor, expectAccessible } from '../support/browser.js';
import { grantBalances } from '../../src/credits/ledger.js';
import { enqueueWebhook } from '../../src/webhooks/service.js';
import { createUser, eventually, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, serveFolder, type Fixtures } from '../support/media.js';
import { webhookInbox, type WebhookInbox } from '../support/webhooks.js';

const hasChromium = chromiumFor('console-manage.test.ts');
const AXE = axeScriptFor('console-manage.test.ts');

let app: TestApp;

beforeAll(async () => {
  await builtConsole();
  app = await startTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('the console as the server serves it', () => {
  it('sends at most 250 KB of script, gzipped, with the library, presets and account pages in it', async () => {
    const page = await request(app, 'GET', '/');
    const scripts = [...String(page.body).matchAll(/src="(\/console\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    let gzipped = 0;
    let source = '';
    for (const s of scripts) {
      const r = await fetch(new URL(s, app.url));
      expect(r.status).toBe(200);
      const body = Buffer.from(await r.arrayBuffer());
      gzipped += gzipSync(body).length;
      source += body.toString('utf8');
    }
    expect(gzipped).toBeLessThanOrEqual(250 * 1024);
    for (const op of ['ConsoleLibrary', 'ConsolePresets', 'ConsoleAccount', 'ConsoleRedeliver']) expect(source).toContain(op);
    // nothing is fetched from elsewhere
    expect(source).not.toMatch(/(src|href)=["']?https?:\/\//);
  });
});

describe.skipIf(!hasChromium)('the library, presets and account pages in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let fx: Fixtures;
  let user: TestUser;
  let inbox: WebhookInbox;
  let projectId: string;
  let imageId: string;
  let deliveryId: string;
  /** every URL the page asked for */
  const requested: string[] = [];
  const db = () => app.runtime.app.db;

  beforeAll(async () => {
    await fs.mkdir(ARTIFACTS, { recursive: true });
    [fx, inbox] = await Promise.all([mediaFixtures(), webhookInbox()]);
    user = await createUser(app, { apiCredits: 5, aiCredits: null, clipCredits: 2, apiPublishing: true });
    // an operator's top-up of API credits, then ten of clip credits: two pages of the ledger
    await db().$transaction((tx) => grantBalances(tx, user.id, { api: 3 }, 'operator grant'));
    for (let i = 0; i < 10; i++) await db().$transaction((tx) => grantBalances(tx, user.id, { clip: 1 }, 'clip top-up'));
    projectId = (
      await db().project.create({
        data: { userId: user.id, kind: 'edit', title: 'Brand talk', language: 'en', templateName: 'classic', status: 'completed' },
      })
    ).id;
    // a webhook about the project, delivered to a receiver of the test's
    deliveryId = (
      await enqueueWebhook(app.runtime.app, {
        userId: user.id,
        url: inbox.url,
        event: 'project.completed',
        subjectId: projectId,
        payload: {
          projectId,
          status: 'completed',
          downloadUrl: `${app.url}/files/${projectId}.mp4`,
          directUrl: `${app.url}/files/${projectId}.mp4?inline=1`,
          timestamp: new Date().toISOString(),
        },
      })
    ).deliveryId;
    await inbox.next((p) => p?.projectId === projectId);
    await eventually(async () => expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).status).toBe('delivered'));

    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('request', (r) => void requested.push(r.url()));
    // signed in as the sign-in form leaves it: the key kept in this browser
    await page.goto(app.url);
    await page.evaluate((key) => localStorage.setItem('clipcast.apiKey', key), user.key);
    await page.reload();
  });
  afterAll(async () => {
    await browser?.close();
    await inbox?.close();
  });

  const row = (attr: string, value: string) => page.locator(`tr[${attr}="${value}"]`);

  it('uploads files to the library, lists them with their metadata and deletes one', async () => {
    await page.goto(`${app.url}/#/library`);
    await page.getByRole('link', { name: 'Library' }).waitFor();
    expect(await page.getByRole('link', { name: 'Library' }).getAttribute('aria-current')).toBe('page');
    await expectVisible(page.getByText('Your library is empty'));

    // a file sent from the browser
    await page.getByLabel(/^File \(video/).setInputFiles(fx.image);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: 'image.png was added' }));
    // and one the service fetches from a URL
    const files = await serveFolder(fx.dir);
    try {
      await page.getByLabel('File URL (public, directly downloadable)').fill(files.url('tone.mp3'));
      await page.getByRole('button', { name: 'Add by URL' }).click();
      await expectVisible(page.getByRole('status').filter({ hasText: 'The file is being fetched' }));
      await expectVisible(page.locator('tr', { hasText: 'tone.mp3' }).locator('[data-status=ready]'), 20_000);
    } finally {
      await files.close();
    }
    const media = (await gql(app, user.key, '{ userMedia(first: 10) { edges { node { id fileName type status metadata } } } }')).body.data.userMedia.edges.map(
      (e: any) => e.node,
    );
    expect(media.map((m: any) => m.fileName).sort()).toEqual(['image.png', 'tone.mp3']);
    imageId = media.find((m: any) => m.type === 'IMAGE').id;
    const audio = media.find((m: any) => m.type === 'AUDIO');

    // each with its type and metadata once ready; the image shows as its own thumbnail
    const imageRow = row('data-media', imageId);
    await expectVisible(imageRow.locator('[data-status=ready]'));
    expect(await imageRow.innerText()).toContain('image');
    expect(await imageRow.getByTestId('media-facts').innerText()).toMatch(/^64×48 · [\d.]+ (B|KB)$/);
    await imageRow.locator('img.thumb').evaluate((img: HTMLImageElement) => img.decode());
    expect(await imageRow.locator('img.thumb').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    const audioRow = row('data-media', audio.id);
    await expectVisible(audioRow.locator('[data-status=ready]'));
    expect(await audioRow.getByTestId('media-facts').innerText()).toMatch(/^3\.0 s · [\d.]+ KB$/);
    expect(await audioRow.locator('.thumb').innerText()).toBe('♪');
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-library.png') });

    // deleted after a confirmation, with the keyboard: the dialog opens on Cancel
    await audioRow.getByRole('button', { name: 'Delete tone.mp3' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete tone.mp3?' });
    await expectVisible(dialog);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await audioRow.waitFor({ state: 'detached' });
    // the focus is not lost with the row: it is on the page's heading
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    await expectVisible(imageRow);
    const gone = await gql(app, user.key, 'query($id: ID!) { userMediaEntry(id: $id) { id } }', { id: audio.id });
    expect(gone.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('saves a project as a preset, edits and switches its saved media, and makes a new project with it', async () => {
    await page.getByRole('link', { name: 'Presets' }).click();
    await expectVisible(page.getByText('No preset yet'));
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Brand talk' });
    await page.getByLabel('Preset name').fill('Brand look');
    await page.getByLabel('Description (optional)').fill('Our captions and logo');
    await page.getByRole('button', { name: 'Save as preset' }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: 'Preset “Brand look” saved.' }));
    const presetId = (await gql(app, user.key, '{ presets(first: 5) { edges { node { id } } } }')).body.data.presets.edges[0].node.id;
    const preset = row('data-preset', presetId);
    await expectVisible(preset.getByText('Brand look'));
    // the project's caption template is saved and applied; no logo yet
    const captions = preset.locator('[data-medium=captions]');
    expect(await captions.innerText()).toContain('template classic');
    expect(await captions.getByRole('switch').isChecked()).toBe(true);
    const logo = preset.locator('[data-medium=logo]');
    expect(await logo.getByRole('switch').isDisabled()).toBe(true);

    // a logo from the library, saved in a dialog
    await logo.getByRole('button', { name: 'Edit logo of Brand look' }).click();
    const dialog = page.getByRole('dialog', { name: 'Logo of Brand look' });
    await dialog.getByLabel('Logo image (from your library)').selectOption({ label: 'image.png' });
    await dialog.getByLabel('Corner').selectOption('bottom-left');
    await dialog.getByLabel('Width (% of the frame, 5-50)').fill('20');
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-preset-logo.png') });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectVisible(logo.getByText('image.png, bottom-left'));
    expect(await logo.getByRole('switch').isChecked()).toBe(true);

    // the captions switched off, from the keyboard
    await captions.getByRole('switch').focus();
    await page.keyboard.press('Space');
    await expectVisible(preset.locator('fieldset[aria-busy=false]'));
    expect(await captions.getByRole('switch').isChecked()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.closest('[data-medium]')?.getAttribute('data-medium'))).toBe('captions');
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-presets.png') });

    const saved = (await gql(app, user.key, 'query($id: ID!) { preset(id: $id) { captions logo configured { captions logo } savedMedia } }', { id: presetId }))
      .body.data.preset;
    expect(saved).toMatchObject({ captions: false, logo: true, configured: { captions: true, logo: true } });
    expect(saved.savedMedia.logo).toMatchObject({ userMediaId: imageId, position: 'bottom-left', sizePercent: 20 });

    // the image is in use: the library refuses to delete it, naming the preset
    await page.getByRole('link', { name: 'Library' }).click();
    await row('data-media', imageId).getByRole('button', { name: 'Delete image.png' }).click();
    await page.getByRole('dialog', { name: 'Delete image.png?' }).getByRole('button', { name: 'Delete' }).click();
    const refused = page.locator(`[data-media-error="${imageId}"]`).getByRole('alert');
    await expectVisible(refused);
    expect(await refused.innerText()).toMatch(/^image\.png was not deleted: is still used by preset "Brand look" \([\w-]+\): remove it from them first$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-delete-refused.png') });
    expect((await gql(app, user.key, 'query($id: ID!) { userMediaEntry(id: $id) { id } }', { id: imageId })).body.data?.userMediaEntry.id).toBe(imageId);

    // a new project made with the preset
    const files = await serveFolder(fx.dir);
    try {
      await page.getByRole('link', { name: 'New project' }).click();
      await page.getByLabel('Title').fill('With the brand look');
      await page.getByLabel('Preset').selectOption({ label: 'Brand look' });
      await page.getByRole('button', { name: 'From a URL' }).click();
      await page.getByLabel('Video URL (a public mp4 or mov file)').fill(files.url('clip.mp4'));
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL(/#\/projects\/[\w-]+$/);
    } finally {
      await files.close();
    }
    const made = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    const project = (await gql(app, user.key, 'query($id: ID!) { project(id: $id) { title presetId } }', { id: made })).body.data.project;
    expect(project).toEqual({ title: 'With the brand look', presetId });
  });

  it('shows the balances and the ledger, creates and revokes a key, and redelivers a webhook', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    const balances = page.getByTestId('balances');
    await expectVisible(balances);
    expect(await balances.locator('.figure').allInnerTexts()).toEqual(['API credits\n8', 'AI credits\nUnlimited', 'Clip credits\n12']);
    await expectVisible(page.getByText('Publishing through the API: included'));
    // the ledger, newest first, ten entries a page
    const ledger = page.getByTestId('ledger');
    const entries = ledger.locator('tbody tr');
    await expect.poll(() => entries.count()).toBe(10);
    expect(await entries.first().innerText()).toMatch(/clip\s+\+1\s+clip top-up/);
    expect(await ledger.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
    await ledger.getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().innerText()).toMatch(/api\s+\+3\s+operator grant/);
    expect(await ledger.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-account.png') });
    await ledger.getByRole('button', { name: 'Newer' }).click();
    await expect.poll(() => entries.count()).toBe(10);

    // the browser's own key, marked
    const keys = page.getByTestId('api-keys').locator('tbody tr');
    await expect.poll(() => keys.count()).toBe(1);
    expect(await keys.first().innerText()).toContain('this browser');

    // a new key, shown once, copied, with the focus back on the button that made it
    const create = page.getByRole('button', { name: 'Create key' });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await expectVisible(dialog);
    const secret = await dialog.getByTestId('new-key').innerText();
    expect(secret).toMatch(/^sk-/);
    expect((await gql(app, secret, '{ account { email } }')).body.data.account.email).toMatch(/@test\.local$/);
    await dialog.getByRole('button', { name: 'Copy the key' }).click();
    await expectVisible(dialog.getByRole('status').filter({ hasText: 'on the clipboard' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-new-key.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create key');
    await expect.poll(() => keys.count()).toBe(2);
    // the dialog's close event comes as a task after it hides: the page forgets the secret then
    await expect.poll(() => page.content()).not.toContain(secret);

    // revoked after a confirmation: requests with it are refused
    const newKey = keys.filter({ hasNotText: 'this browser' });
    const prefix = (await newKey.getAttribute('data-key'))!;
    expect(secret.startsWith(prefix)).toBe(true);
    await newKey.getByRole('button', { name: `Revoke ${prefix}…` }).click();
    await page
      .getByRole('dialog', { name: `Revoke ${prefix}…?` })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect.poll(() => keys.count()).toBe(1);
    expect((await gql(app, secret, '{ account { email } }')).body.errors?.[0].extensions?.code).toBe('UNAUTHORIZED');

    // the delivered webhook, sent again: a new attempt reaches the receiver
    const delivery = row('data-delivery', deliveryId);
    await expectVisible(delivery.locator('[data-status=delivered]'));
    expect(await delivery.getByTestId('attempts').innerText()).toBe('1 · HTTP 200');
    const before = (await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).deliveredAt!;
    await delivery.getByRole('button', { name: 'Redeliver project.completed' }).click();
    await expect.poll(() => inbox.received.length, { timeout: 15_000 }).toBe(2);
    expect(inbox.received[1].headers['webhook-id']).toBe(inbox.received[0].headers['webhook-id']);
    await expectVisible(delivery.locator('[data-status=delivered]'));
    const after = (await db().webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).deliveredAt!;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
    await expect
      .poll(() => delivery.getByTestId('delivered-at').innerText(), { timeout: 15_000 })
      .toBe(await page.evaluate((iso) => new Date(iso).toLocaleString(), after.toISOString()));
  });

  it.skipIf(!AXE)('has no serious or critical accessibility violation on the library, presets and account pages', async () => {
    const script = await fs.readFile(AXE!, 'utf8');
    // the page's policy allows no inline script: this context lets the checker's in
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const checked = await context.newPage();
    checked.setDefaultTimeout(10_000);
    await checked.goto(app.url);
    await checked.evaluate((key) => localStorage.setItem('clipcast.apiKey', key), user.key);
    await checked.goto(`${app.url}/#/library`);
    await checked.reload();
    await checked.addScriptTag({ content: script });
    const check = (what: string) => expectAccessible(checked, what);
    // one document: the pages are reached through the nav, as a person would
    for (const [section, ready] of [
      ['Library', 'tr[data-media]'],
      ['Presets', 'tr[data-preset]'],
      ['Account', 'tr[data-delivery]'],
    ]) {
      await checked.getByRole('link', { name: section, exact: true }).click();
      await checked.locator(ready).first().waitFor();
      await check(section);
    }
    // a dialog's form, open over the page
    await checked.getByRole('link', { name: 'Presets', exact: true }).click();
    await checked.getByRole('button', { name: 'Edit music of Brand look' }).click();
    await checked.getByRole('dialog', { name: 'Music of Brand look' }).waitFor();
    await check('the music dialog');
    await checked.keyboard.press('Escape');
    await checked.getByRole('dialog').waitFor({ state: 'hidden' });
    await context.close();
  });

  it('fetched nothing from anywhere but the service', () => {
    const origin = new URL(app.url).origin;
    expect(requested.filter((u) => !u.startsWith(`${origin}/`) && !/^(blob|data):/.test(u))).toEqual([]);
  });
});

async function expectVisible(locator: ReturnType<Page['locator']>, timeout = 10_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}
