/**
 * Minimal text edits on JSON/JSONC documents: insert, replace or remove one property, touching nothing
 * else. Positions come from jsonc-parser's tree; the edits are computed here because jsonc-parser's own
 * `modify` re-formats the whole line around an insertion (a one-line sibling entry gets expanded) and
 * moves a trailing `// comment` onto the inserted property.
 *
 * Conventions kept: the file's indentation unit (detected), its line ending, trailing-comma style, and
 * compact (single-line) objects stay single-line.
 */
import {
  applyEdits,
  createScanner,
  type Edit,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
} from "jsonc-parser";
import { lineColumn, problem } from "./config-text.ts";
import type { ConfigProblem } from "./types.ts";

// jsonc-parser's SyntaxKind is an ambient const enum, unusable under isolatedModules.
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

export interface JsonFormat {
  readonly eol: string;
  /** One level of indentation, e.g. two spaces or a tab. */
  readonly unit: string;
}

const ERROR_TEXT: Record<number, string> = {
  1: "unexpected symbol",
  2: "invalid number",
  3: "property name expected",
  4: "value expected",
  5: "colon expected",
  6: "comma expected",
  7: "closing brace '}' expected",
  8: "closing bracket ']' expected",
  9: "end of file expected",
  10: "invalid comment",
  11: "unterminated comment",
  12: "unterminated string",
  13: "unterminated number",
  14: "invalid unicode escape",
  15: "invalid escape character",
  16: "invalid character in string",
};

export type JsonParse = { readonly ok: true; readonly root: Node | undefined } | {
  readonly ok: false;
  readonly problem: ConfigProblem;
};

/** Parses JSON with comments and trailing commas; the first syntax error becomes a positioned problem. */
export function parseJsonc(text: string): JsonParse {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const e = errors[0];
    const at = lineColumn(text, e.offset);
    return {
      ok: false,
      problem: problem(`not valid JSON (${ERROR_TEXT[e.error] ?? "syntax error"})`, at.line, at.column),
    };
  }
  return { ok: true, root };
}

/** True when `text` is valid JSONC but not strict JSON (it has comments or trailing commas). */
export function hasJsoncExtensions(text: string): boolean {
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: true });
  return errors.length > 0;
}

/**
 * The offset of the first trailing comma in `text` (valid JSONC), or -1 when there is none. Comments
 * are allowed: only a comma directly before `}` or `]` counts.
 */
export function trailingCommaOffset(text: string): number {
  const errors: ParseError[] = [];
  parseTree(text, errors, { allowTrailingComma: false, disallowComments: false, allowEmptyContent: true });
  if (errors.length === 0) return -1;
  // The error sits at the closing bracket; the comma is the last non-blank character before it.
  let i = errors[0].offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i >= 0 && text[i] === "," ? i : errors[0].offset;
}

/** The value of a tree node as plain data. */
export function nodeValue(node: Node): unknown {
  return getNodeValue(node);
}

/** The last property named `key` of an object node (the one `JSON.parse` would keep), or undefined. */
export function propertyOf(obj: Node, key: string): Node | undefined {
  let found: Node | undefined;
  for (const prop of obj.children ?? []) if (prop.children?.[0]?.value === key) found = prop;
  return found;
}

/** The value node of a property node. */
export function valueOf(prop: Node): Node {
  const v = prop.children?.[1];
  if (!v) throw new Error("property node without a value");
  return v;
}

function lineStartOf(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

function indentOf(text: string, pos: number): string {
  const start = lineStartOf(text, pos);
  return /^[ \t]*/.exec(text.slice(start))![0];
}

function startsOwnLine(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStartOf(text, pos), pos));
}

/** Past the line break at `pos` (CRLF or LF), or `pos` at the end of the text. */
function pastBreak(text: string, pos: number): number {
  if (text.startsWith("\r\n", pos)) return pos + 2;
  if (text[pos] === "\n" || text[pos] === "\r") return pos + 1;
  return pos;
}

interface Token {
  readonly kind: number;
  readonly offset: number;
  readonly end: number;
}

/** The first token at or after `pos` that is not whitespace, a line break or a comment. */
function tokenAfter(text: string, pos: number): Token {
  const scanner = createScanner(text, false);
  scanner.setPosition(pos);
  for (;;) {
    const kind = scanner.scan();
    if (kind === TRIVIA || kind === LINE_BREAK || kind === LINE_COMMENT || kind === BLOCK_COMMENT) continue;
    return { kind, offset: scanner.getTokenOffset(), end: scanner.getTokenOffset() + scanner.getTokenLength() };
  }
}

/** Where the line containing `pos` breaks, if only spaces and comments follow `pos` on it; else null. */
function triviaToLineEnd(text: string, pos: number): number | null {
  const scanner = createScanner(text, false);
  scanner.setPosition(pos);
  for (;;) {
    const kind = scanner.scan();
    if (kind === LINE_BREAK || kind === EOF) return scanner.getTokenOffset();
    if (kind === TRIVIA || kind === LINE_COMMENT) continue;
    if (kind === BLOCK_COMMENT && !/[\r\n]/.test(text.substr(scanner.getTokenOffset(), scanner.getTokenLength()))) {
      continue;
    }
    return null;
  }
}

function isPrimitive(v: unknown): boolean {
  return v === null || typeof v !== "object";
}

/**
 * `value` as JSON text at nesting `indent`: objects one property per line, arrays of plain values on
 * one line (`["mcp", "--project", "C:\\Mods\\X"]`), everything on one line when `compact`.
 */
export function renderJson(value: unknown, indent: string, fmt: JsonFormat, compact = false): string {
  if (isPrimitive(value)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (compact || value.every(isPrimitive)) {
      return "[" + value.map((v) => renderJson(v, indent, fmt, true)).join(", ") + "]";
    }
    const inner = indent + fmt.unit;
    return "[" + fmt.eol + value.map((v) => inner + renderJson(v, inner, fmt)).join("," + fmt.eol) + fmt.eol + indent +
      "]";
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  if (compact) {
    return "{" + entries.map(([k, v]) => `${JSON.stringify(k)}: ${renderJson(v, indent, fmt, true)}`).join(", ") + "}";
  }
  const inner = indent + fmt.unit;
  return (
    "{" + fmt.eol +
    entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${renderJson(v, inner, fmt)}`).join("," + fmt.eol) +
    fmt.eol + indent + "}"
  );
}

/** The indentation unit of a document: that of the root's first property, else two spaces. */
export function detectIndentUnit(text: string, root: Node | undefined): string {
  const first = root?.type === "object" ? root.children?.[0] : undefined;
  if (first && startsOwnLine(text, first.offset)) {
    const indent = indentOf(text, first.offset);
    if (indent.length > 0) return indent;
  }
  return "  ";
}

/** Edits that add `"key": value` as the last property of the object node `obj`. */
export function insertProperty(text: string, obj: Node, key: string, value: unknown, fmt: JsonFormat): Edit[] {
  const props = obj.children ?? [];
  const objEnd = obj.offset + obj.length;
  if (props.length === 0) {
    const holder = obj.parent;
    if (holder && !startsOwnLine(text, holder.offset) && /^\s*$/.test(text.slice(obj.offset + 1, objEnd - 1))) {
      // An empty object inside a single-line document stays single-line.
      return [{
        offset: obj.offset,
        length: obj.length,
        content: `{${JSON.stringify(key)}: ${renderJson(value, "", fmt, true)}}`,
      }];
    }
    const base = indentOf(text, obj.offset);
    const prop = `${base}${fmt.unit}${JSON.stringify(key)}: ${renderJson(value, base + fmt.unit, fmt)}`;
    const inner = text.slice(obj.offset + 1, objEnd - 1);
    if (/^\s*$/.test(inner)) {
      return [{ offset: obj.offset, length: obj.length, content: `{${fmt.eol}${prop}${fmt.eol}${base}}` }];
    }
    // Only comments inside: keep them after the new property.
    return [{ offset: obj.offset + 1, length: 0, content: fmt.eol + prop }];
  }
  const last = props[props.length - 1];
  const lastEnd = last.offset + last.length;
  const next = tokenAfter(text, lastEnd);
  const trailingComma = next.kind === COMMA ? next : null;
  const anchor = trailingComma ? trailingComma.end : lastEnd;
  if (!startsOwnLine(text, last.offset)) {
    const content = `${trailingComma ? " " : ", "}${JSON.stringify(key)}: ${renderJson(value, "", fmt, true)}${
      trailingComma ? "," : ""
    }`;
    return [{ offset: anchor, length: 0, content }];
  }
  const indent = indentOf(text, last.offset);
  const lineEnd = triviaToLineEnd(text, anchor);
  const at = lineEnd ?? anchor;
  const prop = `${fmt.eol}${indent}${JSON.stringify(key)}: ${renderJson(value, indent, fmt)}${
    trailingComma ? "," : ""
  }`;
  if (trailingComma) return [{ offset: at, length: 0, content: prop }];
  if (at === lastEnd) return [{ offset: at, length: 0, content: "," + prop }];
  return [
    { offset: lastEnd, length: 0, content: "," },
    { offset: at, length: 0, content: prop },
  ];
}

/** Edits that replace the value node `valueNode` (of a property) with `value`. */
export function replaceValue(text: string, valueNode: Node, value: unknown, fmt: JsonFormat): Edit[] {
  const prop = valueNode.parent ?? valueNode;
  const ownLine = startsOwnLine(text, prop.offset);
  const content = renderJson(value, ownLine ? indentOf(text, prop.offset) : "", fmt, !ownLine);
  return [{ offset: valueNode.offset, length: valueNode.length, content }];
}

/** Edits that delete the property node `prop` from the object node `obj`, with its line and separator. */
export function removeProperty(text: string, obj: Node, prop: Node): Edit[] {
  const props = obj.children ?? [];
  const idx = props.indexOf(prop);
  const prev = idx > 0 ? props[idx - 1] : undefined;
  const hasNext = idx < props.length - 1;
  const end = prop.offset + prop.length;
  const after = tokenAfter(text, end);
  const comma = after.kind === COMMA ? after : null;
  const objEnd = obj.offset + obj.length;
  const collapse = (from: number, to: number): Edit[] | null =>
    !prev && !hasNext && /^\s*$/.test(text.slice(obj.offset + 1, from) + text.slice(to, objEnd - 1))
      ? [{ offset: obj.offset, length: obj.length, content: "{}" }]
      : null;

  const lineEnd = triviaToLineEnd(text, comma ? comma.end : end);
  if (startsOwnLine(text, prop.offset) && lineEnd !== null) {
    const from = lineStartOf(text, prop.offset);
    const to = pastBreak(text, lineEnd);
    const collapsed = collapse(from, to);
    if (collapsed) return collapsed;
    const edits: Edit[] = [{ offset: from, length: to - from, content: "" }];
    if (!hasNext && !comma && prev) {
      const prevComma = tokenAfter(text, prev.offset + prev.length);
      if (prevComma.kind === COMMA) edits.push({ offset: prevComma.offset, length: 1, content: "" });
    }
    return edits;
  }
  if (comma) {
    const to = comma.end + (/^[ \t]*/.exec(text.slice(comma.end))![0].length);
    return collapse(prop.offset, to) ?? [{ offset: prop.offset, length: to - prop.offset, content: "" }];
  }
  if (prev) {
    const prevComma = tokenAfter(text, prev.offset + prev.length);
    return [{ offset: prevComma.offset, length: end - prevComma.offset, content: "" }];
  }
  return collapse(prop.offset, end) ?? [{ offset: prop.offset, length: prop.length, content: "" }];
}

/** `text` with `edits` applied. */
export function applyTextEdits(text: string, edits: Edit[]): string {
  return applyEdits(text, edits);
}
