import type { Storage } from '../../src/storage/storage.js';

/**
 * Two runs of one job that overlap, as a run whose lock lapsed goes on beside
 * the run that took its job over: the second `put` of `key` waits until
 * `release()`, then fails as a store that went away would. `restore()` puts
 * the store back as it was (and releases a run still held).
 */
export function holdSecondPut(storage: Storage, key: string) {
  const put = storage.put;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let puts = 0;
  storage.put = async (k, body, opts) => {
    if (k === key && ++puts === 2) {
      await held;
      body.destroy();
      throw new Error('the store went away');
    }
    return put.call(storage, k, body, opts);
  };
  return {
    release,
    restore() {
      storage.put = put;
      release();
    },
  };
}
