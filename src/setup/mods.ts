/**
 * Which folders are mods, seen through setup's file-system port, with the project model's own rules
 * (`projectMarkerOf`, `findProjectsBelow`: the same markers and container depth the MCP server uses to
 * decide whether it serves one mod or a folder of mods), and the folder one user-scope entry serves when
 * setup runs for a second mod.
 */
import type { FileSystemPort } from "../disk/port.ts";
import type { DirectoryLister, DirEntry } from "../project/fs-port.ts";
import { findProjectsBelow, projectMarkerOf } from "../project/detect.ts";
import { isInside, type PathFlavour, pathKey, samePath } from "../project/paths.ts";

/** A {@link DirectoryLister} over the port (unreadable folders list as missing, as the real lister does). */
function portLister(fs: FileSystemPort): DirectoryLister {
  return {
    list(dir: string): readonly DirEntry[] | null {
      let names: string[] | null;
      try {
        names = fs.listDir(dir);
      } catch {
        return null;
      }
      if (names === null) return null;
      return names.map((name) => {
        let isDirectory = false;
        try {
          isDirectory = fs.stat(fs.path.join(dir, name))?.kind === "directory";
        } catch {
          isDirectory = false;
        }
        return { name, isDirectory };
      });
    },
  };
}

/** True when `dir` is a mod folder (Data/Mod.xml, a .babproj, map metadata). */
function isModFolder(fs: FileSystemPort, dir: string): boolean {
  return projectMarkerOf(dir, portLister(fs)) !== null;
}

/** The mods the server finds in `dir`: `[dir]` for a mod, the mods below it for a container, else `[]`. */
export function modsServedBy(fs: FileSystemPort, dir: string): string[] {
  if (isModFolder(fs, dir)) return [dir];
  return findProjectsBelow(dir, portLister(fs)).map((p) => fs.path.normalize(p.dir));
}

/** How a user-scope entry that serves `current` is brought to also serve `wanted`. */
export type ServedFolder =
  /** No entry yet: it serves the mod. */
  | { readonly kind: "new"; readonly dir: string; readonly mods: readonly string[] }
  /** The entry already serves exactly this mod. */
  | { readonly kind: "same"; readonly dir: string; readonly mods: readonly string[] }
  /** The entry serves a folder of mods that already holds this one. */
  | { readonly kind: "inside"; readonly dir: string; readonly mods: readonly string[] }
  /** The entry moves up to the folder holding both (the server answers for every mod in it). */
  | { readonly kind: "container"; readonly dir: string; readonly previous: string; readonly mods: readonly string[] }
  /** No folder holds both that ra3 would serve (different drives, only a root or the home in common). */
  | { readonly kind: "separate"; readonly dir: string; readonly previous: string };

/** The deepest folder containing both paths, or null when they share only a root. */
function commonFolder(a: string, b: string, flavour: PathFlavour): string | null {
  let cur = flavour.normalize(a);
  for (;;) {
    if (isInside(b, cur)) return flavour.parse(cur).root === cur ? null : cur;
    const up = flavour.dirname(cur);
    if (up === cur) return null;
    cur = up;
  }
}

/**
 * The folder a user-scope entry should serve so that `wanted` (the mod setup runs for) is served,
 * given that it serves `current` now (null: there is no entry of ours yet). The server answers for
 * every mod below a container folder (see src/mcp/projects.ts), so a second mod next to the first moves
 * the entry up to their common folder instead of silently repointing it.
 * @example servedFolder(fs, "/mods/A", "/mods/B", "/home/ann") // { kind: "container", dir: "/mods", … }
 */
export function servedFolder(
  fs: FileSystemPort,
  current: string | null,
  wanted: string,
  userHome: string,
): ServedFolder {
  if (current === null) return { kind: "new", dir: wanted, mods: [wanted] };
  if (samePath(current, wanted)) return { kind: "same", dir: current, mods: [wanted] };
  const servedNow = modsServedBy(fs, current);
  if (!isModFolder(fs, current) && servedNow.some((m) => samePath(m, wanted))) {
    return { kind: "inside", dir: current, mods: servedNow };
  }
  const common = commonFolder(current, wanted, fs.path);
  if (common !== null && !samePath(common, userHome)) {
    const mods = modsServedBy(fs, common);
    const keys = new Set(mods.map(pathKey));
    if (keys.has(pathKey(wanted)) && servedNow.every((m) => keys.has(pathKey(m))) && mods.length > 1) {
      return { kind: "container", dir: common, previous: current, mods };
    }
  }
  return { kind: "separate", dir: wanted, previous: current };
}
