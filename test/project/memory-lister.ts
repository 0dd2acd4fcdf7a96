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

  /** The sorted entries of `dir`, or null when it is not a folder of the tree. */
  list(dir: string): readonly DirEntry[] | null {
    this.listCalls++;
    const m = this.children.get(folderKey(dir));
    if (!m) return null;
    return [...m].map(([name, isDirectory]) => ({ name, isDirectory })).sort(byName);
  }

  /** How many times {@link list} was called (tests use it to prove caching upstream). */
  get calls(): number {
    return this.listCalls;
  }
}
