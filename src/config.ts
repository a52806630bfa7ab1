import path from 'node:path';
import { PLATFORM_KEYS, type PlatformKey } from './catalog/platforms.js';

/** Settings read once from the environment (CONTRACT.md, Environment). */
export interface Config {
  port: number;
  host: string;
  /** unset: embedded PGlite under dataDir */
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  redisUrl: string | undefined;
  mongodbUrl: string | undefined;
  allowPrivateNetwork: boolean;
  videoPlatformHosts: string[];
  transcriber: 'pocketsphinx' | 'whisper' | 'openai';
  logLevel: string;
  /** json: one JSON object a line, for machines; pretty: one short line of words, for a person at a terminal */
  logFormat: 'json' | 'pretty';
  /** secret that signs media URLs; derived from the data dir when not set (required with shared storage) */
  urlSigningSecret: string | undefined;
  /** where media bytes live (STORAGE_URL): local disk under dataDir, or an S3-compatible bucket shared by every instance */
  storage: StorageSettings;
  /** how long and how slowly a client may send a request, and what one WebSocket client may hold (README, Connection limits) */
  connections: ConnectionLimits;
  /** GraphQL hardening */
  maxDepth: number;
  maxComplexity: number;
  /** how often workers look for due jobs (ms); short in embedded mode, where NOTIFY does not cross connections */
  jobPollMs: number;
  /** a user runs at most this many jobs of one kind at once while another user's job of that kind waits (workers/fair-claim.ts) */
  jobUserCap: number;
  /** when new work is refused (src/limits/back-pressure.ts) */
  backPressure: { queueMaxWaiting: number; userMaxWaiting: number; diskMinFreeBytes: number };
  /** largest project file, URL or upload (SPEC.md: 2 GB); lower it to protect small disks */
  maxProjectBytes: number;
  /** largest source of a magic-clips project, by URL or upload */
  maxClipsSourceBytes: number;
  /** stable name of this process for job events (Agenda drops events whose source equals the receiver's name) */
  instanceName: string;
  /** NODE_ENV=production */
  production: boolean;
  /** where the transcription engines' programs are looked up (PATH) */
  searchPath: string;
  /**
   * whisper.cpp: the ggml model file of TRANSCRIBER=whisper (WHISPER_MODEL), and where `npm run model`
   * downloads models from (WHISPER_MODEL_BASE_URL, a mirror; unset, whisper.cpp's published models)
   */
  whisper: { model: string | undefined; modelBaseUrl: string | undefined };
  /** yt-dlp, which finds the media URL of a video page (magic clips); a bare name is looked up on PATH */
  ytdlpPath: string;
  /** an OpenAI-compatible service: the openai transcription engine and the openai AI providers */
  openai: {
    /** as given; each user applies https://api.openai.com when unset */
    baseUrl: string | undefined;
    apiKey: string | undefined;
    transcriptionModel: string;
    videoModel: string;
    badTakesModel: string;
    hookModel: string;
    clipModel: string;
  };
  /** which implementation of each AI feature (src/ai/providers.ts); checked when the feature is first used */
  ai: { broll: string; badTakes: string; hook: string; clips: string };
  /** libx264 preset of exports */
  renderPreset: string;
  /** a render whose output time does not advance for this long is stopped and its export fails (ms) */
  renderStallMs: number;
  /** wait after a webhook's first failed attempt (ms) */
  webhookRetryBaseMs: number;
  /** wait before a failed job's first retry (ms); its later retries wait longer by the job's own factor */
  jobRetryBaseMs: number;
  /** publishing: the wait after a post's first transient failure (ms), doubled after each next one */
  publishRetryBaseMs: number;
  /** the longest wait between checks of an upload a platform is processing (ms); the platform's own suggestion when shorter */
  publishCheckMaxMs: number;
  /** the sandbox platform: how long an upload takes to be ready (ms) */
  sandboxDelayMs: number;
  /** how long a long job's lock lives unrenewed before another worker takes the job over (ms) */
  longJobLockMs: number;
  /** a PostgreSQL server whose scratch databases tests and `db:diff` may use */
  testDatabaseUrl: string | undefined;
  /** ADMIN_DEBUG=1: the operator CLI prints the stack of an unexpected error */
  adminDebug: boolean;
  /** the secret platform tokens are sealed with (TOKEN_ENCRYPTION_KEY); unset, no real account can connect */
  tokenEncryptionKey: string | undefined;
  /** each platform's OAuth client (`<KEY>_CLIENT_ID`, `<KEY>_CLIENT_SECRET`) and host override (`<KEY>_BASE_URL`) */
  platforms: Record<PlatformKey, { clientId: string | undefined; clientSecret: string | undefined; baseUrl: string | undefined }>;
  /** the origins a connection's returnUrl may be on (OAUTH_RETURN_ORIGINS); unset, PUBLIC_URL's own (src/publishing/connections.ts) */
  oauthReturnOrigins: string[] | undefined;
  /** the origins whose pages may call the API from a browser (CORS_ORIGINS): exact origins, or '*' for any; none by default */
  corsOrigins: string[] | '*';
}

export interface ConnectionLimits {
  /** a request's line and headers must arrive within this (ms) */
  headersTimeoutMs: number;
  /** a request's body other than an upload (JSON, GraphQL) must arrive whole within this of its headers (ms) */
  bodyTimeoutMs: number;
  /** an upload (multipart/form-data) is cut off when it sends fewer bytes than this a second… */
  uploadMinBytesPerSecond: number;
  /** …over this long (ms) */
  uploadWindowMs: number;
  /** the largest WebSocket message /graphql reads (bytes) */
  wsMaxPayloadBytes: number;
  /** a WebSocket with no operation running for this long is closed (ms; 0: never) */
  wsIdleTimeoutMs: number;
  /** WebSockets one API key may hold open at once */
  wsMaxSocketsPerKey: number;
}

/** The largest JSON or GraphQL request body (a WebSocket message may not be larger). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

function connectionLimits(env: NodeJS.ProcessEnv): ConnectionLimits {
  const wsMaxPayloadBytes = positive('WS_MAX_PAYLOAD_BYTES', env.WS_MAX_PAYLOAD_BYTES, 1024 * 1024);
  if (wsMaxPayloadBytes > MAX_BODY_BYTES)
    throw new Error(`WS_MAX_PAYLOAD_BYTES must be at most ${MAX_BODY_BYTES} (the HTTP body limit), got "${env.WS_MAX_PAYLOAD_BYTES}"`);
  return {
    headersTimeoutMs: positive('REQUEST_HEADERS_TIMEOUT_MS', env.REQUEST_HEADERS_TIMEOUT_MS, 60_000),
    bodyTimeoutMs: positive('REQUEST_BODY_TIMEOUT_MS', env.REQUEST_BODY_TIMEOUT_MS, 60_000),
    uploadMinBytesPerSecond: int('UPLOAD_MIN_BYTES_PER_SECOND', env.UPLOAD_MIN_BYTES_PER_SECOND, 16 * 1024),
    uploadWindowMs: positive('UPLOAD_WINDOW_MS', env.UPLOAD_WINDOW_MS, 60_000),
    wsMaxPayloadBytes,
    wsIdleTimeoutMs: int('WS_IDLE_TIMEOUT_MS', env.WS_IDLE_TIMEOUT_MS, 60_000),
    wsMaxSocketsPerKey: positive('WS_MAX_SOCKETS_PER_KEY', env.WS_MAX_SOCKETS_PER_KEY, 20),
  };
}

export type StorageSettings =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      /** '' or ending with '/': keys are stored as `<prefix><key>` */
      prefix: string;
      /** S3_ENDPOINT: a MinIO, Ceph or other S3-compatible server; unset, the provider's own */
      endpoint: string | undefined;
      region: string;
      forcePathStyle: boolean;
      /** S3_PRESIGNED_URLS=1: `url()` hands out the store's presigned GET URLs instead of this service's /files/ links */
      presignedUrls: boolean;
    };

/**
 * STORAGE_URL: unset or `file:` keeps media on local disk; `s3://bucket/prefix`
 * puts it in a bucket. Every instance must then verify the others' links, so
 * URL_SIGNING_SECRET is required: the fallback key file lives in one machine's DATA_DIR.
 */
function storageSettings(env: NodeJS.ProcessEnv): StorageSettings {
  const raw = env.STORAGE_URL || '';
  if (!raw || raw.startsWith('file:')) return { kind: 'local' };
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!m) throw new Error(`STORAGE_URL must be file: or s3://bucket/prefix, got "${raw}"`);
  if (!env.URL_SIGNING_SECRET) {
    throw new Error('URL_SIGNING_SECRET is required with STORAGE_URL=s3://…: every instance must sign and verify the same media links');
  }
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint)) throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  return {
    kind: 's3',
    bucket: m[1],
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: env.AWS_REGION || 'us-east-1',
    forcePathStyle: env.S3_FORCE_PATH_STYLE === '1',
    presignedUrls: env.S3_PRESIGNED_URLS === '1',
  };
}

/** A secret of at least `min` characters, refused at start rather than at first use. */
function secret(name: string, value: string | undefined, min: number): string | undefined {
  if (!value) return undefined;
  if (value.length < min) throw new Error(`${name} must be at least ${min} characters (openssl rand -base64 32 gives 44)`);
  return value;
}

function platformSettings(env: NodeJS.ProcessEnv): Config['platforms'] {
  const out = {} as Config['platforms'];
  for (const key of PLATFORM_KEYS) {
    const name = key.toUpperCase();
    const baseUrl = env[`${name}_BASE_URL`] || undefined;
    if (baseUrl && !/^https?:\/\/[^/]+/.test(baseUrl)) throw new Error(`${name}_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
    out[key] = {
      clientId: env[`${name}_CLIENT_ID`] || undefined,
      clientSecret: env[`${name}_CLIENT_SECRET`] || undefined,
      baseUrl: baseUrl?.replace(/\/+$/, ''),
    };
  }
  return out;
}

/** A comma-separated list of http(s) origins (`scheme://host[:port]`), each as browsers write it in `Origin`. */
function origins(name: string, value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = URL.canParse(entry) ? new URL(entry) : null;
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
        throw new Error(`${name} must be comma-separated http(s) origins (scheme://host[:port], no path), got "${entry}"`);
      }
      return url.origin;
    });
}

/** CORS_ORIGINS: exact origins, or `*` alone for any origin. */
function corsOrigins(value: string | undefined): Config['corsOrigins'] {
  if (value?.trim() === '*') return '*';
  if (value?.includes('*')) throw new Error(`CORS_ORIGINS is either * alone or a list of origins, got "${value}"`);
  return origins('CORS_ORIGINS', value ?? '');
}

const TRANSCRIBERS = ['pocketsphinx', 'whisper', 'openai'] as const;

function logFormatOf(value: string | undefined): Config['logFormat'] {
  if (!value || value === 'json') return 'json';
  if (value === 'pretty') return 'pretty';
  throw new Error(`LOG_FORMAT must be json or pretty, got "${value}"`);
}

/** By default, a user runs at most this many jobs of one kind at once while another user's job of that kind waits (workers/fair-claim.ts). */
export const DEFAULT_JOB_USER_CAP = 2;

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/**
 * NODE_ENV=production. The GraphQL schema is built as its module loads, before
 * any Config exists, so it asks this directly.
 */
export const isProduction = (env: NodeJS.ProcessEnv = process.env) => env.NODE_ENV === 'production';

/**
 * The environment of a program of the service's own that a CLI starts (`npm run demo`'s service
 * and operator CLI), which loads its Config from it: this process's, with `defaults` for the
 * variables left unset. It is handed on whole, since the program reads more than this one does.
 */
export function childEnv(defaults: Record<string, string> = {}, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const [name, value] of Object.entries(defaults)) out[name] ??= value;
  return out;
}

/** WHISPER_MODEL_BASE_URL alone, for `npm run model --dir`, which needs none of the service's other settings. */
export const whisperModelBaseUrl = (env: NodeJS.ProcessEnv = process.env): string | undefined => env.WHISPER_MODEL_BASE_URL || undefined;

/** The folders this process looks for programs in (PATH): the runner's default when a program gets no environment of its own. */
export const programSearchPath = (env: NodeJS.ProcessEnv = process.env): string => env.PATH ?? '';

/** Sets a variable a native library reads from this process's environment, unless the operator set it. */
export function defaultLibraryVariable(name: string, value: string): void {
  process.env[name] ??= value;
}

/**
 * The variable in the environment of this service's programs that names the service: a worker finds the programs of
 * the others on the machine by it, and leaves another service's alone (src/jobs/priority.ts, markPrograms). It is the
 * service's to set, not the operator's.
 */
export const SERVICE_VARIABLE = 'CLIPCAST_SERVICE';

/** The service's mark in this process's environment, which the programs it starts inherit (undefined before it is set). */
export const serviceMarkOf = (env: NodeJS.ProcessEnv = process.env): string | undefined => env[SERVICE_VARIABLE] || undefined;

/** `env`, the environment of a program given one of its own, with the service's mark of this process added (if set). */
export function withServiceMark(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const mark = serviceMarkOf();
  return mark ? { ...env, [SERVICE_VARIABLE]: mark } : env;
}

/** Sets the service's mark in this process's environment: every program it starts from now on inherits it. */
export function setServiceMark(mark: string): void {
  process.env[SERVICE_VARIABLE] = mark;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 4000);
  const host = env.HOST || '127.0.0.1';
  const transcriber = (env.TRANSCRIBER || 'pocketsphinx') as Config['transcriber'];
  if (!TRANSCRIBERS.includes(transcriber)) {
    throw new Error(`TRANSCRIBER must be one of ${TRANSCRIBERS.join(', ')}, got "${env.TRANSCRIBER}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    publicUrl: (env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    redisUrl: env.REDIS_URL || undefined,
    mongodbUrl: env.MONGODB_URL || undefined,
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === '1',
    videoPlatformHosts: (env.VIDEO_PLATFORM_HOSTS || 'youtube.com,www.youtube.com,m.youtube.com,youtu.be,vimeo.com')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    transcriber,
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormatOf(env.LOG_FORMAT),
    urlSigningSecret: secret('URL_SIGNING_SECRET', env.URL_SIGNING_SECRET, 32),
    storage: storageSettings(env),
    connections: connectionLimits(env),
    maxDepth: int('GRAPHQL_MAX_DEPTH', env.GRAPHQL_MAX_DEPTH, 12),
    maxComplexity: int('GRAPHQL_MAX_COMPLEXITY', env.GRAPHQL_MAX_COMPLEXITY, 5000),
    jobPollMs: int('JOB_POLL_MS', env.JOB_POLL_MS, databaseUrl ? 5000 : 1000),
    jobUserCap: Math.max(1, int('JOB_USER_CAP', env.JOB_USER_CAP, DEFAULT_JOB_USER_CAP)),
    backPressure: {
      queueMaxWaiting: Math.max(1, int('QUEUE_MAX_WAITING', env.QUEUE_MAX_WAITING, 1000)),
      userMaxWaiting: Math.max(1, int('USER_MAX_WAITING', env.USER_MAX_WAITING, 100)),
      diskMinFreeBytes: int('DISK_MIN_FREE_MB', env.DISK_MIN_FREE_MB, 100) * 2 ** 20,
    },
    maxProjectBytes: int('MAX_PROJECT_BYTES', env.MAX_PROJECT_BYTES, 2 * 1024 ** 3),
    maxClipsSourceBytes: int('MAX_CLIPS_SOURCE_BYTES', env.MAX_CLIPS_SOURCE_BYTES, 10 * 1024 ** 3),
    instanceName: env.INSTANCE_NAME || `${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    production: isProduction(env),
    searchPath: env.PATH ?? '',
    whisper: { model: env.WHISPER_MODEL || undefined, modelBaseUrl: whisperModelBaseUrl(env) },
    ytdlpPath: env.YTDLP_PATH || 'yt-dlp',
    openai: {
      baseUrl: env.OPENAI_BASE_URL || undefined,
      apiKey: env.OPENAI_API_KEY || undefined,
      transcriptionModel: env.OPENAI_TRANSCRIPTION_MODEL || 'whisper-1',
      videoModel: env.OPENAI_VIDEO_MODEL || 'sora-2',
      badTakesModel: env.OPENAI_BAD_TAKES_MODEL || 'gpt-4o-mini',
      hookModel: env.OPENAI_HOOK_MODEL || 'gpt-4o-mini',
      clipModel: env.OPENAI_CLIP_MODEL || 'gpt-4o-mini',
    },
    ai: {
      broll: env.BROLL_PROVIDER || 'offline',
      badTakes: env.BAD_TAKES_PROVIDER || 'offline',
      hook: env.HOOK_WRITER || 'offline',
      clips: env.CLIP_SCORER || 'offline',
    },
    renderPreset: env.RENDER_PRESET || 'veryfast',
    renderStallMs: positive('RENDER_STALL_MS', env.RENDER_STALL_MS, 60_000),
    webhookRetryBaseMs: positive('WEBHOOK_RETRY_BASE_MS', env.WEBHOOK_RETRY_BASE_MS, 10_000),
    jobRetryBaseMs: positive('JOB_RETRY_BASE_MS', env.JOB_RETRY_BASE_MS, 5000),
    publishRetryBaseMs: positive('PUBLISH_RETRY_BASE_MS', env.PUBLISH_RETRY_BASE_MS, 30_000),
    publishCheckMaxMs: positive('PUBLISH_CHECK_MAX_MS', env.PUBLISH_CHECK_MAX_MS, 60_000),
    sandboxDelayMs: int('SANDBOX_PUBLISH_DELAY_MS', env.SANDBOX_PUBLISH_DELAY_MS, 1500),
    longJobLockMs: Number(env.PROJECT_JOB_LOCK_MS) || 2 * 60_000,
    testDatabaseUrl: env.TEST_DATABASE_URL || undefined,
    adminDebug: env.ADMIN_DEBUG === '1',
    tokenEncryptionKey: secret('TOKEN_ENCRYPTION_KEY', env.TOKEN_ENCRYPTION_KEY, 32),
    platforms: platformSettings(env),
    oauthReturnOrigins: env.OAUTH_RETURN_ORIGINS ? origins('OAUTH_RETURN_ORIGINS', env.OAUTH_RETURN_ORIGINS) : undefined,
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
  };
}
