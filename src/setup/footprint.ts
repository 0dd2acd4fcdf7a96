/**
 * What setup leaves on disk beyond the files the receipt names: the folders it had to create and the
 * cache files the index build wrote into ra3's home. Both are recorded as receipt log entries
 * (`dir.create`, `cache.write`), so `uninstall` can take them away again and leave the user's home as
 * it was, apart from the receipt itself. Only entries after the last `uninstall` count: a folder
 * removed then and re-created by the user since is the user's.
 */
import type { FileSystemPort } from "../disk/port.ts";
import type { InstallReceipt } from "./receipt.ts";

export const LOG_DIR_CREATE = "dir.create";
export const LOG_CACHE_WRITE = "cache.write";
export const LOG_SETUP = "setup";
/** A mod setup was run for (doctor checks the snapshot of each). */
export const LOG_PROJECT = "project";
export const LOG_UNINSTALL = "uninstall";

/**
 * The folders from `dir` upward that do not exist yet (deepest first): what writing into `dir` will create.
 * @example missingAncestors(fs, "/home/u/.codex") // ["/home/u/.codex"] when only /home/u exists
 */
export function missingAncestors(fs: FileSystemPort, dir: string): string[] {
  const missing: string[] = [];
  let cur = fs.path.normalize(dir);
  while (!(fs.exists(cur))) {
    missing.push(cur);
    const up = fs.path.dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return missing;
}

/** Every file and folder below `root` (not `root` itself), sorted; empty when `root` does not exist. */
export function listTree(fs: FileSystemPort, root: string): { readonly files: string[]; readonly dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = (dir: string): void => {
    for (const name of (fs.listDir(dir)) ?? []) {
      const p = fs.path.join(dir, name);
      const st = fs.stat(p);
      if (st?.kind === "directory") {
        dirs.push(p);
        walk(p);
      } else if (st) files.push(p);
    }
  };
  walk(root);
  return { files: files.sort(), dirs: dirs.sort() };
}

/** The log entries written since the last `uninstall` entry (all of them when there is none). */
function logSinceUninstall(receipt: InstallReceipt): InstallReceipt["log"] {
  let start = 0;
  receipt.log.forEach((l, i) => {
    if (l.action === LOG_UNINSTALL) start = i + 1;
  });
  return receipt.log.slice(start);
}

/** The paths of log entries with `action` since the last uninstall, without duplicates, in log order. */
export function loggedPaths(receipt: InstallReceipt, action: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const l of logSinceUninstall(receipt)) {
    if (l.action !== action || seen.has(l.detail)) continue;
    seen.add(l.detail);
    out.push(l.detail);
  }
  return out;
}

/** Paths ordered deepest first, so a folder is removed after the folders inside it. */
export function deepestFirst(paths: readonly string[]): string[] {
  const depth = (p: string) => p.split(/[\\/]+/).filter(Boolean).length;
  return [...paths].sort((a, b) => depth(b) - depth(a) || (a < b ? 1 : a > b ? -1 : 0));
}
