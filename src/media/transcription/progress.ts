/**
 * Passes on a running program's progress, rising only and held below 1 (the output is still
 * to be read); the engine reports 1 itself once the words are in.
 */
export function progressReporter(onProgress: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let reported = 0;
  return (fraction) => {
    const f = Math.min(0.99, fraction);
    if (f > reported) {
      reported = f;
      onProgress?.(f);
    }
  };
}
