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

/**
 * Each job's class, as data: what a user waits on (`interactive`: a render
 * they asked for, the pipeline of a talk they uploaded, a delivery they
 * scheduled), what runs for many minutes in the background of their work
 * (`batch`: a magic-clips analysis of a long source, and its clips), and the
 * service's own upkeep (`upkeep`). A batch or upkeep job's programs run at a
 * lower priority and its in-process steps give way to interactive work
 * (src/jobs/priority.ts); the queue's depth per class is on /healthz and
 * /metrics; back-pressure counts the waiting work of the first two
 * (src/limits/back-pressure.ts).
 */
export type JobClass = 'interactive' | 'batch' | 'upkeep';
export const JOB_CLASSES: Readonly<Record<JobName, JobClass>> = {
  [JOB_NAMES.renderExport]: 'interactive',
  [JOB_NAMES.processProject]: 'interactive',
  [JOB_NAMES.generateBroll]: 'interactive',
  [JOB_NAMES.deliverPost]: 'interactive',
  [JOB_NAMES.firePublication]: 'interactive',
  [JOB_NAMES.deliverWebhook]: 'interactive',
  [JOB_NAMES.importUserMedia]: 'interactive',
  [JOB_NAMES.processMagicClips]: 'batch',
  [JOB_NAMES.renderClip]: 'batch',
  [JOB_NAMES.removeProjectFiles]: 'upkeep',
  [JOB_NAMES.projectWatchdog]: 'upkeep',
  [JOB_NAMES.sweepWebhooks]: 'upkeep',
  [JOB_NAMES.purge]: 'upkeep',
  [JOB_NAMES.sweepPublishing]: 'upkeep',
  [JOB_NAMES.syncAnalytics]: 'upkeep',
};

/** The kinds whose runs keep the CPU busy (renders, transcription, analysis); the rest mostly wait on the network or the database. */
export const CPU_JOB_NAMES: ReadonlySet<string> = new Set([
  JOB_NAMES.renderExport,
  JOB_NAMES.processProject,
  JOB_NAMES.generateBroll,
  JOB_NAMES.processMagicClips,
  JOB_NAMES.renderClip,
]);

/** The job names of a class. */
export const jobNamesOf = (cls: JobClass): string[] => Object.entries(JOB_CLASSES).flatMap(([name, c]) => (c === cls ? [name] : []));

/** The interactive kinds that keep the CPU busy: while one runs on a machine, batch work there gives way (src/jobs/priority.ts). */
export const INTERACTIVE_CPU_JOB_NAMES: ReadonlySet<string> = new Set(jobNamesOf('interactive').filter((n) => CPU_JOB_NAMES.has(n)));
