import type { Storage } from '../../src/storage/storage.js';

/**
 * The `nth` put of `key` waits for `until`, then fails as a store that went
 * away would (`fail`) or goes through. Returns what puts the store back as it
 * was; wrappers made one over another are undone in the reverse order.
 */
export function interceptPut(storage: Storage, key: string, nth: number, act: { until?: Promise<unknown>; fail?: boolean }): () => void {
  const put = storage.put;
  let puts = 0;
  storage.put = async (k, body, opts) => {
    if (k === key && ++puts === nth) {
      await act.until;
      if (act.fail) {
        body.destroy();
        throw new Error('the store went away');
      }
    }
    return put.call(storage, k, body, opts);
  };
  return () => {
    storage.put = put;
  };
}

/**
 * Two runs of one job that overlap, as a run whose lock lapsed goes on beside
 * the run that took its job over: the second `put` of `key` waits until
 * `release()`, then fails. `restore()` puts the store back as it was (and
 * releases a run still held).
 */
export function holdSecondPut(storage: Storage, key: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const undo = interceptPut(storage, key, 2, { until: held, fail: true });
  return {
    release,
    restore() {
      undo();
      release();
    },
  };
}
