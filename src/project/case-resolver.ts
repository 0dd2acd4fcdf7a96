/**
 * Case-insensitive path resolution over a {@link DirectoryLister}, returning real on-disk casing.
 *
 * Mods are written on Windows, where `DATA:GlobalData/Weapon.xml` finds `globaldata/weapon.xml`. On a
 * case-sensitive file system we get the same answer by matching each segment against the listing of
 * its parent folder (one listing per folder, shared through the lister's cache) instead of guessing
 * with stats. Two names differing only in case (possible there, impossible on Windows) are tried in
 * sorted order, so every lookup picks the same one — the one the project scan keeps. A folder that
 * cannot be listed but can be passed through (mode 711) is stepped through by a direct stat of the
 * exact name; such folders are remembered ({@link CaseResolver.unlistableSeen}) for a diagnostic.
 *
 * A resolver with a {@link PathGate} (`confinement.ts`) is confined: a lookup whose target lies outside
 * the gate's roots, or that would pass a link leading out of them, answers {@link OUTSIDE} before
 * anything there is listed or stat'ed, so the answer is the same whether something exists there.
 */
import type { DirectoryLister, DirEntry } from "./fs-port.ts";
import { native } from "./paths.ts";

/** What a confined resolver asks before it looks (implemented by `Confinement`). */
export interface PathGate {
  /** The absolute path (after `.`/`..`) lies inside an allowed root. */
  contains(path: string): boolean;
  /** The existing entry (a link, a base folder, an entry found by a direct stat) may be entered. */
  admits(path: string): boolean;
}

/** The answer of a confined lookup that would leave the roots (nothing beyond the refusal was looked at). */
export const OUTSIDE: unique symbol = Symbol("outside");

/** A lookup's answer: the real path, nothing there (null), or {@link OUTSIDE}. */
export type Lookup = string | null | typeof OUTSIDE;

/** What the last segment of a lookup must be. */
export type EntryKind = "any" | "file" | "directory";

function fits(e: DirEntry, kind: EntryKind): boolean {
  return kind === "any" || (kind === "directory") === e.isDirectory;
}

/**
 * The entries of `entries` named `name` ignoring case, in sorted (code-unit) order: names differing
 * only by case can coexist on Linux, and every lookup must prefer the same one whatever case it writes.
 */
export function matchingEntries(entries: readonly DirEntry[], name: string, kind: EntryKind = "any"): DirEntry[] {
  const same = byLowerName(entries).get(name.toLowerCase());
  if (!same) return [];
  const out = same.filter((e) => fits(e, kind));
  if (out.length > 1) out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

// One case-folded index per listing (listings are cached by the lister, so their identity is stable):
// big art folders hold thousands of entries and every include looks one up.
const lowerIndexes = new WeakMap<readonly DirEntry[], Map<string, DirEntry[]>>();

function byLowerName(entries: readonly DirEntry[]): Map<string, DirEntry[]> {
  let index = lowerIndexes.get(entries);
  if (!index) {
    index = new Map();
    for (const e of entries) {
      const k = e.name.toLowerCase();
      const list = index.get(k);
      if (list) list.push(e);
      else index.set(k, [e]);
    }
    lowerIndexes.set(entries, index);
  }
  return index;
}

/** The question "is it a folder" in {@link CaseResolver.lookups} (not a file name: names have no NUL). */
const IS_FOLDER = "\u0000dir";

function splitRelative(relative: string): string[] {
  return relative.split(/[\\/]+/).filter((s) => s.length > 0 && s !== ".");
}

/** Resolves paths case-insensitively and caches the answers until {@link CaseResolver.invalidate}. */
export class CaseResolver {
  private readonly results = new Map<string, Lookup>();
  /** Folders met on the way that could not be listed (their children found by exact name only). */
  readonly unlistableSeen = new Set<string>();
  /**
   * Every question asked of a folder's listing since construction: folder → lower-cased names looked
   * up, and {@link IS_FOLDER} for whether it is one. Answers
   * can be asked again later ({@link lookupAnswers}): equal answers mean equal resolutions.
   */
  private readonly asked: Map<string, Set<string>>;

  /** @param asked the questions record to share (a confined copy shares its resolver's) */
  constructor(
    readonly lister: DirectoryLister,
    readonly gate: PathGate | null = null,
    asked: Map<string, Set<string>> = new Map(),
  ) {
    this.asked = asked;
  }

  /** A resolver over the same lister (and its cached listings) confined by `gate`; its questions count as this one's. */
  confined(gate: PathGate): CaseResolver {
    return new CaseResolver(this.lister, gate, this.asked);
  }

  /**
   * `relative` (either separator, `.`/`..` allowed) below the folder `base`, with each segment matched
   * case-insensitively; the real casing of the hit, or null (also when a confined lookup is refused).
   * `base` itself is used as given.
   * @example resolve("/sdk", "sagexml/STATIC.xml", "file") // "/sdk/SageXml/Static.xml"
   */
  resolve(base: string, relative: string, kind: EntryKind = "any"): string | null {
    const hit = this.lookup(base, relative, kind);
    return hit === OUTSIDE ? null : hit;
  }

  /** {@link resolve}, telling a refusal by the gate ({@link OUTSIDE}) from a miss (null). */
  lookup(base: string, relative: string, kind: EntryKind = "any"): Lookup {
    const key = `${kind}\0${base}\0${relative}`;
    const cached = this.results.get(key);
    if (cached !== undefined) return cached;
    const hit = this.gate && !this.allowed(this.gate, base, relative)
      ? OUTSIDE
      : this.walk(base, splitRelative(relative), 0, kind);
    this.results.set(key, hit);
    return hit;
  }

  /** Folders inside the gate's roots (so is everything below them), by the string asked. */
  private readonly baseInside = new Map<string, boolean>();

  /** The gate lets `relative` below `base` be looked up: the base admitted, the target inside a root. */
  private allowed(gate: PathGate, base: string, relative: string): boolean {
    if (!gate.admits(base)) return false;
    // Without `..` the target lies below the base: a base inside a root settles it (cheap, and asked often).
    if (!relative.includes("..")) {
      let inside = this.baseInside.get(base);
      if (inside === undefined) this.baseInside.set(base, inside = gate.contains(base));
      if (inside) return true;
    }
    return gate.contains(`${base}/${relative}`);
  }

  /** An absolute path resolved case-insensitively from its root; null when missing or not absolute. */
  resolvePath(path: string, kind: EntryKind = "any"): string | null {
    const hit = this.lookupPath(path, kind);
    return hit === OUTSIDE ? null : hit;
  }

  /** {@link resolvePath}, telling a refusal by the gate from a miss; null for a relative path. */
  lookupPath(path: string, kind: EntryKind = "any"): Lookup {
    const root = native.parse(path).root;
    if (root === "") return this.gate ? OUTSIDE : null;
    return this.lookup(root, path.slice(root.length), kind);
  }

  /** True when the absolute `path` names something on disk (ignoring case). */
  exists(path: string): boolean {
    return this.resolvePath(path) !== null;
  }

  /** True when the absolute `path` names a folder (ignoring case). */
  isDirectory(path: string): boolean {
    return this.resolvePath(path, "directory") !== null;
  }

  /** True when the absolute `path` names a file (ignoring case). */
  isFile(path: string): boolean {
    return this.resolvePath(path, "file") !== null;
  }

  /**
   * The real path of the child of `dir` called `name` ignoring case (exact case preferred), or null
   * (a confined resolver: also when the gate refuses it).
   * @example childNamed("/m/X", "data", "directory") // "/m/X/Data"
   */
  childNamed(dir: string, name: string, kind: EntryKind = "any"): string | null {
    if (this.gate) return this.resolve(dir, name, kind);
    this.ask(dir, name.toLowerCase());
    const entries = this.lister.list(dir);
    if (!entries) {
      const exact = this.exactChild(dir, name, kind);
      return exact === OUTSIDE ? null : exact;
    }
    const m = matchingEntries(entries, name, kind)[0];
    return m ? native.join(dir, m.name) : null;
  }

  /**
   * In an unlistable folder, `name` exactly as written when a direct stat finds it (of `kind`), else
   * null; null for any other folder without a listing.
   */
  private exactChild(dir: string, name: string, kind: EntryKind): Lookup {
    if (!this.lister.unlistable?.(dir) || !this.lister.probe) return null;
    this.unlistableSeen.add(dir);
    const p = native.join(dir, name);
    const what = this.lister.probe(p);
    if (what === null) return null;
    // A stat cannot tell a link: the gate checks where the entry really is, before its kind counts.
    if (this.gate && !this.gate.admits(p)) return OUTSIDE;
    return kind === "any" || (kind === "directory") === (what === "directory") ? p : null;
  }

  /**
   * The entries of `dir` (null when it is not a folder); a pass-through to the lister's cache. Not
   * counted in {@link lookups}: its users (project detection, build scripts) put what they found into
   * the workspace configuration, which a stored link compares whole.
   */
  entries(dir: string): readonly DirEntry[] | null {
    return this.lister.list(dir);
  }

  /**
   * The questions asked of folder listings so far (folder, then the names), each folder with its names
   * sorted, the folders sorted: what every answer so far depended on.
   */
  lookups(): readonly (readonly [dir: string, names: readonly string[]])[] {
    const out = [...this.asked].map(([dir, names]) => [dir, [...names].sort()] as const);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  /**
   * The answers to `lookups` now, as one comparable text (asked of the lister, so folders it has
   * cached answer from the cache): a folder's existence, or the entries matching a name ignoring case.
   */
  lookupAnswers(lookups: readonly (readonly [dir: string, names: readonly string[]])[]): string {
    const parts: string[] = [];
    for (const [dir, names] of lookups) {
      const entries = this.lister.list(dir);
      parts.push(`\u0000${dir}`);
      if (entries === null) {
        parts.push("\u0001-");
        continue;
      }
      for (const name of names) {
        const hits = name === IS_FOLDER ? [] : (byLowerName(entries).get(name) ?? []);
        parts.push(`\u0001${name}\u0002${hits.map((e) => `${e.name}${e.isDirectory ? "/" : ""}`).join("\u0003")}`);
      }
    }
    return parts.join("");
  }

  private ask(dir: string, name: string): void {
    let names = this.asked.get(dir);
    if (!names) this.asked.set(dir, names = new Set());
    names.add(name);
  }

  /**
   * Forgets cached answers. With a path, also tells the lister (when it caches) that this path changed.
   */
  invalidate(path?: string): void {
    this.results.clear();
    if (path !== undefined) this.lister.invalidate?.(path);
  }

  /**
   * Starts a new record of {@link lookups} (and forgets cached answers, so every later answer asks
   * again and is recorded; the listings stay cached). A workspace calls it when it starts: what the
   * configuration looked up before is in the configuration itself.
   */
  restartLookups(): void {
    this.results.clear();
    this.asked.clear();
  }

  private walk(cur: string, segs: readonly string[], i: number, kind: EntryKind): Lookup {
    for (; i < segs.length && segs[i] === ".."; i++) cur = native.dirname(cur);
    if (i === segs.length) {
      // Only reached for the base itself or after a trailing `..`; both are folders when they exist.
      this.ask(cur, IS_FOLDER);
      if (this.lister.list(cur) !== null) return kind === "file" ? null : cur;
      return kind !== "directory" && this.existsAsFile(cur) ? cur : null;
    }
    const last = i === segs.length - 1;
    this.ask(cur, segs[i].toLowerCase());
    const entries = this.lister.list(cur);
    if (!entries) {
      const exact = this.exactChild(cur, segs[i], last ? kind : "directory");
      return exact === null || exact === OUTSIDE || last ? exact : this.walk(exact, segs, i + 1, kind);
    }
    // Only the final segment may be a file; anything we step through (or back out of) is a folder.
    // Several candidates only on case-sensitive file systems; try each so a later one can still match.
    // A link the gate refuses answers OUTSIDE whatever its target is: its kind is not even looked at.
    const want = last ? kind : "directory";
    for (const e of matchingEntries(entries, segs[i])) {
      const next = native.join(cur, e.name);
      if (e.isLink && this.gate && !this.gate.admits(next)) return OUTSIDE;
      if (!fits(e, want)) continue;
      if (last) return next; // the parent's listing already told us what it is: no listing of the target
      const hit = this.walk(next, segs, i + 1, kind);
      if (hit !== null) return hit;
    }
    return null;
  }

  /** Whether `p` is a file, asked of its parent's listing (exact name, since `p` is already resolved). */
  private existsAsFile(p: string): boolean {
    const parent = native.dirname(p);
    if (parent === p) return false;
    const entries = this.lister.list(parent);
    const name = native.basename(p);
    this.ask(parent, name.toLowerCase());
    if (!entries) return typeof this.exactChild(parent, name, "file") === "string";
    return entries.some((e) => e.name === name && !e.isDirectory);
  }
}
