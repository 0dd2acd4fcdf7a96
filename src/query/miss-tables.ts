/**
 * What a "not found" answer needs, indexed once per {@link LinkedIndex} on its first miss: the distinct
 * asset ids for "similar ids", the unresolved reference sites by id for the project-only explanation,
 * and the project files with an XML error (named first: the id may be in what the error swallowed).
 * Without them every miss scanned all ids, all reference sites and all files (≈ 8 ms at Corona scale,
 * 36× a hit).
 * The tables are derived from the immutable index and kept beside it in a WeakMap, so they go with it.
 */
import { displayPath } from "../project/paths.ts";
import type { LinkedIndex, ReferenceSite } from "../index/linked.ts";

/** Separates ids in the joined text; XML text never holds U+0000, so no id contains it. */
const SEPARATOR = "\u0000";

/**
 * "Did you mean" over a fixed list of names, answering exactly as {@link suggest} in `present.ts` does
 * (containing the query, then a long common prefix; shorter names first, then by name), without a loop
 * over the names per call: the lower-cased names are sorted and joined into one text, so the names
 * containing the query are found with a native `indexOf` and those starting with a prefix by binary search.
 */
export class NameSuggester {
  /** The distinct lower-cased names, sorted. */
  private readonly lower: string[];
  /** The spelling shown for each of {@link lower}. */
  private readonly names: string[];
  /** The lower-cased names, each followed by the separator. */
  private readonly joined: string;
  /** Where each lower-cased name starts in {@link joined}. */
  private readonly starts: Int32Array;

  /**
   * @param lowerNames distinct lower-cased names, in any order
   * @param spelling the spelling to show for a lower-cased name
   */
  constructor(lowerNames: Iterable<string>, spelling: (lower: string) => string) {
    this.lower = [...lowerNames].sort();
    this.names = this.lower.map(spelling);
    const n = this.lower.length;
    this.starts = new Int32Array(n);
    let offset = 0;
    for (let i = 0; i < n; i++) {
      this.starts[i] = offset;
      offset += this.lower[i].length + 1;
    }
    this.joined = this.lower.join(SEPARATOR) + SEPARATOR;
  }

  /** A suggester over `candidates`, each lower-cased name shown in its first spelling (as `suggest` does). */
  static of(candidates: Iterable<string>): NameSuggester {
    const first = new Map<string, string>();
    for (const c of candidates) {
      const l = c.toLowerCase();
      if (!first.has(l)) first.set(l, c);
    }
    return new NameSuggester(first.keys(), (l) => first.get(l)!);
  }

  /** Up to `limit` names resembling `query`, in the order and with the spelling `suggest` gives. */
  suggest(query: string, limit = 5): string[] {
    const q = query.toLowerCase();
    if (q.length === 0 || q.includes(SEPARATOR)) return this.scan(q, limit);
    const best = new TopNames(limit, this.names);
    const contains = new Set<number>();
    for (let from = 0;;) {
      const at = this.joined.indexOf(q, from);
      if (at < 0) break;
      const i = this.nameAt(at);
      if (this.lower[i] !== q) {
        contains.add(i);
        best.offer(i, 2);
      }
      from = this.starts[i] + this.lower[i].length + 1;
    }
    const minPrefix = Math.max(4, Math.ceil(q.length * 0.6));
    if (q.length >= minPrefix) {
      const prefix = q.slice(0, minPrefix);
      for (let i = this.lowerBound(prefix); i < this.lower.length && this.lower[i].startsWith(prefix); i++) {
        if (!contains.has(i) && this.lower[i] !== q) best.offer(i, 1);
      }
    }
    return best.result();
  }

  /** The plain scan, for a query the joined text cannot answer (empty, or holding the separator). */
  private scan(q: string, limit: number): string[] {
    const best = new TopNames(limit, this.names);
    const minPrefix = Math.max(4, Math.ceil(q.length * 0.6));
    this.lower.forEach((l, i) => {
      if (l === q) return;
      if (l.includes(q)) return best.offer(i, 2);
      let p = 0;
      while (p < l.length && p < q.length && l.charCodeAt(p) === q.charCodeAt(p)) p++;
      if (p >= minPrefix) best.offer(i, 1);
    });
    return best.result();
  }

  /** The index of the name whose text covers offset `at` of the joined text. */
  private nameAt(at: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The first index of {@link lower} whose name is not below `text`. */
  private lowerBound(text: string): number {
    let lo = 0;
    let hi = this.lower.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lower[mid] < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The best `limit` names offered so far: higher score, then shorter, then by name (as `suggest` sorts). */
class TopNames {
  private readonly picked: { i: number; score: number }[] = [];

  constructor(private readonly limit: number, private readonly names: readonly string[]) {}

  offer(i: number, score: number): void {
    const list = this.picked;
    if (list.length === this.limit && !this.before(i, score, list[list.length - 1])) return;
    let at = list.length;
    while (at > 0 && this.before(i, score, list[at - 1])) at--;
    list.splice(at, 0, { i, score });
    if (list.length > this.limit) list.pop();
  }

  result(): string[] {
    return this.picked.map((p) => this.names[p.i]);
  }

  private before(i: number, score: number, other: { i: number; score: number }): boolean {
    if (score !== other.score) return score > other.score;
    const a = this.names[i];
    const b = this.names[other.i];
    if (a.length !== b.length) return a.length < b.length;
    return a < b;
  }
}

interface MissTables {
  readonly ids: NameSuggester;
  /** Lower-cased id → the reference sites naming it that do not resolve, in site order. */
  readonly unresolved: ReadonlyMap<string, readonly ReferenceSite[]>;
  /** The project's XML and art files with an XML error, as `file:line`, sorted. */
  readonly broken: readonly string[];
}

const tables = new WeakMap<LinkedIndex, MissTables>();

function tablesOf(linked: LinkedIndex): MissTables {
  let t = tables.get(linked);
  if (!t) {
    const unresolved = new Map<string, ReferenceSite[]>();
    for (const s of linked.sites) {
      if (s.status === "resolved") continue;
      const key = s.id.toLowerCase();
      const list = unresolved.get(key);
      if (list) list.push(s);
      else unresolved.set(key, [s]);
    }
    // `byId` is keyed by the lower-cased ids; the spelling shown is the first asset's, as a scan shows it.
    const ids = new NameSuggester(linked.byId.keys(), (l) => linked.assets[Math.min(...linked.byId.get(l)!)].id);
    const broken: string[] = [];
    for (const f of linked.files.values()) {
      if (f.xmlError && f.origin === "project" && (f.kind === "xml" || f.kind === "art")) {
        broken.push(`${displayPath(linked, f.path)}:${f.xmlError.line}`);
      }
    }
    t = { ids, unresolved, broken: broken.sort() };
    tables.set(linked, t);
  }
  return t;
}

/**
 * Asset ids of `linked` resembling `query` (see {@link NameSuggester}).
 * @example similarIds(linked, "AlliedAthenaCanon") // ["AlliedAthenaCannon"]
 */
export function similarIds(linked: LinkedIndex, query: string, limit = 5): string[] {
  return tablesOf(linked).ids.suggest(query, limit);
}

/**
 * The reference sites naming `id` (case-insensitive) that do not resolve, in site order.
 * @example unresolvedSitesOf(linked, "AlliedVanillaTank").length // 3
 */
export function unresolvedSitesOf(linked: LinkedIndex, id: string): readonly ReferenceSite[] {
  return tablesOf(linked).unresolved.get(id.toLowerCase()) ?? [];
}

/**
 * The project's XML and art files with an XML error, as `file:line` (display paths, sorted).
 * @example projectFilesWithXmlErrors(linked) // ["Data/Units.xml:12"]
 */
export function projectFilesWithXmlErrors(linked: LinkedIndex): readonly string[] {
  return tablesOf(linked).broken;
}
