/**
 * Detection by a client's own traces: files and folders the client creates when it runs, or its binary
 * on `PATH`. Folders ra3 itself creates inside a client's folder (the skill's `skills/`) are ignored, so
 * installing the skill never makes setup think a client is installed.
 */
import type { FileSystemPort } from "../../disk/port.ts";
import { envVar, type Platform } from "../platform.ts";

/** Names ra3 creates inside client folders (the skill targets `~/.claude/skills`, `~/.codex/skills`). */
const RA3_CREATED = new Set(["skills"]);

/** `dir` when it exists and holds something ra3 did not create there; null otherwise (or when unreadable). */
export function clientFolder(fs: FileSystemPort, dir: string): string | null {
  try {
    const names = fs.listDir(dir);
    return names !== null && names.some((n) => !RA3_CREATED.has(n.toLowerCase())) ? dir : null;
  } catch {
    return null;
  }
}

/** `path` when it exists (file or folder); null otherwise, or when it cannot be examined. */
export function existing(fs: FileSystemPort, path: string): string | null {
  try {
    return fs.exists(path) ? path : null;
  } catch {
    return null;
  }
}

/**
 * The first of `names` found as an executable in a `PATH` folder (`.exe`/`.cmd`/`.bat`/`.ps1` tried on
 * Windows, where npm installs `.cmd` shims), or null.
 * @example onPath(platform, fs, ["gemini"]) // "/usr/local/bin/gemini"
 */
export function onPath(platform: Platform, fs: FileSystemPort, names: readonly string[]): string | null {
  const raw = envVar(platform, "PATH");
  if (!raw) return null;
  const windows = platform.os === "windows";
  const dirs = raw.split(windows ? ";" : ":").filter((d) => d.trim() !== "" && platform.pathFlavour.isAbsolute(d));
  const exts = windows ? ["", ".exe", ".cmd", ".bat", ".ps1"] : [""];
  for (const dir of dirs) {
    for (const name of names) {
      for (const ext of exts) {
        const p = platform.pathFlavour.join(dir, name + ext);
        try {
          if (fs.stat(p)?.kind === "file") return p;
        } catch {
          // An unreadable PATH folder is skipped, as a shell would.
        }
      }
    }
  }
  return null;
}

/** The first non-null of the candidates, evaluated in order. */
export function firstFound(...candidates: (() => string | null)[]): string | null {
  for (const c of candidates) {
    const found = c();
    if (found !== null) return found;
  }
  return null;
}
