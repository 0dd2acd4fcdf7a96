/**
 * The driver's file inventory: a recursive walk of a project root returning every file the indexer
 * cares about with its stat stamp, and re-stat of known files for warm-start validation.
 */
import { type Dirent, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { baseName, isInside, native, pathKey } from "./paths.ts";
import { runSteps, runStepsWithPauses } from "../steps.ts";

/** What a scanned file is, by extension; `other-text` is any other file (e.g. a sniffed-XML `.dat`). */
export type ScannedKind = "xml" | "w3x" | "str" | "babproj" | "manifest" | "other-text";

/** One file with its stamp. */
export interface ScannedFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly kind: ScannedKind;
}

/** Lower-cased folder names never entered (dot-folders are skipped as well). */
const SCAN_SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  ".vs",
  ".vscode",
  "dist",
  "out",
  "bin",
  "obj",
]);

const KIND_BY_EXTENSION: ReadonlyMap<string, ScannedKind> = new Map([
  [".xml", "xml"],
  [".w3x", "w3x"],
  [".str", "str"],
  [".babproj", "babproj"],
  [".manifest", "manifest"],
]);

/**
 * The kind of a file the scan indexes, from its extension (any case; `paths.ts` reads it), or null for a
 * file it does not list.
 * @example fileKindOf("Art/AU/AUTank.W3X") // "w3x"
 */
export function fileKindOf(path: string): ScannedKind | null {
  return kindOfName(baseName(path));
}

/**
 * {@link fileKindOf} of a listed entry's bare name, as `extensionOf` reads it (the text from its last dot,
 * not at its start, in lower case) without the path parsing: the scan asks it for every entry it lists.
 */
function kindOfName(name: string): ScannedKind | null {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? null : KIND_BY_EXTENSION.get(name.slice(dot).toLowerCase()) ?? null;
}

export interface ScanOptions {
  /** Extra lower-cased folder names to skip. */
  readonly skipDirs?: readonly string[];
  /** Called for a folder or file that could not be read (the walk goes on). */
  readonly onError?: (path: string, error: Error) => void;
  /** Called with each folder's listing as read (a directory lister can keep it: `DirectoryLister.prime`). */
  readonly onListing?: (dir: string, dirents: readonly Dirent[]) => void;
  /**
   * Whether a link (or junction) met in the tree may be followed (`Confinement.admits`); one refused is
   * neither stat'ed nor entered, so nothing about its target shows, and is passed to `onRefusedLink`
   * unless its name is skipped anyway. Without it every link is followed (tests of trusted trees).
   */
  readonly admitLink?: (path: string) => boolean;
  readonly onRefusedLink?: (path: string) => void;
}

function byPath(a: ScannedFile, b: ScannedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function stampOf(path: string, st: Stats, kind: ScannedKind): ScannedFile {
  return { path, size: st.size, mtimeMs: st.mtimeMs, kind };
}

/** `dir` joined with a listed entry's `name` (the listing's names are never `.`, `..` or separated). */
function childPath(dir: string, name: string): string {
  return dir.endsWith(native.sep) ? dir + name : dir + native.sep + name;
}

/**
 * Every `.xml`, `.w3x`, `.str`, `.babproj` and `.manifest` file below `root`, sorted by path, with
 * size and mtime. Skips dot-folders and {@link SCAN_SKIPPED_DIRS}. Symlinked folders are followed
 * once each, and never when they point back into the tree (no loops, no duplicates); a link that
 * {@link ScanOptions.admitLink} refuses is not followed at all.
 * Throws when `root` is not a readable folder (an environment error).
 * @example scanProjectFiles("/mods/X").map(f => f.kind) // ["babproj", "xml", …]
 */
export function scanProjectFiles(root: string, opts: ScanOptions = {}): ScannedFile[] {
  return runSteps(scanSteps(root, opts));
}

/**
 * {@link scanProjectFiles} calling `pause` after each folder, so a long-running process answers other
 * work between folders (`pause` decides whether to yield).
 */
export async function scanProjectFilesInSlices(
  root: string,
  pause: () => Promise<void>,
  opts: ScanOptions = {},
): Promise<ScannedFile[]> {
  return runStepsWithPauses(scanSteps(root, opts), pause);
}

/** The walk of {@link scanProjectFiles}, yielding after each folder; returns the sorted files. */
function* scanSteps(root: string, opts: ScanOptions): Generator<void, ScannedFile[], void> {
  const start = native.resolve(root);
  let rootReal: string;
  try {
    if (!statSync(start).isDirectory()) throw new Error(`cannot scan ${start}: not a directory`);
    rootReal = realpathSync(start);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ENOENT") throw new Error(`cannot scan ${start}: no such directory`);
    if (err.code) throw new Error(`cannot scan ${start}: ${err.code}`);
    throw err;
  }
  const skip = new Set([...SCAN_SKIPPED_DIRS, ...(opts.skipDirs ?? []).map((s) => s.toLowerCase())]);
  const followed: string[] = [rootReal];
  const out: ScannedFile[] = [];
  const report = (p: string, e: unknown): void => opts.onError?.(p, e instanceof Error ? e : new Error(String(e)));

  const stack = [start];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
      opts.onListing?.(dir, entries);
      // Sorted so that which of two links to the same folder gets walked does not depend on the FS.
      entries = [...entries].sort((
        a,
        b,
      ) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (e) {
      report(dir, e);
      continue;
    }
    for (const e of entries) {
      const p = childPath(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith(".") && !skip.has(e.name.toLowerCase())) stack.push(p);
        continue;
      }
      const kind = kindOfName(e.name);
      const wanted = kind !== null;
      if (e.isSymbolicLink()) {
        if (opts.admitLink && !opts.admitLink(p)) {
          if (!e.name.startsWith(".") && !skip.has(e.name.toLowerCase())) opts.onRefusedLink?.(p);
          continue;
        }
        let st: Stats;
        try {
          st = statSync(p);
        } catch (err) {
          if (wanted) report(p, err);
          continue;
        }
        if (st.isDirectory()) {
          if (e.name.startsWith(".") || skip.has(e.name.toLowerCase())) continue;
          let real: string;
          try {
            real = realpathSync(p);
          } catch (err) {
            report(p, err);
            continue;
          }
          // A link into a folder we already walk (or will) would loop or duplicate files.
          if (followed.some((f) => isInside(real, f))) continue;
          followed.push(real);
          stack.push(p);
        } else if (wanted && st.isFile()) out.push(stampOf(p, st, kind));
        continue;
      }
      if (!wanted || !e.isFile()) continue;
      try {
        out.push(stampOf(p, statSync(p), kind));
      } catch (err) {
        report(p, err);
      }
    }
    yield;
  }
  return out.sort(byPath);
}

/** Files whose paths differ only in letter case: the one kept (first in sorted order) and the others. */
export interface CaseCollision {
  readonly kept: string;
  readonly dropped: readonly string[];
}

/**
 * `files` (sorted by path) without the paths that differ from an earlier one only in letter case — on
 * Windows they would be one file — and the groups found. Case-insensitive lookups try names in the
 * same sorted order, so every include of any spelling reaches the file kept here.
 * @example withoutCaseCollisions(scan).collisions // [{ kept: "/m/X/Data/Units.xml", dropped: ["/m/X/Data/units.xml"] }]
 */
export function withoutCaseCollisions(
  files: readonly ScannedFile[],
): { files: ScannedFile[]; collisions: CaseCollision[] } {
  const first = new Map<string, { kept: string; dropped: string[] }>();
  const kept: ScannedFile[] = [];
  for (const f of files) {
    const key = pathKey(f.path);
    const hit = first.get(key);
    if (hit) hit.dropped.push(f.path);
    else {
      first.set(key, { kept: f.path, dropped: [] });
      kept.push(f);
    }
  }
  return { files: kept, collisions: [...first.values()].filter((c) => c.dropped.length > 0) };
}
