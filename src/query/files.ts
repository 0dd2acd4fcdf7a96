/**
 * File questions (`is_file_active`, `ra3 file`): is a file compiled, referenced or not included, in which
 * streams, through which include chain, who includes it and what it includes.
 */
import { displayPath, pathKey, toAbsolute } from "../project/paths.ts";
import type { FileInfo, IncludeEdge, LinkedIndex, XmlErrorAt } from "../index/linked.ts";
import { clampLimit } from "./assets.ts";
import { severityCounts } from "./diagnostic-caps.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { type ChainHop, type IncludeChain, includeChain } from "./include-chain.ts";
import { decodeCursor, encodeCursor } from "./present.ts";
import { outsideRoots } from "./roots.ts";

export interface IncludeEdgeView {
  readonly file: string | null;
  readonly source: string;
  /** null: the `type` attribute is missing or invalid (the builder ignores the include). */
  readonly type: IncludeEdge["type"];
  readonly line: number;
  readonly resolved: boolean;
  /** What answers the include: the file, a prebuilt manifest, an SDK stream, nothing. */
  readonly resolution: IncludeEdge["resolution"];
}

export interface FileResult {
  readonly file: string;
  readonly exists: boolean;
  readonly kind: FileInfo["kind"] | "unindexed";
  readonly origin: FileInfo["origin"];
  /** `compiled`, `referenced` or `not-included` (see the skill's "what is compiled"). */
  readonly state: FileInfo["state"];
  /** `state === "compiled"` (kept for compatibility). */
  readonly active: boolean;
  readonly streams: readonly string[];
  readonly viaInstance: boolean;
  readonly fragment: boolean;
  /** Not asset XML (another root and namespace): not checked against the asset schema. */
  readonly foreign: boolean;
  readonly assets: number;
  /** The file's first XML error: the builder rejects the file until it is fixed. */
  readonly xmlError: XmlErrorAt | null;
  /** The shortest include chain from an entry point (null when not included). */
  readonly chain: IncludeChain | null;
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
 * A file's state (compiled, referenced, not included), streams, include chain and include edges, paged:
 * `limit` edges of each list from the cursor's offset, with both totals.
 * `path` may be absolute or relative to the project root; it must lie inside the folders ra3 reads
 * (the project, the SDK, the mod's parent and grandparent: files includes reached there are indexed).
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
  const outside = outsideRoots(linked, p, abs, "a path");
  if (outside) return outside;
  const info = linked.file(abs);
  const key = info ? info.path : abs;
  const edgesFrom = (linked.includesFrom.get(pathKey(key)) ?? []).map((i) => linked.includes[i]);
  const edgesTo = (linked.includesTo.get(pathKey(key)) ?? []).map((i) => linked.includes[i]);
  const here = (file: string | null) => file !== null && pathKey(file) === pathKey(key);
  const diagnostics = severityCounts(
    linked.diagnostics.filter((d) => here(d.file)),
    linked.omittedDiagnostics.filter((g) => here(g.file)),
  ).total;
  if (!info) {
    return queryError(
      "not_found",
      `${p} is not an indexed file (not XML/.w3x/.str under the project, and no include reaches it)`,
    );
  }
  const rel = displayPath(linked, info.path);
  const longest = Math.max(edgesFrom.length, edgesTo.length);
  const chain = includeChain(linked, info);
  return {
    file: rel,
    exists: info.kind !== "missing",
    kind: info.kind,
    origin: info.origin,
    state: info.state,
    active: info.active,
    streams: info.streams,
    viaInstance: info.viaInstance,
    fragment: info.fragment,
    foreign: info.foreign,
    assets: info.assetCount,
    xmlError: info.xmlError,
    chain,
    includedBy: edgesTo.slice(offset, offset + limit).map((e) => ({
      file: displayPath(linked, e.from),
      source: e.source,
      type: e.type,
      line: e.line,
      resolved: true,
      resolution: e.resolution,
    })),
    includedByTotal: edgesTo.length,
    includes: edgesFrom.slice(offset, offset + limit).map((e) => ({
      file: e.to ? displayPath(linked, e.to) : null,
      source: e.source,
      type: e.type,
      line: e.line,
      resolved: e.to !== null,
      resolution: e.resolution,
    })),
    includesTotal: edgesFrom.length,
    truncated: offset > 0 || offset + limit < longest,
    nextCursor: offset + limit < longest ? encodeCursor(offset + limit) : null,
    diagnostics,
    summary: fileSummary(rel, info, chain),
  };
}

/** The one sentence of a file answer: its state and why, in the builder's terms. */
function fileSummary(rel: string, info: FileInfo, chain: IncludeChain | null): string {
  if (info.kind === "str") return `${rel} is a string table (display texts; not part of the include graph)`;
  if (info.kind === "babproj") {
    return `${rel} is a BinaryAssetBuilder project (it declares streams; not part of the include graph)`;
  }
  const broken = info.xmlError
    ? `; it has an XML error at ${rel}:${info.xmlError.line}: the builder rejects it until it is fixed`
    : "";
  const foreign = info.foreign ? " (not asset XML: not checked against the asset schema)" : "";
  if (info.state === "not-included") {
    return `${rel} is not included: no entry point reaches it${
      info.fragment && !info.foreign ? " (a fragment: only xi:include splices it)" : ""
    }${foreign}${broken}`;
  }
  const via = chain ? ` (${describeChain(chain)})` : "";
  if (info.state === "referenced") {
    return `${rel} is referenced, not compiled: only reference includes reach it${via}, so its assets can be referenced but the builder does not compile it into the mod (it uses the prebuilt manifest)${foreign}${broken}`;
  }
  return `${rel} is compiled in ${info.streams.join(", ")}${via}${
    info.viaInstance
      ? "; only through instance includes, so its assets are emitted only when compiled assets reference them"
      : ""
  }${foreign}${broken}`;
}

/** `from Data/Mod.xml:12 (all) → Data/Units.xml:5 (instance)`, or `it is the entry point …`. */
function describeChain(chain: IncludeChain): string {
  if (chain.hops.length === 0) return `it is the entry point of ${chain.entry.stream}`;
  return `through ${chain.hops.map((h: ChainHop) => `${h.file}:${h.line} (${h.type})`).join(" → ")}`;
}
