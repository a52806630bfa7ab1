import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** One root logger per process; request loggers are its children (they carry reqId). */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings } }, destination);
}

const scoped = new AsyncLocalStorage<Logger>();

/**
 * Runs `work` with `log` as the logger that `logFor` hands out meanwhile: a
 * job's lines, wherever in the domain they are written, carry its name, id
 * and subjects (project, export, clip) without every signature taking a logger.
 */
export const withLog = <T>(log: Logger, work: () => T): T => scoped.run(log, work);

/** The logger of the running job, else `fallback`. */
export const logFor = (fallback: Logger): Logger => scoped.getStore() ?? fallback;

/** A child carrying these ids, less those the logger carries already (pino would write the key twice). */
export function withIds(log: Logger, ids: Record<string, string | null | undefined>): Logger {
  const bound = log.bindings();
  const missing = Object.entries(ids).filter(([k, v]) => v != null && !(k in bound));
  return missing.length ? log.child(Object.fromEntries(missing)) : log;
}
