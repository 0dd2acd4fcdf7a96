/**
 * References inside shallow-scanned art (`.w3x`): the scanner skips each top-level element's payload,
 * so the few places that name other assets are read here, without touching the bulk: the start tag of
 * every art asset (`Hierarchy="…"`) and the whole of each `W3DContainer` (small: `SubObject` →
 * `RenderObject` → `Mesh` / `CollisionBox`). Mesh internals (vertex data, shader constants) are not read.
 */
import type { SchemaQueries } from "../schema/model.ts";
import { decodeSingleByte } from "../xml/decode.ts";
import { countUtf16Units, utf16UnitsOfByte } from "../xml/shallow.ts";
import type { ShallowScan } from "../xml/types.ts";
import { extractXmlRecord } from "./extract-xml.ts";
import type { RefRecord } from "./records.ts";

/** Element types read whole (they are small and hold references); the others contribute only their start tag. */
const READ_WHOLE = new Set(["W3DContainer"]);
const WRAP_OPEN = '<AssetDeclaration xmlns="uri:ea.com:eala:asset">';
const WRAP_CLOSE = "</AssetDeclaration>";

/** Gives the text between two offsets of the file (offsets into the decoded text). */
export interface TextSource {
  slice(start: number, end: number): string;
  indexOf(needle: string, from: number): number;
  readonly length: number;
}

/**
 * A {@link TextSource} over bytes in which every byte is one UTF-16 unit — pure ASCII, or a single-byte
 * code page (`cp1252`: windows-1252, else ISO-8859-1) — so text offsets are byte offsets and only the asked
 * ranges are decoded, as `decodeXml` decodes the file (ISO-8859-1, and so ASCII, natively as Latin-1).
 * Searches compare bytes: their needles (markup) are ASCII, which both code pages map to themselves.
 */
export function singleByteSource(bytes: Uint8Array, cp1252: boolean): TextSource {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    slice: cp1252 ? (s, e) => decodeSingleByte(bytes.subarray(s, e), true) : (s, e) => buf.toString("latin1", s, e),
    indexOf: (needle, from) => buf.indexOf(needle, from, "latin1"),
    length: buf.length,
  };
}

/** Bytes per checkpoint of {@link utf8Source}'s table of UTF-16 offsets. */
const UTF8_CHUNK = 1024;

/**
 * A {@link TextSource} over valid UTF-8 bytes (no BOM) with non-ASCII characters, in the decoded text's
 * offsets (UTF-16 units) without decoding the whole file: a table of the units before every 1 KB of bytes,
 * made as far as a question needs it (a word-at-a-time count, `countUtf16Units`), takes an offset to its
 * byte within one chunk's walk. Only the asked ranges are decoded.
 */
export function utf8Source(bytes: Uint8Array): TextSource {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  /** units[i]: the UTF-16 units of bytes[0, i * UTF8_CHUNK). */
  const units: number[] = [0];
  const grow = (): boolean => {
    const at = (units.length - 1) * UTF8_CHUNK;
    if (at + UTF8_CHUNK > bytes.length) return false;
    units.push(units[units.length - 1] + countUtf16Units(bytes, at, at + UTF8_CHUNK));
    return true;
  };
  /** The byte where the character at text offset `u` starts (the end for offsets past it). */
  const byteOf = (u: number): number => {
    while (units[units.length - 1] <= u && grow());
    let lo = 0;
    let hi = units.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (units[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    let b = lo * UTF8_CHUNK;
    let n = units[lo];
    // Characters up to `u`, then the continuation bytes of the last one.
    while (b < bytes.length && (n < u || (bytes[b] & 0xc0) === 0x80)) n += utf16UnitsOfByte(bytes[b++]);
    return b;
  };
  /** The text offset of the character starting at byte `b`. */
  const unitsOf = (b: number): number => {
    const chunk = Math.floor(b / UTF8_CHUNK);
    while (units.length <= chunk && grow());
    const i = Math.min(chunk, units.length - 1);
    return units[i] + countUtf16Units(bytes, i * UTF8_CHUNK, b);
  };
  return {
    slice: (s, e) => buf.toString("utf8", byteOf(s), byteOf(e)),
    indexOf: (needle, from) => {
      const b = buf.indexOf(needle, byteOf(from), "utf8");
      return b < 0 ? -1 : unitsOf(b);
    },
    get length() {
      return unitsOf(bytes.length);
    },
  };
}

/** A {@link TextSource} over a decoded string. */
export function stringSource(text: string): TextSource {
  return { slice: (s, e) => text.slice(s, e), indexOf: (n, f) => text.indexOf(n, f), length: text.length };
}

/** The reference sites of the art assets found by `scan` (owners are indexes into `scan.assets`). */
export function artReferences(source: TextSource, scan: ShallowScan, schema: SchemaQueries): RefRecord[] {
  const out: RefRecord[] = [];
  const assets = scan.assets;
  for (let i = 0; i < assets.length; i++) {
    const a = assets[i];
    // The last asset's bound is the end of the text (no search finds anything past it).
    const limit = i + 1 < assets.length ? assets[i + 1].start : Infinity;
    const tagEnd = startTagEnd(source, a.start, limit);
    if (tagEnd < 0) continue;
    let snippet: string;
    const startTag = source.slice(a.start, tagEnd);
    const selfClosing = startTag.endsWith("/>");
    if (!selfClosing && READ_WHOLE.has(a.type)) {
      const close = `</${qnameOf(startTag)}>`;
      const end = source.indexOf(close, tagEnd);
      if (end < 0 || end > limit) continue;
      snippet = source.slice(a.start, end + close.length);
    } else {
      snippet = selfClosing ? startTag : `${startTag.slice(0, -1)}/>`;
    }
    const record = extractXmlRecord(WRAP_OPEN + snippet + WRAP_CLOSE, schema);
    // The wrapper adds no line breaks: lines shift by the element's first line, columns only on that line.
    const firstLine = a.line - countNewlines(source.slice(a.start, a.offset));
    const firstColumn = firstLine === a.line ? a.column - (a.offset - a.start) : columnOf(source, a.start);
    for (const r of record.refs) {
      if (r.owner !== 0) continue;
      const line = firstLine + r.line - 1;
      const column = r.line === 1 ? r.column - WRAP_OPEN.length + firstColumn - 1 : r.column;
      out.push({ ...r, owner: i, line, column, offset: a.start + (r.offset - WRAP_OPEN.length) });
    }
  }
  return out;
}

function startTagEnd(source: TextSource, start: number, limit: number): number {
  // Attribute values in art files never contain '>', so the first one ends the start tag.
  const gt = source.indexOf(">", start);
  return gt < 0 || gt >= limit ? -1 : gt + 1;
}

function qnameOf(startTag: string): string {
  const m = /^<([^\s/>]+)/.exec(startTag);
  return m ? m[1] : "";
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

function columnOf(source: TextSource, offset: number): number {
  const from = Math.max(0, offset - 4096);
  const before = source.slice(from, offset);
  const nl = before.lastIndexOf("\n");
  return nl < 0 ? offset - from + 1 : offset - (from + nl + 1) + 1;
}
