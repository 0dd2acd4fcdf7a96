/**
 * The assets a document declared so far, by element name and id (the id compared case-insensitively, as
 * `toLowerCase` compares it): what the extraction asks to report a `duplicate-id` within one file. A
 * hash table of asset indexes in two typed arrays, not a map of key strings: a file of a million assets
 * made a million `name + "\0" + lower-cased id` strings and map entries (≈ 130 MB) that lived to the
 * end of its parse.
 */

/** One declared asset's name and id, as the caller holds them. */
export interface SeenAsset {
  readonly type: string;
  readonly id: string;
}

/** Slots of a new table (a power of two); it doubles when half full. */
const INITIAL_SLOTS = 64;

export class SeenAssets {
  /** Slot → asset index + 1 (0: empty). */
  private slots = new Int32Array(INITIAL_SLOTS);
  /** Slot → the hash of its asset's key (compared before the strings, kept for growing). */
  private hashes = new Int32Array(INITIAL_SLOTS);
  private count = 0;

  /** @param assets the caller's list the indexes point into (read, never changed). */
  constructor(private readonly assets: readonly SeenAsset[]) {}

  /**
   * The index of the first asset declared as `type` with `id` (case-insensitively), or -1; when there
   * is none, `index` (the caller's index of this one) is remembered as it.
   * @example seen.firstOrAdd("WeaponTemplate", "Gun", 7) // -1, then 7 for "gun"
   */
  firstOrAdd(type: string, id: string, index: number): number {
    const hash = keyHash(type, id);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (;;) {
      const held = this.slots[slot];
      if (held === 0) break;
      if (this.hashes[slot] === hash) {
        const a = this.assets[held - 1];
        if (a.type === type && sameLowerCase(a.id, id)) return held - 1;
      }
      slot = (slot + 1) & mask;
    }
    this.slots[slot] = index + 1;
    this.hashes[slot] = hash;
    if (++this.count * 2 > this.slots.length) this.grow();
    return -1;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const hashes = new Int32Array(slots.length);
    const mask = slots.length - 1;
    for (let k = 0; k < this.slots.length; k++) {
      const held = this.slots[k];
      if (held === 0) continue;
      let slot = this.hashes[k] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = held;
      hashes[slot] = this.hashes[k];
    }
    this.slots = slots;
    this.hashes = hashes;
  }
}

/** Whether `id` holds only ASCII characters (their lower case is one character each, A–Z folded). */
function isAsciiId(id: string): boolean {
  for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 127) return false;
  return true;
}

/** A 32-bit hash of `type` and the lower case of `id` (FNV-1a over their UTF-16 units). */
function keyHash(type: string, id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < type.length; i++) h = Math.imul(h ^ type.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0, 0x01000193);
  const lower = isAsciiId(id) ? id : id.toLowerCase();
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
  }
  return h;
}

/** `a.toLowerCase() === b.toLowerCase()`, without new strings when both are ASCII. */
function sameLowerCase(a: string, b: string): boolean {
  if (!isAsciiId(a) || !isAsciiId(b)) return a.toLowerCase() === b.toLowerCase();
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x >= 65 && x <= 90) x += 32;
    if (y >= 65 && y <= 90) y += 32;
    if (x !== y) return false;
  }
  return true;
}
