/**
 * Bytes ↔ text for config files, keeping the conventions a rewrite must preserve: a UTF-8 BOM, the line
 * ending style. Files in other encodings are refused with a message saying how to fix them, because
 * Windows tools (PowerShell's `Out-File`, Notepad's "Unicode") still produce UTF-16.
 */
import type { ConfigProblem } from "./types.ts";

export interface DecodedText {
  /** The text without the BOM. */
  readonly text: string;
  readonly bom: boolean;
  readonly eol: "\n" | "\r\n";
}

export type DecodeResult = { readonly ok: true; readonly value: DecodedText } | {
  readonly ok: false;
  readonly problem: ConfigProblem;
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A problem without a position. */
export function problem(message: string, line: number | null = null, column: number | null = null): ConfigProblem {
  return { message, line, column };
}

/**
 * Decodes a config file's bytes as UTF-8, noting a BOM and the line-ending style (the first line break
 * decides; LF when there is none).
 */
export function decodeConfigBytes(bytes: Uint8Array): DecodeResult {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return {
      ok: false,
      problem: problem("the file is saved as UTF-16; save it as UTF-8 (in Notepad: File → Save as → Encoding: UTF-8)"),
    };
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  try {
    text = utf8.decode(bom ? bytes.subarray(3) : bytes);
  } catch {
    return { ok: false, problem: problem("the file is not UTF-8 text; save it as UTF-8") };
  }
  const lf = text.indexOf("\n");
  const eol = lf > 0 && text[lf - 1] === "\r" ? "\r\n" : "\n";
  return { ok: true, value: { text, bom, eol } };
}

/** The full file text to write: the BOM (as U+FEFF, which encodes to EF BB BF) when the file had one. */
export function withBom(text: string, bom: boolean): string {
  return bom ? "\uFEFF" + text : text;
}

/** 1-based line and column of `offset` in `text` (columns count UTF-16 code units, as editors do). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** "a string", "an array", … for messages about a value of the wrong kind. */
export function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

/** Structural equality for JSON-like values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length &&
    ka.every((k) =>
      Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    );
}
