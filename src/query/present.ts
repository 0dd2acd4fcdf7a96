/**
 * How index objects appear in query results: paths relative to their root with `/`, plain fields only.
 */
import { displayPath } from "../project/paths.ts";
import type { AssetDef, DefineDef, LinkedIndex } from "../index/linked.ts";

export interface AssetView {
  readonly type: string;
  readonly id: string;
  /** Relative to the project root (origin project) or the SDK root (origin sdk/manifest). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly origin: AssetDef["origin"];
  readonly streams: readonly string[];
  /** `compiled`, `referenced` or `not-included`: whether the builder compiles this definition. */
  readonly state: AssetDef["state"];
  /** `state === "compiled"` (kept for compatibility). */
  readonly active: boolean;
  readonly viaInstance: boolean;
  /** The defining file has an XML error (the definition was read; the builder rejects the file). */
  readonly fileHasErrors: boolean;
  readonly inheritFrom: string | null;
  readonly manifestSource?: string;
}

/** The result shape of one asset definition. */
export function assetView(linked: LinkedIndex, a: AssetDef): AssetView {
  const v: AssetView = {
    type: a.type,
    id: a.id,
    file: displayPath(linked, a.file),
    line: a.line,
    column: a.column,
    endLine: a.endLine,
    origin: a.origin,
    streams: a.streams,
    state: a.state,
    active: a.active,
    viaInstance: a.viaInstance,
    fileHasErrors: a.fileHasErrors,
    inheritFrom: a.inheritFrom,
  };
  return a.manifestSource ? { ...v, manifestSource: a.manifestSource } : v;
}

export interface DefineView {
  readonly name: string;
  readonly value: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly origin: DefineDef["origin"];
  /** The declaring file's state: only compiled and referenced files' declarations are in effect. */
  readonly state: DefineDef["state"];
}

/** The result shape of one define. */
export function defineView(linked: LinkedIndex, d: DefineDef): DefineView {
  return {
    name: d.name,
    value: d.value,
    file: displayPath(linked, d.file),
    line: d.line,
    column: d.column,
    origin: d.origin,
    state: d.state,
  };
}

/** Opaque pagination cursor for an offset. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`, "utf8").toString("base64url");
}

/** The offset a cursor stands for, or null when the cursor is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  let text: string;
  try {
    text = Buffer.from(cursor, "base64url").toString("utf8");
  } catch {
    return null;
  }
  const m = /^o:(\d{1,9})$/.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * Up to `limit` names from `candidates` that resemble `query`, for "did you mean": those containing it
 * (case-insensitive), then those sharing a long common prefix with it (a typo near the end).
 */
export function suggest(query: string, candidates: Iterable<string>, limit = 5): string[] {
  const q = query.toLowerCase();
  const minPrefix = Math.max(4, Math.ceil(q.length * 0.6));
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    const l = c.toLowerCase();
    if (seen.has(l) || l === q) continue;
    let score = -1;
    if (l.includes(q)) score = 2;
    else {
      let p = 0;
      while (p < l.length && p < q.length && l.charCodeAt(p) === q.charCodeAt(p)) p++;
      if (p >= minPrefix) score = 1;
    }
    if (score < 0) continue;
    seen.add(l);
    scored.push({ name: c, score });
  }
  return scored
    .sort((a, b) =>
      b.score - a.score || a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    )
    .slice(0, limit)
    .map((s) => s.name);
}
