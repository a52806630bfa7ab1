/**
 * Fixtures made once per run and shared by every test file (each file runs in a process of its
 * own). The run's global setup names a folder in TEST_FIXTURES_DIR and removes it at the end; a
 * file asking for a fixture another file already made gets it at once, and its own copy of the
 * files, so what one test writes beside them never reaches another file's tests.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const made = new Map<string, Promise<string>>();

/** The folder holding fixture `key`, made by `make` (into an empty folder it is given) unless this run made it already. */
export function sharedFixture(key: string, make: (dir: string) => Promise<void>): Promise<string> {
  let dir = made.get(key);
  if (!dir) {
    dir = makeOnce(key, make);
    made.set(key, dir);
  }
  return dir;
}

async function makeOnce(key: string, make: (dir: string) => Promise<void>): Promise<string> {
  const root = process.env.TEST_FIXTURES_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'fixtures-')));
  const final = path.join(root, key);
  if (await exists(path.join(final, '.done'))) return final;
  // two files may make it at once: each into a folder of its own, the first rename wins
  const scratch = `${final}.${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  await fs.mkdir(scratch, { recursive: true });
  await make(scratch);
  await fs.writeFile(path.join(scratch, '.done'), '');
  try {
    await fs.rename(scratch, final);
  } catch (err) {
    if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    await fs.rm(scratch, { recursive: true, force: true });
  }
  return final;
}

/** A folder of this process's own holding a copy of every file of `shared`. */
export async function ownCopy(shared: string, prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(process.env.TEST_FIXTURES_DIR ?? os.tmpdir(), `${prefix}-`));
  const names = (await fs.readdir(shared)).filter((n) => n !== '.done');
  await Promise.all(names.map((n) => fs.copyFile(path.join(shared, n), path.join(dir, n), fs.constants.COPYFILE_FICLONE)));
  return dir;
}

/** A stable short name for a fixture's parameters. */
export const fixtureKey = (label: string, params: unknown) =>
  `${label}-${crypto.createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 12)}`;

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
