/**
 * The API server the fuzz suite (test/e2e/fuzz.test.ts) talks to: `npm run server`
 * as its own process on a fresh database and DATA_DIR, what it holds open under
 * DATA_DIR, the state a refused request must leave as it was, and the users the
 * requests come from.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { generateApiKey, newWebhookSecret } from '../../src/auth/keys.js';
import { PLATFORM_KEYS, type PlatformKey } from '../../src/catalog/platforms.js';
import { createPrisma, type Db } from '../../src/db/client.js';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { utcDay, writePostMetrics } from '../../src/publishing/analytics.js';
import { createProfile } from '../../src/publishing/profiles.js';
import { createLocalStorage } from '../../src/storage/local.js';
import { signedPath } from '../../src/storage/signing.js';
import { createTestDatabase } from './db.js';
import { mediaFixtures, serveFolder, type FileServer, type Fixtures } from './media.js';
import { spawnServer, type Child } from './process.js';
import { SAMPLE_POSTS } from './publishing.js';
import { transcribedRow } from './rows.js';

/** Tables whose rows may change on a refused request: the idempotency records (a 4xx answer is kept for replay). */
const VOLATILE_TABLES = new Set(['IdempotencyKey']);
/** Columns any authenticated request may move: a key's last use (written at most once a minute) */
const VOLATILE_COLUMNS: Record<string, string[]> = { ApiKey: ['lastUsedAt'] };
/** A storage write's partial file (src/storage/local.ts) */
const PARTIAL = /^\..+\.tmp$/;

export interface Snapshot {
  /** table -> row count and a checksum of every row */
  tables: Map<string, string>;
  /** path under DATA_DIR -> what it is (a folder, or a file's size and mtime); temporary files left out */
  files: Map<string, string>;
}

/** What differs between two snapshots, one line each; empty when nothing does. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  const compare = (what: string, a: Map<string, string>, b: Map<string, string>) => {
    for (const [k, v] of a) if (b.get(k) !== v) out.push(`${what} ${k}: ${v} -> ${b.get(k) ?? '(gone)'}`);
    for (const [k, v] of b) if (!a.has(k)) out.push(`${what} ${k}: (none) -> ${v}`);
  };
  compare('table', before.tables, after.tables);
  compare('file', before.files, after.files);
  return out;
}

export interface Actor {
  id: string;
  key: string;
  /** resources of the actor, by kind */
  projects: string[];
  processingProject: string;
  presets: string[];
  themes: string[];
  media: { audio: string; video: string; image: string; pending: string };
  /** other keys of the actor, never the one it sends */
  spareKeys: string[];
  webhooks: string[];
  /** whether the actor has API publishing (an actor without it is refused publishProject, 403) */
  apiPublishing: boolean;
  /** a completed project with a stored render: the one publishing takes */
  exportedProject: string;
  /** a project whose publication is being delivered: the only one a project delete may name, refused */
  busyProject: string;
  /** the primary profile, every platform connected; then one with a private shortvideo account and microblog only; then spareProfile */
  profiles: string[];
  /** a profile with every platform but prosocial connected, the only one a disconnect may name: the primary profile stays whole for valid publishes */
  spareProfile: string;
  /** publications: scheduled ones (cancellable) first, then one processing and one published with metrics */
  publications: string[];
  /** nextCursor of the first page of the listing, one per sort */
  listingCursors: string[];
}

export interface Foreign {
  project: string;
  preset: string;
  theme: string;
  media: string;
  apiKey: string;
  webhook: string;
  exportedProject: string;
  /** a scheduled publication: cancelling it would succeed for its owner */
  publication: string;
  profile: string;
}

export interface FuzzServer {
  url: string;
  pid: number;
  dataDir: string;
  fixtures: Fixtures;
  /** serves the media fixtures on 127.0.0.1 (the server fetches from it) */
  files: FileServer;
  /** largest project file the server takes (MAX_PROJECT_BYTES) */
  maxProjectBytes: number;
  db: Db;
  /** the process is still running */
  alive(): boolean;
  /** GET /healthz answers 200 */
  healthy(): Promise<boolean>;
  /** what the process printed (LOG_LEVEL=warn) */
  output(): string;
  /** files of DATA_DIR the server process holds open (/proc/<pid>/fd) */
  openFiles(): Promise<string[]>;
  /** temporary files under DATA_DIR: the work dir's entries and partial storage writes */
  tempFiles(): Promise<string[]>;
  snapshot(): Promise<Snapshot>;
  /** a signed /files link of an object the server stored */
  signedFile: { path: string; key: string; size: number };
  signedPathFor(key: string, exp: number, download?: string): string;
  /** a user with a key, credits and one resource of each kind; API publishing unless told otherwise, and the API credits left once its publications are made when told */
  createActor(label: string, opts?: { apiPublishing?: boolean; apiCredits?: number }): Promise<Actor>;
  /** resources of a user who is none of the actors: each of their ids is NOT_FOUND to an actor */
  foreign: Foreign;
  stop(): Promise<void>;
}

const URL_SECRET = 'fuzz-url-signing-secret-0123456789';

/** The server's connection limits, short enough that the slow-body and websocket phases reach them (README, Connection limits). */
export const FUZZ_LIMITS = {
  headersTimeoutMs: 2_000,
  bodyTimeoutMs: 2_000,
  uploadWindowMs: 2_000,
  wsMaxPayloadBytes: 64 * 1024,
  wsMaxSocketsPerKey: 4,
  wsIdleTimeoutMs: 1_000,
};

/**
 * Platforms whose OAuth client the server is given, so that connecting an
 * account on them is accepted (connectAccount only writes its attempt and
 * builds the consent URL: no platform is called). The others are left
 * unconfigured, one of them with half its client, whatever the environment
 * holds, and connecting on them is refused. Every platform's host is a closed
 * port here, so that nothing the server does could reach a platform.
 */
export const CONFIGURED_PLATFORMS: readonly PlatformKey[] = ['videoshare', 'shortvideo', 'microblog'];

/** The origins a connection's returnUrl may be on (OAUTH_RETURN_ORIGINS). */
export const RETURN_ORIGINS = ['https://localhost:1', 'http://127.0.0.1:3000', 'http://[::1]:1', 'https://localhost'];

function platformEnv(): Record<string, string> {
  const env: Record<string, string> = { TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64url'), OAUTH_RETURN_ORIGINS: RETURN_ORIGINS.join(',') };
  for (const key of PLATFORM_KEYS) {
    const name = key.toUpperCase();
    const configured = CONFIGURED_PLATFORMS.includes(key);
    env[`${name}_CLIENT_ID`] = configured || key === 'socialnet' ? `fuzz-${key}-client` : '';
    env[`${name}_CLIENT_SECRET`] = configured ? `fuzz-${key}-secret` : '';
    env[`${name}_BASE_URL`] = 'http://127.0.0.1:1';
  }
  return env;
}

const WORDS = [
  { id: 'w_a', text: 'Hello', type: 'word', startTime: 0.1, endTime: 0.5 },
  { id: 'w_b', text: '', type: 'silence', startTime: 0.5, endTime: 1.2 },
  { id: 'w_c', text: 'world', type: 'word', startTime: 1.2, endTime: 1.6 },
  { id: 'w_d', text: '.', type: 'punctuation', startTime: 1.6, endTime: 1.6 },
  { id: 'w_e', text: 'again', type: 'word', startTime: 1.7, endTime: 2.4 },
];

export async function startFuzzServer(): Promise<FuzzServer> {
  const fixtures = await mediaFixtures();
  const [database, files, dataDir] = await Promise.all([createTestDatabase(), serveFolder(fixtures.dir), fs.mkdtemp(path.join(os.tmpdir(), 'fuzz-data-'))]);
  const video = await fs.stat(fixtures.video);
  // low enough that a fuzzed upload passes it, high enough for the fixture video
  const maxProjectBytes = Math.max(2 * video.size, 256 * 1024);
  let child: (Child & { url: string }) | undefined;
  let db: Db | undefined;
  const client = new pg.Client({ connectionString: database.url });
  try {
    child = await spawnServer({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_NETWORK: '1',
      URL_SIGNING_SECRET: URL_SECRET,
      MAX_PROJECT_BYTES: String(maxProjectBytes),
      INSTANCE_NAME: 'fuzz-server',
      REQUEST_HEADERS_TIMEOUT_MS: String(FUZZ_LIMITS.headersTimeoutMs),
      REQUEST_BODY_TIMEOUT_MS: String(FUZZ_LIMITS.bodyTimeoutMs),
      UPLOAD_WINDOW_MS: String(FUZZ_LIMITS.uploadWindowMs),
      WS_MAX_PAYLOAD_BYTES: String(FUZZ_LIMITS.wsMaxPayloadBytes),
      WS_MAX_SOCKETS_PER_KEY: String(FUZZ_LIMITS.wsMaxSocketsPerKey),
      WS_IDLE_TIMEOUT_MS: String(FUZZ_LIMITS.wsIdleTimeoutMs),
      ...platformEnv(),
    });
    db = createPrisma(database.url, { max: 4 });
    await client.connect();
  } catch (e) {
    await child?.stop('SIGKILL');
    await db?.$disconnect();
    await client.end().catch(() => {});
    await files.close();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    throw e;
  }
  const server = child;
  const prisma = db;
  const pid = server.proc.pid!;

  const tables = (
    await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )
  ).rows
    .map((r) => r.name)
    .filter((t) => !VOLATILE_TABLES.has(t));
  // one statement for every table: its row count and a checksum of its rows in a stable order
  const rowText = (t: string) => (VOLATILE_COLUMNS[t] ? `(to_jsonb(x) ${VOLATILE_COLUMNS[t].map((c) => `- '${c}'`).join(' ')})::text` : 'x::text');
  const checksumSql = tables
    .map(
      (t) =>
        `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(md5(${rowText(t)}), '' ORDER BY md5(${rowText(t)}))), '') AS v FROM "${t}" x`,
    )
    .join(' UNION ALL ');

  async function walk(dir: string, visit: (rel: string, stat: import('node:fs').Stats, name: string) => void, rel = ''): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return; // gone meanwhile
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const st = await fs.lstat(path.join(dir, r)).catch(() => null);
      if (!st) continue;
      visit(r, st, e.name);
      if (st.isDirectory()) await walk(dir, visit, r);
    }
  }

  const isTemp = (rel: string, name: string) => rel === 'tmp' || rel.startsWith('tmp/') || PARTIAL.test(name);

  const api = {
    async post(pathname: string, key: string, body: unknown) {
      const res = await fetch(server.url + pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as any;
      if (!res.ok || json.errors) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
    gql(key: string, query: string, variables: Record<string, unknown>) {
      return api.post('/graphql', key, { query, variables }).then((r) => r.data);
    },
    async get(pathname: string, key: string) {
      const res = await fetch(server.url + pathname, { headers: { 'x-api-key': key } });
      const json = (await res.json()) as any;
      if (!res.ok) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
  };

  // the store the server reads, written here for renders no worker made
  const storage = createLocalStorage({ root: path.join(dataDir, 'media'), publicUrl: server.url, secret: URL_SECRET });
  const renderBytes = await fs.readFile(fixtures.video);

  async function createUserRow(label: string) {
    const { key, hash, prefix } = generateApiKey();
    const user = await prisma.user.create({
      data: {
        email: `fuzz-${label}-${crypto.randomBytes(4).toString('hex')}@test.local`,
        webhookSecret: newWebhookSecret(),
        apiCredits: 50,
        aiCredits: 30,
        clipCredits: 5,
        clipsSubscription: true,
        apiPublishing: true,
        apiKeys: { create: { hash, prefix } },
      },
      include: { apiKeys: true },
    });
    return { id: user.id, key, keyId: user.apiKeys[0].id };
  }

  /** a transcribed project row: the state the pipeline reaches only after a worker transcribed it */
  const projectRow = (userId: string, data: Record<string, unknown> = {}) => transcribedRow(prisma, userId, WORDS, { title: 'Fuzz', ...data });

  const mediaRow = (userId: string, type: 'AUDIO' | 'VIDEO' | 'IMAGE', fileName: string, status: 'ready' | 'pending' = 'ready') =>
    prisma.userMedia.create({
      data: { userId, type, status, fileName, storageKey: `user-media/fuzz/${fileName}`, metadata: { fileSize: 1, duration: 3, width: 64, height: 48 } },
    });

  const webhookRow = (userId: string, status: 'delivered' | 'failed' | 'pending') =>
    prisma.webhookDelivery.create({
      data: {
        userId,
        event: 'project.completed',
        dedupeKey: crypto.randomUUID(),
        subjectId: crypto.randomUUID(),
        url: 'https://127.0.0.1:1/hook',
        payload: { type: 'project.completed' },
        status,
        attempts: status === 'pending' ? 0 : 1,
        ...(status === 'delivered'
          ? { deliveredAt: new Date(), lastStatusCode: 200 }
          : status === 'failed'
            ? { lastError: 'refused', lastStatusCode: 500 }
            : { nextAttemptAt: new Date(Date.now() + 3_600_000) }),
      },
    });

  const MEMBERS = SAMPLE_POSTS;
  const DAY_MS = 86_400_000;

  /**
   * What publishing reads and writes for a user: three profiles with sandbox
   * accounts (the third one's the fuzz may disconnect), an exported project
   * whose render is stored, publications made through the API (scheduled ones
   * a cancel takes back, and one processing that no worker moves on: the
   * server runs none) and one published with synced metrics, so the listing
   * and the statistics have rows and totals to read.
   */
  async function publishingOf(user: { id: string; key: string }) {
    const primary = await createProfile(prisma, user.id, { name: 'Brand', primary: true });
    const accounts: Record<string, string> = {};
    for (const platform of PLATFORM_KEYS)
      accounts[platform] = (await connectSandboxAccount(prisma, primary.id, { platform, isPrivate: false, followers: 120 })).id;
    const second = await createProfile(prisma, user.id, { name: 'Private' });
    await connectSandboxAccount(prisma, second.id, { platform: 'shortvideo', isPrivate: true, followers: 10 });
    await connectSandboxAccount(prisma, second.id, { platform: 'microblog', isPrivate: false, followers: 10 });
    // every platform but one: a disconnect there finds no account (404)
    const spare = await createProfile(prisma, user.id, { name: 'Spare' });
    for (const platform of PLATFORM_KEYS.filter((k) => k !== 'prosocial'))
      await connectSandboxAccount(prisma, spare.id, { platform, isPrivate: false, followers: 5 });

    const renderedKey = `renders/${user.id}/fuzz.mp4`;
    await storage.put(renderedKey, Readable.from(renderBytes), { contentType: 'video/mp4' });
    const exported = await projectRow(user.id, { title: 'Fuzz exported', renderedKey });

    const publish = async (platforms: string[], scheduledFor?: Date) => {
      const body = {
        platforms: Object.fromEntries(platforms.map((k) => [k, MEMBERS[k]])),
        ...(scheduledFor ? { scheduledFor: scheduledFor.toISOString() } : {}),
      };
      return (await api.post(`/v1/projects/${exported.id}/publish`, user.key, body)).id as string;
    };
    // mostly scheduled, so that cancels find some left when a few have gone
    const publications: string[] = [];
    for (const [i, platforms] of [
      ['microblog'],
      ['socialnet', 'prosocial'],
      ['videoshare'],
      ['photoshare', 'shortvideo'],
      ['prosocial'],
      ['microblog', 'socialnet'],
    ].entries()) {
      publications.push(await publish(platforms, new Date(Date.now() + (i + 1) * DAY_MS)));
    }
    publications.push(await publish(['microblog', 'shortvideo']));

    // published yesterday, its posts synced today
    const published = `pub_${crypto.randomUUID()}`;
    const at = new Date(Date.now() - DAY_MS);
    await prisma.publication.create({
      data: {
        id: published,
        userId: user.id,
        projectId: exported.id,
        projectTitle: exported.title,
        profileId: primary.id,
        publishedAt: at,
        status: 'published',
        platforms: ['microblog', 'socialnet'],
        mediaKey: renderedKey,
        posts: {
          create: (['microblog', 'socialnet'] as const).map((platform) => ({
            platform,
            accountId: accounts[platform],
            content: MEMBERS[platform] as object,
            publishStatus: 'published',
            platformPostId: crypto.randomBytes(8).toString('hex'),
            publishedAt: at,
          })),
        },
      },
    });
    const posts = await prisma.post.findMany({ where: { publicationId: published }, orderBy: { platform: 'asc' } });
    await writePostMetrics(
      prisma,
      posts.map((p, i) => ({ id: p.id, metrics: { views: 300 + 100 * i, likes: 20, comments: 3, shares: 2 + i, impressions: 900, reach: 280, clicks: 7 } })),
      utcDay(new Date()),
    );
    publications.push(published);

    // a project whose publication is being delivered (its post due tomorrow): deleting it is refused, changing nothing
    const busy = await projectRow(user.id, { title: 'Fuzz busy', renderedKey });
    await prisma.publication.create({
      data: {
        id: `pub_${crypto.randomUUID()}`,
        userId: user.id,
        projectId: busy.id,
        projectTitle: busy.title,
        profileId: primary.id,
        publishedAt: new Date(),
        status: 'processing',
        platforms: ['microblog'],
        mediaKey: renderedKey,
        posts: {
          create: [
            {
              platform: 'microblog',
              accountId: accounts.microblog,
              content: MEMBERS.microblog as object,
              publishStatus: 'processing',
              nextAttemptAt: new Date(Date.now() + DAY_MS),
            },
          ],
        },
      },
    });

    const listingCursors: string[] = [];
    for (const sortBy of ['publishedAt', 'views', 'engagement']) {
      const page = await api.get(`/v1/projects/published?limit=2&sortBy=${sortBy}`, user.key);
      if (page.pagination.nextCursor) listingCursors.push(page.pagination.nextCursor);
    }
    return {
      exportedProject: exported.id,
      busyProject: busy.id,
      profiles: [primary.id, second.id, spare.id],
      spareProfile: spare.id,
      publications,
      listingCursors,
    };
  }

  async function createActor(label: string, { apiPublishing = true, apiCredits }: { apiPublishing?: boolean; apiCredits?: number } = {}): Promise<Actor> {
    const user = await createUserRow(label);
    const spare = await Promise.all(
      [0, 1].map(() => prisma.apiKey.create({ data: { userId: user.id, ...(({ hash, prefix }) => ({ hash, prefix }))(generateApiKey()) } })),
    );
    const projects = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => projectRow(user.id, { title: `Fuzz ${i}` })));
    const processing = await projectRow(user.id, { status: 'processing', transcriptionStatus: 'PROCESSING', transcript: undefined });
    const [audio, videoMedia, image, pending] = await Promise.all([
      mediaRow(user.id, 'AUDIO', 'a.mp3'),
      mediaRow(user.id, 'VIDEO', 'v.mp4'),
      mediaRow(user.id, 'IMAGE', 'i.png'),
      mediaRow(user.id, 'VIDEO', 'p.mp4', 'pending'),
    ]);
    const webhooks = await Promise.all((['delivered', 'failed', 'pending'] as const).map((s) => webhookRow(user.id, s)));
    const publishing = await publishingOf(user);
    // the publications above went through the API; without the plan, only publishing itself is refused
    if (!apiPublishing) await prisma.user.update({ where: { id: user.id }, data: { apiPublishing: false } });
    if (apiCredits !== undefined) await prisma.user.update({ where: { id: user.id }, data: { apiCredits } });
    // presets and themes through the API, as a user makes them
    const presets: string[] = [];
    for (const p of projects.slice(0, 2)) {
      const d = await api.gql(user.key, 'mutation($p: ID!, $n: String!) { createPresetFromProject(projectId: $p, name: $n) { id } }', {
        p: p.id,
        n: `Preset ${label}`,
      });
      presets.push(d.createPresetFromProject.id);
    }
    const themes: string[] = [];
    for (const name of ['Bold', 'Quiet', 'Third']) {
      const d = await api.gql(user.key, 'mutation($i: UserThemeInput!) { createUserTheme(input: $i) { id } }', {
        i: { name, style: { font: { size: 64 }, fill: '#FFFFFF' } },
      });
      themes.push(d.createUserTheme.id);
    }
    return {
      id: user.id,
      key: user.key,
      projects: projects.map((p) => p.id),
      processingProject: processing.id,
      presets,
      themes,
      media: { audio: audio.id, video: videoMedia.id, image: image.id, pending: pending.id },
      spareKeys: spare.map((k) => k.id),
      webhooks: webhooks.map((w) => w.id),
      apiPublishing,
      ...publishing,
    };
  }

  let foreign: Foreign;
  let signedFile: FuzzServer['signedFile'];
  try {
    const other = await createActor('foreign');
    const otherKey = await prisma.apiKey.findFirstOrThrow({ where: { userId: other.id, id: { notIn: other.spareKeys } } });
    foreign = {
      project: other.projects[0],
      preset: other.presets[0],
      theme: other.themes[0],
      media: other.media.video,
      apiKey: otherKey.id,
      webhook: other.webhooks[1],
      exportedProject: other.exportedProject,
      publication: other.publications[0],
      profile: other.profiles[0],
    };
    // an object the server stored itself, served by the file route through a signed link
    const form = new FormData();
    form.set('file', new Blob([await fs.readFile(fixtures.audio)], { type: 'audio/mpeg' }), 'tone.mp3');
    const res = await fetch(`${server.url}/v1/user-media/upload`, { method: 'POST', headers: { 'x-api-key': other.key }, body: form });
    const { userMediaId } = (await res.json()) as { userMediaId: string };
    if (res.status !== 201) throw new Error(`upload for the file route: ${res.status}`);
    const stored = await prisma.userMedia.findUniqueOrThrow({ where: { id: userMediaId } });
    const key = stored.storageKey!;
    const size = (await fs.stat(fixtures.audio)).size;
    signedFile = { key, size, path: signedPath(key, Math.floor(Date.now() / 1000) + 86_400, URL_SECRET) };
  } catch (e) {
    await server.stop('SIGKILL');
    throw new Error(`${(e as Error).message}\n${server.output().slice(-4000)}`);
  }

  return {
    url: server.url,
    pid,
    dataDir,
    fixtures,
    files,
    maxProjectBytes,
    db: prisma,
    alive: () => server.proc.exitCode === null && server.proc.signalCode === null,
    healthy: () =>
      fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(10_000) }).then(
        (r) => r.status === 200,
        () => false,
      ),
    output: () => server.output(),
    async openFiles() {
      const fds = await fs.readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      const targets = await Promise.all(fds.map((fd) => fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
      return targets.filter((t) => t === dataDir || t.startsWith(`${dataDir}/`));
    },
    async tempFiles() {
      const found: string[] = [];
      await walk(dataDir, (rel, st, name) => {
        // the work dir itself stays; what is in it is some request's or job's
        if (rel !== 'tmp' && isTemp(rel, name)) found.push(`${rel}${st.isDirectory() ? '/' : ''}`);
      });
      return found.sort();
    },
    async snapshot() {
      const [rows, fileMap] = await Promise.all([
        client.query<{ t: string; v: string }>(checksumSql),
        (async () => {
          const m = new Map<string, string>();
          await walk(dataDir, (rel, st, name) => {
            if (isTemp(rel, name)) return;
            m.set(rel, st.isDirectory() ? 'folder' : `${st.size} bytes, mtime ${st.mtimeMs}`);
          });
          return m;
        })(),
      ]);
      return { tables: new Map(rows.rows.map((r) => [r.t, r.v])), files: fileMap };
    },
    signedFile,
    signedPathFor: (key, exp, download) => signedPath(key, exp, URL_SECRET, download),
    createActor,
    foreign,
    async stop() {
      await server.stop();
      await prisma.$disconnect();
      await client.end().catch(() => {});
      await files.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
