/**
 * The directory lister port: the only way the project model learns what exists on disk.
 *
 * Everything in `src/project/` that asks "does this file exist?" does it by listing the parent folder
 * once and comparing names, never by a stat per guess. That keeps lookups case-insensitive on every OS
 * (mods are authored on Windows) and lets the index core run against an in-memory tree in tests
 * (`test/project/memory-lister.ts`).
 */
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { native } from "./paths.ts";

/** One name in a folder listing. */
export interface DirEntry {
  readonly name: string;
  /** For a link: whether its target is a folder (a dangling link is not). */
  readonly isDirectory: boolean;
  /** A symbolic link or a junction: where it leads is asked of {@link DirectoryLister.realPath}. */
  readonly isLink?: boolean;
}

/** Lists folders. `null` means "not a directory" (missing, a file, or unreadable). */
export interface DirectoryLister {
  list(dir: string): readonly DirEntry[] | null;
  /** Optional: forget what is cached about `path` (a changed folder). */
  invalidate?(path: string): void;
  /**
   * Optional: `dir` is a folder that exists but cannot be listed (no read permission: Unix mode 711, a
   * Windows ACL), so its children can only be found by their exact names ({@link probe}).
   */
  unlistable?(dir: string): boolean;
  /** Optional: what `path` is, asked directly (a stat), for the children of an unlistable folder. */
  probe?(path: string): "file" | "directory" | null;
  /**
   * Optional: keep a listing of `dir` that was read elsewhere (the project scan reads every folder), so
   * the include walk's case resolution does not read it again. A folder already cached is left as it is.
   */
  prime?(dir: string, dirents: readonly Dirent[]): void;
  /**
   * Optional: `path` with every link resolved (a physical path), or null when it does not lead to
   * anything (missing, a dangling link, a loop). Listers that know no links leave it out. Not cached:
   * the confinement check asks it at the moment it matters (`confinement.ts`).
   */
  realPath?(path: string): string | null;
}

/** Counters for benchmarks: `listings` = real directory reads, `hits` = answers served from the cache. */
export interface ListerStats {
  readonly listings: number;
  readonly hits: number;
  readonly cached: number;
}

function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Strips trailing separators (but not from a root like `/` or `C:\`) so one folder has one cache key. */
export function folderKey(dir: string): string {
  const root = native.parse(dir).root;
  let s = dir;
  while (s.length > root.length && (s.endsWith("/") || s.endsWith("\\"))) s = s.slice(0, -1);
  return s;
}

/**
 * The real lister: one `readdirSync(withFileTypes)` per folder, cached until {@link invalidate}.
 * Entries are sorted by name so every caller sees a deterministic order.
 */
export class NodeDirectoryLister implements DirectoryLister {
  private readonly cache = new Map<string, readonly DirEntry[] | null>();
  /** Folders whose listing failed for lack of permission (they exist). */
  private readonly denied = new Set<string>();
  private listings = 0;
  private hits = 0;

  /** The sorted entries of `dir`, or null when it is not a readable directory. */
  list(dir: string): readonly DirEntry[] | null {
    const key = folderKey(dir);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.hits++;
      return cached;
    }
    this.listings++;
    const entries = readEntries(key);
    if (entries === DENIED) {
      this.denied.add(key);
      this.cache.set(key, null);
      return null;
    }
    this.cache.set(key, entries);
    return entries;
  }

  /** True when `dir` exists but its listing was refused (EACCES/EPERM). */
  unlistable(dir: string): boolean {
    const key = folderKey(dir);
    if (!this.cache.has(key)) this.list(key);
    return this.denied.has(key);
  }

  /** A direct stat of `path`: a file, a folder, or null when it is missing or cannot be reached. */
  probe(path: string): "file" | "directory" | null {
    try {
      const st = statSync(path);
      return st.isDirectory() ? "directory" : st.isFile() ? "file" : null;
    } catch {
      return null;
    }
  }

  /** Caches `dir`'s listing read by someone else, unless one is cached already. */
  prime(dir: string, dirents: readonly Dirent[]): void {
    const key = folderKey(dir);
    if (!this.cache.has(key)) this.cache.set(key, entriesOf(key, dirents));
  }

  /** `path` with every link resolved, or null when that leads nowhere (missing, dangling, a loop). */
  realPath(path: string): string | null {
    try {
      return realpathSync(path);
    } catch {
      return null;
    }
  }

  /**
   * Forgets `path`, every cached listing below it, and every folder above it (a file created in a new
   * folder is also a new entry of that folder's parent, and so on up), so a created or deleted file or
   * folder is seen on the next lookup.
   */
  invalidate(path: string): void {
    const key = folderKey(path);
    this.cache.delete(key);
    this.denied.delete(key);
    for (let up = key, parent = native.dirname(up); parent !== up; up = parent, parent = native.dirname(up)) {
      this.cache.delete(parent);
      this.denied.delete(parent);
    }
    const prefix = key.endsWith(native.sep) ? key : key + native.sep;
    for (const k of this.cache.keys()) if (k.startsWith(prefix)) this.cache.delete(k);
    for (const k of this.denied) if (k.startsWith(prefix)) this.denied.delete(k);
  }

  /** Forgets every cached listing. */
  clear(): void {
    this.cache.clear();
    this.denied.clear();
  }

  /** Cache counters since construction (or the last {@link resetStats}). */
  stats(): ListerStats {
    return { listings: this.listings, hits: this.hits, cached: this.cache.size };
  }

  /** Zeroes the counters (the cache is kept). */
  resetStats(): void {
    this.listings = 0;
    this.hits = 0;
  }
}

/** A folder that exists but refused to be listed. */
const DENIED = Symbol("denied");

function readEntries(dir: string): readonly DirEntry[] | null | typeof DENIED {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "EACCES" || code === "EPERM" ? DENIED : null;
  }
  return entriesOf(dir, dirents);
}

/**
 * The entry of a link. A link's Dirent says nothing about its target: one stat per link (rare in mods)
 * settles whether it is a folder, taken only when someone asks. The confinement refuses a link leading
 * outside before asking (`CaseResolver`), so a listing (the scan primes every folder's) never stats an
 * outside target.
 */
function linkEntry(name: string, path: string): DirEntry {
  let isDirectory: boolean | undefined;
  return {
    name,
    isLink: true,
    get isDirectory(): boolean {
      if (isDirectory === undefined) {
        try {
          isDirectory = statSync(path).isDirectory();
        } catch {
          isDirectory = false; // dangling link: listed as a file that cannot be read
        }
      }
      return isDirectory;
    },
  };
}

/** The sorted, frozen entries of `dir` from its `readdirSync(withFileTypes)` answer. */
function entriesOf(dir: string, dirents: readonly Dirent[]): readonly DirEntry[] {
  const out: DirEntry[] = [];
  for (const d of dirents) {
    if (d.isSymbolicLink()) out.push(linkEntry(d.name, native.join(dir, d.name)));
    else out.push({ name: d.name, isDirectory: d.isDirectory() });
  }
  out.sort(byName);
  return Object.freeze(out);
}
