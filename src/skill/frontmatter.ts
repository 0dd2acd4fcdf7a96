/**
 * A minimal YAML-frontmatter reader, just enough for the Agent Skills spec: top-level `key: value`
 * pairs (plain, single- or double-quoted, `|`/`>` block scalars), one level of nested mapping
 * (`metadata:`) and simple lists (`- item` lines or `[a, b]`). Anything else is reported, not guessed.
 * Problems are returned as values so a validator can show them all at once.
 */

/** What YAML would make of a plain (unquoted) scalar. Quoted scalars are always strings. */
export type ScalarKind = "string" | "number" | "boolean" | "null";

export interface FrontmatterScalar {
  readonly kind: "scalar";
  readonly value: string;
  /** `string` for quoted and ordinary text; otherwise the type YAML would read a plain value as. */
  readonly yamlType: ScalarKind;
}

export interface FrontmatterMapping {
  readonly kind: "mapping";
  readonly entries: readonly FrontmatterEntry[];
}

export interface FrontmatterList {
  readonly kind: "list";
  readonly items: readonly FrontmatterScalar[];
}

export type FrontmatterValue = FrontmatterScalar | FrontmatterMapping | FrontmatterList;

export interface FrontmatterEntry {
  readonly key: string;
  readonly value: FrontmatterValue;
  /** 1-based line of the key in the whole file. */
  readonly line: number;
}

export interface FrontmatterError {
  /** 1-based line in the whole file. */
  readonly line: number;
  readonly message: string;
}

export interface ParsedFrontmatter {
  readonly entries: readonly FrontmatterEntry[];
  readonly errors: readonly FrontmatterError[];
  /** The text after the closing `---` line. */
  readonly body: string;
  /** 1-based file line of the first body line. */
  readonly bodyStartLine: number;
}

/** Why a file has no usable frontmatter block at all. */
export type FrontmatterAbsence = "missing" | "unclosed";

/**
 * Parses the frontmatter of a Markdown file. Returns the absence reason when the file does not start
 * with a `---` line or the block is never closed. A UTF-8 BOM and CRLF line ends are tolerated.
 * @example parseFrontmatter('---\nname: x\n---\nbody').entries[0].key // "name"
 */
export function parseFrontmatter(text: string): ParsedFrontmatter | FrontmatterAbsence {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trimEnd() !== "---") return "missing";
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trimEnd() === "---") {
      close = i;
      break;
    }
  }
  if (close < 0) return "unclosed";
  const { entries, errors } = parseBlock(lines.slice(1, close), 2);
  return { entries, errors, body: lines.slice(close + 1).join("\n"), bodyStartLine: close + 2 };
}

/** The entry named `key` (first one), or undefined. */
export function entryOf(entries: readonly FrontmatterEntry[], key: string): FrontmatterEntry | undefined {
  return entries.find((e) => e.key === key);
}

interface Line {
  readonly text: string;
  readonly indent: number;
  /** 1-based file line. */
  readonly no: number;
}

const KEY_LINE = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*))?$/;

function parseBlock(
  raw: readonly string[],
  firstLineNo: number,
): { entries: FrontmatterEntry[]; errors: FrontmatterError[] } {
  const errors: FrontmatterError[] = [];
  const lines: Line[] = [];
  raw.forEach((text, i) => {
    const no = firstLineNo + i;
    if (/^ *\t/.test(text)) errors.push({ line: no, message: "tabs are not allowed for indentation in YAML" });
    lines.push({ text: text.replace(/\s+$/, ""), indent: text.length - text.trimStart().length, no });
  });
  const entries: FrontmatterEntry[] = [];
  const seen = new Set<string>();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlankOrComment(line.text)) {
      i++;
      continue;
    }
    if (line.indent > 0) {
      errors.push({
        line: line.no,
        message: "unexpected indented line; nesting is only allowed under a key with no value",
      });
      i++;
      continue;
    }
    const m = KEY_LINE.exec(line.text);
    if (!m) {
      errors.push({ line: line.no, message: `expected "key: value", got "${line.text}"` });
      i++;
      continue;
    }
    const key = m[1];
    if (seen.has(key)) errors.push({ line: line.no, message: `duplicate key "${key}"` });
    seen.add(key);
    const rest = (m[2] ?? "").trim();
    // The nested lines of this key: everything more indented than it (blank lines included).
    let j = i + 1;
    while (j < lines.length && (lines[j].indent > 0 || lines[j].text.trim() === "")) j++;
    let end = j;
    while (end > i + 1 && lines[end - 1].text.trim() === "") end--;
    const nested = lines.slice(i + 1, end);
    const value = parseValue(key, rest, line.no, nested, errors);
    entries.push({ key, value, line: line.no });
    i = j;
  }
  return { entries, errors };
}

function isBlankOrComment(text: string): boolean {
  const t = text.trim();
  return t === "" || t.startsWith("#");
}

function parseValue(
  key: string,
  rest: string,
  lineNo: number,
  nested: readonly Line[],
  errors: FrontmatterError[],
): FrontmatterValue {
  const blockHeader = /^([|>])([+-]?)\s*(#.*)?$/.exec(rest);
  if (blockHeader) return blockScalar(blockHeader[1] as "|" | ">", blockHeader[2], nested);
  const meaningful = nested.filter((l) => !isBlankOrComment(l.text));
  if (rest !== "" && !rest.startsWith("#")) {
    if (meaningful.length > 0 && !startsQuoted(rest)) {
      // A plain scalar may continue on more-indented lines (folded with single spaces).
      return plainScalar([rest, ...meaningful.map((l) => l.text.trim())].join(" "), lineNo, errors);
    }
    if (meaningful.length > 0) {
      errors.push({ line: meaningful[0].no, message: `unexpected indented line after the value of "${key}"` });
    }
    if (rest.startsWith("[")) return flowList(rest, lineNo, errors);
    if (rest.startsWith("{")) {
      errors.push({
        line: lineNo,
        message: `flow mappings ("{…}") are not supported; write "${key}:" and indented "key: value" lines`,
      });
      return { kind: "mapping", entries: [] };
    }
    return scalar(rest, lineNo, errors);
  }
  if (meaningful.length === 0) return { kind: "scalar", value: "", yamlType: "null" };
  if (meaningful[0].text.trim().startsWith("- ") || meaningful[0].text.trim() === "-") {
    return blockList(key, meaningful, errors);
  }
  return nestedMapping(key, meaningful, errors);
}

function nestedMapping(key: string, lines: readonly Line[], errors: FrontmatterError[]): FrontmatterMapping {
  const indent = lines[0].indent;
  const entries: FrontmatterEntry[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.indent > indent) {
      errors.push({ line: line.no, message: `"${key}" may hold only one level of "key: value" pairs` });
      continue;
    }
    if (line.indent < indent) {
      errors.push({ line: line.no, message: `inconsistent indentation under "${key}"` });
      continue;
    }
    const m = KEY_LINE.exec(line.text.trim());
    if (!m) {
      errors.push({ line: line.no, message: `expected "key: value" under "${key}", got "${line.text.trim()}"` });
      continue;
    }
    const sub = m[1];
    if (seen.has(sub)) errors.push({ line: line.no, message: `duplicate key "${key}.${sub}"` });
    seen.add(sub);
    const rest = (m[2] ?? "").trim();
    if (rest === "" || rest.startsWith("#")) {
      const deeper = i + 1 < lines.length && lines[i + 1].indent > indent;
      if (deeper) {
        errors.push({
          line: line.no,
          message: `"${key}.${sub}" is a nested mapping; "${key}" may hold only one level of "key: value" pairs`,
        });
        while (i + 1 < lines.length && lines[i + 1].indent > indent) i++;
        entries.push({ key: sub, value: { kind: "mapping", entries: [] }, line: line.no });
        continue;
      }
      entries.push({ key: sub, value: { kind: "scalar", value: "", yamlType: "null" }, line: line.no });
      continue;
    }
    entries.push({
      key: sub,
      value: rest.startsWith("[") ? flowList(rest, line.no, errors) : scalar(rest, line.no, errors),
      line: line.no,
    });
  }
  return { kind: "mapping", entries };
}

function blockList(key: string, lines: readonly Line[], errors: FrontmatterError[]): FrontmatterList {
  const items: FrontmatterScalar[] = [];
  for (const line of lines) {
    const t = line.text.trim();
    if (!t.startsWith("-")) {
      errors.push({ line: line.no, message: `expected a "- item" line under "${key}", got "${t}"` });
      continue;
    }
    items.push(scalar(t.slice(1).trim(), line.no, errors));
  }
  return { kind: "list", items };
}

function flowList(text: string, lineNo: number, errors: FrontmatterError[]): FrontmatterList {
  const m = /^\[(.*)\]\s*(#.*)?$/.exec(text);
  if (!m) {
    errors.push({ line: lineNo, message: `unterminated flow list "${text}"` });
    return { kind: "list", items: [] };
  }
  const inner = m[1].trim();
  if (inner === "") return { kind: "list", items: [] };
  // Split on commas outside quotes.
  const parts: string[] = [];
  let cur = "";
  let quote: string | null = null;
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = null;
      cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
    } else if (ch === ",") {
      parts.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  parts.push(cur.trim());
  return { kind: "list", items: parts.map((p) => scalar(p, lineNo, errors)) };
}

function blockScalar(style: "|" | ">", chomp: string, nested: readonly Line[]): FrontmatterScalar {
  const content = nested.filter((l) => l.text.trim() !== "");
  const indent = content.length ? Math.min(...content.map((l) => l.indent)) : 0;
  const texts = nested.map((l) => (l.text.trim() === "" ? "" : l.text.slice(indent)));
  let value: string;
  if (style === "|") value = texts.join("\n");
  else {
    value = "";
    for (let i = 0; i < texts.length; i++) {
      const t = texts[i];
      if (i === 0) value = t;
      else if (t === "") value += "\n";
      else value += value.endsWith("\n") || value === "" ? t : " " + t;
    }
  }
  if (chomp !== "-") value += "\n";
  return { kind: "scalar", value: chomp === "-" ? value.replace(/\n+$/, "") : value, yamlType: "string" };
}

function startsQuoted(text: string): boolean {
  return text.startsWith('"') || text.startsWith("'");
}

function scalar(text: string, lineNo: number, errors: FrontmatterError[]): FrontmatterScalar {
  if (text.startsWith('"')) return doubleQuoted(text, lineNo, errors);
  if (text.startsWith("'")) return singleQuoted(text, lineNo, errors);
  return plainScalar(text, lineNo, errors);
}

function doubleQuoted(text: string, lineNo: number, errors: FrontmatterError[]): FrontmatterScalar {
  let out = "";
  let i = 1;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') break;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = text[++i];
    const simple: Record<string, string> = {
      '"': '"',
      "\\": "\\",
      "/": "/",
      n: "\n",
      t: "\t",
      r: "\r",
      "0": "\0",
      " ": " ",
    };
    if (e !== undefined && e in simple) out += simple[e];
    else if (e === "u" && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else {
      errors.push({ line: lineNo, message: `invalid escape "\\${e ?? ""}" in a double-quoted string` });
    }
  }
  if (i >= text.length) {
    errors.push({ line: lineNo, message: "unterminated double-quoted string" });
    return { kind: "scalar", value: out, yamlType: "string" };
  }
  checkTrailing(text.slice(i + 1), lineNo, errors);
  return { kind: "scalar", value: out, yamlType: "string" };
}

function singleQuoted(text: string, lineNo: number, errors: FrontmatterError[]): FrontmatterScalar {
  let out = "";
  let i = 1;
  for (; i < text.length; i++) {
    if (text[i] === "'") {
      if (text[i + 1] === "'") {
        out += "'";
        i++;
        continue;
      }
      break;
    }
    out += text[i];
  }
  if (i >= text.length) {
    errors.push({ line: lineNo, message: "unterminated single-quoted string" });
    return { kind: "scalar", value: out, yamlType: "string" };
  }
  checkTrailing(text.slice(i + 1), lineNo, errors);
  return { kind: "scalar", value: out, yamlType: "string" };
}

function checkTrailing(rest: string, lineNo: number, errors: FrontmatterError[]): void {
  const t = rest.trim();
  if (t !== "" && !t.startsWith("#")) {
    errors.push({ line: lineNo, message: `unexpected text after the closing quote: "${t}"` });
  }
}

function plainScalar(text: string, lineNo: number, errors: FrontmatterError[]): FrontmatterScalar {
  // A plain scalar ends at " #" (a comment).
  const hash = text.search(/\s#/);
  const value = (hash >= 0 ? text.slice(0, hash) : text).trim();
  if (/:\s/.test(value) || value.endsWith(":")) {
    errors.push({
      line: lineNo,
      message: `unquoted value contains ": " (YAML reads it as a mapping); put the value in double quotes`,
    });
  } else if (/^[[\]{}&*!%@`,|>]/.test(value)) {
    errors.push({
      line: lineNo,
      message: `unquoted value starts with "${value[0]}", which YAML reserves; put the value in double quotes`,
    });
  }
  return { kind: "scalar", value, yamlType: plainType(value) };
}

/** YAML 1.1 and 1.2 readings combined, because validators differ in which they use. */
function plainType(value: string): ScalarKind {
  if (value === "" || value === "~" || /^null$/i.test(value)) return "null";
  if (/^(true|false|yes|no|on|off|y|n)$/i.test(value)) return "boolean";
  if (/^[-+]?(\d[\d_]*)?(\.\d+)?([eE][-+]?\d+)?$/.test(value) && /\d/.test(value)) return "number";
  if (/^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(value)) return "number";
  return "string";
}
