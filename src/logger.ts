import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** One root logger per process; request loggers are its children (they carry reqId). */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings } }, destination);
}
