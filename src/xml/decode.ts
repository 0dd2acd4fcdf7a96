/**
 * Bytes → text for XML files: byte order marks, UTF-16, the XML declaration's `encoding`, and a
 * windows-1252 fallback for files that are not valid UTF-8 (old Windows tools write those).
 * Decoding never fails: problems become warnings in {@link DecodedText}.
 */
import * as nodeBuffer from "node:buffer";
import { Buffer } from "node:buffer";
import { LineMap } from "./line-map.ts";
import type { DecodedText, XmlError } from "./types.ts";

type Encoding = DecodedText["encoding"];

/** What the first bytes of a file say about its encoding, before any decoding. */
export interface EncodingSniff {
  /** The byte encoding family: `utf-16le` / `utf-16be`, or `8-bit` for anything ASCII-compatible. */
  readonly family: "8-bit" | "utf-16le" | "utf-16be";
  /** 0, 2 (UTF-16 BOM) or 3 (UTF-8 BOM). */
  readonly bomBytes: number;
  /** True when a UTF-8 BOM was present. */
  readonly utf8Bom: boolean;
}

/**
 * Detects a BOM or BOM-less UTF-16 (`<\0` / `\0<` patterns, also after leading whitespace).
 * @example sniffEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c])) // { family: "8-bit", bomBytes: 3, utf8Bom: true }
 */
export function sniffEncoding(bytes: Uint8Array): EncodingSniff {
  const n = bytes.length;
  if (n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { family: "8-bit", bomBytes: 3, utf8Bom: true };
  }
  if (n >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { family: "utf-16le", bomBytes: 2, utf8Bom: false };
  if (n >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { family: "utf-16be", bomBytes: 2, utf8Bom: false };
  if (n >= 2) {
    // Without a BOM, an XML document starts with `<` or whitespace: in UTF-16 that is one ASCII byte
    // next to a zero byte.
    if (bytes[1] === 0 && isXmlStartByte(bytes[0]) && (n < 4 || bytes[3] === 0)) {
      return { family: "utf-16le", bomBytes: 0, utf8Bom: false };
    }
    if (bytes[0] === 0 && isXmlStartByte(bytes[1]) && (n < 4 || bytes[2] === 0)) {
      return { family: "utf-16be", bomBytes: 0, utf8Bom: false };
    }
  }
  return { family: "8-bit", bomBytes: 0, utf8Bom: false };
}

function isXmlStartByte(b: number): boolean {
  return b === 0x3c || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/**
 * True when the bytes do not look like an XML text file (domain-spec §3.6): a NUL byte in the first
 * 512 bytes (UTF-16 excepted), or a first non-whitespace character (after a BOM) other than `<`.
 * An empty or whitespace-only start is not binary: the parser reports it as a document without root.
 * @example sniffBinary(new TextEncoder().encode("<a/>")) // false
 */
export function sniffBinary(bytes: Uint8Array): boolean {
  const sniff = sniffEncoding(bytes);
  const limit = Math.min(bytes.length, 512);
  if (sniff.family !== "8-bit") {
    const le = sniff.family === "utf-16le";
    for (let i = sniff.bomBytes; i + 1 < limit; i += 2) {
      const unit = le ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
      if (unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d) continue;
      return unit !== 0x3c;
    }
    return false;
  }
  for (let i = sniff.bomBytes; i < limit; i++) if (bytes[i] === 0) return true;
  for (let i = sniff.bomBytes; i < limit; i++) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b !== 0x3c;
  }
  return false;
}

/** The encoding named by an XML declaration, and where its value sits (text offset). */
interface DeclaredEncoding {
  readonly name: string;
  readonly offset: number;
}

/** Reads `encoding="…"` from an ASCII-compatible `<?xml …?>` at the start of `bytes` (after the BOM). */
function readDeclaredEncoding(bytes: Uint8Array, from: number): DeclaredEncoding | null {
  if (!startsWithAscii(bytes, from, "<?xml")) return null;
  const limit = Math.min(bytes.length, from + 1024);
  let head = "";
  for (let i = from; i < limit; i++) {
    const b = bytes[i];
    if (b === 0x3f && bytes[i + 1] === 0x3e) break;
    head += String.fromCharCode(b);
  }
  const m = /\sencoding\s*=\s*(["'])([^"']*)\1/.exec(head);
  if (!m) return null;
  return { name: m[2], offset: m.index + m[0].length - 1 - m[2].length };
}

function startsWithAscii(bytes: Uint8Array, at: number, s: string): boolean {
  if (at + s.length > bytes.length) return false;
  for (let i = 0; i < s.length; i++) if (bytes[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

type Declared = "utf-8" | "us-ascii" | "windows-1252" | "iso-8859-1" | "utf-16" | null;

const ENCODING_ALIASES: Readonly<Record<string, Exclude<Declared, null>>> = {
  "utf-8": "utf-8",
  utf8: "utf-8",
  "us-ascii": "us-ascii",
  ascii: "us-ascii",
  "windows-1252": "windows-1252",
  cp1252: "windows-1252",
  "x-cp1252": "windows-1252",
  "iso-8859-1": "iso-8859-1",
  "iso8859-1": "iso-8859-1",
  "iso_8859-1": "iso-8859-1",
  latin1: "iso-8859-1",
  "latin-1": "iso-8859-1",
  l1: "iso-8859-1",
  "utf-16": "utf-16",
  "utf-16le": "utf-16",
  "utf-16be": "utf-16",
  "ucs-2": "utf-16",
};

/**
 * Decodes an XML file's bytes. The BOM is removed (`bomBytes` says how many bytes it had); offsets in
 * the returned text are what the tokenizer and {@link LineMap} use. Warnings carry text positions.
 * @example decodeXml(new TextEncoder().encode("<a/>")) // { text: "<a/>", encoding: "utf-8", bomBytes: 0, warnings: [] }
 */
export function decodeXml(bytes: Uint8Array): DecodedText {
  const sniff = sniffEncoding(bytes);
  const warnings: XmlError[] = [];
  if (sniff.family !== "8-bit") return decodeUtf16Text(bytes, sniff, warnings);

  const from = sniff.bomBytes;
  const declared = resolveDeclared(bytes, sniff, warnings);
  const body = bytes.subarray(from);

  if (declared === "windows-1252") {
    return { text: decodeSingleByte(body, true), encoding: "windows-1252", bomBytes: from, warnings };
  }
  if (declared === "iso-8859-1") {
    return { text: decodeSingleByte(body, false), encoding: "iso-8859-1", bomBytes: from, warnings };
  }

  const text = decodeUtf8Strict(body);
  if (text !== null) {
    // Declared us-ascii with bytes >= 0x80 that are valid UTF-8: the real-world meaning is UTF-8.
    const ascii = declared === "us-ascii" && text.length === body.length;
    return { text, encoding: ascii ? "us-ascii" : "utf-8", bomBytes: from, warnings };
  }
  const fallback = decodeSingleByte(body, true);
  const bad = firstInvalidUtf8(body);
  const map = new LineMap(fallback);
  const pos = map.position(bad);
  const where = `byte ${bad + from} (line ${pos.line}, column ${pos.column})`;
  const message = declared === "us-ascii"
    ? `declared encoding 'us-ascii' but the file has non-ASCII bytes that are not valid UTF-8 either, first at ${where}; decoded as windows-1252`
    : `not valid UTF-8 at ${where}; decoded as windows-1252`;
  warnings.push({ message, offset: bad, line: pos.line, column: pos.column });
  return { text: fallback, encoding: "windows-1252", bomBytes: from, warnings };
}

/**
 * The encoding an 8-bit file is decoded with according to its declaration: unknown names and names
 * contradicting a UTF-8 BOM resolve to utf-8 (with a warning pushed to `warnings` when given).
 */
function resolveDeclared(bytes: Uint8Array, sniff: EncodingSniff, warnings: XmlError[] | null): Declared {
  const from = sniff.bomBytes;
  const declaredRaw = readDeclaredEncoding(bytes, from);
  if (!declaredRaw) return null;
  const declared = ENCODING_ALIASES[declaredRaw.name.toLowerCase()] ?? null;
  let why: string | null = null;
  if (declared === null) why = "is not supported";
  else if (declared === "utf-16") why = "does not match the file's bytes (not UTF-16)";
  else if (sniff.utf8Bom && declared !== "utf-8" && declared !== "us-ascii") {
    why = "contradicts the UTF-8 byte order mark";
  }
  if (why === null) return declared;
  warnings?.push(
    warningAt(
      bytesAsLatin1Head(bytes, from, declaredRaw.offset),
      declaredRaw.offset,
      `declared encoding '${declaredRaw.name}' ${why}; decoded as UTF-8`,
    ),
  );
  return "utf-8";
}

/**
 * The single-byte encoding {@link decodeXml} would use because the file declares it, or null when the
 * file is decoded as UTF-8/ASCII/UTF-16 (invalid UTF-8 still falls back to windows-1252 there).
 * @example declaredSingleByteEncoding(new TextEncoder().encode("<?xml version='1.0' encoding='latin1'?><a/>")) // "iso-8859-1"
 */
export function declaredSingleByteEncoding(bytes: Uint8Array): "windows-1252" | "iso-8859-1" | null {
  const sniff = sniffEncoding(bytes);
  if (sniff.family !== "8-bit") return null;
  const declared = resolveDeclared(bytes, sniff, null);
  return declared === "windows-1252" || declared === "iso-8859-1" ? declared : null;
}

/** The ASCII head of the text, long enough to position a warning inside the XML declaration. */
function bytesAsLatin1Head(bytes: Uint8Array, from: number, upTo: number): string {
  let s = "";
  const end = Math.min(bytes.length, from + upTo);
  for (let i = from; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

function warningAt(text: string, offset: number, message: string): XmlError {
  const pos = new LineMap(text).position(offset);
  return { message, offset, line: pos.line, column: pos.column };
}

function decodeUtf16Text(bytes: Uint8Array, sniff: EncodingSniff, warnings: XmlError[]): DecodedText {
  const le = sniff.family === "utf-16le";
  const from = sniff.bomBytes;
  const units = Math.floor((bytes.length - from) / 2);
  const codes = new Uint16Array(units);
  for (let u = 0, i = from; u < units; u++, i += 2) {
    codes[u] = le ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
  }
  const text = unitsToString(codes);
  const encoding: Encoding = le ? "utf-16le" : "utf-16be";
  const label = le ? "UTF-16 little-endian" : "UTF-16 big-endian";
  const m = /^<\?xml[^>]*?\sencoding\s*=\s*(["'])([^"']*)\1/.exec(text);
  if (
    m && !m[2].toLowerCase().startsWith("utf-16") && m[2].toLowerCase() !== "ucs-2" && m[2].toLowerCase() !== "unicode"
  ) {
    warnings.push(
      warningAt(
        text,
        m[0].length - 1 - m[2].length,
        `declared encoding '${m[2]}' does not match the file's bytes; decoded as ${label}`,
      ),
    );
  }
  if ((bytes.length - from) % 2 === 1) {
    warnings.push(warningAt(text, text.length, `${label} data has an odd number of bytes; the last byte was ignored`));
  }
  return { text, encoding, bomBytes: from, warnings };
}

function unitsToString(codes: Uint16Array): string {
  let out = "";
  const CHUNK = 8192;
  for (let i = 0; i < codes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, codes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

const utf8Fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const nativeIsAscii = (nodeBuffer as { isAscii?: (b: Uint8Array) => boolean }).isAscii;

/**
 * True when every byte is below 0x80: native (SIMD) where the runtime has `isAscii` on the `node:buffer`
 * module (Node, Bun and Deno do), else a loop.
 */
export const isAsciiBytes: (b: Uint8Array) => boolean = typeof nativeIsAscii === "function" ? nativeIsAscii : (b) => {
  for (let i = 0; i < b.length; i++) if (b[i] >= 0x80) return false;
  return true;
};

/**
 * Bytes below 0x80 as text: one character per byte, whatever the 8-bit encoding (UTF-8, ASCII,
 * windows-1252 and ISO-8859-1 all agree there). Checked and copied natively: a third of the UTF-8
 * decoder's time on Upheaval's 23 MB of XML, most of it maps (3–4 ms against 8–10 ms).
 */
function asciiText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/** UTF-8 decoding that returns null instead of substituting U+FFFD. */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  if (isAsciiBytes(bytes)) return asciiText(bytes);
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    return null;
  }
}

/** windows-1252 code points for bytes 0x80–0x9F (WHATWG mapping: the five unassigned bytes map to C1). */
const CP1252_HIGH = [
  0x20ac,
  0x0081,
  0x201a,
  0x0192,
  0x201e,
  0x2026,
  0x2020,
  0x2021,
  0x02c6,
  0x2030,
  0x0160,
  0x2039,
  0x0152,
  0x008d,
  0x017d,
  0x008f,
  0x0090,
  0x2018,
  0x2019,
  0x201c,
  0x201d,
  0x2022,
  0x2013,
  0x2014,
  0x02dc,
  0x2122,
  0x0161,
  0x203a,
  0x0153,
  0x009d,
  0x017e,
  0x0178,
];

/**
 * One byte per character: windows-1252 when `cp1252`, else ISO-8859-1 (byte = code point).
 * @example decodeSingleByte(new Uint8Array([0x80]), true) // "€"
 */
export function decodeSingleByte(bytes: Uint8Array, cp1252: boolean): string {
  if (isAsciiBytes(bytes)) return asciiText(bytes);
  const codes = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    codes[i] = cp1252 && b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : b;
  }
  return unitsToString(codes);
}

/**
 * Index of the lead byte of the first invalid UTF-8 sequence (overlong forms, surrogates, code points
 * above U+10FFFF and truncated sequences are invalid), or -1 when all bytes are valid.
 * @example firstInvalidUtf8(new Uint8Array([0x61, 0xff])) // 1
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= n) return i;
    const b1 = bytes[i + 1];
    if (b1 < lo || b1 > hi) return i;
    for (let k = 2; k <= need; k++) {
      const bk = bytes[i + k];
      if (bk < 0x80 || bk > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}
