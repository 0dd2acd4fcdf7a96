/**
 * The one file-system port: the handful of synchronous file operations that every writer outside the
 * index needs (setup and its client configs, the skill installer, the snapshot store, the schema cache,
 * `ra3 export`). Injectable, so setup's tests replay Windows behaviour (a running .exe can be renamed but
 * not replaced) and injected failures on Linux; {@link nodeFileSystem} is the real one.
 *
 * Synchronous on purpose: the snapshot store writes from inside the index's publish path, where an
 * `await` would let a query observe a half-saved state, and setup is a short command-line run.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { native, type PathFlavour } from "../project/paths.ts";

export interface FileStat {
  readonly kind: "file" | "directory" | "other";
  readonly size: number;
  /** Permission bits (`0o644`); 0 where the OS has none to report. */
  readonly mode: number;
}

export interface WriteOptions {
  /** Permission bits for a new file (default 0o666 before the umask). */
  readonly mode?: number;
  /** Fail with `EEXIST` instead of truncating an existing file (temporary files use this). */
  readonly exclusive?: boolean;
}

/**
 * A new file written in pieces (`writeFileAtomicSteps` in atomic.ts: a snapshot goes to its temporary
 * file while it is encoded). Offsets count from the file's first byte.
 */
export interface WritableFile {
  /** Appends `bytes` at the end. */
  append(bytes: Uint8Array): void;
  /** Overwrites bytes written earlier, from `offset`. */
  writeAt(offset: number, bytes: Uint8Array): void;
  /** Reads up to `into.length` bytes from `offset` into `into`; returns how many (0 at the end). */
  readAt(offset: number, into: Uint8Array): number;
  /** Flushes everything to disk and closes the file. */
  close(): void;
  /** Closes the file without flushing it, ignoring any failure (after an error, before removing it). */
  abandon(): void;
}

/**
 * The file operations ra3's writers need. Every path is absolute in the port's own {@link path}
 * syntax. Operations throw `Error`s carrying a Node-style `code` (`ENOENT`, `EACCES`, `EBUSY`, `ELOOP`,
 * …) on environment failures; "missing" is a value (`null`/`false`), not an error.
 */
export interface FileSystemPort {
  readonly path: PathFlavour;
  /** The file's bytes, or null when it does not exist. */
  readFile(path: string): Uint8Array | null;
  /** Creates or truncates `path` and writes `bytes`, flushed to disk. Not atomic: see atomic.ts. */
  writeFile(path: string, bytes: Uint8Array, options?: WriteOptions): void;
  /** Creates or truncates `path` for writing in pieces (see {@link WritableFile}). Not atomic: see atomic.ts. */
  openNew(path: string, options?: WriteOptions): WritableFile;
  /** What `path` is (following links), or null when it does not exist. */
  stat(path: string): FileStat | null;
  /** True when `path` exists (file or folder). */
  exists(path: string): boolean;
  /** The names in a folder, sorted; null when it does not exist or is not a folder. */
  listDir(path: string): string[] | null;
  /** Creates the folder and its parents; nothing happens when it exists. */
  mkdir(path: string): void;
  /** Moves a file or folder to `to`, replacing a file there (POSIX rename; MoveFileEx on Windows). */
  rename(from: string, to: string): void;
  /** Deletes a file (or a symbolic link); nothing happens when it does not exist. */
  remove(path: string): void;
  /** Removes a folder when it is empty; false when it is not empty, missing or cannot be removed. */
  removeEmptyDir(path: string): boolean;
  /** Removes a folder and everything in it; nothing happens when it does not exist. */
  removeTree(path: string): void;
  /** Copies a file's bytes to `to` (created or truncated) and flushes them to disk. */
  copyFile(from: string, to: string): void;
  /** Sets permission bits (ignored where the OS has none). */
  chmod(path: string, mode: number): void;
  /** `path` with symbolic links resolved, or `path` itself when it does not exist. */
  realPath(path: string): string;
  /** The lower-case hex SHA-256 of a file's bytes, or null when it does not exist. */
  sha256(path: string): string | null;
  /** Makes renames inside `dir` durable where the OS allows it (POSIX); best effort, never throws. */
  syncDir(dir: string): void;
}

/** True for the error codes that mean "not there" rather than "cannot look". */
function isMissingError(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** An `Error` with a Node-style `code`, as the real port throws. */
export function fsError(code: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}`), { code });
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
    ELOOP: "a symbolic link points back at itself (a link loop)",
    ENAMETOOLONG: "the path is too long",
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  return err instanceof Error ? err.message : String(err);
}

const HASH_CHUNK = 1 << 20;

function statOf(p: string): FileStat | null {
  try {
    const s = statSync(p);
    return { kind: s.isFile() ? "file" : s.isDirectory() ? "directory" : "other", size: s.size, mode: s.mode & 0o7777 };
  } catch (err) {
    if (isMissingError(err)) return null;
    throw err;
  }
}

/** The file-system port over `node:fs`, in the running OS's path syntax. */
export function nodeFileSystem(): FileSystemPort {
  return {
    path: native,
    readFile(p) {
      try {
        return new Uint8Array(readFileSync(p));
      } catch (err) {
        if (isMissingError(err)) return null;
        throw err;
      }
    },
    writeFile(p, bytes, options) {
      const fd = openSync(p, options?.exclusive ? "wx" : "w", options?.mode ?? 0o666);
      try {
        let off = 0;
        while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    openNew(p, options) {
      // Read and write: the snapshot writer reads its bytes back for the checksum.
      const fd = openSync(p, options?.exclusive ? "wx+" : "w+", options?.mode ?? 0o666);
      let end = 0;
      let open = true;
      const writeAll = (bytes: Uint8Array, at: number) => {
        let off = 0;
        while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off, at + off);
      };
      return {
        append(bytes) {
          writeAll(bytes, end);
          end += bytes.length;
        },
        writeAt(offset, bytes) {
          writeAll(bytes, offset);
          end = Math.max(end, offset + bytes.length);
        },
        readAt: (offset, into) => readSync(fd, into, 0, into.length, offset),
        close() {
          open = false;
          try {
            fsyncSync(fd);
          } finally {
            closeSync(fd);
          }
        },
        abandon() {
          if (!open) return;
          open = false;
          try {
            closeSync(fd);
          } catch {
            // Closing after a failure: the failure is the one worth reporting.
          }
        },
      };
    },
    stat: statOf,
    exists: (p) => statOf(p) !== null,
    listDir(p) {
      try {
        return readdirSync(p).sort();
      } catch (err) {
        if (isMissingError(err)) return null;
        throw err;
      }
    },
    mkdir(p) {
      mkdirSync(p, { recursive: true });
    },
    rename(from, to) {
      renameSync(from, to);
    },
    remove(p) {
      try {
        unlinkSync(p);
      } catch (err) {
        if (!isMissingError(err)) throw err;
      }
    },
    removeEmptyDir(p) {
      try {
        rmdirSync(p);
        return true;
      } catch {
        return false;
      }
    },
    removeTree(p) {
      rmSync(p, { recursive: true, force: true });
    },
    copyFile(from, to) {
      copyFileSync(from, to);
      const fd = openSync(to, "r+");
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
    chmod(p, mode) {
      if (process.platform !== "win32") chmodSync(p, mode);
    },
    realPath(p) {
      try {
        return realpathSync(p);
      } catch (err) {
        if (isMissingError(err)) return p;
        throw err;
      }
    },
    sha256(p) {
      let fd: number;
      try {
        fd = openSync(p, "r");
      } catch (err) {
        if (isMissingError(err)) return null;
        throw err;
      }
      const hash = createHash("sha256");
      const buf = new Uint8Array(HASH_CHUNK);
      try {
        for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) hash.update(buf.subarray(0, n));
      } finally {
        closeSync(fd);
      }
      return hash.digest("hex");
    },
    syncDir(dir) {
      // Folders cannot be opened for syncing on Windows; some file systems refuse it elsewhere.
      if (process.platform === "win32") return;
      let fd: number | null = null;
      try {
        fd = openSync(dir, "r");
        fsyncSync(fd);
      } catch {
        // The data itself is already on disk.
      } finally {
        if (fd !== null) closeSync(fd);
      }
    },
  };
}
