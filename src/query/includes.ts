/**
 * `resolve_include` / `ra3 include`: how an Include source string resolves, with every candidate tried.
 */
import type { ProjectLayout } from "../project/detect.ts";
import type { IncludeResolver } from "../project/search-paths.ts";
import { displayPath, isInside, toAbsolute } from "../project/paths.ts";
import type { LinkedIndex } from "../index/linked.ts";
import { queryError, type QueryResult } from "./envelope.ts";

export interface ResolveIncludeResult {
  readonly source: string;
  /** The including file the source was resolved from. */
  readonly from: string;
  readonly prefix: string | null;
  /** The file it resolves to (relative to its root), or null. */
  readonly resolved: string | null;
  readonly exists: boolean;
  readonly caseFixed: boolean;
  readonly twoLetterRule: boolean;
  /** Candidates in search order (stops at the hit). */
  readonly tried: readonly { readonly candidate: string; readonly hit: boolean }[];
  readonly reason: string | null;
  /** Is the resolved file active, and in which streams. */
  readonly active: boolean;
  readonly streams: readonly string[];
}

/**
 * Resolves `source` as if written in `from` (default: Data/Mod.xml) with `resolver`, the project's
 * search paths.
 * @example resolveIncludeQuery(linked, ws.ports.projectResolver, layout, "ART:AUAthena_SKN.w3x").resolved // "Art/AU/AUAthena_SKN.w3x"
 */
export function resolveIncludeQuery(
  linked: LinkedIndex,
  resolver: Pick<IncludeResolver, "resolve">,
  layout: Pick<ProjectLayout, "modXml">,
  source: string,
  from?: string | null,
): QueryResult<ResolveIncludeResult> {
  const src = source.trim();
  if (!src) {
    return queryError(
      "bad_argument",
      "the include source is empty; pass the source attribute of an <Include>, e.g. DATA:static.xml",
    );
  }
  let fromFile: string;
  if (from && from.trim()) {
    fromFile = toAbsolute(from.trim(), linked.projectDir);
    if (!isInside(fromFile, linked.projectDir)) {
      return queryError(
        "outside_project",
        `--from ${from} is outside the project (${linked.projectDir}); pass a file inside it`,
      );
    }
  } else if (layout.modXml) {
    fromFile = layout.modXml;
  } else {
    fromFile = toAbsolute("Data/Mod.xml", linked.projectDir);
  }
  const r = resolver.resolve(src, fromFile);
  const info = r.resolved ? linked.file(r.resolved) : undefined;
  return {
    source: src,
    from: displayPath(linked, fromFile),
    prefix: r.prefix,
    resolved: r.resolved ? displayPath(linked, r.resolved) : null,
    exists: r.resolved !== null,
    caseFixed: r.caseFixed,
    twoLetterRule: r.twoLetterRule,
    tried: r.tried.map((t) => ({ candidate: displayPath(linked, t.candidate), hit: t.hit })),
    reason: r.reason ?? null,
    active: info?.active ?? false,
    streams: info?.streams ?? [],
  };
}
