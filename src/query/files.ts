/**
 * File questions: is a file active, in which streams, who includes it, what it includes and defines.
 */
import { displayPath, isInside, pathKey, toAbsolute } from "../project/paths.ts";
import type { FileInfo, LinkedIndex } from "../index/linked.ts";
import { queryError, type QueryResult } from "./envelope.ts";

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
  readonly includedBy: readonly IncludeEdgeView[];
  readonly includes: readonly IncludeEdgeView[];
  readonly diagnostics: number;
  /** One sentence a person can read. */
  readonly summary: string;
}

const MAX_EDGES = 100;

/**
 * Whether a file is active (reachable from an entry point), its streams and its include edges.
 * `path` may be absolute or relative to the project root; it must lie inside the project or the SDK.
 */
export function fileQuery(linked: LinkedIndex, path: string): QueryResult<FileResult> {
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
    includedBy: edgesTo.slice(0, MAX_EDGES).map((e) => ({
      file: displayPath(linked, e.from),
      source: e.source,
      type: e.type,
      line: e.line,
      resolved: true,
    })),
    includes: edgesFrom.slice(0, MAX_EDGES).map((e) => ({
      file: e.to ? displayPath(linked, e.to) : null,
      source: e.source,
      type: e.type,
      line: e.line,
      resolved: e.to !== null,
    })),
    diagnostics,
    summary,
  };
}
