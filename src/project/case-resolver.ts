/**
 * Case-insensitive path resolution over a {@link DirectoryLister}, returning real on-disk casing.
 *
 * Mods are written on Windows, where `DATA:GlobalData/Weapon.xml` finds `globaldata/weapon.xml`. On a
 * case-sensitive file system we get the same answer by matching each segment against the listing of
 * its parent folder (one listing per folder, shared through the lister's cache) instead of guessing
 * with stats.
 */
import type { DirectoryLister, DirEntry } from "./fs-port.ts";
import { native } from "./paths.ts";

/** What the last segment of a lookup must be. */
export type EntryKind = "any" | "file" | "directory";

function fits(e: DirEntry, kind: EntryKind): boolean {
  return kind === "any" || (kind === "directory") === e.isDirectory;
}

/**
 * The entries of `entries` named `name` ignoring case, in preference order: the exact-case name first
 * (folders differing only by case can coexist on Linux), then the rest in listing order.
 */
export function matchingEntries(entries: readonly DirEntry[], name: string, kind: EntryKind = "any"): DirEntry[] {
  const same = byLowerName(entries).get(name.toLowerCase());
  if (!same) return [];
  const out: DirEntry[] = [];
  for (const e of same) {
    if (!fits(e, kind)) continue;
    if (e.name === name) out.unshift(e);
    else out.push(e);
  }
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
    if (!entries) return null;
    const m = matchingEntries(entries, name, kind)[0];
    return m ? native.join(dir, m.name) : null;
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
    const entries = this.lister.list(cur);
    if (!entries) return null;
    const last = i === segs.length - 1;
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
    return entries?.some((e) => e.name === name && !e.isDirectory) ?? false;
  }
}
