/**
 * The two ends of a warm start, as pure functions: collecting the core's records into snapshot files,
 * and sorting a loaded snapshot's files into those whose stamp still matches the disk (install them with
 * `IndexCore.setRecord`) and those to read again.
 */
import { type FileStamp, recordPending, sameStamp, type StoredFile } from "../index/core.ts";
import type { SnapshotFile } from "./codec.ts";

/** What a warm start does with a loaded snapshot. */
export interface WarmStartPlan {
  /** Unchanged files: install these records as they are. */
  readonly reuse: readonly SnapshotFile[];
  /** Files whose size or mtime differ, or whose stamp was unknown: read and parse them again. */
  readonly changed: readonly string[];
  /** Files that no longer exist: forget them. */
  readonly vanished: readonly string[];
}

/**
 * The snapshot files of every record in `core` (`IndexCore` fits), in its order.
 * @example encodeSnapshot({ ...header, files: snapshotFiles(workspace.core) })
 */
export function snapshotFiles(core: { values(): Iterable<StoredFile> }): SnapshotFile[] {
  const out: SnapshotFile[] = [];
  // A record still deferred (a warm start's lazily decoded file) is decoded only if the encoder runs.
  for (const f of core.values()) out.push(recordPending(f) ? f : { path: f.path, stamp: f.stamp, record: f.record });
  return out;
}

/**
 * Compares each file's stored stamp with `stat(path, its index in files)` (null when the file is gone).
 * @example planWarmStart(snapshot.files, (p) => { try { const s = statSync(p); return { size: s.size, mtimeMs: s.mtimeMs } } catch { return null } })
 */
export function planWarmStart(
  files: readonly SnapshotFile[],
  stat: (path: string, index: number) => FileStamp | null,
): WarmStartPlan {
  const reuse: SnapshotFile[] = [];
  const changed: string[] = [];
  const vanished: string[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const now = stat(f.path, i);
    if (now === null) vanished.push(f.path);
    else if (f.stamp !== null && sameStamp(f.stamp, now)) reuse.push(f);
    else changed.push(f.path);
  }
  return { reuse, changed, vanished };
}
