/**
 * Operator CLI: `npm run --silent admin -- <noun> <verb> [--flags]` (CONTRACT.md, Operator CLI).
 *
 * Prints exactly one JSON object on stdout; on error a one-line message on stderr
 * and exit code 2 (usage: unknown command, missing or invalid flag) or 1 (anything else).
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { generateApiKey, hashApiKey, KEY_PREFIX, newWebhookSecret } from '../auth/keys.ts';
import { isPlatformKey, PLATFORM_KEYS } from '../catalog/platforms.ts';
import { loadConfig, type Config } from '../config.ts';
import { grant } from '../credits/ledger.ts';
import { isUuid } from '../ids.ts';
// Types only: the Prisma client and the embedded database are loaded once the flags
// are valid, and the embedded database only in embedded mode (each costs 100-200 ms).
import type { Db, Prisma } from '../db/client.ts';

// Nothing but the result may reach stdout: whatever a library prints goes to stderr.
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
for (const level of ['log', 'info', 'debug', 'warn'] as const) console[level] = console.error;

const MIGRATIONS_DIR = fileURLToPath(new URL('../../schema/migrations', import.meta.url));

// ---------------------------------------------------------------------------
// errors

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}
const usage = (message: string) => new CliError(message, 2);

// ---------------------------------------------------------------------------
// argv

type FlagKind = 'string' | 'boolean';

interface Flags {
  has(name: string): boolean;
  str(name: string): string | undefined;
  required(name: string): string;
  bool(name: string): boolean;
}

/** `--flag value`, `--flag=value`, and boolean `--flag` (or `--flag=true|false`); nothing positional. */
function parseFlags(argv: string[], spec: Record<string, FlagKind>): Flags {
  const values = new Map<string, string | boolean>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const m = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!m) throw usage(`unexpected argument "${arg}"`);
    const [, name, inline] = m;
    const kind = spec[name];
    if (!kind) throw usage(`unknown flag --${name}`);
    if (values.has(name)) throw usage(`--${name} given twice`);
    if (kind === 'boolean') {
      if (inline === undefined || inline === 'true') values.set(name, true);
      else if (inline === 'false') values.set(name, false);
      else throw usage(`--${name} takes no value`);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      // a following flag means the value was forgotten; `--name=--x` passes such a value on purpose
      if (next === undefined || next.startsWith('--')) throw usage(`--${name} needs a value`);
      value = next;
      i++;
    }
    values.set(name, value);
  }
  return {
    has: (name) => values.has(name),
    str: (name) => values.get(name) as string | undefined,
    required(name) {
      const v = values.get(name);
      if (v === undefined) throw usage(`--${name} is required`);
      return v as string;
    },
    bool: (name) => values.get(name) === true,
  };
}

// ---------------------------------------------------------------------------
// values

const INT_MAX = 2_147_483_647; // PostgreSQL integer

function uuid(flag: string, value: string): string {
  if (!isUuid(value)) throw usage(`--${flag} must be a UUID, got "${value}"`);
  return value.toLowerCase();
}

function count(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > INT_MAX) {
    throw usage(`--${flag} must be a whole number from 0 to ${INT_MAX}, got "${value}"`);
  }
  return Number(value);
}

function shortName(flag: string, value: string): string {
  const v = value.trim();
  if (v.length < 1 || v.length > 100) throw usage(`--${flag} must be 1-100 characters`);
  return v;
}

function httpUrl(flag: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usage(`--${flag} must be a valid URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`--${flag} must be an http(s) URL`);
  return url.toString();
}

function email(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) throw usage(`--email must be an email address, got "${value}"`);
  return v;
}

// ---------------------------------------------------------------------------
// data of the commands


/**
 * What the editor would have saved for each kind of preset media: the API cannot
 * make saved media (SPEC.md, Preset), so the CLI stands in for the editor.
 */
const SAVED_MEDIA = {
  captions: { column: 'savedCaptions', value: { templateName: 'classic', fontSize: 64, primaryColor: '#FFFFFF', highlightColor: '#FFD400', wordsPerLine: 3, positionY: 70 } },
  hookTitle: { column: 'savedHookTitle', value: { text: 'Watch this first', templateName: 'bold', durationSeconds: 3 } },
  logo: { column: 'savedLogo', value: { fileName: 'logo.png', position: 'top-right', sizePercent: 12, opacity: 90 } },
  colorFilter: { column: 'savedColorFilter', value: { name: 'warm', intensity: 60 } },
  music: { column: 'savedMusic', value: { name: 'Saved background music', volume: 50, fadeInSeconds: 1, fadeOutSeconds: 2 } },
} as const satisfies Record<string, { column: keyof Prisma.PresetUncheckedCreateInput; value: Record<string, unknown> }>;
type MediaKind = keyof typeof SAVED_MEDIA;

// ---------------------------------------------------------------------------
// commands

type Result = Record<string, unknown>;
/** Validates the flags without touching the database, then returns the work to run. */
type Prepare = (flags: Flags) => (db: Db) => Promise<Result>;

interface Command {
  args: string;
  flags: Record<string, FlagKind>;
  prepare: Prepare;
}

async function requireUser(db: Db | Prisma.TransactionClient, id: string): Promise<void> {
  if (!(await db.user.findUnique({ where: { id }, select: { id: true } }))) throw new CliError(`user ${id} not found`);
}

const COMMANDS: Record<string, Record<string, Command>> = {
  user: {
    create: {
      args: '--email E [--api-credits N] [--ai-credits N|unlimited] [--clip-credits N] [--clips-subscription] [--api-publishing]',
      flags: { email: 'string', 'api-credits': 'string', 'ai-credits': 'string', 'clip-credits': 'string', 'clips-subscription': 'boolean', 'api-publishing': 'boolean' },
      prepare(f) {
        const address = email(f.required('email'));
        const apiCredits = count('api-credits', f.str('api-credits') ?? '0');
        const ai = f.str('ai-credits') ?? '10';
        const aiCredits = ai === 'unlimited' ? null : count('ai-credits', ai);
        const clipCredits = count('clip-credits', f.str('clip-credits') ?? '0');
        return async (db) => {
          const key = generateApiKey();
          try {
            const user = await db.$transaction(async (tx) => {
              const created = await tx.user.create({
                data: {
                  email: address,
                  // the opening balances come through the ledger, which explains every balance
                  apiCredits: 0,
                  aiCredits: aiCredits === null ? null : 0,
                  clipCredits: 0,
                  clipsSubscription: f.bool('clips-subscription'),
                  apiPublishing: f.bool('api-publishing'),
                  webhookSecret: newWebhookSecret(),
                  apiKeys: { create: { hash: key.hash, prefix: key.prefix } },
                },
                select: { id: true },
              });
              await grant(tx, created.id, { kind: 'api', amount: apiCredits, reason: 'operator grant' });
              await grant(tx, created.id, { kind: 'ai', amount: aiCredits ?? 0, reason: 'operator grant' });
              await grant(tx, created.id, { kind: 'clip', amount: clipCredits, reason: 'operator grant' });
              return created;
            });
            return { userId: user.id, apiKey: key.key };
          } catch (e) {
            if (isUniqueViolation(e)) throw new CliError(`a user with email ${address} already exists`);
            throw e;
          }
        };
      },
    },
  },

  key: {
    create: {
      args: '--user ID',
      flags: { user: 'string' },
      prepare(f) {
        const userId = uuid('user', f.required('user'));
        return async (db) => {
          await requireUser(db, userId);
          const key = generateApiKey();
          await db.apiKey.create({ data: { userId, hash: key.hash, prefix: key.prefix } });
          return { apiKey: key.key };
        };
      },
    },
    revoke: {
      args: '--key sk-...',
      flags: { key: 'string' },
      prepare(f) {
        const key = f.required('key');
        if (!key.startsWith(KEY_PREFIX)) throw usage(`--key must be an API key (${KEY_PREFIX}...)`);
        return async (db) => {
          // a key revoked before keeps its first revocation time
          const { count: n } = await db.apiKey.updateMany({ where: { hash: hashApiKey(key), revokedAt: null }, data: { revokedAt: new Date() } });
          if (n === 0 && !(await db.apiKey.findUnique({ where: { hash: hashApiKey(key) }, select: { id: true } }))) {
            throw new CliError('API key not found');
          }
          return { revoked: true };
        };
      },
    },
  },

  profile: {
    create: {
      args: '--user ID --name NAME [--primary]',
      flags: { user: 'string', name: 'string', primary: 'boolean' },
      prepare(f) {
        const userId = uuid('user', f.required('user'));
        const profileName = shortName('name', f.required('name'));
        return (db) =>
          db.$transaction(async (tx) => {
            // the user's row lock serialises concurrent creations, so exactly one profile ends up primary
            const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "User" WHERE id = ${userId}::uuid FOR UPDATE`;
            if (locked.length === 0) throw new CliError(`user ${userId} not found`);
            const isPrimary = f.bool('primary') || (await tx.profile.count({ where: { userId } })) === 0;
            if (isPrimary) await tx.profile.updateMany({ where: { userId, isPrimary: true }, data: { isPrimary: false } });
            const profile = await tx.profile.create({ data: { userId, name: profileName, isPrimary }, select: { id: true } });
            return { profileId: profile.id };
          });
      },
    },
  },

  account: {
    connect: {
      args: `--profile ID --platform ${PLATFORM_KEYS.join('|')} [--private] [--followers N]`,
      flags: { profile: 'string', platform: 'string', private: 'boolean', followers: 'string' },
      prepare(f) {
        const profileId = uuid('profile', f.required('profile'));
        const platform = f.required('platform');
        if (!isPlatformKey(platform)) throw usage(`--platform must be one of ${PLATFORM_KEYS.join(', ')}, got "${platform}"`);
        const followers = f.has('followers') ? count('followers', f.required('followers')) : undefined;
        const isPrivate = f.bool('private');
        return async (db) => {
          if (!(await db.profile.findUnique({ where: { id: profileId }, select: { id: true } }))) {
            throw new CliError(`profile ${profileId} not found`);
          }
          // reconnecting keeps the account (and its posts and history); followers change only when given
          const account = await db.socialAccount.upsert({
            where: { profileId_platform: { profileId, platform } },
            create: {
              profileId,
              platform,
              connector: 'sandbox',
              externalId: `sandbox-${platform}-${crypto.randomBytes(8).toString('hex')}`,
              isPrivate,
              followers: followers ?? 0,
            },
            update: { isPrivate, ...(followers === undefined ? {} : { followers }) },
            select: { id: true },
          });
          return { accountId: account.id };
        };
      },
    },
  },

  preset: {
    create: {
      args: `--user ID --name NAME [--configured ${Object.keys(SAVED_MEDIA).join(',')}]`,
      flags: { user: 'string', name: 'string', configured: 'string' },
      prepare(f) {
        const userId = uuid('user', f.required('user'));
        const presetName = shortName('name', f.required('name'));
        const kinds = (f.str('configured') ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean);
        const unknown = kinds.filter((k) => !(k in SAVED_MEDIA));
        if (unknown.length) throw usage(`--configured: unknown kind ${unknown.join(', ')} (known: ${Object.keys(SAVED_MEDIA).join(', ')})`);
        const saved: Partial<Prisma.PresetUncheckedCreateInput> = {};
        for (const kind of kinds as MediaKind[]) saved[SAVED_MEDIA[kind].column] = SAVED_MEDIA[kind].value;
        // the preset's music volume starts at the saved music's volume; the toggles stay off until the user enables them
        if (kinds.includes('music')) saved.musicVolume = SAVED_MEDIA.music.value.volume;
        return async (db) => {
          await requireUser(db, userId);
          const preset = await db.preset.create({ data: { ...saved, userId, name: presetName }, select: { id: true } });
          return { presetId: preset.id };
        };
      },
    },
  },

  theme: {
    create: {
      args: '--user ID --name NAME',
      flags: { user: 'string', name: 'string' },
      prepare(f) {
        const userId = uuid('user', f.required('user'));
        const themeName = shortName('name', f.required('name'));
        return async (db) => {
          await requireUser(db, userId);
          const theme = await db.userTheme.create({ data: { userId, name: themeName }, select: { id: true } });
          return { userThemeId: theme.id };
        };
      },
    },
  },

  music: {
    add: {
      args: '--name NAME --url URL',
      flags: { name: 'string', url: 'string' },
      prepare(f) {
        const trackName = shortName('name', f.required('name'));
        const sourceUrl = httpUrl('url', f.required('url'));
        return async (db) => {
          // fetched and probed now, so the operator learns at once whether the track works
          const config = loadConfig();
          const [{ addMusicTrack }, { createStorage }] = await Promise.all([import('../library/music.ts'), import('../storage/index.ts')]);
          try {
            const track = await addMusicTrack({ config, db, storage: createStorage(config) }, trackName, sourceUrl);
            return { trackId: track.id };
          } catch (e) {
            const details = (e as { extensions?: { code?: string; details?: Array<{ message: string }> } }).extensions;
            if (details?.code === 'VALIDATION_ERROR') throw new CliError(`--url ${details.details?.[0]?.message ?? (e as Error).message}`, 1);
            throw e;
          }
        };
      },
    },
  },
};

function usageText(noun?: string): string {
  const nouns = noun && COMMANDS[noun] ? [noun] : Object.keys(COMMANDS);
  const lines = nouns.flatMap((n) => Object.entries(COMMANDS[n]).map(([verb, c]) => `  ${n} ${verb} ${c.args}`));
  return `usage: npm run --silent admin -- <noun> <verb> [--flags]\n${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------
// database

interface Connection {
  url: string;
  /** the database of a running service, which applies the migrations itself */
  shared: boolean;
  close(): Promise<void>;
}

/**
 * The database of the service's environment. In embedded mode openDatabase uses the
 * server of a running service, or else owns the DATA_DIR database for this command
 * (taking turns with other commands), and releases it on close.
 */
async function connect(config: Config): Promise<Connection> {
  // what openDatabase answers for a DATABASE_URL, without loading the embedded engine
  if (config.databaseUrl) return { url: config.databaseUrl, shared: false, close: async () => {} };
  const { openDatabase } = await import('../db/database.ts');
  return openDatabase(config, { role: 'cli' });
}

/** One cheap query decides whether the (slow to load) migration engine is needed at all. */
async function pendingMigrations(url: string): Promise<string[]> {
  const entries = await fs.readdir(MIGRATIONS_DIR, { withFileTypes: true }).catch(() => []);
  const wanted = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  if (wanted.length === 0) return [];
  const client = new pg.Client({ connectionString: url });
  let applied = new Set<string>();
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    applied = new Set(rows.map((r) => r.migration_name));
  } catch (e) {
    if ((e as { code?: string }).code !== '42P01') throw e; // undefined_table: a fresh database
  } finally {
    await client.end().catch(() => {});
  }
  return wanted.filter((m) => !applied.has(m));
}

/**
 * Applies what is pending, except on a running service's embedded database:
 * the service migrates it as it starts, so the command waits for that instead
 * of migrating the same database a second time at once.
 */
async function ensureMigrated(conn: Connection): Promise<void> {
  if (!conn.shared) {
    if ((await pendingMigrations(conn.url)).length === 0) return;
    const { applyMigrations } = await import('../db/migrate/index.js');
    await applyMigrations(conn.url);
    return;
  }
  for (const deadline = Date.now() + 60_000; (await pendingMigrations(conn.url)).length > 0; ) {
    if (Date.now() > deadline) throw new CliError('the running service has not finished applying its migrations; try again shortly');
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ---------------------------------------------------------------------------
// errors shown to the operator

// Recognised by name rather than instanceof, so that the Prisma runtime is not loaded just for these checks.
const prismaCode = (e: unknown) =>
  e instanceof Error && e.name === 'PrismaClientKnownRequestError' ? String((e as { code?: unknown }).code) : undefined;

const isUniqueViolation = (e: unknown) => prismaCode(e) === 'P2002';

function describe(e: unknown): string {
  const code = prismaCode(e);
  if (code === 'P2021') return 'the database schema is missing (no migrations applied)';
  if (code) return `database error ${code}: ${lastLine((e as Error).message)}`;
  if (e instanceof Error && e.name === 'PrismaClientInitializationError') return `cannot reach the database: ${lastLine(e.message)}`;
  // connection failures come as an AggregateError without a message, but with a code
  if (e instanceof Error) return lastLine(e.message) || (e as NodeJS.ErrnoException).code || e.name;
  return String(e);
}

/** Prisma puts the cause after a multi-line call site; one line is what the operator needs. */
const lastLine = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop() ?? '';

// ---------------------------------------------------------------------------

function help(text: string): number {
  writeStdout(text);
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const [noun, verb, ...rest] = argv;
  const isHelp = (a: string | undefined) => a === '--help' || a === '-h' || a === 'help';
  // asked-for help goes to stdout; a call missing its noun or verb is a usage error
  if (isHelp(noun)) return help(usageText());
  if (!noun) throw usage(`a command is required: <noun> <verb> [--flags] (see --help)`);
  const nounCommands = COMMANDS[noun];
  if (!nounCommands) throw usage(`unknown command "${noun}" (known: ${Object.keys(COMMANDS).join(', ')})`);
  // among the flags only `--help` itself: `-h` or `help` may be a flag's value
  if (isHelp(verb) || rest.includes('--help')) return help(usageText(noun));
  if (!verb) throw usage(`a verb is required (${noun}: ${Object.keys(nounCommands).join(', ')})`);
  const command = nounCommands[verb];
  if (!command) throw usage(`unknown command "${noun} ${verb}" (known: ${Object.keys(nounCommands).map((v) => `${noun} ${v}`).join(', ')})`);
  const work = command.prepare(parseFlags(rest, command.flags));

  const conn = await connect(loadConfig());
  let prisma: Db | undefined;
  try {
    await ensureMigrated(conn);
    const { createPrisma } = await import('../db/client.ts');
    prisma = createPrisma(conn.url, { max: 2 });
    const result = await work(prisma);
    writeStdout(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    // the work is committed by now: a failure to close is worth a word, not a failed exit
    await prisma?.$disconnect().catch(() => {});
    await conn.close().catch((e: unknown) => process.stderr.write(`admin: warning: closing the database: ${describe(e)}\n`));
  }
}

/** ADMIN_DEBUG=1 asks for the stack of an unexpected error; a config that cannot load shows none. */
function adminDebug(): boolean {
  try {
    return loadConfig().adminDebug;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  let code: number;
  try {
    code = await run(process.argv.slice(2));
  } catch (e) {
    const cli = e instanceof CliError ? e : undefined;
    process.stderr.write(`admin: ${cli ? cli.message : describe(e)}\n`);
    if (!cli && adminDebug()) process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    code = cli?.exitCode ?? 1;
  }
  // everything is closed by now; exiting explicitly also ends stray handles of libraries
  process.exit(code);
}

await main();
