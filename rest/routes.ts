import type { Route } from './route.js';
import { ownAccountRoutes } from './routes/account.js';
import { accountRoutes } from './routes/accounts.js';
import { catalogRoutes } from './routes/catalog.js';
import { exportRoutes } from './routes/exports.js';
import { libraryRoutes } from './routes/library.js';
import { magicClipsRoutes } from './routes/magic-clips.js';
import { presetRoutes } from './routes/presets.js';
import { projectEditRoutes } from './routes/project-edits.js';
import { projectRoutes } from './routes/projects.js';
import { publishingRoutes } from './routes/publishing.js';
import { publishingStatsRoutes } from './routes/publishing-stats.js';
import { themeRoutes } from './routes/themes.js';

/** The routes of /v1 by domain, one file each under routes/; the reference tags them so. */
export const routeGroups: Record<string, Route[]> = {
  projects: [...projectRoutes, ...projectEditRoutes],
  exports: exportRoutes,
  'magic clips': magicClipsRoutes,
  library: libraryRoutes,
  presets: presetRoutes,
  themes: themeRoutes,
  publishing: publishingRoutes,
  accounts: accountRoutes,
  account: ownAccountRoutes,
  statistics: publishingStatsRoutes,
  catalogue: catalogRoutes,
};

/** The route table of /v1. */
export const routes: Route[] = Object.values(routeGroups).flat();
