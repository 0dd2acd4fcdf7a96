/** An in-memory {@link DirectoryLister} for tests of the project model and the index. */
import { type DirectoryLister, type DirEntry, folderKey } from "../../src/project/fs-port.ts";
import { native } from "../../src/project/paths.ts";

function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * An in-memory tree built from absolute file paths; folders are implied by the paths (plus any given
 * in `dirs`, for empty folders). For tests of code that takes a {@link DirectoryLister}.
 * @example new MemoryDirectoryLister(["/m/X/Data/Mod.xml"]).list("/m/X") // [{ name: "Data", isDirectory: true }]
 */
export class MemoryDirectoryLister implements DirectoryLister {
  private readonly children = new Map<string, Map<string, boolean>>();
  private readonly locked = new Set<string>();
  private listCalls = 0;

  constructor(files: readonly string[] = [], dirs: readonly string[] = []) {
    for (const d of dirs) this.addDirectory(d);
    for (const f of files) this.addFile(f);
  }

  /** Adds a file (and its folders). */
  addFile(path: string): void {
    const p = folderKey(native.resolve(path));
    const parent = native.dirname(p);
    this.addDirectory(parent);
    this.children.get(parent)!.set(native.basename(p), false);
  }

  /** Adds a folder (and its ancestors). */
  addDirectory(path: string): void {
    let cur = folderKey(native.resolve(path));
    for (;;) {
      if (!this.children.has(cur)) this.children.set(cur, new Map());
      const parent = native.dirname(cur);
      if (parent === cur) return;
      if (!this.children.has(parent)) this.children.set(parent, new Map());
      this.children.get(parent)!.set(native.basename(cur), true);
      cur = parent;
    }
  }

  /** Removes a file or a whole folder. */
  remove(path: string): void {
    const p = folderKey(native.resolve(path));
    this.children.get(native.dirname(p))?.delete(native.basename(p));
    const prefix = p.endsWith(native.sep) ? p : p + native.sep;
    for (const k of [...this.children.keys()]) if (k === p || k.startsWith(prefix)) this.children.delete(k);
  }

  /** Makes `dir` unlistable (like mode 711): {@link list} refuses it, {@link probe} still finds its children. */
  lock(dir: string): void {
    this.locked.add(folderKey(native.resolve(dir)));
  }

  /** The sorted entries of `dir`, or null when it is not a folder of the tree (or is locked). */
  list(dir: string): readonly DirEntry[] | null {
    this.listCalls++;
    const key = folderKey(dir);
    const m = this.children.get(key);
    if (!m || this.locked.has(key)) return null;
    return [...m].map(([name, isDirectory]) => ({ name, isDirectory })).sort(byName);
  }

  /** True for a locked folder of the tree. */
  unlistable(dir: string): boolean {
    const key = folderKey(dir);
    return this.locked.has(key) && this.children.has(key);
  }

  /** What `path` is in the tree (exact name), locked folders notwithstanding. */
  probe(path: string): "file" | "directory" | null {
    const p = folderKey(path);
    const parent = this.children.get(native.dirname(p));
    const isDir = parent?.get(native.basename(p));
    return isDir === undefined ? null : isDir ? "directory" : "file";
  }

  /** How many times {@link list} was called (tests use it to prove caching upstream). */
  get calls(): number {
    return this.listCalls;
  }
}
