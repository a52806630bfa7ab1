import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPrisma, type Db } from '../../src/db/client.ts';
import { createEmptyDatabase, createTestDatabase, serverUrl, type TestDatabase } from '../support/db.ts';
import { mediaFixtures, serveFolder } from '../support/media.ts';

// The operator CLI run as a separate process, exactly as operators and the acceptance suite run it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The CLI as `npm run admin` runs it (through tsx), in one process instead of tsx's launcher and its child. */
const runCli = (args: string[], env: NodeJS.ProcessEnv) => spawnRun(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], env);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: the service's variables only where a test sets them. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'TEST_DATABASE_URL']) delete env[k];
  return { ...env, ...extra };
}

function spawnRun(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function cliFor(url: string): (...args: string[]) => Promise<Run> {
  return (...args) => runCli(args, baseEnv({ DATABASE_URL: url }));
}

/** The one JSON object of a successful call, with exactly the expected keys. */
function ok(r: Run, keys: string[]): Record<string, unknown> {
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const obj = JSON.parse(lines[0]) as Record<string, unknown>;
  expect(Object.keys(obj).sort()).toEqual([...keys].sort());
  return obj;
}

/** A failed call: a non-zero exit, one message on stderr, nothing on stdout. */
function failed(r: Run, code: number, message: RegExp): void {
  expect(r.stdout).toBe('');
  expect(r.code).toBe(code);
  const ours = r.stderr.split('\n').filter((l) => l.startsWith('admin:'));
  expect(ours).toHaveLength(1);
  expect(ours[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

let database: TestDatabase;
let dbUrl: string;
const cli = (...args: string[]) => cliFor(dbUrl)(...args);
let db: Db;
/** A user shared by the tests that only need one to hang records on. */
let shared: { userId: string; apiKey: string };

const emailOf = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@cli.test`;

/** A user made through the CLI, with its first key. */
async function newUser(...flags: string[]): Promise<{ userId: string; apiKey: string }> {
  const r = ok(await cli('user', 'create', '--email', emailOf('u'), ...flags), ['userId', 'apiKey']);
  return r as { userId: string; apiKey: string };
}

beforeAll(async () => {
  // On a server, an empty database: the first call applies its migrations. Without one, the
  // calls reach an embedded PGlite server of this process through DATABASE_URL (migrated here).
  database = serverUrl() ? await createEmptyDatabase('cli') : await createTestDatabase();
  dbUrl = database.url;
  db = createPrisma(dbUrl, { max: 2 });
  // later calls run in parallel
  shared = await newUser();
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

// every test spawns processes, and they all run at once: generous limits for a busy two-core machine
describe.concurrent('operator CLI', { timeout: 120_000 }, () => {
  test('user create with every flag: balances, entitlements, ledger grants, hashed key', async () => {
    const email = emailOf('full');
    const r = ok(
      await cli(
        'user',
        'create',
        '--email',
        email,
        '--api-credits',
        '1000',
        '--ai-credits=unlimited',
        '--clip-credits',
        '20',
        '--clips-subscription',
        '--api-publishing',
      ),
      ['userId', 'apiKey'],
    );
    expect(r.userId).toMatch(UUID);
    expect(r.apiKey).toMatch(/^sk-/);
    const user = await db.user.findUniqueOrThrow({ where: { id: r.userId as string }, include: { apiKeys: true, ledger: true } });
    expect(user).toMatchObject({ email, apiCredits: 1000, aiCredits: null, clipCredits: 20, clipsSubscription: true, apiPublishing: true });
    expect(user.webhookSecret).toMatch(/^whsec_/);
    expect(user.apiKeys).toHaveLength(1);
    expect(user.apiKeys[0].hash).toBe(sha256(r.apiKey as string));
    expect((r.apiKey as string).startsWith(user.apiKeys[0].prefix)).toBe(true);
    expect(user.apiKeys[0].revokedAt).toBeNull();
    const grants = user.ledger.map((l) => [l.kind, l.delta, l.reason]).sort();
    expect(grants).toEqual([
      ['api', 1000, 'operator grant'],
      ['clip', 20, 'operator grant'],
    ]);
  });

  test('user create defaults: 0 API, 10 AI, 0 clip credits, no entitlements; the AI grant is in the ledger', async () => {
    const user = await db.user.findUniqueOrThrow({ where: { id: shared.userId }, include: { ledger: true } });
    expect(user).toMatchObject({ apiCredits: 0, aiCredits: 10, clipCredits: 0, clipsSubscription: false, apiPublishing: false });
    expect(user.ledger.map((l) => [l.kind, l.delta, l.reason])).toEqual([['ai', 10, 'operator grant']]);
  });

  test('user create refuses a duplicate email and bad numbers', async () => {
    const email = emailOf('dup');
    ok(await cli('user', 'create', '--email', email), ['userId', 'apiKey']);
    const [dup, negative, word, huge] = await Promise.all([
      cli('user', 'create', '--email', email),
      cli('user', 'create', '--email', emailOf('n'), '--api-credits', '-1'),
      cli('user', 'create', '--email', emailOf('n'), '--ai-credits', 'lots'),
      cli('user', 'create', '--email', emailOf('n'), '--clip-credits', '99999999999'),
    ]);
    failed(dup, 1, /already exists/);
    failed(negative, 2, /--api-credits/);
    failed(word, 2, /--ai-credits/);
    failed(huge, 2, /--clip-credits/);
    expect(await db.user.count({ where: { email } })).toBe(1);
  });

  test('key create adds a second key; key revoke sets revokedAt on that key only', async () => {
    const { userId, apiKey: first } = await newUser();
    const { apiKey: second } = ok(await cli('key', 'create', '--user', userId), ['apiKey']) as { apiKey: string };
    expect(second).toMatch(/^sk-/);
    expect(second).not.toBe(first);
    expect(ok(await cli('key', 'revoke', '--key', second), ['revoked'])).toEqual({ revoked: true });
    const keys = await db.apiKey.findMany({ where: { userId } });
    expect(keys).toHaveLength(2);
    const byHash = new Map(keys.map((k) => [k.hash, k]));
    expect(byHash.get(sha256(first))?.revokedAt).toBeNull();
    expect(byHash.get(sha256(second))?.revokedAt).toBeInstanceOf(Date);
    // no column holds a key itself
    expect(JSON.stringify(keys)).not.toContain(first);
    expect(JSON.stringify(keys)).not.toContain(second);
  });

  test('profile create: the first profile is primary; --primary moves the flag', async () => {
    const { userId } = await newUser();
    const { profileId: a } = ok(await cli('profile', 'create', '--user', userId, '--name', 'First'), ['profileId']) as { profileId: string };
    const { profileId: b } = ok(await cli('profile', 'create', '--user', userId, '--name', 'Second'), ['profileId']) as { profileId: string };
    const primaries = async () => (await db.profile.findMany({ where: { userId, isPrimary: true } })).map((p) => p.id);
    expect(await primaries()).toEqual([a]);
    const { profileId: c } = ok(await cli('profile', 'create', '--user', userId, '--name', 'Third', '--primary'), ['profileId']) as { profileId: string };
    expect(await primaries()).toEqual([c]);
    expect(await db.profile.findUniqueOrThrow({ where: { id: b } })).toMatchObject({ name: 'Second', isPrimary: false });
  });

  test('profile create run concurrently for a new user leaves exactly one primary', async () => {
    const { userId } = await newUser();
    const runs = await Promise.all(['p1', 'p2', 'p3'].map((n) => cli('profile', 'create', '--user', userId, '--name', n)));
    runs.forEach((r) => ok(r, ['profileId']));
    expect(await db.profile.count({ where: { userId } })).toBe(3);
    expect(await db.profile.count({ where: { userId, isPrimary: true } })).toBe(1);
  });

  test('account connect: sandbox account; a second connect of the platform updates it', async () => {
    const { profileId } = ok(await cli('profile', 'create', '--user', shared.userId, '--name', 'Main'), ['profileId']) as { profileId: string };
    const [first, other] = await Promise.all([
      cli('account', 'connect', '--profile', profileId, '--platform', 'videoshare', '--private', '--followers', '1200'),
      cli('account', 'connect', '--profile', profileId, '--platform', 'prosocial'),
    ]);
    const { accountId } = ok(first, ['accountId']) as { accountId: string };
    const { accountId: otherId } = ok(other, ['accountId']) as { accountId: string };
    expect(accountId).toMatch(UUID);
    expect(await db.socialAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      profileId,
      platform: 'videoshare',
      connector: 'sandbox',
      externalId: expect.stringMatching(/^sandbox-videoshare-\w+$/),
      isPrivate: true,
      followers: 1200,
    });
    expect(await db.socialAccount.findUniqueOrThrow({ where: { id: otherId } })).toMatchObject({ platform: 'prosocial', isPrivate: false, followers: 0 });

    const again = ok(await cli('account', 'connect', '--profile', profileId, '--platform', 'videoshare', '--followers=50'), ['accountId']);
    expect(again.accountId).toBe(accountId);
    expect(await db.socialAccount.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ isPrivate: false, followers: 50 });
    expect(await db.socialAccount.count({ where: { profileId } })).toBe(2);
  });

  test('preset create: configured kinds get saved media, toggles stay off', async () => {
    const { userId } = shared;
    const [configured, bare, unknownKind, longName] = await Promise.all([
      cli('preset', 'create', '--user', userId, '--name', 'Brand kit', '--configured', 'captions,music,colorFilter'),
      cli('preset', 'create', '--user', userId, '--name', 'Plain'),
      cli('preset', 'create', '--user', userId, '--name', 'Bad', '--configured', 'captions,sparkles'),
      cli('preset', 'create', '--user', userId, '--name', 'x'.repeat(101)),
    ]);
    const { presetId } = ok(configured, ['presetId']) as { presetId: string };
    const preset = await db.preset.findUniqueOrThrow({ where: { id: presetId } });
    expect(preset).toMatchObject({ userId, name: 'Brand kit', captions: false, music: false, colorFilter: false, hookTitle: false, logo: false });
    expect(preset.savedCaptions).toMatchObject({ templateName: expect.any(String) });
    expect(preset.savedMusic).toMatchObject({ volume: 50 });
    expect(preset.savedColorFilter).toEqual(expect.any(Object));
    expect(preset.savedHookTitle).toBeNull();
    expect(preset.savedLogo).toBeNull();

    const plain = await db.preset.findUniqueOrThrow({ where: { id: (ok(bare, ['presetId']) as { presetId: string }).presetId } });
    expect([plain.savedCaptions, plain.savedHookTitle, plain.savedLogo, plain.savedColorFilter, plain.savedMusic]).toEqual([null, null, null, null, null]);

    failed(unknownKind, 2, /sparkles/);
    failed(longName, 2, /--name/);
    expect(await db.preset.count({ where: { userId, name: { in: ['Bad', 'x'.repeat(101)] } } })).toBe(0);
  });

  test('theme create and music add: the track is fetched and probed at once', async () => {
    const { userId } = shared;
    const fx = await mediaFixtures();
    const files = await serveFolder(fx.dir);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cli-music-'));
    // the fixture server is on loopback, which only ALLOW_PRIVATE_NETWORK lets through
    const local = (...args: string[]) => runCli(args, baseEnv({ DATABASE_URL: dbUrl, DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORK: '1' }));
    try {
      const [theme, badUrl, ftpUrl] = await Promise.all([
        cli('theme', 'create', '--user', userId, '--name', 'Bold yellow'),
        cli('music', 'add', '--name', 'Broken', '--url', 'not a url'),
        cli('music', 'add', '--name', 'Old', '--url', 'ftp://media.example/a.mp3'),
      ]);
      // the calls that fetch run one at a time: a fetch must be answered within 10 s, and five other
      // CLIs starting beside it on a machine busy with another test file have taken longer
      const track = await local('music', 'add', '--name', 'Upbeat', '--url', files.url('tone.mp3'));
      const page = await local('music', 'add', '--name', 'A page', '--url', files.url('page.html'));
      const unreachable = await local('music', 'add', '--name', 'Nowhere', '--url', 'http://127.0.0.1:9/music.mp3');
      const { userThemeId } = ok(theme, ['userThemeId']) as { userThemeId: string };
      expect(await db.userTheme.findUniqueOrThrow({ where: { id: userThemeId } })).toMatchObject({ userId, name: 'Bold yellow', basedOn: null, style: {} });
      const { trackId } = ok(track, ['trackId']) as { trackId: string };
      const row = await db.musicTrack.findUniqueOrThrow({ where: { id: trackId } });
      expect(row).toMatchObject({ name: 'Upbeat', sourceUrl: files.url('tone.mp3'), status: 'ready', storageKey: expect.stringMatching(/^music\//) });
      expect(row.duration).toBeCloseTo(3, 0);
      await expect(fs.stat(path.join(dataDir, 'media', row.storageKey!))).resolves.toBeTruthy();
      failed(page, 1, /--url .*web page/);
      failed(unreachable, 1, /--url .*cannot be fetched/);
      expect(await db.musicTrack.count({ where: { name: { in: ['A page', 'Nowhere'] } } })).toBe(0);
      failed(badUrl, 2, /--url/);
      failed(ftpUrl, 2, /--url/);
    } finally {
      await files.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  test('errors: usage errors exit 2, unknown records exit 1; stdout stays empty', async () => {
    const missingUser = crypto.randomUUID();
    const [noun, verb, noEmail, badPlatform, unknownUser, malformed, unknownKey, notAKey, stray, unknownFlag, noValue, unknownProfile] = await Promise.all([
      cli('robot', 'create'),
      cli('user', 'delete'),
      cli('user', 'create', '--api-credits', '3'),
      cli('account', 'connect', '--profile', crypto.randomUUID(), '--platform', 'fax'),
      cli('key', 'create', '--user', missingUser),
      cli('theme', 'create', '--user', 'not-a-uuid', '--name', 'T'),
      cli('key', 'revoke', '--key', `sk-${crypto.randomBytes(32).toString('base64url')}`),
      cli('key', 'revoke', '--key', 'abc'),
      cli('user', 'create', 'extra', '--email', emailOf('s')),
      cli('user', 'create', '--email', emailOf('f'), '--vip'),
      cli('profile', 'create', '--user', missingUser, '--name'),
      cli('account', 'connect', '--profile', crypto.randomUUID(), '--platform', 'socialnet'),
    ]);
    failed(noun, 2, /unknown command "robot"/);
    failed(verb, 2, /unknown command "user delete"/);
    failed(noEmail, 2, /--email is required/);
    failed(badPlatform, 2, /--platform must be one of/);
    failed(unknownUser, 1, new RegExp(`user ${missingUser} not found`));
    failed(malformed, 2, /--user must be a UUID/);
    failed(unknownKey, 1, /API key not found/);
    failed(notAKey, 2, /--key/);
    failed(stray, 2, /unexpected argument "extra"/);
    failed(unknownFlag, 2, /unknown flag --vip/);
    failed(noValue, 2, /--name needs a value/);
    failed(unknownProfile, 1, /profile .* not found/);
  });

  test('flag forms: --flag=value as --flag value, booleans take =true|=false; repeats, stray arguments and forgotten values are usage errors', async () => {
    const { userId } = await newUser();
    const { profileId: a } = ok(await cli('profile', 'create', `--user=${userId}`, '--name=--Dashed', '--primary=false'), ['profileId']) as {
      profileId: string;
    };
    const { profileId: b } = ok(await cli('profile', 'create', '--user', userId, '--name', 'Second', '--primary=true'), ['profileId']) as { profileId: string };
    expect(await db.profile.findUniqueOrThrow({ where: { id: a } })).toMatchObject({ name: '--Dashed', isPrimary: false });
    expect(await db.profile.findUniqueOrThrow({ where: { id: b } })).toMatchObject({ isPrimary: true });

    const [twice, boolValue, shortFlag, terminator, forgotten, upper] = await Promise.all([
      cli('user', 'create', '--email', emailOf('t'), '--email', emailOf('t')),
      cli('profile', 'create', '--user', userId, '--name', 'X', '--primary=yes'),
      cli('user', 'create', '--email', emailOf('s'), '-x'),
      cli('user', 'create', '--', '--email', emailOf('d')),
      cli('user', 'create', '--email', '--api-credits', '3'),
      cli('user', 'create', '--Email', emailOf('u')),
    ]);
    failed(twice, 2, /--email given twice/);
    failed(boolValue, 2, /--primary takes no value/);
    failed(shortFlag, 2, /unexpected argument "-x"/);
    failed(terminator, 2, /unexpected argument "--"/);
    failed(forgotten, 2, /--email needs a value/);
    failed(upper, 2, /unexpected argument "--Email"/);
    expect(await db.profile.count({ where: { userId } })).toBe(2);
  });

  test('the contract command `npm run --silent admin --` prints only the JSON object', async () => {
    const r = await spawnRun('npm', ['run', '--silent', 'admin', '--', 'user', 'create', '--email', emailOf('npm')], baseEnv({ DATABASE_URL: dbUrl }));
    const { userId } = ok(r, ['userId', 'apiKey']) as { userId: string };
    expect(await db.user.count({ where: { id: userId } })).toBe(1);
  });

  test('embedded mode: the CLI opens the DATA_DIR database itself, and later calls see earlier ones', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cli-embedded-'));
    try {
      const run = (...args: string[]) => runCli(args, baseEnv({ DATA_DIR: dataDir }));
      const email = emailOf('embedded');
      const { userId } = ok(await run('user', 'create', '--email', email), ['userId', 'apiKey']) as { userId: string };
      // two calls at once take turns on the embedded database instead of opening it twice
      const [key, dup] = await Promise.all([run('key', 'create', '--user', userId), run('user', 'create', '--email', email)]);
      expect(ok(key, ['apiKey']).apiKey).toMatch(/^sk-/);
      failed(dup, 1, /already exists/);
      // the embedded server is stopped when the CLI ends: nothing is left serving this data dir
      await expect(fs.stat(path.join(dataDir, 'db', 'server.json'))).rejects.toThrow();
      await expect(fs.stat(path.join(dataDir, 'db', 'owner.lock'))).rejects.toThrow();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
