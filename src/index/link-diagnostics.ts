/**
 * Link phase, diagnostics: the record-level diagnostics of project files, `$NAME` uses no `<Define>`
 * declares, cross-file duplicate ids, unresolved and wrong-type references, and the index-wide summaries
 * of what cannot be checked without an SDK. Messages state the domain fact only: what to do about it (a
 * flag, a restart) is the front ends' wording, added by the query layer.
 */
import { displayPath, pathKey } from "../project/paths.ts";
import type { WalkResult } from "./include-walk.ts";
import type { LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import type { InheritTable } from "./link-inherit.ts";
import type { SiteTable } from "./link-references.ts";
import { TYPED_CODES } from "./link-splice.ts";
import type { AssetDef, DefineDef, Diagnostic, ReferenceSite } from "./linked.ts";
import type { FileRecord, RecordDiagnostic } from "./records.ts";

/** What the diagnostics phase reads: the other phases' outputs. */
export interface DiagnosticsInputs {
  readonly walk: WalkResult;
  readonly files: FileTable;
  readonly assets: readonly AssetDef[];
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  readonly references: SiteTable;
  readonly inherit: InheritTable;
  readonly byId: ReadonlyMap<string, readonly number[]>;
}

export interface DiagnosticsOutput {
  /** Sorted by file, line, column and code. */
  readonly diagnostics: readonly Diagnostic[];
  /** Unresolved sites of project files that cannot be judged without an SDK (in included files, in the rest). */
  readonly external: { readonly active: number; readonly inactive: number };
}

/**
 * Every diagnostic of the index.
 * @example linkDiagnostics(ctx, parts).diagnostics.filter((d) => d.code === "duplicate-id")
 */
export function linkDiagnostics(ctx: LinkContext, parts: DiagnosticsInputs): DiagnosticsOutput {
  const own = fileDiagnostics(ctx, parts.files, parts.defines, parts.references);
  const refs = referenceDiagnostics(ctx, parts.references.sites, parts.assets, parts.byId);
  const all = [
    ...own.diagnostics,
    ...parts.walk.diagnostics,
    ...ctx.inputs.environment(),
    ...duplicateIds(ctx, parts.assets),
    ...refs.diagnostics,
    ...parts.references.diagnostics,
    ...parts.inherit.diagnostics,
    ...summaries(refs.external, refs.externalInactive, own.externalDefines, parts.walk.suppressedPrefixed),
  ].sort(compareDiagnostics);
  return { diagnostics: all, external: { active: refs.external, inactive: refs.externalInactive } };
}

/**
 * The diagnostics a project file's record holds (for a spliced fragment, the schema warnings come from
 * its splices instead: they are typed by where they are spliced), a note for a fragment nothing splices.
 */
function recordDiagnostics(key: string, rec: FileRecord, references: SiteTable): readonly RecordDiagnostic[] {
  const spliced = references.fragmentDiagnostics.get(key);
  const unspliced = references.unsplicedFragments.has(key);
  if (!spliced && !unspliced) return rec.diagnostics;
  const own = spliced ? [...rec.diagnostics.filter((d) => !TYPED_CODES.has(d.code)), ...spliced] : [...rec.diagnostics];
  if (references.unsplicedFragments.has(key)) {
    own.push({
      code: "fragment-not-spliced",
      severity: "information",
      message:
        "no xi:include splices this fragment in, so no context types its elements: they are read by a guess from the root element's name, and its references belong to no asset",
      line: rec.ranges[0]?.line ?? 1,
      column: 1,
    });
  }
  return own;
}

/** Record-level diagnostics of project files, and their `$NAME` uses no define declares. */
function fileDiagnostics(
  ctx: LinkContext,
  files: FileTable,
  defines: ReadonlyMap<string, readonly DefineDef[]>,
  references: SiteTable,
): { diagnostics: Diagnostic[]; externalDefines: Map<string, number> } {
  const out: Diagnostic[] = [];
  const externalDefines = new Map<string, number>();
  for (const { loaded, key } of ctx.all) {
    const info = files.get(key);
    if (!info || info.origin !== "project") continue;
    const rec = loaded.record;
    for (const d of recordDiagnostics(key, rec, references)) {
      out.push({
        code: d.code,
        severity: d.severity,
        message: d.message,
        file: loaded.path,
        line: d.line,
        column: d.column,
      });
    }
    if (rec.fragment) continue;
    const localDefines = new Set(rec.defines.map((d) => d.name.toLowerCase()));
    for (const u of rec.defineUses) {
      const k = u.name.toLowerCase();
      if (localDefines.has(k) || defines.get(k)?.some((d) => d.state !== "not-included")) continue;
      if (!ctx.inputs.sdkUsable) {
        // Without the SDK the vanilla defines are unknown: count, don't accuse.
        if (info.state !== "not-included") externalDefines.set(u.name, (externalDefines.get(u.name) ?? 0) + 1);
        continue;
      }
      out.push({
        code: "undefined-define",
        severity: "warning",
        message: `$${u.name} is not defined by any <Define>`,
        file: loaded.path,
        line: u.line,
        column: u.column,
      });
    }
  }
  return { diagnostics: out, externalDefines };
}

/** Cross-file duplicates: same type and id, project origin, not instance-only, same stream, different file. */
function duplicateIds(ctx: LinkContext, assets: readonly AssetDef[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Map<string, AssetDef>();
  for (const a of assets) {
    if (a.origin !== "project" || a.viaInstance || !a.active || a.viaXInclude) continue;
    for (const s of a.streams) {
      const k = `${s}\u0000${a.type}\u0000${a.id.toLowerCase()}`;
      const first = seen.get(k);
      if (!first) {
        seen.set(k, a);
      } else if (pathKey(first.file) !== pathKey(a.file)) {
        out.push({
          code: "duplicate-id",
          severity: "error",
          message: `${a.type} "${a.id}" is also defined in ${
            displayPath(ctx.inputs, first.file)
          }:${first.line} (stream ${s})`,
          file: a.file,
          line: a.line,
          column: a.column,
        });
      }
    }
  }
  return out;
}

/**
 * Unresolved and wrong-type references of included (compiled or referenced) project files (with a usable
 * SDK); without one they are only counted, since they may name vanilla assets.
 */
function referenceDiagnostics(
  ctx: LinkContext,
  sites: readonly ReferenceSite[],
  assets: readonly AssetDef[],
  byId: ReadonlyMap<string, readonly number[]>,
): { diagnostics: Diagnostic[]; external: number; externalInactive: number } {
  const out: Diagnostic[] = [];
  let external = 0;
  let externalInactive = 0;
  for (const s of sites) {
    if (s.status === "resolved" || !ctx.insideProject(s.file)) continue;
    const included = s.state !== "not-included";
    if (!ctx.inputs.sdkUsable) {
      if (included) external++;
      else externalInactive++;
      continue;
    }
    if (!included) continue; // files nothing includes (maps, drafts) are checked with `ra3 check FILE`, not in the index-wide report
    // The types in definition order (byId is best first).
    const cands = [...(byId.get(s.id.toLowerCase()) ?? [])].sort((x, y) => x - y).map((i) => assets[i].type);
    const wantedType = s.refType ?? s.selfType;
    out.push({
      code: s.status === "wrong_type" ? "wrong-type-reference" : "unresolved-reference",
      severity: "warning",
      message: s.status === "wrong_type"
        ? `"${s.value}" exists only as ${[...new Set(cands)].join(", ")}, not as ${wantedType ?? "the expected type"}`
        : `"${s.value}" was not found${wantedType ? ` (expected ${wantedType})` : ""}`,
      file: s.file,
      line: s.line,
      column: s.column,
    });
  }
  return { diagnostics: out, external, externalInactive };
}

/** The index-wide notes on what is left unchecked without an SDK. */
function summaries(
  external: number,
  externalInactive: number,
  externalDefines: ReadonlyMap<string, number>,
  suppressedPrefixed: ReadonlyMap<string, number>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const note = (code: string, message: string) =>
    out.push({ code, severity: "information", message, file: null, line: 0, column: 0 });
  if (external + externalInactive > 0) {
    note(
      "external-references",
      `${external} reference${external === 1 ? " points" : "s point"} at assets outside the project` +
        (externalInactive ? ` (and ${externalInactive} more in files no entry point includes)` : ""),
    );
  }
  if (externalDefines.size > 0) {
    const total = [...externalDefines.values()].reduce((a, b) => a + b, 0);
    const names = [...externalDefines.keys()].sort().slice(0, 5).map((n) => `$${n}`).join(", ");
    const n = externalDefines.size;
    note(
      "external-defines",
      `${total} use${total === 1 ? "" : "s"} of ${n} define${n === 1 ? "" : "s"} not declared in the project (${names}${
        n > 5 ? ", …" : ""
      }); they may be vanilla defines`,
    );
  }
  if (suppressedPrefixed.size > 0) {
    const total = [...suppressedPrefixed.values()].reduce((a, b) => a + b, 0);
    const examples = [...suppressedPrefixed.keys()].slice(0, 3).join(", ");
    const n = suppressedPrefixed.size;
    note(
      "sdk-not-configured",
      `${total} include${total === 1 ? "" : "s"} of ${n} DATA:/ART:/AUDIO: source${n === 1 ? "" : "s"} ${
        total === 1 ? "points" : "point"
      } into the SDK (e.g. ${examples})`,
    );
  }
  return out;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  return (fa < fb ? -1 : fa > fb ? 1 : 0) || a.line - b.line || a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}
