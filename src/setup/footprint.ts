/**
 * What setup leaves on disk beyond the files the receipt names: the folders it had to create and the
 * cache files the index build wrote into ra3's home. Both are recorded as receipt log entries
 * (`dir.create`, `cache.write`), so `uninstall` can take them away again and leave the user's home as
 * it was, apart from the receipt itself. Only entries after the last `uninstall` count: a folder
 * removed then and re-created by the user since is the user's.
 */
import * as fsp from "node:fs/promises";
import type { FileSystemPort } from "./platform.ts";
import type { InstallReceipt } from "./receipt.ts";

export const LOG_DIR_CREATE = "dir.create";
export const LOG_CACHE_WRITE = "cache.write";
export const LOG_SETUP = "setup";
export const LOG_UNINSTALL = "uninstall";

/** Removes a folder when it is empty; false when it is not empty, missing or cannot be removed. */
export type EmptyDirRemover = (path: string) => Promise<boolean>;

/** {@link EmptyDirRemover} over `node:fs`. */
export const removeEmptyDirNode: EmptyDirRemover = async (path) => {
  try {
    await fsp.rmdir(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * The folders from `dir` upward that do not exist yet (deepest first): what writing into `dir` will create.
 * @example await missingAncestors(fs, "/home/u/.codex") // ["/home/u/.codex"] when only /home/u exists
 */
export async function missingAncestors(fs: FileSystemPort, dir: string): Promise<string[]> {
  const missing: string[] = [];
  let cur = fs.path.normalize(dir);
  while (!(await fs.exists(cur))) {
    missing.push(cur);
    const up = fs.path.dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  return missing;
}

/** Every file and folder below `root` (not `root` itself), sorted; empty when `root` does not exist. */
export async function listTree(
  fs: FileSystemPort,
  root: string,
): Promise<{ readonly files: string[]; readonly dirs: string[] }> {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await fs.listDir(dir)) ?? []) {
      const p = fs.path.join(dir, name);
      const st = await fs.stat(p);
      if (st?.kind === "directory") {
        dirs.push(p);
        await walk(p);
      } else if (st) files.push(p);
    }
  };
  await walk(root);
  return { files: files.sort(), dirs: dirs.sort() };
}

/** The log entries written since the last `uninstall` entry (all of them when there is none). */
export function logSinceUninstall(receipt: InstallReceipt): InstallReceipt["log"] {
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
