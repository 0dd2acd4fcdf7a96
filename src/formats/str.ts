/**
 * SAGE `.str` string tables (`Data/Mod.str`): display text keyed by labels such as
 * `Name:JapanArcherInfantry`.
 *
 * Grammar, line by line:
 *
 * ```
 * // comment                      (also after a label, a string or END)
 * Name:JapanArcherInfantry        a label starts an entry
 *   "Archer "                     one or more quoted strings, concatenated;
 *   "Maiden"                      escapes \n \t \" \\ (others are kept as written)
 * END                             case-insensitive
 * ```
 *
 * A string ends on its own line. Problems are diagnostics, never exceptions, and parsing always
 * continues: an unterminated string keeps its text up to the end of the line; a label met before
 * END closes the open entry; text outside an entry is skipped.
 */

/** One label and its text. */
export interface StrEntry {
  /** As written, e.g. `Name:JapanArcherInfantry`. Lookups compare it case-insensitively. */
  readonly key: string;
  /** The concatenated strings with escapes resolved. */
  readonly text: string;
  /** 1-based line of the label. */
  readonly line: number;
}

/** A problem in the file, positioned at 1-based line and column (UTF-16 code units). */
export interface StrDiagnostic {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

export interface StringTable {
  readonly entries: readonly StrEntry[];
  readonly diagnostics: readonly StrDiagnostic[];
}

interface OpenEntry {
  readonly key: string;
  readonly line: number;
  readonly column: number;
  parts: string[];
}

/**
 * Parses the text of a `.str` file (BOM tolerated, any line ending). Returns every entry in file
 * order and the diagnostics found.
 * @example parseStringTable('Name:Foo\n"Foo Tank"\nEND\n').entries // [{ key: "Name:Foo", text: "Foo Tank", line: 1 }]
 */
export function parseStringTable(text: string): StringTable {
  const entries: StrEntry[] = [];
  const diagnostics: StrDiagnostic[] = [];
  const firstLine = new Map<string, number>();
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = source.split(/\r\n|\r|\n/);
  let open: OpenEntry | undefined;

  const diag = (message: string, line: number, column: number): void => {
    diagnostics.push({ message, line, column });
  };
  const close = (): void => {
    if (!open) return;
    if (open.parts.length === 0) diag(`entry ${open.key} has no text`, open.line, open.column);
    const lower = open.key.toLowerCase();
    const first = firstLine.get(lower);
    if (first !== undefined) {
      diag(`duplicate label ${open.key} (first defined at line ${first})`, open.line, open.column);
    } else firstLine.set(lower, open.line);
    entries.push({ key: open.key, text: open.parts.join(""), line: open.line });
    open = undefined;
  };

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    let pos = skipSpace(line, 0);
    if (pos >= line.length || line.startsWith("//", pos)) continue;

    if (line.charCodeAt(pos) !== QUOTE && !isEnd(line, pos)) {
      // A label. Inside an entry it means the END is missing.
      if (open) {
        diag(`missing END for ${open.key} (started at line ${open.line})`, lineNo, pos + 1);
        close();
      }
      const start = pos;
      while (
        pos < line.length && !isSpace(line.charCodeAt(pos)) && line.charCodeAt(pos) !== QUOTE &&
        !line.startsWith("//", pos)
      ) pos++;
      open = { key: line.slice(start, pos), line: lineNo, column: start + 1, parts: [] };
      pos = skipSpace(line, pos);
    }

    // The rest of the line: strings, then optionally END, then optionally a comment.
    while (pos < line.length && !line.startsWith("//", pos)) {
      const c = line.charCodeAt(pos);
      if (c === QUOTE) {
        const s = readQuoted(line, pos);
        if (!s.terminated) diag("unterminated string (a string must close on its own line)", lineNo, pos + 1);
        if (open) open.parts.push(s.text);
        else diag("text outside an entry (expected a label before it)", lineNo, pos + 1);
        pos = skipSpace(line, s.end);
      } else if (isEnd(line, pos)) {
        if (open) close();
        else diag("END without a label", lineNo, pos + 1);
        pos = skipSpace(line, pos + 3);
      } else {
        diag(
          `unexpected text ${JSON.stringify(line.slice(pos, pos + 20))} (expected a quoted string, END or a comment)`,
          lineNo,
          pos + 1,
        );
        break;
      }
    }
  }
  if (open) {
    diag(
      `missing END for ${open.key} (started at line ${open.line}) at the end of the file`,
      lines.length,
      lines[lines.length - 1].length + 1,
    );
    close();
  }
  // Closing an entry reports problems at its label, which may precede diagnostics already recorded.
  diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
  return { entries, diagnostics };
}

const QUOTE = 0x22;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0xa0 || c === 0xfeff;
}

function skipSpace(line: string, pos: number): number {
  while (pos < line.length && isSpace(line.charCodeAt(pos))) pos++;
  return pos;
}

/** `END` (any case) at `pos`, followed by the end of the line, a space or a comment. */
function isEnd(line: string, pos: number): boolean {
  if (line.length - pos < 3 || line.slice(pos, pos + 3).toUpperCase() !== "END") return false;
  const next = pos + 3;
  return next === line.length || isSpace(line.charCodeAt(next)) || line.startsWith("//", next);
}

function readQuoted(line: string, open: number): { text: string; end: number; terminated: boolean } {
  let out = "";
  let pos = open + 1;
  let from = pos;
  while (pos < line.length) {
    const c = line.charCodeAt(pos);
    if (c === QUOTE) return { text: out + line.slice(from, pos), end: pos + 1, terminated: true };
    if (c === 0x5c && pos + 1 < line.length) {
      const e = line[pos + 1];
      const decoded = e === "n" ? "\n" : e === "t" ? "\t" : e === '"' ? '"' : e === "\\" ? "\\" : undefined;
      if (decoded !== undefined) {
        out += line.slice(from, pos) + decoded;
        pos += 2;
        from = pos;
        continue;
      }
    }
    pos++;
  }
  return { text: out + line.slice(from), end: line.length, terminated: false };
}

/**
 * A case-insensitive lookup table over `entries`; the first definition of a label wins (later ones
 * are reported as duplicates by {@link parseStringTable}).
 * @example indexStrings(t.entries).get("name:japanarcherinfantry")?.text // "Archer Maiden"
 */
export function indexStrings(entries: readonly StrEntry[]): ReadonlyMap<string, StrEntry> {
  const map = new Map<string, StrEntry>();
  for (const e of entries) {
    const k = e.key.toLowerCase();
    if (!map.has(k)) map.set(k, e);
  }
  return map;
}

/** How a search matched, best first. */
export type StrMatchKind = "text-exact" | "key-exact" | "text-word" | "key-word" | "text-substring" | "key-substring";

const RANK: Record<StrMatchKind, number> = {
  "text-exact": 0,
  "key-exact": 1,
  "text-word": 2,
  "key-word": 3,
  "text-substring": 4,
  "key-substring": 5,
};

export interface StrMatch {
  readonly entry: StrEntry;
  readonly kind: StrMatchKind;
}

export interface StrSearchResult {
  /** At most `limit` matches, best first. */
  readonly matches: readonly StrMatch[];
  /** Number of entries that matched, before the limit. */
  readonly total: number;
}

/**
 * Case-insensitive search of `query` in entry texts and keys. Ranking: the whole text equals the query;
 * the whole key (or the part after its last `:`) equals it; the query is a whole word (or run of words)
 * of the text; of the key; a substring of the text; of the key. Ties: shorter text first, then key
 * (case-insensitive, then ordinal), then file order. An empty query matches nothing.
 * @example searchStrings(entries, "archer maiden", 5).matches[0] // { entry: { key: "Name:JapanArcherInfantry", … }, kind: "text-exact" }
 */
export function searchStrings(entries: readonly StrEntry[], query: string, limit = 50): StrSearchResult {
  const q = query.trim().toLowerCase();
  if (q.length === 0) return { matches: [], total: 0 };
  const found: { entry: StrEntry; kind: StrMatchKind; index: number; keyLower: string }[] = [];
  entries.forEach((entry, index) => {
    const text = entry.text.toLowerCase();
    const keyLower = entry.key.toLowerCase();
    const kind = matchKind(text, entry.key, keyLower, q);
    if (kind) found.push({ entry, kind, index, keyLower });
  });
  found.sort(
    (a, b) =>
      RANK[a.kind] - RANK[b.kind] ||
      a.entry.text.length - b.entry.text.length ||
      compare(a.keyLower, b.keyLower) ||
      compare(a.entry.key, b.entry.key) ||
      a.index - b.index,
  );
  const n = Math.max(0, Math.floor(limit));
  return { matches: found.slice(0, n).map(({ entry, kind }) => ({ entry, kind })), total: found.length };
}

function matchKind(text: string, keyAsWritten: string, key: string, q: string): StrMatchKind | undefined {
  if (text.trim() === q) return "text-exact";
  if (key === q || key.slice(key.lastIndexOf(":") + 1) === q) return "key-exact";
  const inText = text.indexOf(q);
  const inKey = key.indexOf(q);
  if (inText >= 0 && hasWordMatch(text, undefined, q, inText)) return "text-word";
  if (inKey >= 0 && hasWordMatch(key, keyAsWritten, q, inKey)) return "key-word";
  if (inText >= 0) return "text-substring";
  if (inKey >= 0) return "key-substring";
  return undefined;
}

/**
 * True when some occurrence of `q` in the lower-cased `s` (the first is at `first`) starts and ends at
 * word boundaries. With `camel` (the same string as written), a lower-to-upper case change is a
 * boundary too, so "archer" is a word of `ArcherArrowBarrage`.
 */
function hasWordMatch(s: string, camel: string | undefined, q: string, first: number): boolean {
  for (let at = first; at >= 0; at = s.indexOf(q, at + 1)) {
    const end = at + q.length;
    if (isBoundary(s, camel, at) && isBoundary(s, camel, end)) return true;
  }
  return false;
}

/** A word boundary between `s[at - 1]` and `s[at]`. */
function isBoundary(s: string, camel: string | undefined, at: number): boolean {
  if (at === 0 || at === s.length) return true;
  const left = isWordChar(s.charCodeAt(at - 1));
  const right = isWordChar(s.charCodeAt(at));
  if (!left || !right) return true;
  return camel !== undefined && isLowerOrDigit(camel.charCodeAt(at - 1)) && isUpper(camel.charCodeAt(at));
}

function isLowerOrDigit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function isUpper(c: number): boolean {
  return c >= 0x41 && c <= 0x5a;
}

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c > 0x7f;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
