import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { deadWriter, WRITER_TAG } from '../writer.js';

/**
 * DATA_DIR/tmp: the working files of running jobs (a project's sound as WAV,
 * an export's folder, B-roll clips being made) and of requests (an upload's
 * file held back until its fields are known). Each removes its own as it
 * ends; one killed on the way leaves them here.
 */
export const workDirOf = (dataDir: string) => path.join(dataDir, 'tmp');

/** The file in each job's folder that names the process working in it (src/writer.ts). */
const OWNER = '.owner';

/** A process writes its tag within moments of creating `.owner`: one still empty after this was killed in between. */
const EMPTY_OWNER_MS = 10_000;

/** Whether `entry` is a job folder whose process, on this host, has died (a file, or a folder without an owner, is not). */
async function ownerDied(entry: string): Promise<boolean> {
  const file = path.join(entry, OWNER);
  const tag = await fs.readFile(file, 'utf8').catch(() => null);
  if (tag === null) return false;
  if (tag.trim() !== '') return deadWriter(tag);
  // killed between creating the tag's file and writing it
  const st = await fs.stat(file).catch(() => null);
  return st !== null && Date.now() - st.mtimeMs > EMPTY_OWNER_MS;
}

/**
 * Removes each entry of the work dir (a file, or a folder with all it holds)
 * that nothing has written to since `before`, and at once each job folder
 * whose process on this host has died; resolves to how many.
 */
export async function sweepWorkDir(dataDir: string, before: Date): Promise<number> {
  const dir = workDirOf(dataDir);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const entry = path.join(dir, name);
    if (!(await ownerDied(entry))) {
      const newest = await newestWrite(entry).catch(() => null); // gone meanwhile: another sweep, or its job
      if (newest === null || newest >= before.getTime()) continue;
    }
    await fs.rm(entry, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

/** The latest mtime of a file, or of a folder and everything in it (ms). */
async function newestWrite(entry: string): Promise<number> {
  const st = await fs.lstat(entry);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const child of await fs.readdir(entry)) newest = Math.max(newest, await newestWrite(path.join(entry, child)));
  return newest;
}

/**
 * Runs `work` in a folder of the work dir of its own, `<name>.<random>`, named
 * after what a job works on (an export, a project's clip) and naming its
 * process in `.owner`. Every run removes its folder when `work` ends, before
 * the caller records the result, so nothing of it stays once the work is
 * done. Before and after, it removes the folders of this host's processes
 * that died mid-run (killed workers), as the sweeps at a process's start and
 * every hour do: only folders whose process has died, never one in use, which
 * a name of its own per run guarantees.
 */
export async function inWorkDir<T>(dataDir: string, name: string, work: (dir: string) => Promise<T>): Promise<T> {
  const root = workDirOf(dataDir);
  await removeDeadRuns(root);
  const dir = path.join(root, `${name}.${crypto.randomUUID().slice(0, 8)}`);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, OWNER), WRITER_TAG);
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    // a run killed while this one worked (its lock had lapsed, so both ran) leaves nothing behind either
    await removeDeadRuns(root);
  }
}

/** Removes the job folders whose process on this host has died; a read that fails leaves the folder to the sweeps. */
async function removeDeadRuns(root: string): Promise<void> {
  const names = await fs.readdir(root).catch(() => [] as string[]);
  for (const entry of names.map((n) => path.join(root, n))) {
    if (await ownerDied(entry)) await fs.rm(entry, { recursive: true, force: true }).catch(() => {});
  }
}
