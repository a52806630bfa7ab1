/** A byte count for people: "2 GB", "1.25 MB", "1000 bytes" (binary multiples, at most two decimals). */
export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(2)} GB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(2)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(2)} KB`;
  return `${n} bytes`;
}
