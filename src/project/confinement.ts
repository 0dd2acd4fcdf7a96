/**
 * The one rule for what ra3 reads (docs/builder-rules.md, "What ra3 reads"): a path is read, listed or
 * stat'ed only when it lies inside an allowed root ({@link allowedRoots}: the project, the SDK, the
 * mod's parent and grandparent) — lexically, after `..` — and, when a link or junction inside a root
 * is on the way, the link's real target lies inside the real path of an allowed root too. A broken
 * link is treated as one that leaves: whether its target exists outside cannot be told apart without
 * looking, and looking is what the rule forbids.
 *
 * Every reader asks this object: the case-insensitive lookups of includes, manifests and entry points
 * (as the {@link PathGate} of a {@link CaseResolver}), the project scan (links it meets), the files a
 * watcher names, the source text shown by `get_definition` and `ra3://file/…`, build scripts. Links are
 * found through the {@link DirectoryLister} (`isLink`, `realPath`), so in-memory listers without links
 * check the lexical rule only.
 */
import type { PathGate } from "./case-resolver.ts";
import type { DirectoryLister } from "./fs-port.ts";
import { allowedRoots, type DisplayRoots, isInside, keyInside, lexicalKey, pathKey } from "./paths.ts";

/** The allowed roots of one project and the answers about links below them. */
export class Confinement implements PathGate {
  /** The allowed roots as the user reached them (logical paths). */
  readonly roots: readonly string[];
  /** The roots' keys: every lookup compares against them (`insideRoots` without recomputing them). */
  private readonly keys: readonly string[];
  private realRoots: readonly string[] | null = null;
  /** Answers of {@link admits}, by the path as asked (lookups ask the same strings again and again). */
  private readonly admitted = new Map<string, boolean>();

  constructor(roots: DisplayRoots, private readonly lister: DirectoryLister) {
    this.roots = allowedRoots(roots);
    this.keys = this.roots.map(pathKey);
  }

  /** True when the absolute `path` (after `.`/`..`) lies inside an allowed root; nothing is asked of the disk. */
  contains(path: string): boolean {
    const key = lexicalKey(path);
    return key !== null && this.keys.some((r) => keyInside(key, r));
  }

  /**
   * True when the existing entry `path` (a link met on the way, a base folder, an entry found by a
   * direct stat) may be entered: it is a root or a folder above one (links there are the user's way to
   * the project, which must keep working), or it lies inside a root and its real path inside the real
   * path of an allowed root. A path outside every root is not admitted. Cached until {@link invalidate}.
   */
  admits(path: string): boolean {
    const known = this.admitted.get(path);
    if (known !== undefined) return known;
    const key = pathKey(path);
    const answer = this.keys.some((r) => keyInside(r, key)) ||
      (this.keys.some((r) => keyInside(key, r)) && this.realInside(path));
    this.admitted.set(path, answer);
    return answer;
  }

  /**
   * True when `path` may be read now: inside an allowed root, and its real path (asked afresh, so a
   * file replaced by a link since it was indexed is caught) inside an allowed root's real path.
   */
  admitsNow(path: string): boolean {
    return this.contains(path) && this.realInside(path);
  }

  /** Forgets what was learnt about links (files were created, deleted or replaced). */
  invalidate(): void {
    this.admitted.clear();
    this.realRoots = null;
  }

  private realInside(path: string): boolean {
    if (!this.lister.realPath) return true; // a lister without links: the lexical rule is the whole rule
    const real = this.lister.realPath(path);
    if (real === null) return false;
    this.realRoots ??= this.roots.map((r) => this.lister.realPath!(r) ?? r);
    return this.realRoots.some((r) => isInside(real, r));
  }
}
