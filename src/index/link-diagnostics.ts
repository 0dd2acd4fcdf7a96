/**
 * Link phase, diagnostics: the record-level diagnostics of project files, `$NAME` uses no `<Define>`
 * declares, cross-file duplicate ids, unresolved and wrong-type references, and the index-wide summaries
 * of what cannot be checked without an SDK. Messages state the domain fact only: what to do about it (a
 * flag, a restart) is the front ends' wording, added by the query layer.
 */
import { displayPath, pathKey } from "../project/paths.ts";
import type { WalkResult } from "./include-walk.ts";
import { DiagnosticCapper } from "./link-caps.ts";
import type { LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import type { InheritTable } from "./link-inherit.ts";
import type { ReferenceFindings, SiteSegments, SiteTable } from "./link-references.ts";
import { TYPED_CODES } from "./link-splice.ts";
import type { AssetDef, DefineDef, Diagnostic, FileState, OmittedDiagnostic, ReferenceSite } from "./linked.ts";
import type { FileRecord, RecordDiagnostic } from "./records.ts";

/** What the diagnostics phase reads: the other phases' outputs. */
export interface DiagnosticsInputs {
  readonly walk: WalkResult;
  readonly files: FileTable;
  readonly assets: readonly AssetDef[];
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  /** The sites, and the reference phase's segments when it has them (their findings are kept per segment). */
  readonly references: SiteTable & { readonly segments?: SiteSegments };
  readonly inherit: InheritTable;
  readonly byId: ReadonlyMap<string, readonly number[]>;
  /** An earlier link's per-file and per-id findings, and what changed since (a patched link). */
  readonly reuse?: DiagnosticsReuse;
}

/** The findings that depend on one file or one id: kept for the next link. */
export interface DiagnosticParts {
  /** File key → its record diagnostics and undefined-define findings, and the undeclared define names it uses. */
  readonly perFile: ReadonlyMap<string, FileFindings>;
  /** Lower-cased id → the cross-file duplicates among its assets. */
  readonly perId: ReadonlyMap<string, readonly DuplicateFinding[]>;
  /** The per-file findings together, in file order (taken over while no changed file has or had any). */
  readonly fileTotals: FileTotals;
}

/** Every project file's findings together: the diagnostics in file order, the undeclared defines counted. */
interface FileTotals {
  readonly diagnostics: readonly Diagnostic[];
  /** What the files' findings counted past the cap (see `link-caps.ts`). */
  readonly omitted: readonly OmittedDiagnostic[];
  readonly externalDefines: ReadonlyMap<string, number>;
}

/** What an earlier link found, and what may have changed it. */
export interface DiagnosticsReuse {
  readonly previous: DiagnosticParts;
  /** Files whose records changed. */
  readonly files: ReadonlySet<string>;
  /** Lower-cased ids whose assets changed (type, id, place). */
  readonly ids: ReadonlySet<string>;
  /** The define table and the splice tables are the earlier link's (else every file is looked at again). */
  readonly sameTables: boolean;
  /**
   * Earlier asset index → this link's, when changed files gained or lost assets (a renumbering link): the
   * duplicates of unchanged ids are taken over renumbered. It moves no index below `lowest`.
   */
  readonly map?: Int32Array;
  readonly lowest?: number;
}

/** One file's findings: at most the cap of each code and severity held, the rest counted. */
interface FileFindings {
  readonly diagnostics: readonly Diagnostic[];
  readonly omitted: readonly OmittedDiagnostic[];
  readonly externalDefines: readonly string[];
}

const NO_DUPLICATES: readonly DuplicateFinding[] = [];

interface DuplicateFinding {
  readonly asset: number;
  readonly k: number;
  readonly d: Diagnostic;
}

export interface DiagnosticsOutput {
  /**
   * Sorted by file, line, column and code: of each file, code and severity the first
   * `RECORD_DIAGNOSTIC_CAP` (as the answers list them).
   */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * What project files' records (see {@link omittedOf}) and the link counted past the cap, one group per
   * file, code and severity, sorted as the diagnostics are.
   */
  readonly omitted: readonly OmittedDiagnostic[];
  /** Unresolved sites of project files that cannot be judged without an SDK (in included files, in the rest). */
  readonly external: { readonly active: number; readonly inactive: number };
  readonly parts: DiagnosticParts;
}

/**
 * Every diagnostic of the index.
 * @example linkDiagnostics(ctx, parts).diagnostics.filter((d) => d.code === "duplicate-id")
 */
export function linkDiagnostics(ctx: LinkContext, parts: DiagnosticsInputs): DiagnosticsOutput {
  const own = fileDiagnostics(ctx, parts.files, parts.defines, parts.references, parts.reuse);
  const refs = referenceDiagnostics(ctx, parts.references, parts.assets, parts.byId);
  const perId = duplicateIds(ctx, parts.assets, parts.byId, parts.reuse);
  // Every part through one capper, in the order the full list had before its (stable) sort: what it keeps
  // is what the answers list, and the parts capped already (a file's, a segment's) keep their first ones.
  const capper = new DiagnosticCapper();
  const feed = (list: readonly Diagnostic[]) => {
    for (const d of list) capper.add(d);
  };
  feed(own.diagnostics);
  feed(parts.walk.diagnostics);
  feed(ctx.inputs.environment());
  feed(duplicatesInOrder(perId));
  feed(refs.diagnostics);
  feed(parts.references.diagnostics);
  feed(parts.inherit.diagnostics);
  feed(summaries(refs.external, refs.externalInactive, own.externalDefines, parts.walk.suppressedPrefixed));
  for (const o of own.omitted) capper.addOmitted(o);
  for (const o of refs.omitted) capper.addOmitted(o);
  for (const o of parts.inherit.omitted) capper.addOmitted(o);
  for (const o of omittedOf(ctx, parts.files, parts.references)) capper.addOmitted(o);
  const capped = capper.result();
  return {
    diagnostics: [...capped.diagnostics].sort(compareDiagnostics),
    omitted: [...capped.omitted].sort(compareDiagnostics),
    external: { active: refs.external, inactive: refs.externalInactive },
    parts: { perFile: own.perFile, perId, fileTotals: own },
  };
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

/** What diagnostics are sorted by. */
type DiagnosticPlace = Pick<Diagnostic, "file" | "line" | "column" | "code">;

/**
 * The diagnostics project files' records counted past their cap, for the files whose record diagnostics are
 * in the index (a spliced fragment's schema warnings are its splices', so its own counted ones of those codes
 * are left out as its held ones are), in file order (the merge sorts them). Nearly always empty: one length test per file.
 */
function omittedOf(ctx: LinkContext, files: FileTable, references: SiteTable): OmittedDiagnostic[] {
  const out: OmittedDiagnostic[] = [];
  for (const { loaded, key } of ctx.all) {
    const groups = loaded.record.omittedDiagnostics;
    if (groups.length === 0) continue;
    const info = files.get(key);
    if (!info || info.origin !== "project") continue;
    const spliced = references.fragmentDiagnostics.has(key);
    for (const g of groups) {
      if (spliced && TYPED_CODES.has(g.code)) continue;
      out.push({
        file: loaded.path,
        code: g.code,
        severity: g.severity,
        count: g.count,
        line: g.line,
        column: g.column,
      });
    }
  }
  return out;
}

/**
 * Record-level diagnostics of project files, and their `$NAME` uses no define declares (each file's
 * findings taken over from `reuse` when its record and the tables they read are unchanged).
 */
function fileDiagnostics(
  ctx: LinkContext,
  files: FileTable,
  defines: ReadonlyMap<string, readonly DefineDef[]>,
  references: SiteTable,
  reuse: DiagnosticsReuse | undefined,
): FileTotals & { perFile: ReadonlyMap<string, FileFindings> } {
  const keep = reuse && reuse.sameTables ? reuse : null;
  if (keep) {
    // Only the changed files' findings can differ: while none of them has or had any, the totals are the same.
    const perFile = new Map(keep.previous.perFile);
    let same = true;
    for (const { loaded, key } of ctx.all) {
      if (!keep.files.has(key)) continue;
      const info = files.get(key);
      if (!info || info.origin !== "project") continue;
      const found = findingsOf(ctx, loaded.path, key, loaded.record, info.state, defines, references);
      const was = keep.previous.perFile.get(key);
      if (!was || !noFindings(was) || !noFindings(found)) same = false;
      perFile.set(key, found);
    }
    if (same) return { ...keep.previous.fileTotals, perFile };
  }
  const out: Diagnostic[] = [];
  const omitted: OmittedDiagnostic[] = [];
  const externalDefines = new Map<string, number>();
  const perFile = new Map<string, FileFindings>();
  for (const { loaded, key } of ctx.all) {
    const info = files.get(key);
    if (!info || info.origin !== "project") continue;
    const found = (keep && !keep.files.has(key) ? keep.previous.perFile.get(key) : undefined) ??
      findingsOf(ctx, loaded.path, key, loaded.record, info.state, defines, references);
    perFile.set(key, found);
    for (const d of found.diagnostics) out.push(d);
    for (const o of found.omitted) omitted.push(o);
    for (const n of found.externalDefines) externalDefines.set(n, (externalDefines.get(n) ?? 0) + 1);
  }
  return { diagnostics: out, omitted, externalDefines, perFile };
}

const NO_FINDINGS: FileFindings = { diagnostics: [], omitted: [], externalDefines: [] };

/** Whether a file's findings add nothing to the totals. */
function noFindings(f: FileFindings): boolean {
  return f.diagnostics.length === 0 && f.omitted.length === 0 && f.externalDefines.length === 0;
}

/**
 * One project file's findings: its record's diagnostics and its uses of defines nothing declares (past the
 * cap of one code counted, see `link-caps.ts`).
 */
function findingsOf(
  ctx: LinkContext,
  path: string,
  key: string,
  rec: FileRecord,
  state: FileState,
  defines: ReadonlyMap<string, readonly DefineDef[]>,
  references: SiteTable,
): FileFindings {
  const own = recordDiagnostics(key, rec, references);
  if (own.length === 0 && (rec.fragment || rec.defineUses.length === 0)) return NO_FINDINGS;
  const out = new DiagnosticCapper();
  const externalDefines: string[] = [];
  for (const d of own) {
    out.add({ code: d.code, severity: d.severity, message: d.message, file: path, line: d.line, column: d.column });
  }
  if (!rec.fragment && rec.defineUses.length > 0) {
    const localDefines = new Set(rec.defines.map((d) => d.name.toLowerCase()));
    for (const u of rec.defineUses) {
      const k = u.name.toLowerCase();
      if (localDefines.has(k) || defines.get(k)?.some((d) => d.state !== "not-included")) continue;
      if (!ctx.inputs.sdkUsable) {
        // Without the SDK the vanilla defines are unknown: count, don't accuse.
        if (state !== "not-included") externalDefines.push(u.name);
        continue;
      }
      if (out.countedPast(path, "undefined-define", "warning", u.line, u.column)) continue;
      out.add({
        code: "undefined-define",
        severity: "warning",
        message: `$${u.name} is not defined by any <Define>`,
        file: path,
        line: u.line,
        column: u.column,
      });
    }
  }
  return { ...out.result(), externalDefines };
}

/**
 * Cross-file duplicates: same type and id, project origin, not instance-only, same stream, different file.
 * Only ids with two or more assets can have one; each such group is checked in asset order (the groups
 * of ids no changed asset has or had taken over from `reuse`).
 */
function duplicateIds(
  ctx: LinkContext,
  assets: readonly AssetDef[],
  byId: ReadonlyMap<string, readonly number[]>,
  reuse: DiagnosticsReuse | undefined,
): Map<string, readonly DuplicateFinding[]> {
  if (reuse) {
    const perId = new Map(reuse.previous.perId);
    const { map, lowest = 0 } = reuse;
    if (map) {
      for (const [id, found] of perId) {
        if (found.some((f) => f.asset >= lowest)) {
          perId.set(id, found.map((f) => (f.asset >= lowest ? { ...f, asset: map[f.asset] } : f)));
        }
      }
    }
    for (const id of reuse.ids) {
      const found = duplicatesOf(ctx, assets, byId.get(id) ?? []);
      if (found.length) perId.set(id, found);
      else perId.delete(id);
    }
    return perId;
  }
  const perId = new Map<string, readonly DuplicateFinding[]>();
  // forEach, not for…of: no [id, group] pair per id (a million of them at a million assets).
  byId.forEach((group, id) => {
    const found = duplicatesOf(ctx, assets, group);
    if (found.length) perId.set(id, found);
  });
  return perId;
}

/** The duplicates among the assets of one id, in asset order. */
function duplicatesOf(
  ctx: LinkContext,
  assets: readonly AssetDef[],
  group: readonly number[],
): readonly DuplicateFinding[] {
  if (group.length < 2) return NO_DUPLICATES;
  const found: DuplicateFinding[] = [];
  const seen = new Map<string, AssetDef>();
  for (const i of [...group].sort((x, y) => x - y)) {
    const a = assets[i];
    if (a.origin !== "project" || a.viaInstance || !a.active || a.viaXInclude) continue;
    a.streams.forEach((s, k) => {
      const key = `${s}\u0000${a.type}`;
      const first = seen.get(key);
      if (!first) {
        seen.set(key, a);
      } else if (pathKey(first.file) !== pathKey(a.file)) {
        found.push({
          asset: i,
          k,
          d: {
            code: "duplicate-id",
            severity: "error",
            message: `${a.type} "${a.id}" is also defined in ${
              displayPath(ctx.inputs, first.file)
            }:${first.line} (stream ${s})`,
            file: a.file,
            line: a.line,
            column: a.column,
          },
        });
      }
    });
  }
  return found;
}

/** Every duplicate finding in asset order, as one pass over the assets would give them. */
function duplicatesInOrder(perId: ReadonlyMap<string, readonly DuplicateFinding[]>): Diagnostic[] {
  const all: DuplicateFinding[] = [];
  for (const list of perId.values()) all.push(...list);
  return all.sort((x, y) => x.asset - y.asset || x.k - y.k).map((f) => f.d);
}

/**
 * Unresolved and wrong-type references of included (compiled or referenced) project files (with a usable
 * SDK); without one they are only counted, since they may name vanilla assets. Per segment of the
 * reference phase, in site order (a segment's findings are kept with it), then the sites after them.
 */
function referenceDiagnostics(
  ctx: LinkContext,
  references: SiteTable & { readonly segments?: SiteSegments },
  assets: readonly AssetDef[],
  byId: ReadonlyMap<string, readonly number[]>,
): ReferenceFindings {
  const { sites, segments } = references;
  if (!segments) return findingsOfSites(ctx, sites, 0, assets, byId);
  const out: Diagnostic[] = [];
  const omitted: OmittedDiagnostic[] = [];
  let external = 0;
  let externalInactive = 0;
  let at = 0;
  for (const stage of segments.stages) {
    for (const seg of stage.values()) {
      const found = seg.findings ??= findingsOfSites(ctx, seg.sites, 0, assets, byId);
      for (const d of found.diagnostics) out.push(d);
      for (const o of found.omitted) omitted.push(o);
      external += found.external;
      externalInactive += found.externalInactive;
      at += seg.sites.length;
    }
  }
  const rest = findingsOfSites(ctx, sites, at, assets, byId);
  for (const d of rest.diagnostics) out.push(d);
  for (const o of rest.omitted) omitted.push(o);
  return {
    diagnostics: out,
    omitted,
    external: external + rest.external,
    externalInactive: externalInactive + rest.externalInactive,
  };
}

/** The findings of `sites` from `from` on (past the cap of one file and code counted, see `link-caps.ts`). */
function findingsOfSites(
  ctx: LinkContext,
  sites: readonly ReferenceSite[],
  from: number,
  assets: readonly AssetDef[],
  byId: ReadonlyMap<string, readonly number[]>,
): ReferenceFindings {
  const out = new DiagnosticCapper();
  let external = 0;
  let externalInactive = 0;
  for (let i = from; i < sites.length; i++) {
    const s = sites[i];
    if (s.status === "resolved" || !ctx.insideProject(s.file)) continue;
    const included = s.state !== "not-included";
    if (!ctx.inputs.sdkUsable) {
      if (included) external++;
      else externalInactive++;
      continue;
    }
    if (!included) continue; // files nothing includes (maps, drafts) are checked with `ra3 check FILE`, not in the index-wide report
    const code = s.status === "wrong_type" ? "wrong-type-reference" : "unresolved-reference";
    if (out.countedPast(s.file, code, "warning", s.line, s.column)) continue;
    // The types in definition order (byId is best first).
    const cands = [...(byId.get(s.id.toLowerCase()) ?? [])].sort((x, y) => x - y).map((i) => assets[i].type);
    const wantedType = s.refType ?? s.selfType;
    out.add({
      code,
      severity: "warning",
      message: s.status === "wrong_type"
        ? `"${s.value}" exists only as ${[...new Set(cands)].join(", ")}, not as ${wantedType ?? "the expected type"}`
        : `"${s.value}" was not found${wantedType ? ` (expected ${wantedType})` : ""}`,
      file: s.file,
      line: s.line,
      column: s.column,
    });
  }
  return { ...out.result(), external, externalInactive };
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

function compareDiagnostics(a: DiagnosticPlace, b: DiagnosticPlace): number {
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  return (fa < fb ? -1 : fa > fb ? 1 : 0) || a.line - b.line || a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}
