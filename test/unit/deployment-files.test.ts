// docker-compose.yml, the Dockerfile and .env.example agree with the service's roles
// and configuration. CI cannot run them (no image registry), so this reads them as a
// reader would and checks what a wrong line would break at `docker compose up`.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => fs.readFileSync(`${ROOT}${file}`, 'utf8');

/** What every process of a scaled-out deployment reads (README, Scaling out). */
const SHARED_ENV = [
  'DATABASE_URL',
  'REDIS_URL',
  'PUBLIC_URL',
  'URL_SIGNING_SECRET',
  'TOKEN_ENCRYPTION_KEY',
  'STORAGE_URL',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'AWS_REGION',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'DATA_DIR',
];

/** Each role's command (CONTRACT.md, Commands) and the environment it needs. */
const ROLES = {
  server: { command: 'npm run server', env: [...SHARED_ENV, 'HOST', 'PORT'], atLeast: 2 },
  worker: { command: 'npm run worker', env: SHARED_ENV, atLeast: 2 },
} as const;
type Role = keyof typeof ROLES;

/** .ci/run's packages that only the tests, the benchmark and CI's own service checks use. */
const CI_ONLY_PACKAGES = ['chromium', 'pocketsphinx-testdata', 'postgresql-client', 'redis-tools'];

/**
 * Variables the AWS SDK for JavaScript reads itself
 * (https://docs.aws.amazon.com/sdkref/latest/guide/settings-reference.html).
 */
const AWS_SDK_ENV = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AWS_PROFILE', 'AWS_ENDPOINT_URL'];

/** .env.example's variables that only a backing service reads, each with the service. */
const BACKING_ONLY_ENV: Record<string, string> = { POSTGRES_PASSWORD: 'postgres' };

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  configs?: { source: string; target: string }[];
}
interface Compose {
  services: Record<string, Service>;
  configs?: Record<string, { content: string }>;
}

// `<<` merge keys carry the shared settings of both roles, as compose reads them
const compose = parse(read('docker-compose.yml'), { merge: true }) as Compose;
const services = compose.services;

/** `NAME=value` lines of .env.example. */
const envExample = new Map(
  read('.env.example')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], m[2]]),
);

/** A compose value as compose would pass it: `${X:-default}` gives the default, `${X:?…}` and `${X}` a filled secret. */
function resolve(value: string): string {
  return value
    .replace(/\$\{([A-Z0-9_]+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_, name: string, fallback?: string) => fallback ?? `filled-${name.toLowerCase()}`)
    .replace(/\$\$/g, '$');
}

/** The variables a compose value takes from .env. */
const interpolated = (value: string) => [...value.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]);

function servicesOf(role: Role): [string, Service][] {
  return Object.entries(services).filter(([, s]) => s.command?.join(' ') === ROLES[role].command);
}

const replicas = (s: Service) => s.deploy?.replicas ?? 1;

/** The one value of a variable shared by every service of both roles. */
function appValue(name: string): string {
  const values = new Set((['server', 'worker'] as Role[]).flatMap((role) => servicesOf(role).map(([, s]) => s.environment?.[name])));
  expect(values.size, `${name} differs between the servers and workers`).toBe(1);
  return resolve([...values][0]!);
}

/** The variables loadConfig asks for, whatever their values. */
function configVariables(): Set<string> {
  const asked = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_, name) => {
      if (typeof name === 'string') asked.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return asked;
}

describe('docker-compose.yml', () => {
  it('has the backing services and at least two of each role', () => {
    expect(services.postgres?.image).toMatch(/^postgres:16\b/);
    expect(services.redis?.image).toMatch(/^redis:7\b/);
    expect(services.minio?.image).toMatch(/^minio\/minio\b/);
    expect(services.createbuckets?.image).toMatch(/^minio\/mc\b/);
    for (const role of Object.keys(ROLES) as Role[]) {
      const count = servicesOf(role).reduce((n, [, s]) => n + replicas(s), 0);
      expect(count, `${role} processes`).toBeGreaterThanOrEqual(ROLES[role].atLeast);
    }
  });

  it('gives each server and worker every variable its role needs, secrets from .env', () => {
    for (const role of Object.keys(ROLES) as Role[]) {
      for (const [name, service] of servicesOf(role)) {
        const env = service.environment ?? {};
        const missing = ROLES[role].env.filter((v) => !env[v]);
        expect(missing, `${name} lacks`).toEqual([]);
        // a secret left out of .env.example would reach compose unset
        const fromEnvFile = Object.values(env).flatMap(interpolated);
        expect(
          fromEnvFile.filter((v) => !envExample.has(v)),
          `${name} interpolates what .env.example lacks`,
        ).toEqual([]);
      }
    }
  });

  it('refuses to start with an unfilled secret', () => {
    for (const secret of ['URL_SIGNING_SECRET', 'TOKEN_ENCRYPTION_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
      expect(services.server!.environment![secret], secret).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
    }
    expect(services.server!.environment!.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
  });

  it('runs servers and workers from one image built from the Dockerfile', () => {
    const app = [...servicesOf('server'), ...servicesOf('worker')].map(([, s]) => JSON.stringify({ build: s.build, image: s.image }));
    expect(new Set(app).size).toBe(1);
    expect(services.server!.build).toBe('.');
    expect(fs.existsSync(`${ROOT}Dockerfile`)).toBe(true);
  });

  it('shares nothing on disk: no app container mounts a volume, DATA_DIR is its own', () => {
    for (const [name, service] of [...servicesOf('server'), ...servicesOf('worker')]) {
      expect(service.volumes, name).toBeUndefined();
    }
    expect(appValue('DATA_DIR')).toMatch(/^\//);
  });

  it('points DATABASE_URL and REDIS_URL at the postgres and redis services', () => {
    const db = new URL(appValue('DATABASE_URL'));
    const pg = services.postgres!.environment!;
    expect(`${db.hostname}:${db.port}`).toBe('postgres:5432');
    expect(db.username).toBe(pg.POSTGRES_USER);
    expect(db.pathname).toBe(`/${pg.POSTGRES_DB}`);
    expect(interpolated(services.server!.environment!.DATABASE_URL)).toEqual(interpolated(pg.POSTGRES_PASSWORD));
    const redis = new URL(appValue('REDIS_URL'));
    expect(`${redis.protocol}//${redis.hostname}:${redis.port}`).toBe('redis://redis:6379');
  });

  it('stores media in the bucket createbuckets makes, on the minio service, with the same key', () => {
    const storage = new URL(appValue('STORAGE_URL'));
    expect(storage.protocol).toBe('s3:');
    const endpoint = appValue('S3_ENDPOINT');
    expect(new URL(endpoint).hostname).toBe('minio');
    expect(services.minio!.command!.join(' ')).toContain(`--address :${new URL(endpoint).port}`);
    expect(appValue('S3_FORCE_PATH_STYLE')).toBe('1');

    const script = services.createbuckets!.entrypoint!.join(' ');
    const alias = /mc alias set (\S+) (\S+) "\$\$AWS_ACCESS_KEY_ID" "\$\$AWS_SECRET_ACCESS_KEY"/.exec(script);
    expect(alias, script).not.toBeNull();
    expect(alias![2]).toBe(endpoint);
    const made = /mc mb (?:--\S+ )*(\S+?)\/(\S+)/.exec(script);
    expect(made, script).not.toBeNull();
    expect({ alias: made![1], bucket: made![2] }).toEqual({ alias: alias![1], bucket: storage.hostname });

    // MinIO's root account is the key the service signs its requests with
    const minio = services.minio!.environment!;
    const mc = services.createbuckets!.environment!;
    expect(interpolated(minio.MINIO_ROOT_USER)).toEqual(interpolated(services.server!.environment!.AWS_ACCESS_KEY_ID));
    expect(interpolated(minio.MINIO_ROOT_PASSWORD)).toEqual(interpolated(services.server!.environment!.AWS_SECRET_ACCESS_KEY));
    expect(interpolated(mc.AWS_ACCESS_KEY_ID)).toEqual(['AWS_ACCESS_KEY_ID']);
    expect(interpolated(mc.AWS_SECRET_ACCESS_KEY)).toEqual(['AWS_SECRET_ACCESS_KEY']);
  });

  it('starts the app once its dependencies are healthy and the bucket exists', () => {
    for (const [name, service] of [...servicesOf('server'), ...servicesOf('worker')]) {
      expect(service.depends_on, name).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        createbuckets: { condition: 'service_completed_successfully' },
      });
    }
    for (const [name, service] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(services[dep], `${name} depends on ${dep}`).toBeDefined();
        if (condition === 'service_healthy') expect(services[dep]!.healthcheck, `${dep}, awaited healthy by ${name}`).toBeDefined();
      }
    }
  });

  it('checks, exposes and proxies the port the servers listen on, and PUBLIC_URL is the proxy', () => {
    const server = services.server!;
    const port = server.environment!.PORT;
    expect(server.environment!.HOST).toBe('0.0.0.0');
    expect(server.expose).toEqual([port]);
    expect(server.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${port}/healthz`);

    const proxy = services.proxy!;
    const [published, inside] = proxy.ports![0]!.split(':');
    const conf = compose.configs![proxy.configs![0]!.source]!.content;
    expect(conf).toContain(`listen ${inside};`);
    expect(conf).toContain(`http://server:${port};`);
    // WebSocket subscriptions pass through
    expect(conf).toMatch(/proxy_set_header Upgrade \$\$http_upgrade;/);
    expect(new URL(appValue('PUBLIC_URL')).port).toBe(published);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');

  it('builds on Node 20: npm ci in a stage with the compilers of the Whisper engine, an image with the system packages the service runs', () => {
    const [build, image] = dockerfile.split(/^(?=FROM )/m).filter((stage) => stage.startsWith('FROM'));
    expect(build).toMatch(/^FROM node:20-bookworm-slim AS build$/m);
    expect(build).toMatch(/apt-get install [^&]*\bg\+\+ make python3\b/);
    expect(build).toMatch(/^RUN npm ci\b/m);
    expect(image).toMatch(/^FROM node:20-bookworm-slim$/m);
    expect(image).toMatch(/^COPY --from=build \/app \/app$/m);
    const ci = /^PACKAGES=\(([^)]*)\)/m.exec(read('.ci/run'));
    expect(ci).not.toBeNull();
    const wanted = ci![1].split(/\s+/).filter((p) => p && !CI_ONLY_PACKAGES.includes(p));
    const install = /apt-get install ([^&]*)/.exec(image);
    expect(install).not.toBeNull();
    const installed = install![1].split(/\s+/).filter((p) => p && !p.startsWith('-'));
    expect(installed.sort()).toEqual(wanted.sort());
  });
});

describe('.env.example', () => {
  it('names only variables the service, the AWS SDK or a backing service reads, each used by compose', () => {
    const config = configVariables();
    const composeText = read('docker-compose.yml');
    for (const name of envExample.keys()) {
      const reader = config.has(name) ? 'src/config.ts' : AWS_SDK_ENV.includes(name) ? 'AWS SDK' : BACKING_ONLY_ENV[name];
      expect(reader, `${name}: read by nothing`).toBeDefined();
      expect(composeText, `${name}: unused by docker-compose.yml`).toContain(`\${${name}`);
    }
    for (const [name, service] of Object.entries(BACKING_ONLY_ENV)) {
      expect(Object.values(services[service]!.environment ?? {}).flatMap(interpolated), `${name} in ${service}`).toContain(name);
    }
  });
});
