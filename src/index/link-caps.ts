/**
 * Link phase, diagnostics: the cap on what a link holds. A file that repeats one mistake a million times
 * (10^6 uses of an undefined `$NAME`, 10^6 references to a missing id) must not make a million diagnostic
 * objects in the index and its snapshot, when the answers list at most {@link RECORD_DIAGNOSTIC_CAP} of one
 * file, code and severity anyway. A {@link DiagnosticCapper} keeps, per group, the first ones in the order
 * the index sorts its diagnostics (line, column, then the order they were made in: the stable sort's), and
 * counts the rest with the position of the first of them, as the records do for their own diagnostics.
 * Feeding it capped parts (a file's findings, a segment's) gives the same result as feeding it everything:
 * the first N of a union are among the first N of each part.
 */
import type { Diagnostic, OmittedDiagnostic } from "./linked.ts";
import { RECORD_DIAGNOSTIC_CAP } from "./records.ts";

/** Diagnostics kept, and what was counted instead of kept. */
export interface CappedFindings {
  /** Kept: at most the cap per file, code and severity, in the order they were added. */
  readonly diagnostics: readonly Diagnostic[];
  /** Counted past the cap, per file, code and severity (position of the first counted). */
  readonly omitted: readonly OmittedDiagnostic[];
}

interface Kept {
  readonly d: Diagnostic;
  /** Order of addition: the tie-break of equal positions (the index's sort is stable). */
  readonly seq: number;
}

interface Group {
  items: Kept[];
  /** Items are in (line, column, seq) order (the usual case: diagnostics made in document order). */
  ordered: boolean;
  /** How many were counted instead of kept. */
  count: number;
  line: number;
  column: number;
  readonly file: string | null;
  readonly code: string;
  readonly severity: Diagnostic["severity"];
}

function compareKept(a: Kept, b: Kept): number {
  return a.d.line - b.d.line || a.d.column - b.d.column || a.seq - b.seq;
}

/**
 * Keeps the first `cap` diagnostics of each file, code and severity (first by line, column and order of
 * addition) and counts the others. Memory: at most twice the cap per group at any time.
 * @example const c = new DiagnosticCapper(); for (const d of made) c.add(d); c.result().omitted
 */
export class DiagnosticCapper {
  private readonly groups = new Map<string | null, Map<string, Group>>();
  private seq = 0;

  private readonly cap = RECORD_DIAGNOSTIC_CAP;

  /** Adds one diagnostic (kept or counted; an index-wide note, of no file, is always kept). */
  add(d: Diagnostic): void {
    const g = this.group(d.file, d.code, d.severity);
    const item: Kept = { d, seq: this.seq++ };
    const items = g.items;
    if (d.file === null) {
      items.push(item);
      return;
    }
    if (items.length >= this.cap && g.ordered && compareKept(item, items[items.length - 1]) > 0) {
      // Past the cap and after every kept one: counted at once (the usual case, no sort).
      this.count(g, 1, d.line, d.column);
      return;
    }
    if (g.ordered && items.length > 0 && compareKept(item, items[items.length - 1]) < 0) g.ordered = false;
    items.push(item);
    if (items.length >= 2 * this.cap) this.trim(g);
  }

  /**
   * Counts a diagnostic of `file`, `code` and `severity` at `line`:`column` when {@link add} would count it
   * without keeping it (its group full, in order, and it after every kept one) and says so; else false and
   * nothing changes (the caller makes it and adds it). A million findings past the cap are then counted
   * without a million messages made first.
   */
  countedPast(file: string, code: string, severity: Diagnostic["severity"], line: number, column: number): boolean {
    const g = this.group(file, code, severity);
    const items = g.items;
    if (items.length < this.cap || !g.ordered) return false;
    const last = items[items.length - 1].d;
    // At the same position it comes after the last kept one (added later: a larger order of addition).
    if (line < last.line || (line === last.line && column < last.column)) return false;
    this.seq++;
    this.count(g, 1, line, column);
    return true;
  }

  /** Adds diagnostics counted elsewhere past the same cap (a record's, a part's): counted, never kept. */
  addOmitted(o: OmittedDiagnostic): void {
    this.count(this.group(o.file, o.code, o.severity), o.count, o.line, o.column);
  }

  /**
   * The kept diagnostics in the order they were added, and the counted groups (in no particular order:
   * callers sort them).
   */
  result(): CappedFindings {
    const kept: Kept[] = [];
    const omitted: OmittedDiagnostic[] = [];
    for (const byCode of this.groups.values()) {
      for (const g of byCode.values()) {
        if (g.items.length > this.cap && g.file !== null) this.trim(g);
        for (const k of g.items) kept.push(k);
        if (g.count > 0 && g.file !== null) {
          omitted.push({
            file: g.file,
            code: g.code,
            severity: g.severity,
            count: g.count,
            line: g.line,
            column: g.column,
          });
        }
      }
    }
    kept.sort((a, b) => a.seq - b.seq);
    return { diagnostics: kept.map((k) => k.d), omitted };
  }

  private group(file: string | null, code: string, severity: Diagnostic["severity"]): Group {
    let byCode = this.groups.get(file);
    if (!byCode) this.groups.set(file, byCode = new Map());
    const key = severity === "warning" ? code : `${code}\u0000${severity}`;
    let g = byCode.get(key);
    if (!g) {
      g = { items: [], ordered: true, count: 0, line: 0, column: 0, file, code, severity };
      byCode.set(key, g);
    }
    return g;
  }

  /** Sorts a group's items and counts those past the cap. */
  private trim(g: Group): void {
    if (!g.ordered) g.items.sort(compareKept);
    g.ordered = true;
    for (let i = this.cap; i < g.items.length; i++) this.count(g, 1, g.items[i].d.line, g.items[i].d.column);
    g.items.length = this.cap;
  }

  private count(g: Group, n: number, line: number, column: number): void {
    if (g.count === 0 || line < g.line || (line === g.line && column < g.column)) {
      g.line = line;
      g.column = column;
    }
    g.count += n;
  }
}

/** The parts of a chain (a cycle's members) a message shows at most. */
const CHAIN_SHOWN = 8;

/**
 * The names of a chain of `length` items for a message (`nameAt(j)`: the name of item j): all of them up to
 * {@link CHAIN_SHOWN}; a longer chain shows its first six, how many are left out, and its last (a cycle's
 * message of every member was n names for each of n members).
 * @example shortenedChain(3, (j) => "ABA"[j]) // ["A", "B", "A"]
 */
export function shortenedChain(length: number, nameAt: (j: number) => string): string[] {
  if (length <= CHAIN_SHOWN) return Array.from({ length }, (_, j) => nameAt(j));
  const first = Array.from({ length: CHAIN_SHOWN - 2 }, (_, j) => nameAt(j));
  return [...first, `… (${length - (CHAIN_SHOWN - 1)} more)`, nameAt(length - 1)];
}
