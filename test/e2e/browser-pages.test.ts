// The pages this service serves to people, GraphiQL at /graphql and the API
// reference at /docs: framed by no site, never type-sniffed, and under a content
// policy that allows only what they load. Each is opened in Debian's headless
// Chromium (driven by playwright-core) and used: it renders and talks to the
// service, and the browser reports no violation of the policy.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startTestApp, type TestApp, type TestUser } from '../support/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`browser-pages.test.ts: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are skipped`);

/** What a browser sends for a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  user = await createUser(app);
});
afterAll(async () => {
  await app?.stop();
});

/** A Content-Security-Policy header as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('the headers of GraphiQL and /docs', () => {
  it.each(['/graphql', '/docs'])('%s is framed by no site, not sniffed, loads scripts and data from this origin alone; so are its files', async (path) => {
    const res = await fetch(new URL(path, app.url), { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = directives(res.headers.get('content-security-policy'));
    expect(policy).toMatchObject({
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'frame-ancestors': ["'none'"],
    });
    // every file the page names (scripts, styles, icon, editor workers)
    const files = [...new Set([...(await res.text()).matchAll(/"(\/(?:graphiql|docs)\/[\w.-]+(?:\?v=\w+)?)"/g)].map((m) => m[1]))];
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const asset = await fetch(new URL(file, app.url));
      expect(asset.status, file).toBe(200);
      expect(asset.headers.get('x-content-type-options'), file).toBe('nosniff');
    }
  });
});

describe.skipIf(!hasChromium)('GraphiQL and /docs in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A new page, and what the browser said about the content policy in it: its console's reports and the page's violation events. */
  async function watched(): Promise<{ page: Page; violations: string[] }> {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text().slice(0, 300));
    });
    page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
    await page.exposeFunction('reportViolation', (v: string) => void violations.push(v));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportViolation(v: string): void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    return { page, violations };
  }

  it('GraphiQL renders its editors, starts their workers and runs a query with the key of the headers editor, violating nothing', async () => {
    const { page, violations } = await watched();
    const workers: string[] = [];
    page.on('worker', (w) => void workers.push(new URL(w.url()).pathname));
    await page.goto(new URL('/graphql', app.url).href);
    await page.locator('.graphiql-container .monaco-editor').first().waitFor();
    // the key typed into the headers editor, in place of the placeholder
    await page.locator('.monaco-editor[data-uri$="headers.json"]').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(JSON.stringify({ 'x-api-key': user.key }));
    // what the editor closed on its own after the cursor
    await page.keyboard.press('Shift+ControlOrMeta+End');
    await page.keyboard.press('Delete');
    await page.locator('.graphiql-execute-button').click();
    await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 15_000 }).toMatch(/"projects":\s*\{\s*"edges":\s*\[\]/);
    // the language worker may start after the first answer is drawn on a busy machine
    await expect
      .poll(() => workers, { timeout: 15_000 })
      .toEqual(expect.arrayContaining(['/graphiql/editor.worker.js', '/graphiql/graphql.worker.js', '/graphiql/json.worker.js']));
    expect(violations).toEqual([]);
    await page.close();
  });

  it('/docs lists the operations, takes a key with Authorize and tries a route against the service, violating nothing', async () => {
    const { page, violations } = await watched();
    await page.goto(new URL('/docs', app.url).href);
    await page.locator('.btn.authorize').click();
    const apiKey = page.locator('.auth-container', { has: page.locator('#api_key_value') });
    await apiKey.locator('#api_key_value').fill(user.key);
    await apiKey.locator('.auth-btn-wrapper .authorize').click();
    await page.locator('.modal-ux .btn-done').first().click();
    const languages = page.locator('.opblock', { has: page.locator('[data-path="/v1/languages"]') });
    await languages.locator('.opblock-summary').click();
    await languages.locator('.try-out__btn').click();
    await languages.locator('.execute').click();
    await expect.poll(() => languages.locator('.live-responses-table').innerText(), { timeout: 15_000 }).toMatch(/200[\s\S]*"languages"/);
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(violations).toEqual([]);
    await page.close();
  });
});
