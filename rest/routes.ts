import type { Route } from './route.js';
import { catalogRoutes } from './routes/catalog.js';
import { exportRoutes } from './routes/exports.js';
import { libraryRoutes } from './routes/library.js';
import { magicClipsRoutes } from './routes/magic-clips.js';
import { presetRoutes } from './routes/presets.js';
import { projectEditRoutes } from './routes/project-edits.js';
import { projectRoutes } from './routes/projects.js';
import { publishingRoutes } from './routes/publishing.js';
import { publishingStatsRoutes } from './routes/publishing-stats.js';

/** The route table of /v1: one file per domain under routes/. */
export const routes: Route[] = [
  ...catalogRoutes,
  ...exportRoutes,
  ...libraryRoutes,
  ...magicClipsRoutes,
  ...presetRoutes,
  ...projectRoutes,
  ...projectEditRoutes,
  ...publishingRoutes,
  ...publishingStatsRoutes,
];
