/**
 * Files by state (`list_files`, `ra3 files`): the project's XML, art and other include-graph files that
 * are compiled, referenced or not included, sorted by path and paged, with the count of each state.
 * "Which files does nothing include?" is where every cleanup starts.
 */
import { displayPath, isInside } from "../project/paths.ts";
import type { FileInfo, FileState, LinkedIndex } from "../index/linked.ts";
import { clampLimit } from "./assets.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { decodeCursor, encodeCursor } from "./present.ts";

/** The states a filter may name. */
export const FILE_STATES: readonly FileState[] = ["compiled", "referenced", "not-included"];

export interface FileListItem {
  readonly file: string;
  readonly state: FileState;
  readonly kind: FileInfo["kind"];
  readonly streams: readonly string[];
  readonly assets: number;
  readonly viaInstance: boolean;
  readonly fragment: boolean;
  readonly foreign: boolean;
  /** The file has an XML error (see `is_file_active` for where). */
  readonly hasXmlError: boolean;
}

export interface FileListResult {
  /** The state filter, or null for every state. */
  readonly state: FileState | null;
  readonly prefix: string | null;
  /** Files matching the filter and prefix. */
  readonly total: number;
  /** Files of each state under the prefix (whatever the filter). */
  readonly byState: { readonly compiled: number; readonly referenced: number; readonly "not-included": number };
  readonly items: readonly FileListItem[];
  readonly nextCursor: string | null;
}

/** Kinds that take part in the include graph (string tables, babproj files and manifests do not). */
const GRAPH_KINDS: ReadonlySet<FileInfo["kind"]> = new Set(["xml", "art", "binary", "missing"]);

/**
 * The project's include-graph files in `state` (or all), whose path relative to the project starts with
 * `prefix` (case-insensitive, `/` or `\`), sorted by path, paged by `limit`/`cursor`.
 * @example listFiles(linked, { state: "not-included" }).items[0].file // "Data/Standalone.xml"
 */
export function listFiles(
  linked: LinkedIndex,
  options: { state?: string | null; prefix?: string | null; limit?: number | null; cursor?: string | null } = {},
): QueryResult<FileListResult> {
  const wanted = options.state?.trim() || null;
  if (wanted !== null && !(FILE_STATES as readonly string[]).includes(wanted)) {
    return queryError(
      "bad_argument",
      `state must be one of ${FILE_STATES.join(", ")}, got "${wanted}"`,
      { states: [...FILE_STATES] },
    );
  }
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit);
  const prefix = (options.prefix ?? "").trim().replace(/\\/g, "/").replace(/^\.?\//, "").toLowerCase();
  const byState = { compiled: 0, referenced: 0, "not-included": 0 };
  const rows: { rel: string; info: FileInfo }[] = [];
  for (const info of linked.files.values()) {
    if (!GRAPH_KINDS.has(info.kind) || info.origin !== "project" || !isInside(info.path, linked.projectDir)) continue;
    const rel = displayPath(linked, info.path);
    if (prefix && !rel.toLowerCase().startsWith(prefix)) continue;
    byState[info.state]++;
    if (wanted === null || info.state === wanted) rows.push({ rel, info });
  }
  rows.sort((a, b) => {
    const la = a.rel.toLowerCase();
    const lb = b.rel.toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0;
  });
  return {
    state: wanted as FileState | null,
    prefix: options.prefix?.trim() || null,
    total: rows.length,
    byState,
    items: rows.slice(offset, offset + limit).map(({ rel, info }) => ({
      file: rel,
      state: info.state,
      kind: info.kind,
      streams: info.streams,
      assets: info.assetCount,
      viaInstance: info.viaInstance,
      fragment: info.fragment,
      foreign: info.foreign,
      hasXmlError: info.xmlError !== null,
    })),
    nextCursor: offset + limit < rows.length ? encodeCursor(offset + limit) : null,
  };
}
