/**
 * EA's "FastHash", the hash BinaryAssetBuilder uses for type ids and instance ids in `.manifest` files.
 * It is Paul Hsieh's SuperFastHash seeded with the byte length, with EA's own final avalanche
 * (shifts 3, 5, 2, 15, 10 instead of the reference 3, 5, 4, 17, 25, 6). See formats.md §3.
 *
 * All results are unsigned 32-bit integers (`>>> 0`).
 */

/** What the raw-buffer overload returns for zero bytes (the string overload returns 0 instead). */
export const EMPTY_BUFFER_HASH = 0x1337c0de;

const utf8 = new TextEncoder();

/**
 * The raw-buffer FastHash of `bytes`, unsigned 32-bit; 0x1337C0DE for an empty buffer.
 * @example fastHash(new TextEncoder().encode("GameObject")) // 0x942FFF2D
 */
export function fastHash(bytes: Uint8Array): number {
  if (bytes.length === 0) return EMPTY_BUFFER_HASH;
  return superFastHash(bytes);
}

/**
 * The case-sensitive symbol hash of `name` (BAB `GetCaseSensitiveSymbolHash`): the type id of an asset
 * element name. 0 for the empty string.
 * @example symbolHash("W3DMesh") // 0xC2B1A262
 */
export function symbolHash(name: string): number {
  if (name.length === 0) return 0;
  return superFastHash(utf8.encode(name));
}

/**
 * The instance id of an asset id: the symbol hash of the lower-cased id (BAB
 * `GetCaseInsensitiveSymbolHash`), so `instanceHash("GDIRifleman") === instanceHash("gdirifleman")`.
 * 0 for the empty string.
 */
export function instanceHash(id: string): number {
  return symbolHash(id.toLowerCase());
}

/** `#` and the id as 8 upper-case hex digits: how an unnamed type id is shown. @example formatTypeId(0x942fff2d) // "#942FFF2D" */
export function formatTypeId(typeId: number): string {
  return "#" + (typeId >>> 0).toString(16).toUpperCase().padStart(8, "0");
}

function superFastHash(b: Uint8Array): number {
  const len = b.length;
  let h = len >>> 0;
  let i = 0;
  for (const end = len - (len & 3); i < end; i += 4) {
    h = (h + (b[i] | (b[i + 1] << 8))) >>> 0;
    // Same as formats.md's "h ^= (next16 ^ (h << 5)) << 11": both are h ^ (h << 16) ^ (next16 << 11).
    const tmp = (((b[i + 2] | (b[i + 3] << 8)) << 11) ^ h) >>> 0;
    h = ((h << 16) ^ tmp) >>> 0;
    h = (h + (h >>> 11)) >>> 0;
  }
  // Tail bytes are read as signed char, as in the reference implementation; this only matters for
  // bytes >= 0x80, which asset names (ASCII XML ids) do not contain.
  switch (len & 3) {
    case 3:
      h = (h + (b[i] | (b[i + 1] << 8))) >>> 0;
      h = (h ^ (h << 16)) >>> 0;
      h = (h ^ (((b[i + 2] << 24) >> 24) << 18)) >>> 0;
      h = (h + (h >>> 11)) >>> 0;
      break;
    case 2:
      h = (h + (b[i] | (b[i + 1] << 8))) >>> 0;
      h = (h ^ (h << 11)) >>> 0;
      h = (h + (h >>> 17)) >>> 0;
      break;
    case 1:
      h = (h + ((b[i] << 24) >> 24)) >>> 0;
      h = (h ^ (h << 10)) >>> 0;
      h = (h + (h >>> 1)) >>> 0;
      break;
  }
  h = (h ^ (h << 3)) >>> 0;
  h = (h + (h >>> 5)) >>> 0;
  h = (h ^ (h << 2)) >>> 0;
  h = (h + (h >>> 15)) >>> 0;
  h = (h ^ (h << 10)) >>> 0;
  return h;
}
