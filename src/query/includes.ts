/**
 * `resolve_include` / `ra3 include`: how an Include source string resolves, with every candidate tried,
 * and what would answer it as a `type="reference"` include (a prebuilt manifest, an SDK stream, or the
 * XML itself, indexed as referenced).
 */
import type { ProjectLayout } from "../project/detect.ts";
import type { IncludeResolver } from "../project/search-paths.ts";
import { displayPath, toAbsolute } from "../project/paths.ts";
import { pathKey } from "../project/paths.ts";
import type { FileState, LinkedIndex } from "../index/linked.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { outsideRoots } from "./roots.ts";

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
  /** Candidates in search order (stops at the hit); `outside`: not looked up, it leaves the allowed roots. */
  readonly tried: readonly { readonly candidate: string; readonly hit: boolean; readonly outside?: true }[];
  /**
   * Nothing resolved and the source leads outside the folders ra3 reads: not followed, and the answer is
   * the same whether anything exists there.
   */
  readonly outside: boolean;
  readonly reason: string | null;
  /** The resolved file's state (not-included when nothing resolved), and its streams. */
  readonly state: FileState;
  /** `state === "compiled"`. */
  readonly active: boolean;
  readonly streams: readonly string[];
  /** What answers this source in a `type="reference"` include. */
  readonly asReference: ReferenceAnswer;
}

/** What answers a source used as a `reference` include. */
export interface ReferenceAnswer {
  /**
   * `manifest`: a prebuilt manifest (its assets are referenced, the XML is not read); `sdk-stream`: the
   * SDK's vanilla stream of that name (indexed as referenced, with its manifest when there is one);
   * `xml`: no manifest, so the XML itself is indexed as referenced (resolvable, not compiled);
   * `nothing`: neither a manifest nor the file exists.
   */
  readonly answeredBy: "manifest" | "sdk-stream" | "xml" | "nothing";
  /** The manifest (relative to its root), or null. */
  readonly manifest: string | null;
  /** Where the manifest was found: a `.babproj` StreamReference, or the SDK's builtmods folders. */
  readonly manifestFrom: "babproj" | "builtmods" | null;
  /** The SDK stream's root file, or null. */
  readonly sdkStream: string | null;
}

/** The ports that say what answers a `reference` include (the workspace implements them). */
export interface ReferenceLookup {
  /** The manifest standing for `source` in the stream entered at `streamEntry`, and where it was found. */
  manifest(source: string, streamEntry: string | null): { path: string; from: "babproj" | "builtmods" } | null;
  /** The SDK's vanilla stream root named by `source`, or null. */
  sdkStreamRoot(source: string): string | null;
}

/**
 * Resolves `source` as if written in `from` (default: Data/Mod.xml) with `resolver`, the project's
 * search paths; `reference` says what would answer it as a reference include.
 * @example resolveIncludeQuery(linked, ws.ports.projectResolver, layout, "ART:AUAthena_SKN.w3x").resolved // "Art/AU/AUAthena_SKN.w3x"
 */
export function resolveIncludeQuery(
  linked: LinkedIndex,
  resolver: Pick<IncludeResolver, "resolve">,
  layout: Pick<ProjectLayout, "modXml">,
  source: string,
  from?: string | null,
  reference?: ReferenceLookup,
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
    const outside = outsideRoots(linked, `--from ${from}`, fromFile, "a file");
    if (outside) return outside;
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
    tried: r.tried.map((t) =>
      t.outside
        ? { candidate: displayPath(linked, t.candidate), hit: false, outside: true as const }
        : { candidate: displayPath(linked, t.candidate), hit: t.hit }
    ),
    outside: r.outside,
    reason: r.reason ?? null,
    state: info?.state ?? "not-included",
    active: info?.active ?? false,
    streams: info?.streams ?? [],
    asReference: referenceAnswer(linked, src, fromFile, r.resolved, reference),
  };
}

/**
 * What answers `source` as a reference include written in `fromFile`: what the walk found when some
 * include of the project uses it so, else the ports' answer.
 */
function referenceAnswer(
  linked: LinkedIndex,
  source: string,
  fromFile: string,
  resolved: string | null,
  reference: ReferenceLookup | undefined,
): ReferenceAnswer {
  const stream = linked.streams.find((s) => s.layer === "project" && pathKey(s.entry) === pathKey(fromFile));
  const m = reference?.manifest(source, stream ? stream.entry : null) ?? null;
  const root = reference?.sdkStreamRoot(source) ?? null;
  const used = linked.includes.find((e) =>
    e.type === "reference" && e.source.toLowerCase() === source.toLowerCase() &&
    (e.resolution === "manifest" || e.resolution === "sdk-stream" || e.resolution === "file")
  );
  const answeredBy = used
    ? (used.resolution === "file" ? "xml" : used.resolution as "manifest" | "sdk-stream")
    : m
    ? "manifest"
    : root
    ? "sdk-stream"
    : resolved
    ? "xml"
    : "nothing";
  return {
    answeredBy,
    manifest: m ? displayPath(linked, m.path) : null,
    manifestFrom: m ? m.from : null,
    sdkStream: root ? displayPath(linked, root) : null,
  };
}
