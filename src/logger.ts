import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** One root logger per process; request loggers are its children (they carry reqId). `pretty` writes words for a person (prettyLines). */
export function createLogger(
  level: string,
  bindings: Record<string, unknown> = {},
  destination?: DestinationStream,
  format: 'json' | 'pretty' = 'json',
): Logger {
  const out = format === 'pretty' ? prettyLines(destination ?? process.stdout) : destination;
  return pino({ level, base: { pid: process.pid, ...bindings }, serializers: { err: serializeError, req: serializeRequest } }, out);
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const QUIET_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'role']);

/**
 * A destination that writes each JSON log line as one line of words:
 * `12:04:05 info  [server] request completed  reqId=… responseTime=3.2`, an
 * error's stack under it. The JSON lines stay the default (LOG_FORMAT=json)
 * for log collectors; this is for a person watching a terminal.
 */
export function prettyLines(out: { write(chunk: string): unknown }): DestinationStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        return out.write(line);
      }
      const time = new Date(Number(entry.time)).toISOString().slice(11, 19);
      const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
      const err = entry.err as { stack?: string; message?: string } | undefined;
      const fields = Object.entries(entry)
        .filter(([k, v]) => !QUIET_KEYS.has(k) && k !== 'err' && v !== undefined)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      const role = entry.role ? `[${entry.role}] ` : '';
      const stack = err ? `\n  ${(err.stack ?? err.message ?? '').split('\n').join('\n  ')}` : '';
      return out.write(`${time} ${level} ${role}${entry.msg ?? ''}${fields.length ? `  ${fields.join(' ')}` : ''}${stack}\n`);
    },
  };
}

/**
 * Query parameters a request's log line leaves out: the authorisation code
 * and the OAuth state a platform's redirect brings to GET
 * /oauth/<platform>/callback (either would let a reader of the log finish a
 * connection).
 */
const SECRET_QUERY_PARAMS = ['code', 'state'];

function withoutSecrets(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = new URLSearchParams(url.slice(at + 1));
  if (!SECRET_QUERY_PARAMS.some((name) => query.has(name))) return url;
  for (const name of SECRET_QUERY_PARAMS) query.delete(name);
  const rest = query.toString();
  return `${url.slice(0, at)}${rest ? `?${rest}` : ''}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The access log's request: Fastify's own fields, its URL without the secrets of its query. */
const serializeRequest = (req: LoggedRequest) => ({
  method: req.method,
  url: withoutSecrets(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

type LoggedError = Error & { cause?: unknown; code?: unknown; clientVersion?: unknown };

const isPrismaError = (e: unknown): e is LoggedError => e instanceof Error && e.name.startsWith('PrismaClient');

/**
 * A failed query's error as a log line can carry it. Prisma writes every
 * argument of the query into a validation error's message (sealed platform
 * tokens, PKCE verifiers and all), and the database's own words, a failing
 * row among them, into `meta`. What is kept: its class and code, the
 * invocation and what Prisma said was wrong (the message's last line), and
 * the stack's frames.
 */
function queryErrorSummary(err: LoggedError): LoggedError {
  const lines = err.message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const invocation = lines.find((l) => l.startsWith('Invalid `'))?.replace(/ in$|:$/, '');
  const said = lines.at(-1) ?? '';
  const message = invocation && invocation !== said ? `${invocation}: ${said}` : said;
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  return copyOf(err, { name: err.name, message, stack: [`${err.name}: ${message}`, ...frames].join('\n'), code: err.code, clientVersion: err.clientVersion });
}

/** An error of the same class as `err` with only these members: what the log serializer writes of it. */
const copyOf = (err: Error, members: Partial<LoggedError>): LoggedError =>
  Object.assign(Object.create(Object.getPrototypeOf(err) as object) as LoggedError, members);

/** An error and its causes, each Prisma error among them summarised (queryErrorSummary). */
function withoutQueryArguments(err: unknown, depth = 0): unknown {
  if (isPrismaError(err)) return queryErrorSummary(err);
  if (!(err instanceof Error) || err.cause === undefined || depth > 8) return err;
  const cause = withoutQueryArguments(err.cause, depth + 1);
  return cause === err.cause ? err : copyOf(err, { ...err, name: err.name, message: err.message, stack: err.stack, cause });
}

const serializeError = (err: unknown) => pino.stdSerializers.err(withoutQueryArguments(err) as Error);

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
