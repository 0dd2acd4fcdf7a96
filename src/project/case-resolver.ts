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
 */
import type { DirectoryLister, DirEntry } from "./fs-port.ts";
import { native } from "./paths.ts";

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

function splitRelative(relative: string): string[] {
  return relative.split(/[\\/]+/).filter((s) => s.length > 0 && s !== ".");
}

/** Resolves paths case-insensitively and caches the answers until {@link CaseResolver.invalidate}. */
export class CaseResolver {
  private readonly results = new Map<string, string | null>();
  /** Folders met on the way that could not be listed (their children found by exact name only). */
  readonly unlistableSeen = new Set<string>();

  constructor(readonly lister: DirectoryLister) {}

  /**
   * `relative` (either separator, `.`/`..` allowed) below the folder `base`, with each segment matched
   * case-insensitively; the real casing of the hit, or null. `base` itself is used as given.
   * @example resolve("/sdk", "sagexml/STATIC.xml", "file") // "/sdk/SageXml/Static.xml"
   */
  resolve(base: string, relative: string, kind: EntryKind = "any"): string | null {
    const key = `${kind}\0${base}\0${relative}`;
    const cached = this.results.get(key);
    if (cached !== undefined) return cached;
    const hit = this.walk(base, splitRelative(relative), 0, kind);
    this.results.set(key, hit);
    return hit;
  }

  /** An absolute path resolved case-insensitively from its root; null when missing or not absolute. */
  resolvePath(path: string, kind: EntryKind = "any"): string | null {
    const root = native.parse(path).root;
    if (root === "") return null;
    return this.resolve(root, path.slice(root.length), kind);
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
   * The real path of the child of `dir` called `name` ignoring case (exact case preferred), or null.
   * @example childNamed("/m/X", "data", "directory") // "/m/X/Data"
   */
  childNamed(dir: string, name: string, kind: EntryKind = "any"): string | null {
    const entries = this.lister.list(dir);
    if (!entries) return this.exactChild(dir, name, kind);
    const m = matchingEntries(entries, name, kind)[0];
    return m ? native.join(dir, m.name) : null;
  }

  /**
   * In an unlistable folder, `name` exactly as written when a direct stat finds it (of `kind`), else
   * null; null for any other folder without a listing.
   */
  private exactChild(dir: string, name: string, kind: EntryKind): string | null {
    if (!this.lister.unlistable?.(dir) || !this.lister.probe) return null;
    this.unlistableSeen.add(dir);
    const p = native.join(dir, name);
    const what = this.lister.probe(p);
    if (what === null) return null;
    return kind === "any" || (kind === "directory") === (what === "directory") ? p : null;
  }

  /** The entries of `dir` (null when it is not a folder); a pass-through to the lister's cache. */
  entries(dir: string): readonly DirEntry[] | null {
    return this.lister.list(dir);
  }

  /**
   * Forgets cached answers. With a path, also tells the lister (when it caches) that this path changed.
   */
  invalidate(path?: string): void {
    this.results.clear();
    if (path !== undefined) this.lister.invalidate?.(path);
  }

  private walk(cur: string, segs: readonly string[], i: number, kind: EntryKind): string | null {
    for (; i < segs.length && segs[i] === ".."; i++) cur = native.dirname(cur);
    if (i === segs.length) {
      // Only reached for the base itself or after a trailing `..`; both are folders when they exist.
      if (this.lister.list(cur) !== null) return kind === "file" ? null : cur;
      return kind !== "directory" && this.existsAsFile(cur) ? cur : null;
    }
    const last = i === segs.length - 1;
    const entries = this.lister.list(cur);
    if (!entries) {
      const exact = this.exactChild(cur, segs[i], last ? kind : "directory");
      return exact === null || last ? exact : this.walk(exact, segs, i + 1, kind);
    }
    // Only the final segment may be a file; anything we step through (or back out of) is a folder.
    // Several candidates only on case-sensitive file systems; try each so a later one can still match.
    for (const e of matchingEntries(entries, segs[i], last ? kind : "directory")) {
      const next = native.join(cur, e.name);
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
    if (!entries) return this.exactChild(parent, name, "file") !== null;
    return entries.some((e) => e.name === name && !e.isDirectory);
  }
}
