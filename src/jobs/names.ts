// Every background job's name, in one table: the services that enqueue a job,
// the worker that runs it and the job events that report it agree on these.
export const JOB_NAMES = {
  processProject: 'projects.process',
  generateBroll: 'projects.generate-broll',
  projectWatchdog: 'projects.watchdog',
  removeProjectFiles: 'projects.remove-files',
  renderExport: 'exports.render',
  processMagicClips: 'magic-clips.process',
  renderClip: 'magic-clips.render-clip',
  importUserMedia: 'media.import',
  deliverWebhook: 'webhooks.deliver',
  sweepWebhooks: 'webhooks.sweep',
  purge: 'maintenance.purge',
  deliverPost: 'publishing.deliver-post',
  firePublication: 'publishing.fire',
  sweepPublishing: 'publishing.sweep',
  syncAnalytics: 'publishing.sync-analytics',
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

/** Jobs whose events move a project (their data carries projectId). */
export const PROJECT_JOB_NAMES: ReadonlySet<string> = new Set([
  JOB_NAMES.processProject,
  JOB_NAMES.renderExport,
  JOB_NAMES.processMagicClips,
  JOB_NAMES.renderClip,
]);

/** Jobs that run a whole step of one project (its pipeline, AI B-roll, a render): the job a project names as its own. */
export const PROJECT_STEP_JOB_NAMES: readonly string[] = [
  JOB_NAMES.processProject,
  JOB_NAMES.generateBroll,
  JOB_NAMES.renderExport,
  JOB_NAMES.processMagicClips,
];
