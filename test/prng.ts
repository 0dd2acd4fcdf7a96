/** A small deterministic pseudo-random generator (mulberry32) for the fuzz and mutation tests. */

/**
 * Numbers in [0, 1), the same sequence for the same seed.
 * @example prng(7)() // always the same first number
 */
export function prng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
