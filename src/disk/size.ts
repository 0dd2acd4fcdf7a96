/**
 * How a file's size is written for people, everywhere ra3 shows one (`ra3 index`, `status`, `export`,
 * setup, doctor). Decimal units, as `docs/performance.md` reports sizes: one rule, so the same snapshot
 * never reads `4.03 MB` in one command and `3.8 MB` in another.
 */

/**
 * `512 B`, `1.2 KB`, `4.03 MB`, `1.10 GB` (1 KB = 1,000 bytes).
 * @example formatBytes(4_030_000) // "4.03 MB"
 */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} KB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(2)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}
