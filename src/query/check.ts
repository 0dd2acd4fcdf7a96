/**
 * Diagnostics (`check_files`, `ra3 check`): the index's diagnostics for the whole project or for given
 * files, with a summary; plus the references of files no entry point includes, which the index-wide report
 * leaves out.
 * Counts cover every diagnostic; the list is capped per file and code ({@link capDiagnostics}).
 */
import { displayPath, pathKey, toAbsolute } from "../project/paths.ts";
import type { Diagnostic, LinkedIndex } from "../index/linked.ts";
import type { Severity } from "../index/records.ts";
import { clampLimit } from "./assets.ts";
import { capDiagnostics, severityCounts, type UnlistedDiagnostics } from "./diagnostic-caps.ts";
import { presentMessage } from "./diagnostic-codes.ts";
import { decodeCursor, encodeCursor } from "./present.ts";
import { queryError, type QueryResult } from "./envelope.ts";
import { outsideRoots } from "./roots.ts";

export interface DiagnosticView {
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
}

export interface CheckResult {
  /** Files asked about (relative), or null for the whole project. */
  readonly files: readonly string[] | null;
  /** Every diagnostic, listed or not (as are errors, warnings, information and byCode). */
  readonly total: number;
  readonly errors: number;
  readonly warnings: number;
  readonly information: number;
  readonly byCode: readonly { readonly code: string; readonly count: number }[];
  /** Diagnostics that are listed (paged through `diagnostics`): `total` less the unlisted ones. */
  readonly listed: number;
  /** Diagnostics counted but not listed, per file and code (the first {@link MAX_UNLISTED_GROUPS} groups). */
  readonly unlisted: readonly UnlistedDiagnostics[];
  /** Groups of unlisted diagnostics beyond those in `unlisted`. */
  readonly unlistedGroupsNotShown: number;
  readonly diagnostics: readonly DiagnosticView[];
  readonly nextCursor: string | null;
}

/** Groups of unlisted diagnostics an answer names (the counts above stay exact). */
const MAX_UNLISTED_GROUPS = 100;

/** What {@link collectDiagnostics} gathers. */
export interface CollectedDiagnostics {
  readonly files: string[] | null;
  /** Every diagnostic the index holds for the files asked about. */
  readonly diagnostics: DiagnosticView[];
  /**
   * The diagnostics the records counted past their cap, per file, code and severity (never listed; every
   * count includes them): pass them to `capDiagnostics`.
   */
  readonly counted: UnlistedDiagnostics[];
  /**
   * The first `sorted` of `diagnostics` are the index's, in its order; the rest (a named file's references
   * that the index-wide report leaves out) come after them: pass it to `capDiagnostics` too.
   */
  readonly sorted: number;
}

/** Every diagnostic (all of them, for renderers such as SARIF that page themselves), with views. */
export function collectDiagnostics(
  linked: LinkedIndex,
  paths: readonly string[] | null,
): QueryResult<CollectedDiagnostics> {
  let keys: Set<string> | null = null;
  let files: string[] | null = null;
  if (paths && paths.length > 0) {
    keys = new Set();
    files = [];
    for (const p of paths) {
      const abs = toAbsolute(p.trim(), linked.projectDir);
      const outside = outsideRoots(linked, p, abs, "paths");
      if (outside) return outside;
      const info = linked.file(abs);
      if (!info) return queryError("not_found", `${p} is not an indexed file of this project`);
      keys.add(pathKey(info.path));
      files.push(displayPath(linked, info.path));
    }
  }
  const out: Diagnostic[] = [];
  for (const d of linked.diagnostics) {
    if (keys === null || (d.file !== null && keys.has(pathKey(d.file)))) out.push(d);
  }
  const sorted = out.length;
  // Files no entry point includes, asked for by name: their unresolved references too (with an SDK to judge them).
  if (keys && linked.sdkDir) {
    for (const s of linked.sites) {
      if (s.state !== "not-included" || s.status === "resolved" || !keys.has(pathKey(s.file))) continue;
      out.push({
        code: s.status === "wrong_type" ? "wrong-type-reference" : "unresolved-reference",
        severity: "warning",
        message: `"${s.value}" ${s.status === "wrong_type" ? "exists only with other types" : "was not found"}${
          s.refType ? ` (expected ${s.refType})` : ""
        }`,
        file: s.file,
        line: s.line,
        column: s.column,
      });
    }
  }
  const counted: UnlistedDiagnostics[] = [];
  for (const g of linked.omittedDiagnostics) {
    if (keys !== null && !keys.has(pathKey(g.file))) continue;
    counted.push({ ...g, file: displayPath(linked, g.file) });
  }
  return {
    files,
    counted,
    sorted,
    diagnostics: out.map((d) => ({
      file: d.file ? displayPath(linked, d.file) : null,
      line: d.line,
      column: d.column,
      severity: d.severity,
      code: d.code,
      message: presentMessage(d),
    })),
  };
}

/** Diagnostics for the project or some files, with exact counts; the capped list, paged. */
export function checkFiles(
  linked: LinkedIndex,
  paths: readonly string[] | null,
  options: { limit?: number | null; cursor?: string | null } = {},
): QueryResult<CheckResult> {
  const offset = options.cursor ? decodeCursor(options.cursor) : 0;
  if (offset === null) {
    return queryError("bad_argument", "the cursor is not valid; pass the nextCursor of a previous answer or omit it");
  }
  const limit = clampLimit(options.limit);
  const all = collectDiagnostics(linked, paths);
  if ("error" in all) return all;
  const { files, diagnostics, counted, sorted } = all;
  const capped = capDiagnostics(diagnostics, undefined, counted, sorted);
  const { total, errors, warnings, information, byCode } = severityCounts(diagnostics, counted);
  return {
    files,
    total,
    errors,
    warnings,
    information,
    byCode: [...byCode].map(([code, count]) => ({ code, count })).sort((a, b) =>
      b.count - a.count || (a.code < b.code ? -1 : 1)
    ),
    listed: capped.listed.length,
    unlisted: capped.unlisted.slice(0, MAX_UNLISTED_GROUPS),
    unlistedGroupsNotShown: Math.max(0, capped.unlisted.length - MAX_UNLISTED_GROUPS),
    diagnostics: capped.listed.slice(offset, offset + limit),
    nextCursor: offset + limit < capped.listed.length ? encodeCursor(offset + limit) : null,
  };
}
