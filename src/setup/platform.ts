/**
 * The environment the setup code runs against, made injectable so tests on Linux can compute Windows and
 * macOS paths and replay Windows file-system behaviour (a running .exe cannot be replaced, only renamed).
 *
 * Two things live here: {@link Platform} (which OS, whose home, which environment variables, which path
 * syntax) and {@link FileSystemPort} (the handful of file operations the writers need), with a real
 * implementation over `node:fs` ({@link nodeFileSystem}) and an in-memory one ({@link MemoryFileSystem}).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import * as fsp from "node:fs/promises";
import * as nodePath from "node:path";
import { homedir } from "node:os";
import { native, type PathFlavour, pathKey } from "../project/paths.ts";

export type OsName = "windows" | "macos" | "linux";

/** Where and as whom setup runs. `env` is read through {@link envVar} (case-insensitive on Windows). */
export interface Platform {
  readonly os: OsName;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly pathFlavour: PathFlavour;
}

/** Maps `process.platform` to our three OS names (everything that is not Windows or macOS is treated as Linux). */
export function osFromNodePlatform(p: string): OsName {
  return p === "win32" ? "windows" : p === "darwin" ? "macos" : "linux";
}

/** The platform of the running process: its OS, `os.homedir()`, `process.env` and the native path syntax. */
export function currentPlatform(): Platform {
  return { os: osFromNodePlatform(process.platform), home: homedir(), env: process.env, pathFlavour: native };
}

/**
 * A platform for the given OS with that OS's path syntax (`win32` for Windows, `posix` otherwise).
 * @example platformFor("windows", "C:\\Users\\ann", { APPDATA: "C:\\Users\\ann\\AppData\\Roaming" })
 */
export function platformFor(os: OsName, home: string, env: Record<string, string | undefined> = {}): Platform {
  return { os, home, env, pathFlavour: os === "windows" ? nodePath.win32 : nodePath.posix };
}

/**
 * The value of an environment variable, or undefined when unset or empty. Windows variable names are
 * case-insensitive, so `envVar(p, "APPDATA")` also finds `AppData` there.
 */
export function envVar(platform: Platform, name: string): string | undefined {
  let value = platform.env[name];
  if (value === undefined && platform.os === "windows") {
    const upper = name.toUpperCase();
    for (const [k, v] of Object.entries(platform.env)) {
      if (k.toUpperCase() === upper) {
        value = v;
        break;
      }
    }
  }
  return value === undefined || value === "" ? undefined : value;
}

/** An absolute directory from an environment variable, or undefined when unset, empty or relative. */
function absoluteEnvDir(platform: Platform, name: string): string | undefined {
  const v = envVar(platform, name);
  return v !== undefined && platform.pathFlavour.isAbsolute(v) ? v : undefined;
}

/**
 * `%APPDATA%` on Windows (falling back to `<home>\AppData\Roaming`, since clients such as Codex strip
 * the variable from a server's environment).
 */
export function appDataDir(platform: Platform): string {
  return absoluteEnvDir(platform, "APPDATA") ?? platform.pathFlavour.join(platform.home, "AppData", "Roaming");
}

/** `%LOCALAPPDATA%` on Windows, falling back to `<home>\AppData\Local`. */
export function localAppDataDir(platform: Platform): string {
  return absoluteEnvDir(platform, "LOCALAPPDATA") ?? platform.pathFlavour.join(platform.home, "AppData", "Local");
}

/** `$XDG_CONFIG_HOME` when set to an absolute path, else `<home>/.config`. */
export function xdgConfigHome(platform: Platform): string {
  return absoluteEnvDir(platform, "XDG_CONFIG_HOME") ?? platform.pathFlavour.join(platform.home, ".config");
}

/**
 * The per-user application settings folder, as Electron apps (VS Code, Claude Desktop) use it:
 * `%APPDATA%` on Windows, `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` on Linux.
 */
export function userSettingsDir(platform: Platform): string {
  switch (platform.os) {
    case "windows":
      return appDataDir(platform);
    case "macos":
      return platform.pathFlavour.join(platform.home, "Library", "Application Support");
    case "linux":
      return xdgConfigHome(platform);
  }
}

// ---------------------------------------------------------------------------------------------------
// File-system port

export interface FileStat {
  readonly kind: "file" | "directory" | "other";
  readonly size: number;
  /** Permission bits (`0o644`); 0 where the OS has none to report. */
  readonly mode: number;
}

/**
 * The file operations setup needs. Every path is absolute in the port's own {@link FileSystemPort.path}
 * syntax. Operations throw `Error`s carrying a Node-style `code` (`ENOENT`, `EACCES`, `EBUSY`, …) on
 * environment failures; "missing" is a value (`null`/`false`), not an error.
 */
export interface FileSystemPort {
  readonly path: PathFlavour;
  /** The file's bytes, or null when it does not exist. */
  readFile(path: string): Promise<Uint8Array | null>;
  /** Creates or truncates `path` and writes `bytes`, flushed to disk before resolving. Not atomic: see atomic-write.ts. */
  writeFile(path: string, bytes: Uint8Array, options?: { readonly mode?: number }): Promise<void>;
  /** What `path` is (following links), or null when it does not exist. */
  stat(path: string): Promise<FileStat | null>;
  /** True when `path` exists (file or folder). */
  exists(path: string): Promise<boolean>;
  /** The names in a folder, sorted; null when it does not exist or is not a folder. */
  listDir(path: string): Promise<string[] | null>;
  /** Creates the folder and its parents; nothing happens when it exists. */
  mkdir(path: string): Promise<void>;
  /** Moves `from` to `to`, replacing a file at `to` (POSIX rename; MoveFileEx with REPLACE_EXISTING on Windows). */
  rename(from: string, to: string): Promise<void>;
  /** Deletes a file; nothing happens when it does not exist. */
  remove(path: string): Promise<void>;
  /** Copies a file's bytes to `to` (created or truncated) and flushes them to disk. */
  copyFile(from: string, to: string): Promise<void>;
  /** Sets permission bits (ignored where the OS has none). */
  chmod(path: string, mode: number): Promise<void>;
  /** `path` with symbolic links resolved, or `path` itself when it does not exist. */
  realPath(path: string): Promise<string>;
  /** The lower-case hex SHA-256 of a file's bytes, or null when it does not exist. */
  sha256(path: string): Promise<string | null>;
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Words for an environment failure, e.g. "permission denied (EACCES)". */
export function describeFsError(err: unknown): string {
  const code = (err as { code?: string } | null)?.code;
  const words: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EBUSY: "the file is in use by another program",
    ENOSPC: "the disk is full",
    EROFS: "the file system is read-only",
    EISDIR: "a folder is in the way",
    ENOTDIR: "a file is in the way of a folder",
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  return err instanceof Error ? err.message : String(err);
}

/** The file-system port over `node:fs`, in the running OS's path syntax. */
export function nodeFileSystem(): FileSystemPort {
  return {
    path: native,
    async readFile(p) {
      try {
        return new Uint8Array(await fsp.readFile(p));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async writeFile(p, bytes, options) {
      const handle = await fsp.open(p, "w", options?.mode ?? 0o666);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async stat(p) {
      try {
        const s = await fsp.stat(p);
        return {
          kind: s.isFile() ? "file" : s.isDirectory() ? "directory" : "other",
          size: s.size,
          mode: s.mode & 0o7777,
        };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async exists(p) {
      try {
        await fsp.stat(p);
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async listDir(p) {
      try {
        return (await fsp.readdir(p)).sort();
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    async mkdir(p) {
      await fsp.mkdir(p, { recursive: true });
    },
    async rename(from, to) {
      await fsp.rename(from, to);
      // Make the rename itself durable; folders cannot be opened for syncing on Windows.
      if (process.platform !== "win32") {
        try {
          const dir = await fsp.open(nodePath.dirname(to), "r");
          try {
            await dir.sync();
          } finally {
            await dir.close();
          }
        } catch {
          // Best effort: some file systems refuse fsync on folders.
        }
      }
    },
    async remove(p) {
      try {
        await fsp.unlink(p);
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    },
    async copyFile(from, to) {
      await fsp.copyFile(from, to);
      const handle = await fsp.open(to, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async chmod(p, mode) {
      if (process.platform !== "win32") await fsp.chmod(p, mode);
    },
    async realPath(p) {
      try {
        return await fsp.realpath(p);
      } catch (err) {
        if (isMissing(err)) return p;
        throw err;
      }
    },
    async sha256(p) {
      const hash = createHash("sha256");
      try {
        for await (const chunk of createReadStream(p)) hash.update(chunk as Buffer);
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      return hash.digest("hex");
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// In-memory file system

/** A file-system operation name, for {@link MemoryFileSystem.failOn}. */
export type FsOperation =
  | "readFile"
  | "writeFile"
  | "mkdir"
  | "rename"
  | "remove"
  | "copyFile"
  | "chmod"
  | "sha256"
  | "listDir";

interface MemoryFile {
  path: string;
  bytes: Uint8Array;
  mode: number;
}

/** An `Error` with a Node-style `code`, as the real port throws. */
export function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/**
 * A file system held in memory, for tests. With `win32` paths it behaves like Windows: names are
 * case-insensitive, and a file marked with {@link lock} (a running .exe) can be renamed but not written,
 * replaced or deleted. {@link failOn} injects a failure into the next matching operation.
 */
export class MemoryFileSystem implements FileSystemPort {
  readonly path: PathFlavour;
  private readonly files = new Map<string, MemoryFile>();
  private readonly dirs = new Map<string, string>();
  private readonly locked = new Set<string>();
  private readonly links = new Map<string, string>();
  private failures: { op: FsOperation; match: (path: string) => boolean; error: Error }[] = [];

  /** `files` maps absolute paths to text (UTF-8) or bytes; their folders are created implicitly. */
  constructor(flavour: PathFlavour, files: Record<string, string | Uint8Array> = {}) {
    this.path = flavour;
    for (const [p, content] of Object.entries(files)) {
      this.mkdirSync(flavour.dirname(p));
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      this.files.set(this.key(p), { path: flavour.normalize(p), bytes, mode: 0o644 });
    }
  }

  private key(p: string): string {
    const n = this.path.normalize(p);
    return this.path === nodePath.win32 ? pathKey(n) : n;
  }

  private mkdirSync(p: string): void {
    let cur = this.path.normalize(p);
    for (;;) {
      this.dirs.set(this.key(cur), cur);
      const up = this.path.dirname(cur);
      if (up === cur) return;
      cur = up;
    }
  }

  private check(op: FsOperation, p: string): void {
    const i = this.failures.findIndex((f) => f.op === op && f.match(p));
    if (i >= 0) {
      const [f] = this.failures.splice(i, 1);
      throw f.error;
    }
  }

  private requireParent(p: string): void {
    if (!this.dirs.has(this.key(this.path.dirname(p)))) {
      throw fsError("ENOENT", `no such folder: ${this.path.dirname(p)}`);
    }
  }

  private resolveLink(p: string): string {
    return this.links.get(this.key(p)) ?? p;
  }

  /** Makes the next `op` on a path matching `match` (a path or predicate) throw `error` (default EIO). */
  failOn(
    op: FsOperation,
    match: string | ((path: string) => boolean),
    error: Error = fsError("EIO", "injected failure"),
  ): void {
    const m = typeof match === "string" ? (p: string) => this.key(p) === this.key(match) : match;
    this.failures.push({ op, match: m, error });
  }

  /** Marks `p` as a running executable: rename works, write/replace/remove fail with EBUSY (Windows behaviour). */
  lock(p: string): void {
    this.locked.add(this.key(p));
  }

  /** Ends the simulated "in use" state of `p` (the program running it exited). */
  unlock(p: string): void {
    this.locked.delete(this.key(p));
  }

  /** Makes `p` a symbolic link to the file `target` (reads and writes through `realPath` reach the target). */
  symlink(p: string, target: string): void {
    this.mkdirSync(this.path.dirname(p));
    this.links.set(this.key(p), target);
  }

  /** The text of a file (UTF-8), or null when missing. */
  text(p: string): string | null {
    const f = this.files.get(this.key(this.resolveLink(p)));
    return f ? new TextDecoder().decode(f.bytes) : null;
  }

  /** Every file's path, sorted. */
  listAll(): string[] {
    return [...this.files.values()].map((f) => f.path).sort();
  }

  /** The permission bits of a file, or null when missing. */
  modeOf(p: string): number | null {
    return this.files.get(this.key(p))?.mode ?? null;
  }

  async readFile(p: string): Promise<Uint8Array | null> {
    this.check("readFile", p);
    const f = this.files.get(this.key(this.resolveLink(p)));
    return f ? f.bytes.slice() : null;
  }

  async writeFile(p: string, bytes: Uint8Array, options?: { readonly mode?: number }): Promise<void> {
    this.check("writeFile", p);
    const target = this.resolveLink(p);
    this.requireParent(target);
    const k = this.key(target);
    if (this.locked.has(k)) throw fsError("EBUSY", `file is in use: ${target}`);
    if (this.dirs.has(k)) throw fsError("EISDIR", `is a folder: ${target}`);
    const existing = this.files.get(k);
    this.files.set(k, {
      path: existing?.path ?? this.path.normalize(target),
      bytes: bytes.slice(),
      mode: existing?.mode ?? options?.mode ?? 0o644,
    });
  }

  async stat(p: string): Promise<FileStat | null> {
    const k = this.key(this.resolveLink(p));
    const f = this.files.get(k);
    if (f) return { kind: "file", size: f.bytes.length, mode: f.mode };
    if (this.dirs.has(k)) return { kind: "directory", size: 0, mode: 0o755 };
    return null;
  }

  async exists(p: string): Promise<boolean> {
    return (await this.stat(p)) !== null;
  }

  async listDir(p: string): Promise<string[] | null> {
    this.check("listDir", p);
    const k = this.key(p);
    if (!this.dirs.has(k)) return null;
    const names: string[] = [];
    const all = [...this.files.values()].map((f) => f.path).concat([...this.dirs.values()], [...this.links.keys()]);
    for (const child of all) {
      const parent = this.path.dirname(child);
      if (parent !== child && this.key(parent) === k) names.push(this.path.basename(child));
    }
    return [...new Set(names)].sort();
  }

  async mkdir(p: string): Promise<void> {
    this.check("mkdir", p);
    if (this.files.has(this.key(p))) throw fsError("EEXIST", `a file is in the way: ${p}`);
    this.mkdirSync(p);
  }

  async rename(from: string, to: string): Promise<void> {
    this.check("rename", from);
    const fk = this.key(from);
    const tk = this.key(to);
    const f = this.files.get(fk);
    if (!f) throw fsError("ENOENT", `no such file: ${from}`);
    this.requireParent(to);
    if (fk !== tk && this.locked.has(tk)) throw fsError("EPERM", `cannot replace a file in use: ${to}`);
    if (this.dirs.has(tk)) throw fsError("EISDIR", `is a folder: ${to}`);
    this.files.delete(fk);
    this.files.set(tk, { ...f, path: this.path.normalize(to) });
    if (this.locked.delete(fk)) this.locked.add(tk);
  }

  async remove(p: string): Promise<void> {
    this.check("remove", p);
    const k = this.key(p);
    if (this.locked.has(k)) throw fsError("EBUSY", `file is in use: ${p}`);
    if (this.links.delete(k)) return;
    this.files.delete(k);
  }

  async copyFile(from: string, to: string): Promise<void> {
    this.check("copyFile", from);
    const bytes = await this.readFile(from);
    if (bytes === null) throw fsError("ENOENT", `no such file: ${from}`);
    await this.writeFile(to, bytes);
  }

  async chmod(p: string, mode: number): Promise<void> {
    this.check("chmod", p);
    const f = this.files.get(this.key(p));
    if (!f) throw fsError("ENOENT", `no such file: ${p}`);
    f.mode = mode;
  }

  async realPath(p: string): Promise<string> {
    return this.resolveLink(p);
  }

  async sha256(p: string): Promise<string | null> {
    this.check("sha256", p);
    const bytes = await this.readFile(p);
    return bytes === null ? null : createHash("sha256").update(bytes).digest("hex");
  }
}
