/**
 * Tests over attribute values and element text, read in place (a range of the document or of a decoded
 * value): whitespace exactly as `\s` and `trim()` define it, token bounds, and whether a token could be an
 * asset id in heuristic mode. Character loops and class tables, no regular expressions, no copies: these
 * run for every value of every file.
 */

/**
 * Whitespace as `String.prototype.trim` and `\s` define it (XML's four, the other ASCII controls
 * 0x0B/0x0C, and the Unicode spaces), so the character loop below splits exactly as the regular
 * expression it replaced.
 */
export function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The first non-space offset in `src[i, to)`, or `to`. */
export function skipSpace(src: string, i: number, to: number): number {
  while (i < to && isSpace(src.charCodeAt(i))) i++;
  return i;
}

/** The end of the token starting at `i` (the first space, or `to`). */
export function skipToken(src: string, i: number, to: number): number {
  while (i < to && !isSpace(src.charCodeAt(i))) i++;
  return i;
}

/** `to` moved back over trailing spaces, not before `from`. */
export function trimmedEnd(src: string, from: number, to: number): number {
  while (to > from && isSpace(src.charCodeAt(to - 1))) to--;
  return to;
}

/** True when `src[from, to)` is empty or all spaces (what `trim() === ""` says). */
export function isBlank(src: string, from: number, to: number): boolean {
  return skipSpace(src, from, to) === to;
}

/** True when `src[from, to)` contains the character `c` (bounded: never scans past `to`). */
export function hasChar(src: string, c: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (src.charCodeAt(i) === c) return true;
  return false;
}

/** True when `src[from, to)` contains `&` or `<` (an entity reference, CDATA, a comment). */
export function hasAmpOrLt(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === 38 || c === 60) return true;
  }
  return false;
}

// Character classes of ids in heuristic mode (ASCII): a name starts with a letter or `_` and goes on with
// letters, digits, `_`, `.` and `-`; an enum-like segment has only capitals, digits and `_`.
const ID_START = 1;
const ID_PART = 2;
const ENUM_PART = 4;
const ID_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const upper = c >= 65 && c <= 90;
  const lower = c >= 97 && c <= 122;
  const digit = c >= 48 && c <= 57;
  if (upper || lower || c === 95) ID_CLASS[c] |= ID_START;
  if (upper || lower || digit || c === 95 || c === 46 || c === 45) ID_CLASS[c] |= ID_PART;
  if (upper || digit || c === 95) ID_CLASS[c] |= ENUM_PART;
}

/** Words that are never ids (compared ignoring case). */
const NOT_IDS = ["true", "false", "yes", "no", "none", "null"];

/** True when `c` may start an id in heuristic mode (an ASCII letter or `_`): else no token starting with it passes. */
export function isIdStart(c: number): boolean {
  return c < 128 && (ID_CLASS[c] & ID_START) !== 0;
}

/**
 * The end of the token starting at `i` (the first space, or `to`, as {@link skipToken} finds it), or `~end`
 * (negative) when that token does not look like an asset id in heuristic (schema-less) mode: an id has at
 * least two characters, an optional `prefix:` and a name (both `[A-Za-z_][A-Za-z0-9_.-]*`), is not one of
 * {@link NOT_IDS}, and its last segment is not enum-like (`[A-Z0-9_]+`). One character loop over the text in
 * place, no regular expression, no copy: heuristic extraction asks this of every token of every value.
 * @example scanIdToken("Tank 12", 0, 7) // 4
 * @example scanIdToken("Tank 12", 5, 7) // ~7
 */
export function scanIdToken(src: string, i: number, to: number): number {
  const start = i;
  let segment = start;
  let colon = false;
  let enumLike = true;
  let ok = true;
  for (; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c >= 128) {
      if (isSpace(c)) break;
      ok = false;
      continue;
    }
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) break;
    if (!ok) continue;
    if (c === 58 /* : */) {
      if (colon || i === segment) ok = false;
      else {
        colon = true;
        segment = i + 1;
        enumLike = true;
      }
      continue;
    }
    const cls = ID_CLASS[c];
    if ((cls & (i === segment ? ID_START : ID_PART)) === 0) ok = false;
    else if ((cls & ENUM_PART) === 0) enumLike = false;
  }
  const end = i;
  if (ok) {
    ok = end - start >= 2 && segment !== end && !enumLike && (colon || end - start > 5 || !isNotId(src, start, end));
  }
  return ok ? end : ~end;
}

/** `src[start, end)` (id characters only) is one of {@link NOT_IDS}, ignoring case. */
function isNotId(src: string, start: number, end: number): boolean {
  for (const word of NOT_IDS) {
    if (word.length !== end - start) continue;
    let k = 0;
    // Setting 0x20 lower-cases a capital; no other id character becomes a lower-case letter by it.
    while (k < word.length && (src.charCodeAt(start + k) | 0x20) === word.charCodeAt(k)) k++;
    if (k === word.length) return true;
  }
  return false;
}
