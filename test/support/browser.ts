/**
 * What the console's browser tests share: Debian's headless Chromium (or
 * CHROMIUM_PATH), the console built as `npm install` builds it when web/
 * changed since (a developer's tree), axe-core's browser script, and where
 * screenshots go: test-artifacts/ always, docs/images/ when SCREENSHOTS=docs
 * (the README's pictures, taken again on purpose, never by a plain test run).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CONSOLE_DIR } from '../../src/http/console.js';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
export const DOC_IMAGES = process.env.SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs/images') : null;
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium is here; says once, for `file`, that its browser tests are skipped when not. */
export function chromiumFor(file: string): boolean {
  const here = existsSync(CHROMIUM);
  if (!here) console.warn(`${file}: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH): the browser tests are skipped`);
  return here;
}

/** axe-core's browser script (a devDependency), or a copy named by AXE_CORE_DIR; null, said once, when neither is here. */
export function axeScriptFor(file: string): string | null {
  try {
    return createRequire(path.join(ROOT, 'package.json')).resolve('axe-core/axe.min.js');
  } catch {
    const copy = process.env.AXE_CORE_DIR && path.join(process.env.AXE_CORE_DIR, 'axe.min.js');
    if (copy && existsSync(copy)) return copy;
    console.warn(`${file}: axe-core is not installed (npm install -D axe-core): the accessibility checks are skipped`);
    return null;
  }
}

/** The newest modification time of the files under a folder. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    t = Math.max(t, e.isDirectory() ? newest(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs);
  return t;
}

/** web/dist as `npm install` leaves it, built again when web/ changed since (a developer's tree). */
export async function builtConsole(): Promise<void> {
  const page = path.join(CONSOLE_DIR, 'index.html');
  const sources = Math.max(
    newest(path.join(ROOT, 'web/src')),
    statSync(path.join(ROOT, 'web/index.html')).mtimeMs,
    statSync(path.join(ROOT, 'web/vite.config.ts')).mtimeMs,
  );
  if (existsSync(page) && statSync(page).mtimeMs >= sources) return;
  // built as `npm install` builds it: the test runner's NODE_ENV=test would make React's development bundle
  await run(process.execPath, [path.join(ROOT, 'scripts/build-console.mjs')], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } });
}

/**
 * Checks the page as it is now with axe-core (its script added to the page
 * first): some rules pass, and no violation is serious or critical.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const result = await page.evaluate(async () => {
    const r = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return {
      passed: r.passes.length as number,
      violations: r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')) })),
    };
  });
  expect(result.passed, what).toBeGreaterThan(10);
  expect(
    result.violations.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical'),
    what,
  ).toEqual([]);
}
