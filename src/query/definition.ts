/**
 * `get_definition`: the XML source of one asset definition, bounded, with its file and line range.
 * Two steps keep the query free of I/O: {@link definitionTarget} says which definition (and so which
 * file) the question is about; the caller reads that file and passes the text to {@link definitionOf}.
 */
import type { AssetDef, LinkedIndex } from "../index/linked.ts";
import { displayPath } from "../project/paths.ts";
import { LineMap } from "../xml/line-map.ts";
import { isQueryError, type QueryResult } from "./envelope.ts";
import { resolveAsset, type ResolvedAsset } from "./resolve-asset.ts";

const DEFAULT_MAX_LINES = 200;
const DEFAULT_MAX_CHARS = 12_000;
/** How far around the id line an element the index has no offsets for (art, an edited file) is looked for. */
const SEARCH_BACK = 10;

export interface DefinitionTarget {
  readonly asset: ResolvedAsset;
  /** The definition shown: the best one (project before SDK before manifest, active first). */
  readonly def: AssetDef;
}

export interface DefinitionResult {
  readonly type: string;
  readonly id: string;
  /** Relative to the project (or SDK) root; for manifest assets, the manifest. */
  readonly file: string;
  readonly origin: AssetDef["origin"];
  /** Whether the builder compiles the definition's file (issue 11's three states). */
  readonly state: AssetDef["state"];
  readonly active: boolean;
  /** The definition's file has an XML error: the builder rejects it until it is fixed. */
  readonly fileHasErrors: boolean;
  readonly streams: readonly string[];
  readonly inheritFrom: string | null;
  /** Lines of the whole definition in `file` (0 and 0 for manifest assets). */
  readonly startLine: number;
  readonly endLine: number;
  /** The lines `text` holds, or null when there is no text. */
  readonly shown: { readonly from: number; readonly to: number } | null;
  /** The XML source, or null (manifest-only asset, unreadable file). */
  readonly text: string | null;
  /** The definition is longer than what `text` holds. */
  readonly truncated: boolean;
  /** Manifest assets: the source file the compiler recorded (e.g. `DATA:globaldata/weapon.xml`). */
  readonly manifestSource: string | null;
  /** Why there is no text, or another fact worth a sentence; null when nothing to say. */
  readonly note: string | null;
  /** The other definitions of the same type and id (overridden or overriding copies). */
  readonly otherDefinitions: readonly {
    readonly file: string;
    readonly line: number;
    readonly origin: AssetDef["origin"];
    readonly state: AssetDef["state"];
    readonly active: boolean;
  }[];
}

export interface ExcerptOptions {
  readonly maxLines?: number;
  readonly maxChars?: number;
}

/**
 * The definition of `id` (of `type`) whose source {@link definitionOf} shows, or a query error
 * (`not_found` with suggestions, `ambiguous` naming the types).
 */
export function definitionTarget(linked: LinkedIndex, id: string, type?: string | null): QueryResult<DefinitionTarget> {
  const asset = resolveAsset(linked, id, type);
  if (isQueryError(asset)) return asset;
  return { asset, def: asset.defs[0] };
}

/**
 * The definition's facts and source excerpt. `source` is the text of `target.def.file` (decoded), or
 * `{ error }` when it could not be read; manifest assets need no source.
 * @example definitionOf(linked, target, { text }).shown // { from: 10, to: 40 }
 */
export function definitionOf(
  linked: LinkedIndex,
  target: DefinitionTarget,
  source: { readonly text: string } | { readonly error: string } | null,
  options: ExcerptOptions = {},
): DefinitionResult {
  const { asset, def } = target;
  const others = asset.defs.filter((d) => d !== def).map((d) => ({
    file: displayPath(linked, d.file),
    line: d.line,
    origin: d.origin,
    state: d.state,
    active: d.active,
  }));
  const base = {
    type: def.type,
    id: def.id,
    file: displayPath(linked, def.file),
    origin: def.origin,
    state: def.state,
    active: def.active,
    fileHasErrors: def.fileHasErrors === true,
    streams: def.streams,
    inheritFrom: def.inheritFrom,
    manifestSource: def.manifestSource,
    otherDefinitions: others,
  };
  if (def.origin === "manifest") {
    const from = def.manifestSource
      ? `; the compiler built it from ${def.manifestSource}, whose XML is not in this index`
      : "";
    return {
      ...base,
      startLine: 0,
      endLine: 0,
      shown: null,
      text: null,
      truncated: false,
      note: `${def.type} ${def.id} is known only from the compiled manifest ${base.file}${from}`,
    };
  }
  if (source === null || "error" in source) {
    const why = source === null ? `the text of ${base.file} was not available` : source.error;
    return {
      ...base,
      startLine: def.startLine,
      endLine: def.endLine,
      shown: null,
      text: null,
      truncated: false,
      note: `${why}; retry with consistency "strict" if the file changed`,
    };
  }
  const maxLines = Math.max(1, options.maxLines ?? DEFAULT_MAX_LINES);
  const maxChars = Math.max(80, options.maxChars ?? DEFAULT_MAX_CHARS);
  const exact = ownElement(source.text, def);
  if (exact) {
    const excerpt = takeBounded(exact.lines, 1, exact.lines.length, maxLines, maxChars);
    return {
      ...base,
      startLine: exact.from,
      endLine: exact.to,
      shown: { from: exact.from, to: exact.from + excerpt.to - 1 },
      text: excerpt.text,
      truncated: excerpt.to < exact.lines.length || excerpt.cut,
      note: null,
    };
  }
  // Without recorded offsets (art) or when the file changed since it was indexed: look for the element by lines.
  const lines = splitLines(source.text);
  const range = elementRange(lines, def, maxLines);
  const excerpt = takeBounded(lines, range.from, range.to, maxLines, maxChars);
  const changed = def.end > def.start && def.start >= 0
    ? `${base.file} changed since it was indexed, so its element was looked for by lines; `
    : "";
  return {
    ...base,
    startLine: range.from,
    endLine: range.to,
    shown: { from: range.from, to: excerpt.to },
    text: excerpt.text,
    truncated: excerpt.to < range.to || excerpt.cut || !range.found,
    note: range.found
      ? (changed ? changed + 'retry with consistency "strict" for an exact answer' : null)
      : `${changed}the end of the element was not found within ${maxLines} lines of line ${range.from}`,
  };
}

/** Lines as the index counts them: CR, LF and CRLF each end one (the tokenizer's line model). */
function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * The asset's own element, exactly: from the `<` of its start tag (with the indentation before it) to the
 * end of its end tag, by the offsets the tokenizer recorded, with its first and last line in the index's
 * line model. Null when the offsets are unknown or no longer name that element (the file changed since it
 * was indexed).
 */
function ownElement(text: string, def: AssetDef): { lines: string[]; from: number; to: number } | null {
  if (def.start < 0 || def.end <= def.start || def.end > text.length) return null;
  const name = def.type.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (
    !new RegExp(`^<(?:[\\w.-]+:)?${name}(?=[\\s/>])`, "i").test(text.slice(def.start, def.start + def.type.length + 80))
  ) {
    return null;
  }
  const map = new LineMap(text);
  const from = map.position(def.start).line;
  // The indentation before the start tag is kept (the end tag lines up with it); anything else on that
  // line before the `<`, such as another asset, is not this asset's.
  const lineStart = map.lineStart(from);
  const start = /^[ \t]*$/.test(text.slice(lineStart, def.start)) ? lineStart : def.start;
  return { lines: splitLines(text.slice(start, def.end)), from, to: map.position(def.end - 1).line };
}

/**
 * The 1-based line range of the definition. The index records both ends for XML assets; for art and
 * spliced assets it records only the id's line, so the element's start and end are looked for here.
 */
function elementRange(
  lines: readonly string[],
  def: AssetDef,
  maxLines: number,
): { from: number; to: number; found: boolean } {
  const last = lines.length;
  const clamp = (n: number) => Math.max(1, Math.min(last, n));
  if (def.endLine > def.startLine) return { from: clamp(def.startLine), to: clamp(def.endLine), found: true };
  const name = def.type.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const open = new RegExp(`<(?:[\\w.-]+:)?${name}(?=[\\s/>]|$)`);
  let from = clamp(def.startLine || def.line);
  // Back from the recorded line first (the id may sit below its start tag), then forward (lines were added above).
  const found = (i: number) => i >= 1 && i <= last && open.test(lines[i - 1]);
  for (let k = 0; k <= SEARCH_BACK; k++) {
    if (found(from - k)) {
      from -= k;
      break;
    }
    if (k > 0 && found(from + k)) {
      from += k;
      break;
    }
  }
  const close = new RegExp(`</(?:[\\w.-]+:)?${name}\\s*>`);
  // Self-closing start tag: the first `>` after the name ends the element when preceded by `/`.
  let inStart = true;
  for (let i = from; i <= last && i < from + maxLines; i++) {
    let line = lines[i - 1];
    if (i === from) {
      const m = open.exec(line);
      if (m) line = line.slice(m.index + m[0].length);
    }
    if (inStart) {
      const gt = endOfStartTag(line);
      if (gt >= 0) {
        inStart = false;
        if (line[gt - 1] === "/") return { from, to: i, found: true };
        line = line.slice(gt + 1);
      }
    }
    if (!inStart && close.test(line)) return { from, to: i, found: true };
  }
  return { from, to: Math.min(last, from + maxLines - 1), found: false };
}

/** Index of the `>` ending a start tag in `s` (quotes respected), or -1. */
function endOfStartTag(s: string): number {
  let quote = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i;
  }
  return -1;
}

/** Lines `from..to`, at most `maxLines` of them and `maxChars` characters, cut at a line end when possible. */
function takeBounded(
  lines: readonly string[],
  from: number,
  to: number,
  maxLines: number,
  maxChars: number,
): { text: string; to: number; cut: boolean } {
  const out: string[] = [];
  let chars = 0;
  let end = from - 1;
  for (let i = from; i <= to && out.length < maxLines; i++) {
    const line = lines[i - 1];
    const cost = line.length + (out.length ? 1 : 0);
    if (chars + cost > maxChars) {
      if (out.length === 0) {
        // One enormous line: show its start rather than nothing.
        out.push(line.slice(0, maxChars - 1) + "…");
        return { text: out.join("\n"), to: i, cut: true };
      }
      break;
    }
    out.push(line);
    chars += cost;
    end = i;
  }
  return { text: out.join("\n"), to: end, cut: false };
}
