/**
 * The build summary (`ra3 index`, `reindex`) and the status facts (`ra3 status`, `get_status`):
 * entry points and streams, counts by type, timings, diagnostics in summary, unresolved includes.
 */
import { displayPath, extensionOf, keyInside, pathKey } from "../project/paths.ts";
import type { LinkedIndex, StreamInfo } from "../index/linked.ts";
import { countsByType } from "./assets.ts";
import { presentMessage } from "./diagnostic-codes.ts";
import { severityCounts } from "./diagnostic-caps.ts";

export interface DiagnosticSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly information: number;
  /** Count per diagnostic code, most frequent first. */
  readonly byCode: readonly { readonly code: string; readonly count: number }[];
  /** Index-wide notes (e.g. the SDK-not-configured and external-references summaries). */
  readonly notes: readonly string[];
}

export interface StreamSummary {
  readonly name: string;
  readonly entry: string;
  readonly layer: "project" | "sdk";
  /** `compiled` (built from the entry) or `referenced` (an SDK stream the mod uses prebuilt). */
  readonly context: "compiled" | "referenced";
  readonly origin: StreamInfo["origin"];
  /** Why the entry is one. */
  readonly reason: string;
  readonly files: number;
  readonly manifests: readonly string[];
}

export interface IndexSummary {
  readonly project: string;
  readonly sdk: string | null;
  readonly mode: "sdk" | "project-only";
  readonly schema: {
    readonly dir: string | null;
    readonly source: string | null;
    readonly files: number;
    readonly heuristic: boolean;
  };
  readonly streams: readonly StreamSummary[];
  readonly files: {
    readonly total: number;
    /** Compiled files (the compatibility name of `compiled`). */
    readonly active: number;
    /** Every file not compiled: referenced or not included. */
    readonly inactive: number;
    readonly compiled: number;
    readonly referenced: number;
    readonly notIncluded: number;
    readonly art: number;
    readonly fragments: number;
  };
  readonly assetsByType: readonly { readonly type: string; readonly count: number }[];
  readonly sdkAssetsByOrigin: { readonly sdk: number; readonly manifest: number };
  readonly references: {
    readonly total: number;
    readonly resolved: number;
    readonly external: number;
    readonly unresolved: number;
  };
  readonly unresolvedIncludes: readonly { readonly source: string; readonly count: number }[];
  readonly diagnostics: DiagnosticSummary;
}

const MAX_UNRESOLVED = 20;

/** Summarises a linked index. */
export function summarize(
  linked: LinkedIndex,
  schema: { dir: string | null; source: string | null; files: number; loaded: boolean },
): IndexSummary {
  // Asked for every file and every asset (43k at Corona scale): the project's key once, each file once.
  const projectKey = pathKey(linked.projectDir);
  const insideByFile = new Map<string, boolean>();
  const inProject = (path: string) => {
    let inside = insideByFile.get(path);
    if (inside === undefined) insideByFile.set(path, inside = keyInside(pathKey(path), projectKey));
    return inside;
  };
  let active = 0;
  let referenced = 0;
  let total = 0;
  let art = 0;
  let fragments = 0;
  for (const f of linked.files.values()) {
    const ext = extensionOf(f.path);
    if (f.kind === "missing" || !inProject(f.path) || (ext !== ".xml" && ext !== ".w3x")) continue;
    total++;
    if (f.state === "compiled") active++;
    else if (f.state === "referenced") referenced++;
    if (f.kind === "art") art++;
    if (f.fragment) fragments++;
  }
  const unresolved = new Map<string, number>();
  for (const e of linked.includes) {
    if (e.to !== null || !inProject(e.from)) continue;
    unresolved.set(e.source, (unresolved.get(e.source) ?? 0) + 1);
  }
  let sdk = 0;
  let manifest = 0;
  for (const a of linked.assets) {
    if (a.origin === "sdk") sdk++;
    else if (a.origin === "manifest") manifest++;
  }
  return {
    project: linked.projectDir,
    sdk: linked.sdkDir,
    mode: linked.sdkDir ? "sdk" : "project-only",
    schema: { dir: schema.dir, source: schema.source, files: schema.files, heuristic: !schema.loaded },
    streams: linked.streams.map((s) => ({
      name: s.name,
      entry: displayPath(linked, s.entry),
      layer: s.layer,
      context: s.context,
      origin: s.origin,
      reason: s.reason,
      files: s.files,
      manifests: s.manifests.map((m) => displayPath(linked, m)),
    })),
    files: {
      total,
      active,
      inactive: total - active,
      compiled: active,
      referenced,
      notIncluded: total - active - referenced,
      art,
      fragments,
    },
    assetsByType: countsByType(linked).filter((c) => c.count > 0).map((c) => ({
      type: c.type,
      count:
        (linked.byType.get(c.type) ?? []).filter((i) =>
          linked.assets[i].origin === "project" && inProject(linked.assets[i].file)
        ).length,
    })).filter((c) => c.count > 0).sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1)),
    sdkAssetsByOrigin: { sdk, manifest },
    references: {
      total: linked.stats.references,
      resolved: linked.stats.resolvedReferences,
      external: linked.stats.externalReferences,
      unresolved: linked.stats.references - linked.stats.resolvedReferences - linked.stats.externalReferences,
    },
    unresolvedIncludes: [...unresolved]
      .map(([source, count]) => ({ source, count }))
      .sort((a, b) => b.count - a.count || (a.source < b.source ? -1 : 1))
      .slice(0, MAX_UNRESOLVED),
    diagnostics: summarizeDiagnostics(linked),
  };
}

/** Counts diagnostics by severity and code. */
function summarizeDiagnostics(linked: LinkedIndex): DiagnosticSummary {
  // What records counted past their cap counts as well (it is never listed).
  const { errors, warnings, information, byCode } = severityCounts(linked.diagnostics, linked.omittedDiagnostics);
  const notes: string[] = [];
  for (const d of linked.diagnostics) if (d.file === null) notes.push(presentMessage(d));
  return {
    errors,
    warnings,
    information,
    byCode: [...byCode].map(([code, count]) => ({ code, count })).sort((a, b) =>
      b.count - a.count || (a.code < b.code ? -1 : 1)
    ),
    notes,
  };
}
