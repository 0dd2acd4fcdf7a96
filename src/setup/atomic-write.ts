/**
 * Replacing a file so that a crash or a full disk never leaves it half-written: the new bytes go to a
 * temporary file in the same folder, are flushed to disk, and are then renamed over the target.
 *
 * Backups are timestamped copies beside the file, `<file>.ra3-backup-<YYYYMMDDTHHMMSSZ>` (a `-2`, `-3`
 * suffix when that name is taken). A single `.bak` was rejected: a second change would overwrite the
 * only copy of the user's original, and a user's own `.bak` could be clobbered. Setup writes only when
 * something changes (a repeated run writes nothing), so backups do not pile up.
 */
import type { FileSystemPort } from "./platform.ts";
import { fsError } from "./platform.ts";

export interface AtomicWriteOptions {
  /** Copy the existing file to a timestamped backup before replacing it (default false). */
  readonly backup?: boolean;
  /** The clock for the backup name (default: now). */
  readonly now?: Date;
  /** Permission bits for a new file (default 0o644); a replaced file keeps its own. */
  readonly mode?: number;
}

export interface AtomicWriteResult {
  /** The file actually written (symbolic links resolved). */
  readonly path: string;
  /** True when there was no file before. */
  readonly created: boolean;
  /** The backup copy of the previous content, or null when none was made. */
  readonly backup: string | null;
}

let tempCounter = 0;

/**
 * A compact UTC timestamp for file names.
 * @example backupStamp(new Date("2026-11-23T14:15:02.500Z")) // "20261123T141502Z"
 */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/** The first free backup name for `file` at `now`: `<file>.ra3-backup-<stamp>`, then `-2`, `-3`, … */
export async function freeBackupPath(fs: FileSystemPort, file: string, now: Date): Promise<string> {
  const base = `${file}.ra3-backup-${backupStamp(now)}`;
  if (!(await fs.exists(base))) return base;
  for (let n = 2;; n++) {
    const candidate = `${base}-${n}`;
    if (!(await fs.exists(candidate))) return candidate;
  }
}

/**
 * Writes `content` (text is encoded as UTF-8) to `path` atomically, creating its folder if needed, and
 * returns what happened. Writes through a symbolic link to its target (dotfile managers link config
 * files). On any failure the previous file is untouched, the temporary file is removed, and the error
 * is rethrown.
 * @example await writeFileAtomic(fs, "/home/ann/.cursor/mcp.json", text, { backup: true })
 */
export async function writeFileAtomic(
  fs: FileSystemPort,
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
  const target = await fs.realPath(path);
  const dir = fs.path.dirname(target);
  await fs.mkdir(dir);
  const existing = await fs.stat(target);
  if (existing !== null && existing.kind !== "file") throw fsError("EISDIR", `not a file: ${target}`);

  const temp = fs.path.join(dir, `.${fs.path.basename(target)}.ra3-tmp-${process.pid}-${++tempCounter}`);
  let backup: string | null = null;
  try {
    await fs.writeFile(temp, bytes, { mode: options.mode ?? 0o644 });
    if (existing !== null && existing.mode !== 0) await fs.chmod(temp, existing.mode);
    if (existing !== null && options.backup) {
      backup = await freeBackupPath(fs, target, options.now ?? new Date());
      await fs.copyFile(target, backup);
    }
    await fs.rename(temp, target);
  } catch (err) {
    // The old file is still in place, so neither the temporary file nor the backup copy is useful.
    for (const leftover of backup === null ? [temp] : [temp, backup]) {
      try {
        await fs.remove(leftover);
      } catch {
        // The original error is the one worth reporting.
      }
    }
    throw err;
  }
  return { path: target, created: existing === null, backup };
}
