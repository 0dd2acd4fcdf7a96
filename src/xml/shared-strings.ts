/**
 * A bounded table of shared strings read out of documents: the same characters give back the same string
 * object, without a slice or a copy when the string was seen before (open addressing on a hash of the
 * characters, compared in place). Every string it hands out is a copy that shares no storage with the
 * document it came from: the engine makes a slice a view into its base string, so one id kept from a
 * file would keep the whole file's text alive.
 */

/** A copy of `src[start, end)` that shares no storage with `src`. */
export function detachedSlice(src: string, start: number, end: number): string {
  const s = src.slice(start, end);
  // A JSON round trip gives one flat string of its own, equal for every string (quotes, backslashes,
  // control characters and lone surrogates are escaped and read back). Neither a concatenation (the
  // engine slices a rope's part in place) nor padding and slicing the padding off (a view of the padded
  // copy: two string cells, ≈ 66 bytes for a 17-character id instead of ≈ 33) would.
  return s.length === 0 ? s : JSON.parse(JSON.stringify(s));
}

/** A table of shared strings (see the file comment); past its bounds it returns fresh detached copies. */
export class SharedStrings {
  private readonly slots: (string | undefined)[];
  private readonly mask: number;
  private count = 0;

  /**
   * @param slotBits log2 of the number of slots
   * @param limit entries at most (keep it at half the slots or less, so probes stay short)
   * @param maxLength longer strings are copied, not kept
   * @param probes slots looked at before giving up on one string
   */
  constructor(
    slotBits: number,
    private readonly limit: number,
    private readonly maxLength: number,
    private readonly probes = 8,
  ) {
    this.slots = new Array(1 << slotBits).fill(undefined);
    this.mask = (1 << slotBits) - 1;
  }

  /**
   * `src[start, end)` as the table's shared copy.
   * @example strings.get("a GameObject b", 2, 12) === strings.get("GameObject", 0, 10) // true
   */
  get(src: string, start: number, end: number): string {
    const n = end - start;
    if (n <= 0) return "";
    // A string the table does not keep is not hashed (a long value read by extraction).
    if (n > this.maxLength) return detachedSlice(src, start, end);
    return this.getHashed(src, start, end, rawHash(src, start, end));
  }

  /**
   * {@link get} when the caller has already folded the characters into `raw` (see {@link rawHash}),
   * e.g. while scanning them: the characters are then read once more only to compare.
   */
  getHashed(src: string, start: number, end: number, raw: number): string {
    const n = end - start;
    if (n <= 0) return "";
    if (n > this.maxLength) return detachedSlice(src, start, end);
    let h = (raw + n) | 0;
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    let slot = (h ^ (h >>> 16)) & this.mask;
    const slots = this.slots;
    for (let probe = 0; probe < this.probes; probe++) {
      const known = slots[slot];
      if (known === undefined) {
        const fresh = detachedSlice(src, start, end);
        if (this.count < this.limit) {
          slots[slot] = fresh;
          this.count++;
        }
        return fresh;
      }
      // The engine's comparison in place (a memory compare): faster than a loop over the characters.
      if (known.length === n && src.startsWith(known, start)) return known;
      slot = (slot + 1) & this.mask;
    }
    return detachedSlice(src, start, end);
  }

  /** Entries kept so far. */
  get size(): number {
    return this.count;
  }
}

/**
 * The characters of `src[start, end)` folded into one number, the first step of the table's hash: a
 * scanner may fold each character as it reads it (`h = (Math.imul(h, 31) + c) | 0`, from 0) and pass
 * the result to {@link SharedStrings.getHashed}.
 */
export function rawHash(src: string, start: number, end: number): number {
  let h = 0;
  for (let k = start; k < end; k++) h = (Math.imul(h, 31) + src.charCodeAt(k)) | 0;
  return h;
}
