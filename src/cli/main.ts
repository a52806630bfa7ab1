/**
 * Operator CLI: `npm run --silent admin -- <noun> <verb> [--flags]` (CONTRACT.md, Operator CLI).
 *
 * It parses flags and prints; the domains' services do the work. Prints exactly
 * one JSON object on stdout; on error a one-line message on stderr and exit code
 * 2 (usage: unknown command, missing or invalid flag) or 1 (anything else).
 */
import { parseArgs } from 'node:util';
import { KEY_PREFIX } from '../auth/keys.ts';
import { isPlatformKey, PLATFORM_KEYS } from '../catalog/platforms.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { prismaCode } from '../db/errors.ts';
import { pendingMigrations, waitForMigrations } from '../db/migrate/status.ts';
import { isUuid } from '../ids.ts';
import { isMediaKind, MEDIA_KINDS } from '../presets/saved-media.ts';
// Types only: the services, the Prisma client, the embedded database and the migration
// engine are loaded once the flags are valid, and each only when used (each costs 100-200 ms).
import type { Db } from '../db/client.ts';

// Nothing but the result may reach stdout: whatever a library prints goes to stderr.
const writeStdout = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
for (const level of ['log', 'info', 'debug', 'warn'] as const) console[level] = console.error;

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

const FLAG_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * `--flag value`, `--flag=value`, and boolean `--flag` (or `--flag=true|false`); nothing positional.
 * parseArgs reads the tokens; its strict mode is not used, as it takes the last of a repeated
 * flag, refuses `--flag=true` and words its errors otherwise than the contract.
 */
function parseFlags(args: string[], spec: Record<string, FlagKind>): Flags {
  const options = Object.fromEntries(Object.entries(spec).map(([name, type]) => [name, { type }]));
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string | boolean>();
  for (const token of tokens) {
    if (token.kind !== 'option' || !token.rawName.startsWith('--') || !FLAG_NAME.test(token.name)) {
      throw usage(`unexpected argument "${args[token.index]}"`);
    }
    const { name, value, inlineValue } = token;
    if (!spec[name]) throw usage(`unknown flag --${name}`);
    if (values.has(name)) throw usage(`--${name} given twice`);
    if (spec[name] === 'boolean') {
      if (value === undefined || value === 'true') values.set(name, true);
      else if (value === 'false') values.set(name, false);
      else throw usage(`--${name} takes no value`);
      continue;
    }
    // a following flag means the value was forgotten; `--name=--x` passes such a value on purpose
    if (value === undefined || (!inlineValue && value.startsWith('--'))) throw usage(`--${name} needs a value`);
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
// commands

type Result = Record<string, unknown>;
type Work = (ctx: { db: Db; config: Config }) => Promise<Result>;

interface Command {
  args: string;
  flags: Record<string, FlagKind>;
  /** Validates the flags without touching the database, then returns the work to run. */
  prepare(flags: Flags): Work;
}

const COMMANDS: Record<string, Record<string, Command>> = {
  user: {
    create: {
      args: '--email E [--api-credits N] [--ai-credits N|unlimited] [--clip-credits N] [--clips-subscription] [--api-publishing]',
      flags: {
        email: 'string',
        'api-credits': 'string',
        'ai-credits': 'string',
        'clip-credits': 'string',
        'clips-subscription': 'boolean',
        'api-publishing': 'boolean',
      },
      prepare(f) {
        const ai = f.str('ai-credits') ?? '10';
        const input = {
          email: email(f.required('email')),
          apiCredits: count('api-credits', f.str('api-credits') ?? '0'),
          aiCredits: ai === 'unlimited' ? null : count('ai-credits', ai),
          clipCredits: count('clip-credits', f.str('clip-credits') ?? '0'),
          clipsSubscription: f.bool('clips-subscription'),
          apiPublishing: f.bool('api-publishing'),
        };
        return async ({ db }) => {
          const { createUser } = await import('../auth/users.ts');
          const { user, apiKey } = await createUser(db, input);
          return { userId: user.id, apiKey };
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
        return async ({ db }) => {
          const [{ requireUser }, { createApiKey }] = await Promise.all([import('../auth/users.ts'), import('../auth/api-keys.ts')]);
          await requireUser(db, userId);
          return { apiKey: (await createApiKey(db, userId)).apiKey };
        };
      },
    },
    revoke: {
      args: '--key sk-...',
      flags: { key: 'string' },
      prepare(f) {
        const key = f.required('key');
        if (!key.startsWith(KEY_PREFIX)) throw usage(`--key must be an API key (${KEY_PREFIX}...)`);
        return async ({ db }) => {
          const { revokeApiKeyByValue } = await import('../auth/api-keys.ts');
          await revokeApiKeyByValue(db, key);
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
        const input = { name: shortName('name', f.required('name')), primary: f.bool('primary') };
        return async ({ db }) => {
          const { createProfile } = await import('../publishing/profiles.ts');
          return { profileId: (await createProfile(db, userId, input)).id };
        };
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
        const input = { platform, isPrivate: f.bool('private'), followers: f.has('followers') ? count('followers', f.required('followers')) : undefined };
        return async ({ db }) => {
          const { connectSandboxAccount } = await import('../publishing/accounts.ts');
          return { accountId: (await connectSandboxAccount(db, profileId, input)).id };
        };
      },
    },
  },

  preset: {
    create: {
      args: `--user ID --name NAME [--configured ${MEDIA_KINDS.join(',')}]`,
      flags: { user: 'string', name: 'string', configured: 'string' },
      prepare(f) {
        const userId = uuid('user', f.required('user'));
        const presetName = shortName('name', f.required('name'));
        const kinds = (f.str('configured') ?? '')
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean);
        const unknown = kinds.filter((k) => !isMediaKind(k));
        if (unknown.length) throw usage(`--configured: unknown kind ${unknown.join(', ')} (known: ${MEDIA_KINDS.join(', ')})`);
        return async ({ db, config }) => {
          const [{ requireUser }, { createPresetWithSavedMedia }, { createStorage }] = await Promise.all([
            import('../auth/users.ts'),
            import('../presets/cli-media.ts'),
            import('../storage/index.ts'),
          ]);
          await requireUser(db, userId);
          const preset = await createPresetWithSavedMedia({ db, config, storage: createStorage(config) }, userId, presetName, kinds.filter(isMediaKind));
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
        return async ({ db }) => {
          const [{ requireUser }, { createUserTheme }] = await Promise.all([import('../auth/users.ts'), import('../themes/service.ts')]);
          await requireUser(db, userId);
          return { userThemeId: (await createUserTheme(db, userId, { name: themeName })).id };
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
        return async ({ db, config }) => {
          // fetched and probed now, so the operator learns at once whether the track works
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

/**
 * Applies what is pending, except on a running service's embedded database:
 * the service migrates it as it starts, so the command waits for that instead
 * of migrating the same database a second time at once.
 */
async function ensureMigrated(database: Database): Promise<void> {
  if (database.shared) return waitForMigrations(database.url);
  // one cheap query decides whether the (slow to load) migration engine is needed at all
  if ((await pendingMigrations(database.url)).length === 0) return;
  const { applyMigrations } = await import('../db/migrate/index.ts');
  await applyMigrations(database.url);
}

// ---------------------------------------------------------------------------
// errors shown to the operator

/** An expected failure of a service (a record not found, an email taken), by name as for Prisma's errors. */
const isServiceError = (e: unknown) => e instanceof Error && e.name === 'AppError';

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
  if (!command)
    throw usage(
      `unknown command "${noun} ${verb}" (known: ${Object.keys(nounCommands)
        .map((v) => `${noun} ${v}`)
        .join(', ')})`,
    );
  const work = command.prepare(parseFlags(rest, command.flags));

  const config = loadConfig();
  // in embedded mode: a running service's database, else DATA_DIR's owned for this command (taking turns with other commands)
  const database = await openDatabase(config, { role: 'cli' });
  let db: Db | undefined;
  try {
    await ensureMigrated(database);
    const { createPrisma } = await import('../db/client.ts');
    db = createPrisma(database.url, { max: 2 });
    const result = await work({ db, config });
    writeStdout(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    // the work is committed by now: a failure to close is worth a word, not a failed exit
    await db?.$disconnect().catch(() => {});
    await database.close().catch((e: unknown) => process.stderr.write(`admin: warning: closing the database: ${describe(e)}\n`));
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
    if (!cli && !isServiceError(e) && adminDebug()) process.stderr.write(`${(e as Error)?.stack ?? e}\n`);
    code = cli?.exitCode ?? 1;
  }
  // everything is closed by now; exiting explicitly also ends stray handles of libraries
  process.exit(code);
}

await main();
