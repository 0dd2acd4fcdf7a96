/**
 * The per-user state folder (`--home` → `RA3_HOME` → `~/.ra3modxml`) and the snapshot file name of a
 * project inside it.
 */
import { createHash } from "node:crypto";
import { homedir as osHomedir } from "node:os";
import { joinPath, pathKey, slugOf, toAbsolute } from "./paths.ts";

/** The state folder's name under the user's home when nothing else is configured. */
export const DEFAULT_HOME_NAME = ".ra3modxml";

export interface ResolveHomeOptions {
  /** `--home` value, if given. */
  readonly flag?: string | null;
  /** The process environment (reads `RA3_HOME`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The user's home folder; defaults to `os.homedir()`. */
  readonly homedir?: string;
  /** Folder that relative values are resolved against; defaults to the process working folder. */
  readonly cwd?: string;
}

function expandTilde(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return joinPath(home, p.slice(2));
  return p;
}

/**
 * The absolute state folder: `--home`, else `RA3_HOME`, else `<homedir>/.ra3modxml` (blank values
 * count as unset; a leading `~` means the home folder).
 * @example resolveHome({ env: {}, homedir: "/home/u" }) // "/home/u/.ra3modxml"
 */
export function resolveHome(opts: ResolveHomeOptions = {}): string {
  const home = opts.homedir ?? osHomedir();
  const cwd = opts.cwd ?? process.cwd();
  for (const v of [opts.flag, opts.env?.RA3_HOME]) {
    const s = v?.trim();
    if (s) return toAbsolute(expandTilde(s, home), cwd);
  }
  return joinPath(home, DEFAULT_HOME_NAME);
}

/**
 * Where the snapshot of `projectDir` lives: `<home>/snapshots/<slug>-<first 12 hex of sha1(pathKey)>.msgpack`.
 * The hash is of the case-folded, `/`-separated path, so `C:\Mods\X` and `c:/mods/x/` share a snapshot.
 * @example snapshotPathFor("/home/u/.ra3modxml", "/mods/My Mod") // "/home/u/.ra3modxml/snapshots/mods-my-mod-<12 hex>.msgpack"
 */
export function snapshotPathFor(home: string, projectDir: string): string {
  const hash = createHash("sha1").update(pathKey(projectDir)).digest("hex").slice(0, 12);
  return joinPath(home, "snapshots", `${slugOf(projectDir)}-${hash}.msgpack`);
}
