/**
 * Replacing a file so that no reader ever sees it half-written: the bytes go to a uniquely named
 * temporary file in the same folder (same volume, so the rename is atomic), are flushed to disk, and the
 * temporary file is renamed over the target. Concurrent writers each use their own temporary file; the
 * last rename wins and every reader sees one complete version or another.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { baseName, joinPath, parentDir } from "../project/paths.ts";

/** Marks our temporary files: `.<name>.<pid>-<random>.ra3tmp`. */
export const TEMP_SUFFIX = ".ra3tmp";

// Windows refuses to replace a file another process has open (a reader mid-read, an antivirus scan);
// the lock clears within milliseconds, so the rename is retried briefly before giving up.
const RENAME_RETRIES = 20;
const RENAME_RETRY_MS = 25;
const RETRYABLE = new Set(["EPERM", "EACCES", "EBUSY"]);

/** Sleeps without an event loop (the writer is synchronous end to end). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The temporary file name used for one write to `path` (unique per process and call). */
export function tempPathFor(path: string): string {
  return joinPath(parentDir(path), `.${baseName(path)}.${process.pid}-${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
}

export interface AtomicWriteHooks {
  /** Called between fsync and rename (tests use it to fail or observe that moment). */
  readonly beforeRename?: (tempPath: string) => void;
}

/**
 * Writes `bytes` to `path` atomically, creating missing parent folders. On failure the temporary file is
 * removed, the previous content of `path` is untouched, and the error is rethrown (an environment
 * failure: disk full, no permission).
 * @example writeFileAtomic("/home/u/.ra3modxml/snapshots/x.msgpack", bytes)
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, hooks: AtomicWriteHooks = {}): void {
  mkdirSync(parentDir(path), { recursive: true });
  const temp = tempPathFor(path);
  let fd: number | null = null;
  try {
    fd = openSync(temp, "wx", 0o644);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    hooks.beforeRename?.(temp);
    renameWithRetry(temp, path);
  } catch (err) {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // The original error is the one worth reporting.
      }
    }
    try {
      unlinkSync(temp);
    } catch {
      // Already gone, or never created.
    }
    throw err;
  }
  syncFolder(parentDir(path));
}

function renameWithRetry(from: string, to: string): void {
  for (let attempt = 0;; attempt++) {
    try {
      renameSync(from, to);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? "";
      if (process.platform !== "win32" || !RETRYABLE.has(code) || attempt >= RENAME_RETRIES) throw e;
      sleepSync(RENAME_RETRY_MS);
    }
  }
}

/** Makes the rename itself durable where the platform allows it (POSIX); best effort. */
function syncFolder(dir: string): void {
  if (process.platform === "win32") return;
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the data itself is already on disk.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
