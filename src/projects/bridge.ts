import type { EventEmitter } from 'node:events';
import type { Agenda, JobStateNotification } from 'agenda';
import type { App } from '../app.js';
import { publishProject } from './state.js';
import { PROJECT_JOB_NAMES } from '../jobs/names.js';

/**
 * With the in-process pub/sub, a worker in another process cannot reach this
 * process's subscribers directly; its job events can (Agenda's notification
 * channel). For each remote event of a project job this re-reads the project,
 * which holds the status and progress the worker wrote, and publishes it.
 * Returns the function that stops bridging.
 */
export function bridgeRemoteProjectEvents(app: App, agenda: Agenda): () => void {
  const projectOf = new Map<string, string | null>();
  const lastSent = new Map<string, number>();
  const onEvent = (n: JobStateNotification, remote?: boolean) => {
    if (remote !== true || !PROJECT_JOB_NAMES.has(n.jobName)) return;
    void (async () => {
      const jobId = String(n.jobId);
      if (!projectOf.has(jobId)) {
        const id = (await app.jobs.dataOf(jobId))?.projectId;
        projectOf.set(jobId, typeof id === 'string' ? id : null);
      }
      const projectId = projectOf.get(jobId);
      if (!projectId) return;
      // progress ticks: at most a few reads a second per project; lifecycle events always
      const now = Date.now();
      if (n.type === 'progress' && now - (lastSent.get(projectId) ?? 0) < 250) return;
      lastSent.set(projectId, now);
      const p = await app.db.project.findUnique({
        where: { id: projectId },
        select: { id: true, userId: true, status: true, progress: true, failureReason: true, updatedAt: true },
      });
      if (p) publishProject(app, p);
      if (n.type === 'complete') {
        projectOf.delete(jobId);
        lastSent.delete(projectId);
      }
    })().catch((err) => app.log.warn({ err }, 'could not bridge a project event'));
  };
  // remote notifications share these event names with local jobs; onEvent keeps the remote ones
  const emitter = agenda as unknown as EventEmitter;
  const types = ['start', 'progress', 'complete', 'fail'];
  for (const t of types) emitter.on(t, onEvent);
  return () => {
    for (const t of types) emitter.off(t, onEvent);
  };
}
