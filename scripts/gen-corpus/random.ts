/**
 * A small seeded random source (mulberry32). The generator draws every choice from one instance in a
 * fixed order, so the same seed and scale give byte-identical output on every machine and runtime.
 */

export class Rng {
  private state: number;

  constructor(seed: number) {
    // Spread small seeds (1, 2, 3 …) over the whole state space.
    this.state = (Math.imul(seed >>> 0, 0x9e3779b1) ^ 0x5bd1e995) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi] (both inclusive). @example rng.int(1, 6) */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of `list` (which must not be empty). */
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /**
   * One element of `list`, skewed towards the front (a Zipf-like draw): a few targets get many references
   * and most get a few, the way shared textures and FX are used in real mods.
   */
  skewed<T>(list: readonly T[], power = 2.2): T {
    return list[Math.min(list.length - 1, Math.floor(Math.pow(this.next(), power) * list.length))];
  }

  /** Up to `n` distinct elements of `list`, in list order. */
  sample<T>(list: readonly T[], n: number): T[] {
    if (n >= list.length) return [...list];
    const picked = new Set<number>();
    while (picked.size < n) picked.add(Math.floor(this.next() * list.length));
    return [...picked].sort((a, b) => a - b).map((i) => list[i]);
  }

  /** A decimal with `digits` fraction digits in [lo, hi), as text (e.g. "12.5"). */
  real(lo: number, hi: number, digits = 1): string {
    const s = (lo + this.next() * (hi - lo)).toFixed(digits);
    return digits > 0 ? s.replace(/0+$/, "").replace(/\.$/, "") : s;
  }
}
