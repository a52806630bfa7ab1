import crypto from 'node:crypto';
import os from 'node:os';

/**
 * Who writes a temporary file or folder: this process on this host, as
 * `<pid>@<host tag>`. What a killed writer left behind is recognised by a
 * tag of this host whose pid no longer runs, and removed at once; tags of
 * other hosts (a shared disk) are left to age out.
 */
export const HOST_TAG = crypto.createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
export const WRITER_TAG = `${process.pid}@${HOST_TAG}`;

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
  const m = /^(\d+)@([0-9a-f]{8})$/.exec(tag.trim());
  return m !== null && m[2] === HOST_TAG && !runs(Number(m[1]));
}
