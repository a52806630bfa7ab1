/**
 * The connectors by name: an account's `connector` column says which one
 * publishes for it. `sandbox` is the built-in imitation the operator CLI
 * connects accounts to; each platform key names the connector that speaks
 * that platform's own API (one module per platform, listed in DEFINITIONS),
 * wrapped so that it always gets the account's tokens decrypted and fresh
 * (src/platforms/session.ts). Built once per process and shared.
 */
import type { App } from '../app.js';
import type { PlatformKey } from '../catalog/platforms.js';
import { microblogPlatform } from './microblog.js';
import { photosharePlatform } from './photoshare.js';
import { prosocialPlatform } from './prosocial.js';
import { createSandboxConnector, SANDBOX_CONNECTOR } from './sandbox.js';
import { withTokens } from './session.js';
import { shortvideoPlatform } from './shortvideo.js';
import { socialnetPlatform } from './socialnet.js';
import type { PlatformConnector, PlatformDefinition } from './types.js';
import { videosharePlatform } from './videoshare.js';

/** One module per platform key, each speaking that platform's official API (its file's header names the version and endpoints). */
export const DEFINITIONS: Readonly<Record<PlatformKey, PlatformDefinition>> = {
  videoshare: videosharePlatform,
  shortvideo: shortvideoPlatform,
  photoshare: photosharePlatform,
  microblog: microblogPlatform,
  socialnet: socialnetPlatform,
  prosocial: prosocialPlatform,
};

const built = new WeakMap<App, Map<string, PlatformConnector>>();

function build(app: App, name: string): PlatformConnector | null {
  if (name === SANDBOX_CONNECTOR) return createSandboxConnector({ db: app.db, delayMs: app.config.sandboxDelayMs });
  return Object.hasOwn(DEFINITIONS, name) ? withTokens(app, DEFINITIONS[name as PlatformKey]) : null;
}

export const CONNECTOR_NAMES = [SANDBOX_CONNECTOR, ...Object.keys(DEFINITIONS)];

/** The connector called `name`; an unknown name (a connector since removed) is an error of the account, not of the service. */
export function connectorFor(app: App, name: string): PlatformConnector | null {
  let byName = built.get(app);
  if (!byName) built.set(app, (byName = new Map()));
  if (!byName.has(name)) {
    const connector = build(app, name);
    if (!connector) return null;
    byName.set(name, connector);
  }
  return byName.get(name)!;
}
