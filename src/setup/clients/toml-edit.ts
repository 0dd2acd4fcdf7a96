/**
 * Minimal text edits on a TOML document: find, add, update and delete one `[a.b]` table while keeping
 * every other table, key, comment and blank line as it was. smol-toml validates (before and after) and
 * reads values; this module only locates statements, because no TOML library round-trips comments.
 *
 * The scanner assumes a document smol-toml has already accepted, so it skips error handling and only
 * tracks what can hide a line that looks like a table header: strings, multi-line strings and arrays.
 */

/** One top-level line-group of a TOML document. */
export interface TomlStatement {
  readonly kind: "header" | "keyvalue" | "trivia";
  /** The table path of a header, or the (dotted) key of a key/value line; empty for trivia. */
  readonly keys: readonly string[];
  /** True for `[[array.of.tables]]` headers. */
  readonly arrayTable: boolean;
  /** Offset of the statement's first character (a line start). */
  readonly start: number;
  /** Offset just past its line break (or the text end). */
  readonly end: number;
  /** The value's span, for key/value statements (equal to `start` otherwise). */
  readonly valueStart: number;
  readonly valueEnd: number;
}

const BARE_KEY = /^[A-Za-z0-9_-]+/;
// Offset dates/times may contain a space between date and time, so they get their own pattern.
const DATETIME = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?/;
const SCALAR = /^[^\s,\]}#]+/;

function skipSpaces(text: string, pos: number): number {
  while (text[pos] === " " || text[pos] === "\t") pos++;
  return pos;
}

/** Skips spaces, line breaks and comments (inside arrays and inline tables). */
function skipLayout(text: string, pos: number): number {
  for (;;) {
    pos = skipSpaces(text, pos);
    const c = text[pos];
    if (c === "\r" || c === "\n") pos++;
    else if (c === "#") {
      while (pos < text.length && text[pos] !== "\n") pos++;
    } else return pos;
  }
}

/** Past the rest of the line: spaces, an optional comment, the line break. */
function endOfLine(text: string, pos: number): number {
  pos = skipSpaces(text, pos);
  if (text[pos] === "#") { while (pos < text.length && text[pos] !== "\r" && text[pos] !== "\n") pos++; }
  if (text.startsWith("\r\n", pos)) return pos + 2;
  if (text[pos] === "\n" || text[pos] === "\r") return pos + 1;
  return pos;
}

function decodeBasic(raw: string): string {
  return raw.replace(/\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|x([0-9A-Fa-f]{2})|(.))/g, (_m, u4, u8, x2, c) => {
    if (u4 || u8 || x2) return String.fromCodePoint(parseInt(u4 ?? u8 ?? x2, 16));
    return ({ b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" } as Record<string, string>)[
      c
    ] ?? c;
  });
}

/** Parses a (dotted) key at `pos`, returning its parts and the position after it. */
function parseKey(text: string, pos: number): { keys: string[]; pos: number } {
  const keys: string[] = [];
  for (;;) {
    pos = skipSpaces(text, pos);
    if (text[pos] === '"') {
      let i = pos + 1;
      while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      keys.push(decodeBasic(text.slice(pos + 1, i)));
      pos = i + 1;
    } else if (text[pos] === "'") {
      const i = text.indexOf("'", pos + 1);
      keys.push(text.slice(pos + 1, i));
      pos = i + 1;
    } else {
      const m = BARE_KEY.exec(text.slice(pos, pos + 256));
      if (!m) throw new Error(`TOML key expected at offset ${pos}`);
      keys.push(m[0]);
      pos += m[0].length;
    }
    pos = skipSpaces(text, pos);
    if (text[pos] !== ".") return { keys, pos };
    pos++;
  }
}

/** The offset just past the value starting at `pos`. */
function scanValue(text: string, pos: number): number {
  if (text.startsWith('"""', pos)) {
    let i = pos + 3;
    for (;;) {
      if (text[i] === "\\") i += 2;
      else if (text.startsWith('"""', i)) {
        let end = i + 3;
        while (text[end] === '"' && end - i < 5) end++;
        return end;
      } else i++;
    }
  }
  if (text.startsWith("'''", pos)) {
    const i = text.indexOf("'''", pos + 3);
    let end = i + 3;
    while (text[end] === "'" && end - i < 5) end++;
    return end;
  }
  const c = text[pos];
  if (c === '"') {
    let i = pos + 1;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    return i + 1;
  }
  if (c === "'") return text.indexOf("'", pos + 1) + 1;
  if (c === "[" || c === "{") {
    const close = c === "[" ? "]" : "}";
    let i = pos + 1;
    for (;;) {
      i = skipLayout(text, i);
      if (text[i] === close) return i + 1;
      if (c === "{") {
        i = parseKey(text, i).pos;
        i = skipSpaces(text, i) + 1;
        i = skipSpaces(text, i);
      }
      const next = scanValue(text, i);
      if (next <= i) throw new Error(`TOML value expected at offset ${i}`);
      i = skipLayout(text, next);
      if (text[i] === ",") i++;
    }
  }
  const rest = text.slice(pos, pos + 64);
  const m = DATETIME.exec(rest) ?? SCALAR.exec(rest);
  if (!m) throw new Error(`TOML value expected at offset ${pos}`);
  // A date match may stop inside a longer bare scalar (e.g. a number like 1979-05-27x is invalid anyway).
  return pos + m[0].length;
}

/** Splits a validated TOML document into statements (headers, key/value lines, blank and comment lines). */
export function scanToml(text: string): TomlStatement[] {
  const out: TomlStatement[] = [];
  let pos = 0;
  while (pos < text.length) {
    const start = pos;
    pos = skipSpaces(text, pos);
    const c = text[pos];
    if (pos >= text.length || c === "\n" || c === "\r" || c === "#") {
      pos = endOfLine(text, pos);
      out.push({ kind: "trivia", keys: [], arrayTable: false, start, end: pos, valueStart: start, valueEnd: start });
      continue;
    }
    if (c === "[") {
      const arrayTable = text[pos + 1] === "[";
      const key = parseKey(text, pos + (arrayTable ? 2 : 1));
      pos = skipSpaces(text, key.pos) + (arrayTable ? 2 : 1);
      pos = endOfLine(text, pos);
      out.push({ kind: "header", keys: key.keys, arrayTable, start, end: pos, valueStart: start, valueEnd: start });
      continue;
    }
    const key = parseKey(text, pos);
    const valueStart = skipSpaces(text, skipSpaces(text, key.pos) + 1);
    const valueEnd = scanValue(text, valueStart);
    pos = endOfLine(text, valueEnd);
    out.push({ kind: "keyvalue", keys: key.keys, arrayTable: false, start, end: pos, valueStart, valueEnd });
  }
  return out;
}

/** True when `keys` begins with `prefix`. */
export function keysStartWith(keys: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= keys.length && prefix.every((k, i) => keys[i] === k);
}

/** A TOML section: a header (null for the root) and the statements up to the next header. */
export interface TomlSection {
  readonly header: TomlStatement | null;
  readonly body: readonly TomlStatement[];
  /** Offset past the last non-trivia statement (or the header), so trailing blank lines and comments stay with what follows. */
  readonly contentEnd: number;
}

/** The document's sections in order (the root section first, possibly empty). */
export function sectionsOf(statements: readonly TomlStatement[]): TomlSection[] {
  const out: TomlSection[] = [];
  let header: TomlStatement | null = null;
  let body: TomlStatement[] = [];
  const flush = (): void => {
    let contentEnd = header ? header.end : 0;
    for (const s of body) if (s.kind !== "trivia") contentEnd = s.end;
    out.push({ header, body, contentEnd });
  };
  for (const s of statements) {
    if (s.kind === "header") {
      flush();
      header = s;
      body = [];
    } else body.push(s);
  }
  flush();
  return out;
}

/** `key` as a TOML key: bare when possible, else a quoted string. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** `s` as a TOML basic string. @example tomlString("C:\\x") // "\"C:\\\\x\"" */
function tomlString(s: string): string {
  // JSON's escapes are all valid in TOML basic strings; DEL is the one control character JSON leaves raw.
  return JSON.stringify(s).replace(/\x7f/g, "\\u007F");
}

/** A flat TOML value: strings, numbers, booleans and arrays of them. */
export function tomlValue(v: unknown): string {
  if (typeof v === "string") return tomlString(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return "[" + v.map(tomlValue).join(", ") + "]";
  throw new Error(`unsupported TOML value: ${JSON.stringify(v)}`);
}

function lineStartOf(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

function isBlankLineAt(text: string, pos: number): number | null {
  const m = /^[ \t]*(\r\n|\n|\r)/.exec(text.slice(pos, pos + 4096));
  return m ? pos + m[0].length : null;
}

/**
 * `text` without the span [start, end) of whole lines, also dropping the blank lines that would
 * otherwise pile up where the span was (one blank line stays between the neighbours).
 */
export function removeLines(text: string, start: number, end: number): string {
  let e = end;
  for (let next = isBlankLineAt(text, e); next !== null; next = isBlankLineAt(text, e)) e = next;
  const prevLineStart = start > 0 ? lineStartOf(text, start - 1) : 0;
  const prevBlank = start === 0 || /^[ \t]*(\r\n|\n|\r)?$/.test(text.slice(prevLineStart, start));
  let s = start;
  if (e >= text.length) {
    end = text.length;
    while (s > 0) {
      const ps = lineStartOf(text, s - 1);
      if (!/^[ \t]*(\r\n|\n|\r)$/.test(text.slice(ps, s))) break;
      s = ps;
    }
  } else if (prevBlank) end = e;
  return text.slice(0, s) + text.slice(end);
}
