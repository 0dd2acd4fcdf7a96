/**
 * How many diagnostics an answer lists: a file that repeats one mistake a million times (a generated or
 * corrupted file) must not turn `ra3 check` into a 600 MB report. Per file, at most
 * {@link DIAGNOSTIC_CAPS}`.perCode` diagnostics of one code and `.perFile` in all are listed; the rest are
 * counted, per file and code, so every answer still says exactly how many there are. The caps sit far
 * above what real mods produce (the largest per file and code in the corpora is 111).
 */
import { RECORD_DIAGNOSTIC_CAP, type Severity } from "../index/records.ts";

/** The listing caps (documented in docs/cli.md § Diagnostic caps). */
export const DIAGNOSTIC_CAPS = {
  /**
   * Diagnostics of one code (and severity) listed for one file: enough to see the pattern and fix it. The
   * records' own cap: a record holds no more than are listed, and counts the rest (see `counted` below).
   */
  perCode: RECORD_DIAGNOSTIC_CAP,
  /** Diagnostics listed for one file, all codes together (errors are kept first). */
  perFile: 1000,
} as const;

export interface DiagnosticCaps {
  readonly perCode: number;
  readonly perFile: number;
}

/** The part of a diagnostic the caps look at. */
export interface CappableDiagnostic {
  readonly file: string | null;
  readonly severity: Severity;
  readonly code: string;
  readonly line: number;
  readonly column: number;
}

/** Diagnostics of one file and code (and severity) that are counted but not listed. */
export interface UnlistedDiagnostics {
  /** As the listed diagnostics name it (relative), or null for index-wide notes. */
  readonly file: string | null;
  readonly code: string;
  readonly severity: Severity;
  readonly count: number;
  /** Position of the first one not listed. */
  readonly line: number;
  readonly column: number;
}

export interface CappedDiagnostics<D> {
  /** The diagnostics to list, in their original order. */
  readonly listed: D[];
  /** What was left out, per file, code and severity, in the order of its first occurrence. */
  readonly unlisted: UnlistedDiagnostics[];
}

/** How many diagnostics there are of each severity and code (see {@link severityCounts}). */
export interface SeverityCounts {
  readonly total: number;
  readonly errors: number;
  readonly warnings: number;
  readonly information: number;
  /** Code → how many, in order of first sight. */
  readonly byCode: ReadonlyMap<string, number>;
}

/**
 * The counts of `held` diagnostics (each one) and of `counted` groups (each by its `count`: what records
 * counted past their cap, or what a listing left out) together — the one sum every answer's totals are,
 * so that a count never forgets the diagnostics that are not held.
 * @example severityCounts(linked.diagnostics, linked.omittedDiagnostics).errors
 */
export function severityCounts(
  held: Iterable<{ readonly severity: Severity; readonly code: string }>,
  counted: Iterable<{ readonly severity: Severity; readonly code: string; readonly count: number }> = [],
): SeverityCounts {
  let errors = 0;
  let warnings = 0;
  let information = 0;
  const byCode = new Map<string, number>();
  const add = (severity: Severity, code: string, n: number) => {
    if (severity === "error") errors += n;
    else if (severity === "warning") warnings += n;
    else information += n;
    byCode.set(code, (byCode.get(code) ?? 0) + n);
  };
  for (const d of held) add(d.severity, d.code, 1);
  for (const g of counted) add(g.severity, g.code, g.count);
  return { total: errors + warnings + information, errors, warnings, information, byCode };
}

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, information: 2 };

/**
 * Applies the caps per file: first at most `perCode` of each code and severity (in order), then, if more than
 * `perFile` remain, the most severe first (errors are never crowded out by warnings), in order within a
 * severity. `counted`: groups counted instead of held (see `withCounted`); `sorted`: how many of `all` are in
 * the index's order (the rest were added after them). Pure; the input is not changed.
 * @example capDiagnostics(fiveThousandUnknownElements).unlisted // [{ file: "Data/Mod.xml", code: "unknown-element", count: 4800, … }]
 */
export function capDiagnostics<D extends CappableDiagnostic>(
  all: readonly D[],
  caps: DiagnosticCaps = DIAGNOSTIC_CAPS,
  counted: readonly UnlistedDiagnostics[] = [],
  sorted: number = all.length,
): CappedDiagnostics<D> {
  const capped = capHeld(all, caps);
  return counted.length === 0
    ? { listed: capped.listed, unlisted: capped.unlisted }
    : { listed: capped.listed, unlisted: withCounted(all, capped, counted, sorted) };
}

/**
 * The unlisted groups with the groups records counted past their cap (`counted`, the linked index's
 * `omittedDiagnostics` as views) merged in: a group of the same file, code and severity adds the count and
 * starts at the earlier of the two first positions; the groups are in the order of their first one (file as
 * in `all`, then line, column, code), as if every counted diagnostic had been in `all`. The records hold the
 * first {@link DIAGNOSTIC_CAPS}`.perCode` of each code and the list holds at most as many, so no counted one
 * would have been listed. The diagnostics of `all` from `sorted` on were added after the index's (a named
 * file's references, see `check.ts`): a group that starts there (it has no counted ones) comes after the
 * others, as their first one does in `all`.
 */
function withCounted<D extends CappableDiagnostic>(
  all: readonly D[],
  capped: HeldCaps<D>,
  counted: readonly UnlistedDiagnostics[],
  sorted: number,
): UnlistedDiagnostics[] {
  const key = (d: UnlistedDiagnostics) => `${d.file ?? ""}\u0000${d.code}\u0000${d.severity}`;
  const groups = new Map<string, UnlistedDiagnostics>();
  const late = new Map<string, number>();
  for (const u of capped.unlisted) {
    groups.set(key(u), u);
    const at = capped.firstAt.get(u)!;
    if (at >= sorted) late.set(key(u), at);
  }
  for (const c of counted) {
    const k = key(c);
    const u = groups.get(k);
    if (u === undefined) {
      groups.set(k, c);
      continue;
    }
    const earlier = c.line < u.line || (c.line === u.line && c.column < u.column) ? c : u;
    groups.set(k, { ...u, count: u.count + c.count, line: earlier.line, column: earlier.column });
    late.delete(k);
  }
  const fileOrder = new Map<string | null, number>();
  all.forEach((d, i) => {
    if (!fileOrder.has(d.file)) fileOrder.set(d.file, i);
  });
  const order = (u: UnlistedDiagnostics) => fileOrder.get(u.file) ?? Number.MAX_SAFE_INTEGER;
  const lateAt = (u: UnlistedDiagnostics) => late.get(key(u)) ?? -1;
  return [...groups.values()].sort((a, b) =>
    lateAt(a) - lateAt(b) || order(a) - order(b) || a.line - b.line || a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
  );
}

/** {@link capHeld}'s result: with the index in `all` of each unlisted group's first one. */
interface HeldCaps<D> extends CappedDiagnostics<D> {
  readonly firstAt: ReadonlyMap<UnlistedDiagnostics, number>;
}

/** {@link capDiagnostics} of the diagnostics held. */
function capHeld<D extends CappableDiagnostic>(all: readonly D[], caps: DiagnosticCaps): HeldCaps<D> {
  const keep = new Uint8Array(all.length);
  const perCode = new Map<string, number>();
  const keptInFile = new Map<string | null, number[]>();
  for (let i = 0; i < all.length; i++) {
    const d = all[i];
    // Per code and severity: an error never hides behind warnings of the same code.
    const k = `${d.file ?? ""}\u0000${d.code}\u0000${d.severity}`;
    const n = (perCode.get(k) ?? 0) + 1;
    perCode.set(k, n);
    if (n > caps.perCode) continue;
    keep[i] = 1;
    let list = keptInFile.get(d.file);
    if (!list) keptInFile.set(d.file, list = []);
    list.push(i);
  }
  for (const list of keptInFile.values()) {
    if (list.length <= caps.perFile) continue;
    const bySeverity = [...list].sort((a, b) => RANK[all[a].severity] - RANK[all[b].severity] || a - b);
    for (const i of bySeverity.slice(caps.perFile)) keep[i] = 0;
  }
  const listed: D[] = [];
  const unlisted = new Map<string, { -readonly [K in keyof UnlistedDiagnostics]: UnlistedDiagnostics[K] }>();
  const firstAt = new Map<UnlistedDiagnostics, number>();
  for (let i = 0; i < all.length; i++) {
    const d = all[i];
    if (keep[i]) {
      listed.push(d);
      continue;
    }
    const k = `${d.file ?? ""}\u0000${d.code}\u0000${d.severity}`;
    const o = unlisted.get(k);
    if (o) {
      o.count++;
    } else {
      const u = { file: d.file, code: d.code, severity: d.severity, count: 1, line: d.line, column: d.column };
      unlisted.set(k, u);
      firstAt.set(u, i);
    }
  }
  return { listed, unlisted: [...unlisted.values()], firstAt };
}

/**
 * One sentence for an unlisted group, the same in text, JSON-reading tools and SARIF.
 * @example unlistedSentence({ code: "unknown-element", severity: "warning", count: 4800, … }) // "4800 more unknown-element warnings in this file are not listed (…)"
 */
export function unlistedSentence(o: UnlistedDiagnostics, caps: DiagnosticCaps = DIAGNOSTIC_CAPS): string {
  const noun = o.severity === "information" ? "note" : o.severity;
  const where = o.file === null ? "for the project" : "in this file";
  return `${o.count} more ${o.code} ${noun}${o.count === 1 ? "" : "s"} ${where} ${
    o.count === 1 ? "is" : "are"
  } not listed (at most ${caps.perCode} of one code and ${caps.perFile} in one file are)`;
}
