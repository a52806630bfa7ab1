import { generateBrollJob } from './jobs/generate-broll.js';
import { importUserMediaJob } from './jobs/import-user-media.js';
import { processMagicClipsJob, renderClipJob } from './jobs/magic-clips.js';
import { processProjectJob } from './jobs/process-project.js';
import { renderExportJob } from './jobs/render-export.js';
import { projectWatchdogJob } from './jobs/project-watchdog.js';
import { removeProjectFilesJob } from './jobs/remove-project-files.js';
import { maintenanceJob } from './jobs/maintenance.js';
import { webhookJobs } from './jobs/deliver-webhook.js';
import { publishingJobs } from './jobs/publishing.js';
import type { JobDefinition } from './types.js';

/** Every job the workers run: one entry per file under workers/jobs/. */
export const jobs: JobDefinition[] = [
  processProjectJob,
  renderExportJob,
  projectWatchdogJob,
  removeProjectFilesJob,
  importUserMediaJob,
  maintenanceJob,
  generateBrollJob,
  processMagicClipsJob,
  renderClipJob,
  ...webhookJobs,
  ...publishingJobs,
];
