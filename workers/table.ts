/** Where the PostgreSQL job backend keeps jobs, and its LISTEN/NOTIFY channel. */
export const JOBS_TABLE = 'agenda_jobs';
export const JOBS_CHANNEL = 'agenda_jobs';
