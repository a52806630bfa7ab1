import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

/**
 * Who writes a temporary file or folder: this process on this host, as
 * `<pid>-<start>@<host tag>`. What a killed writer left behind is recognised
 * by a tag of this host whose process no longer runs, and removed at once;
 * tags of other hosts (a shared disk) are left to age out.
 *
 * The host tag covers the host name and the pid namespace, so two containers
 * of one name sharing a disk never judge each other's pids. The start (clock
 * ticks after boot, Linux) tells a process from a later one given the same
 * pid, as a restarted container's often is; without /proc the pid alone speaks.
 */
export const HOST_TAG = crypto
  .createHash('sha256')
  .update(`${os.hostname()}\0${readOrEmpty(() => fs.readlinkSync('/proc/self/ns/pid'))}`)
  .digest('hex')
  .slice(0, 8);

/** When process `pid` started, in clock ticks after boot; null where /proc cannot say. */
function startOf(pid: number): string | null {
  // field 22 of stat, counted after the command's closing parenthesis (the command may hold spaces)
  const stat = readOrEmpty(() => fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return /^\d+$/.test(fields[19] ?? '') ? fields[19] : null;
}

const ownStart = startOf(process.pid);
export const WRITER_TAG = `${process.pid}${ownStart ? `-${ownStart}` : ''}@${HOST_TAG}`;
/** A writer tag, as file names embed it. */
export const WRITER_TAG_PATTERN = String.raw`\d+(?:-\d+)?@[0-9a-f]{8}`;

export function runs(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // another user's process
  }
}

/** Whether `tag` names a writer of this host that has died. */
export function deadWriter(tag: string): boolean {
  const m = /^(\d+)(?:-(\d+))?@([0-9a-f]{8})$/.exec(tag.trim());
  if (!m || m[3] !== HOST_TAG) return false;
  const pid = Number(m[1]);
  if (!runs(pid)) return true;
  // the pid runs: the same process, unless it started at another time
  const start = m[2] ? startOf(pid) : null;
  return start !== null && start !== m[2];
}

function readOrEmpty(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}
