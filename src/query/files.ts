/**
 * File questions: is a file active, in which streams, who includes it, what it includes and defines.
 */
import { displayPath, isInside, pathKey, toAbsolute } from "../project/paths.ts";
import type { FileInfo, LinkedIndex } from "../index/linked.ts";
import { clampLimit } from "./assets.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { decodeCursor, encodeCursor } from "./present.ts";

export interface IncludeEdgeView {
  readonly file: string | null;
  readonly source: string;
  readonly type: string;
  readonly line: number;
  readonly resolved: boolean;
}

export interface FileResult {
  readonly file: string;
  readonly exists: boolean;
  readonly kind: FileInfo["kind"] | "unindexed";
  readonly origin: FileInfo["origin"];
  readonly active: boolean;
  readonly streams: readonly string[];
  readonly viaInstance: boolean;
  readonly fragment: boolean;
  readonly assets: number;
  /** One page of the include edges into the file. */
  readonly includedBy: readonly IncludeEdgeView[];
  readonly includedByTotal: number;
  /** The same page of the include edges out of it. */
  readonly includes: readonly IncludeEdgeView[];
  readonly includesTotal: number;
  /** Either list has more edges than this page shows. */
  readonly truncated: boolean;
  /** The next page of both lists, or null. */
  readonly nextCursor: string | null;
  readonly diagnostics: number;
  /** One sentence a person can read. */
  readonly summary: string;
}

/** Include edges per list and page by default. */
const DEFAULT_EDGES = 100;

/**
 * Whether a file is active (reachable from an entry point), its streams and its include edges, paged:
 * `limit` edges of each list from the cursor's offset, with both totals.
 * `path` may be absolute or relative to the project root; it must lie inside the project or the SDK.
 * @example fileQuery(linked, "Data/Mod.xml", { limit: 10 }).includesTotal // every include of Mod.xml
 */
export function fileQuery(
  linked: LinkedIndex,
  path: string,
  options: { limit?: number | null; cursor?: string | null } = {},
): QueryResult<FileResult> {
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit, DEFAULT_EDGES);
  const p = path.trim();
  if (!p) return queryError("bad_argument", "the path is empty; pass a file path relative to the project root");
  const abs = toAbsolute(p, linked.projectDir);
  if (!isInside(abs, linked.projectDir) && !(linked.sdkDir && isInside(abs, linked.sdkDir))) {
    return queryError("outside_project", `${p} is outside the project (${linked.projectDir}); pass a path inside it`);
  }
  const info = linked.file(abs);
  const key = info ? info.path : abs;
  const edgesFrom = (linked.includesFrom.get(pathKey(key)) ?? []).map((i) => linked.includes[i]);
  const edgesTo = (linked.includesTo.get(pathKey(key)) ?? []).map((i) => linked.includes[i]);
  const diagnostics = linked.diagnostics.filter((d) => d.file !== null && pathKey(d.file) === pathKey(key)).length;
  if (!info) {
    return queryError(
      "not_found",
      `${p} is not an indexed file (not XML/.w3x/.str under the project, and no include reaches it)`,
    );
  }
  const rel = displayPath(linked, info.path);
  const longest = Math.max(edgesFrom.length, edgesTo.length);
  const summary = info.kind === "str"
    ? `${rel} is a string table (display texts; not part of the include graph)`
    : info.kind === "babproj"
    ? `${rel} is a BinaryAssetBuilder project (it declares streams; not part of the include graph)`
    : !info.active
    ? `${rel} is inactive: no entry point includes it${
      info.fragment ? " (a fragment: only xi:include splices it)" : ""
    }`
    : `${rel} is active in ${info.streams.join(", ")}${
      info.viaInstance ? " (reached only through instance includes)" : ""
    }`;
  return {
    file: rel,
    exists: info.kind !== "missing",
    kind: info.kind,
    origin: info.origin,
    active: info.active,
    streams: info.streams,
    viaInstance: info.viaInstance,
    fragment: info.fragment,
    assets: info.assetCount,
    includedBy: edgesTo.slice(offset, offset + limit).map((e) => ({
      file: displayPath(linked, e.from),
      source: e.source,
      type: e.type,
      line: e.line,
      resolved: true,
    })),
    includedByTotal: edgesTo.length,
    includes: edgesFrom.slice(offset, offset + limit).map((e) => ({
      file: e.to ? displayPath(linked, e.to) : null,
      source: e.source,
      type: e.type,
      line: e.line,
      resolved: e.to !== null,
    })),
    includesTotal: edgesFrom.length,
    truncated: offset > 0 || offset + limit < longest,
    nextCursor: offset + limit < longest ? encodeCursor(offset + limit) : null,
    diagnostics,
    summary,
  };
}
