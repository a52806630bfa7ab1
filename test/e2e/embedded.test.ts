// The embedded database shared by the service and operator commands through DATA_DIR:
// one process at a time opens PGlite (the owner lock), others use a service's server.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { spawnReady, type Child } from '../support/process.js';

let dataDir: string;
/** stopped in afterAll, should a test fail while one still holds the database */
const children: Child[] = [];
const lockFile = () => path.join(dataDir, 'db', 'owner.lock');
const serverFile = () => path.join(dataDir, 'db', 'server.json');
const readJson = async (file: string) => JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
const embedded = () => ({ databaseUrl: undefined, dataDir });

/** Another process that opens the database as `role` and adds `write`; with `hold` it keeps it open until SIGUSR2. */
async function otherProcess(role: 'cli' | 'service', write: string, hold = false): Promise<{ child: Child; url: string; notes: string[] }> {
  const child = await spawnReady('test/fixtures/db-owner.ts', { DATA_DIR: dataDir, ROLE: role, WRITE: write, HOLD: hold ? '1' : '0' });
  children.push(child);
  const line = child
    .output()
    .split('\n')
    .find((l) => l.startsWith('{'));
  return { child, ...(JSON.parse(line!) as { url: string; notes: string[] }) };
}

const exitOf = (child: Child) =>
  new Promise<number | null>((resolve) => (child.proc.exitCode !== null ? resolve(child.proc.exitCode) : child.proc.once('exit', resolve)));

async function notes(url: string, write?: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    if (write) await client.query('INSERT INTO note VALUES ($1)', [write]);
    return (await client.query<{ text: string }>('SELECT text FROM note ORDER BY text')).rows.map((r) => r.text);
  } finally {
    await client.end();
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() > deadline) throw new Error('timed out waiting for condition');
  }
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const p = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => p.once('exit', r));
  return p.pid!;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'embedded-'));
});
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await fs.rm(dataDir, { recursive: true, force: true });
});

// about 5 s alone; the suite's default time limits leave room for a busy machine
describe('the owner lock of the embedded database', () => {
  let service: Database | undefined;
  afterAll(async () => {
    await service?.close();
  });

  it('a service waits for a short-lived owner (an operator command) to finish, then owns the database', async () => {
    const cli = await otherProcess('cli', 'written by the command', true);
    expect(cli.notes).toEqual(['written by the command']);
    expect(await readJson(lockFile())).toMatchObject({ pid: cli.child.proc.pid, kind: 'cli' });
    expect(await readJson(serverFile())).toMatchObject({ pid: cli.child.proc.pid, owner: 'cli' });

    // bounded: a service that cannot wait that long says who holds the database
    await expect(openDatabase(embedded(), { role: 'service', waitMs: 200 })).rejects.toThrow(new RegExp(`busy: cli process ${cli.child.proc.pid}`));

    const said: string[] = [];
    const opening = openDatabase(embedded(), { role: 'service', waitMs: 45_000, log: (m) => said.push(m) });
    await Promise.race([opening.then(() => expect.fail('opened while the command held the database')), waitFor(() => said.length > 0)]);
    expect(said).toEqual([`waiting for cli process ${cli.child.proc.pid} to release the embedded database`]);
    cli.child.proc.kill('SIGUSR2'); // the command ends
    service = await opening;
    expect(await exitOf(cli.child)).toBe(0);
    // it did not attach to the command's server, which stopped with the command
    expect(service.url).not.toBe(cli.url);
    expect(await readJson(lockFile())).toMatchObject({ pid: process.pid, kind: 'service' });
    expect(await readJson(serverFile())).toMatchObject({ pid: process.pid, owner: 'service' });
    expect(await notes(service.url)).toEqual(['written by the command']);
  });

  it("an operator command during the service's ownership uses the service's server; each reads what the other wrote", async () => {
    expect(await notes(service!.url, 'written by the service')).toEqual(['written by the command', 'written by the service']);
    const cli = await otherProcess('cli', 'written by a second command');
    expect(cli.url).toBe(service!.url);
    expect(cli.notes).toEqual(['written by a second command', 'written by the command', 'written by the service']);
    expect(await exitOf(cli.child)).toBe(0);
    // the command left the service's ownership alone
    expect(await readJson(lockFile())).toMatchObject({ pid: process.pid, kind: 'service' });
    expect(await notes(service!.url)).toContain('written by a second command');
  });

  it('closing releases the database; the lock of a dead process is taken over', async () => {
    await service!.close();
    service = undefined;
    await expect(fs.stat(lockFile())).rejects.toThrow();
    await expect(fs.stat(serverFile())).rejects.toThrow();

    // as a process killed while it owned the database leaves them
    const pid = await deadPid();
    await fs.writeFile(lockFile(), JSON.stringify({ pid, kind: 'service', token: 'dead' }));
    await fs.writeFile(serverFile(), JSON.stringify({ pid, port: 9, owner: 'service' }));
    // without waiting: a lock still held would make this throw "busy"
    const cli = await openDatabase(embedded(), { role: 'cli', waitMs: 0 });
    try {
      expect(await readJson(lockFile())).toMatchObject({ pid: process.pid, kind: 'cli' });
      expect(await notes(cli.url)).toHaveLength(3);
    } finally {
      await cli.close();
    }
    await expect(fs.stat(lockFile())).rejects.toThrow();
  });
});
