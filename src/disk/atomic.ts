/**
 * The one atomic write: replacing a file so that no reader ever sees it half-written and a crash or a
 * full disk never leaves it damaged. The bytes go to a uniquely named temporary file in the same folder
 * (same volume, so the rename is atomic), are flushed to disk, and the temporary file is renamed over
 * the target. Concurrent writers each use their own temporary file; the last rename wins and every
 * reader sees one complete version or another. Content made in pieces (a snapshot, encoded while it is
 * written) goes to the temporary file piece by piece ({@link writeFileAtomicSteps}). Used by the snapshot
 * store, the schema cache, `ra3 export`, setup's client configs and receipt, and the skill installer.
 *
 * Backups (setup's client configs) are timestamped copies beside the file,
 * `<file>.ra3-backup-<YYYYMMDDTHHMMSSZ>` (a `-2`, `-3` suffix when that name is taken). A single `.bak`
 * was rejected: a second change would overwrite the only copy of the user's original, and a user's own
 * `.bak` could be clobbered.
 */
import { randomBytes } from "node:crypto";
import { type FileStat, type FileSystemPort, fsError, type WritableFile } from "./port.ts";

/** Marks our temporary files: `.<name>.<pid>-<random>.ra3tmp`. */
export const TEMP_SUFFIX = ".ra3tmp";

// Windows refuses to replace a file another process has open (a reader mid-read, an antivirus scan);
// the lock clears within milliseconds, so the rename is retried briefly before giving up.
const RENAME_RETRIES = 20;
const RENAME_RETRY_MS = 25;
const RETRYABLE = new Set(["EPERM", "EACCES", "EBUSY"]);

export interface AtomicWriteOptions {
  /** Copy the existing file to a timestamped backup before replacing it (default false). */
  readonly backup?: boolean;
  /** The clock for the backup name (default: now). */
  readonly now?: Date;
  /** Permission bits for a new file (default 0o644); a replaced file keeps its own. */
  readonly mode?: number;
  /** Called between the flush and the rename (tests use it to fail or observe that moment). */
  readonly beforeRename?: (tempPath: string) => void;
  /** Pause between rename attempts on Windows (default 25 ms). */
  readonly retryDelayMs?: number;
}

export interface AtomicWriteResult {
  /** The file actually written (symbolic links resolved). */
  readonly path: string;
  /** True when there was no file before. */
  readonly created: boolean;
  /** The backup copy of the previous content, or null when none was made. */
  readonly backup: string | null;
}

/** Sleeps without an event loop (the writer is synchronous end to end). */
function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isWindows(fs: FileSystemPort): boolean {
  return fs.path.sep === "\\";
}

/**
 * The temporary file name used for one write to `path` (hidden, unique per process and call, in the
 * same folder).
 * @example tempPathFor(fs, "/h/.ra3modxml/install.json") // "/h/.ra3modxml/.install.json.4242-9f1c2ab04e11.ra3tmp"
 */
export function tempPathFor(fs: FileSystemPort, path: string): string {
  const name = `.${fs.path.basename(path)}.${process.pid}-${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
  return fs.path.join(fs.path.dirname(path), name);
}

/**
 * A compact UTC timestamp for file names.
 * @example backupStamp(new Date("2026-11-23T14:15:02.500Z")) // "20261123T141502Z"
 */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/** The first free backup name for `file` at `now`: `<file>.ra3-backup-<stamp>`, then `-2`, `-3`, … */
function freeBackupPath(fs: FileSystemPort, file: string, now: Date): string {
  const base = `${file}.ra3-backup-${backupStamp(now)}`;
  if (!fs.exists(base)) return base;
  for (let n = 2;; n++) {
    const candidate = `${base}-${n}`;
    if (!fs.exists(candidate)) return candidate;
  }
}

/**
 * Renames `from` over `to`, retrying briefly on Windows while another program holds `to` open
 * (`EPERM`/`EACCES`/`EBUSY`); elsewhere, or after the last attempt, the error is rethrown.
 */
export function renameWithRetry(fs: FileSystemPort, from: string, to: string, delayMs = RENAME_RETRY_MS): void {
  for (let attempt = 0;; attempt++) {
    try {
      fs.rename(from, to);
      return;
    } catch (e) {
      const code = (e as { code?: string }).code ?? "";
      if (!isWindows(fs) || !RETRYABLE.has(code) || attempt >= RENAME_RETRIES) throw e;
      sleepSync(delayMs);
    }
  }
}

/**
 * Writes `bytes` to a new temporary file beside `target` (created exclusively, flushed) and returns
 * its path; the caller renames it into place with {@link renameWithRetry} or removes it. For writers
 * that replace several files together (the skill installer stages all, then renames all).
 */
export function stageFile(fs: FileSystemPort, target: string, bytes: Uint8Array, mode = 0o644): string {
  const temp = tempPathFor(fs, target);
  try {
    fs.writeFile(temp, bytes, { mode, exclusive: true });
  } catch (err) {
    removeQuietly(fs, temp);
    throw err;
  }
  return temp;
}

/** Deletes `path`, ignoring any failure (cleanup after an error that is the one worth reporting). */
export function removeQuietly(fs: FileSystemPort, path: string): void {
  try {
    fs.remove(path);
  } catch {
    // The original error is the one worth reporting.
  }
}

/**
 * Writes `content` (text is encoded as UTF-8) to `path` atomically, creating its folder if needed, and
 * returns what happened. Writes through a symbolic link to its target (dotfile managers link config
 * files); a replaced file keeps its permission bits. On any failure the previous file is untouched,
 * the temporary file (and a backup made for this write) is removed, and the error is rethrown.
 * @example writeFileAtomic(nodeFileSystem(), "/home/ann/.cursor/mcp.json", text, { backup: true })
 */
export function writeFileAtomic(
  fs: FileSystemPort,
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): AtomicWriteResult {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const { target, existing } = prepareTarget(fs, path);
  const temp = stageFile(fs, target, bytes, options.mode ?? 0o644);
  return commit(fs, temp, target, existing, options);
}

/**
 * {@link writeFileAtomic} for content produced in pieces: `fill` writes to the new temporary file (append,
 * patch what it wrote, read it back) and may yield between pieces (a server answers meanwhile), so the
 * content is never whole in memory. The same guarantees: the temporary file is flushed before it is
 * renamed over the target; when `fill` throws, a later step fails, or the steps are abandoned
 * (`return()`), the temporary file is removed and the previous file is untouched.
 * @example runSteps(writeFileAtomicSteps(fs, path, function* (out) { out.append(bytes) }))
 */
export function* writeFileAtomicSteps(
  fs: FileSystemPort,
  path: string,
  fill: (out: WritableFile) => Generator<void, void, void>,
  options: AtomicWriteOptions = {},
): Generator<void, AtomicWriteResult, void> {
  const { target, existing } = prepareTarget(fs, path);
  const temp = tempPathFor(fs, target);
  let file: WritableFile | null = null;
  let staged = false;
  try {
    file = fs.openNew(temp, { mode: options.mode ?? 0o644, exclusive: true });
    yield* fill(file);
    const done = file;
    file = null;
    done.close();
    staged = true;
  } finally {
    // A throw or an abandoned generator: the partial temporary file is of no use.
    if (!staged) {
      file?.abandon();
      removeQuietly(fs, temp);
    }
  }
  return commit(fs, temp, target, existing, options);
}

/** The file a write of `path` replaces (links resolved), its folder created, and what is there now. */
function prepareTarget(fs: FileSystemPort, path: string): { target: string; existing: FileStat | null } {
  const target = fs.realPath(path);
  fs.mkdir(fs.path.dirname(target));
  const existing = fs.stat(target);
  if (existing !== null && existing.kind !== "file") throw fsError("EISDIR", `not a file: ${target}`);
  return { target, existing };
}

/** Renames the flushed `temp` over `target` (permissions kept, backup made first if asked); cleans up on failure. */
function commit(
  fs: FileSystemPort,
  temp: string,
  target: string,
  existing: FileStat | null,
  options: AtomicWriteOptions,
): AtomicWriteResult {
  let backup: string | null = null;
  try {
    if (existing !== null && existing.mode !== 0) fs.chmod(temp, existing.mode);
    if (existing !== null && options.backup) {
      backup = freeBackupPath(fs, target, options.now ?? new Date());
      fs.copyFile(target, backup);
    }
    options.beforeRename?.(temp);
    renameWithRetry(fs, temp, target, options.retryDelayMs);
  } catch (err) {
    // The old file is still in place, so neither the temporary file nor the backup copy is useful.
    removeQuietly(fs, temp);
    if (backup !== null) removeQuietly(fs, backup);
    throw err;
  }
  fs.syncDir(fs.path.dirname(target));
  return { path: target, created: existing === null, backup };
}
