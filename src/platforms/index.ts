/**
 * The connectors by name: an account's `connector` column says which one
 * publishes for it. Built once per process and shared.
 */
import type { App } from '../app.js';
import { createSandboxConnector, SANDBOX_CONNECTOR } from './sandbox.js';
import type { PlatformConnector } from './types.js';

const built = new WeakMap<App, Map<string, PlatformConnector>>();

const FACTORIES: Record<string, (app: App) => PlatformConnector> = {
  [SANDBOX_CONNECTOR]: (app) => createSandboxConnector({ db: app.db, delayMs: app.config.sandboxDelayMs }),
};

export const CONNECTOR_NAMES = Object.keys(FACTORIES);

/** The connector called `name`; an unknown name (a connector since removed) is an error of the account, not of the service. */
export function connectorFor(app: App, name: string): PlatformConnector | null {
  let byName = built.get(app);
  if (!byName) built.set(app, (byName = new Map()));
  if (!byName.has(name)) {
    const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name] : null;
    if (!factory) return null;
    byName.set(name, factory(app));
  }
  return byName.get(name)!;
}
