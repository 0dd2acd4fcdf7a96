/**
 * What crashed writers leave behind: a writer killed between creating its temporary file and renaming it
 * (see `tempPathFor` in `disk/atomic.ts`: `.<name>.<pid>-<hex>.ra3tmp` beside the target) leaves a full-size
 * file that no later write replaces. The snapshot store sweeps them while it holds the writers' lock, so
 * the only writers it can meet are dead ones, or live ones that held the lock past its stale period.
 */
import { readdirSync, statSync, unlinkSync } from "node:fs";
import { baseName, joinPath, parentDir } from "../project/paths.ts";
import { TEMP_SUFFIX } from "../disk/atomic.ts";

/** A temporary file found beside one of the targets. */
export interface TempFile {
  readonly path: string;
  /** The writer's pid, from the file name. */
  readonly pid: number;
}

/**
 * The pid in `name` when it is a temporary file of a write to a file named `target`, else null.
 * @example writerPidOf(".x.msgpack.4242-0a1b2c3d4e5f.ra3tmp", "x.msgpack") // 4242
 */
export function writerPidOf(name: string, target: string): number | null {
  const prefix = `.${target}.`;
  if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) return null;
  const m = /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length, name.length - TEMP_SUFFIX.length));
  return m ? Number(m[1]) : null;
}

/** The temporary files of writes to `targets` (all in one folder) that exist now. */
export function tempFilesOf(targets: readonly string[]): TempFile[] {
  if (targets.length === 0) return [];
  const dir = parentDir(targets[0]);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no folder yet: nothing was ever written
  }
  const bases = targets.map(baseName);
  const out: TempFile[] = [];
  for (const name of names) {
    for (const b of bases) {
      const pid = writerPidOf(name, b);
      if (pid !== null) {
        out.push({ path: joinPath(dir, name), pid });
        break;
      }
    }
  }
  return out;
}

export interface SweepOptions {
  /** A temporary file older than this is abandoned whoever wrote it (a pid may have been reused). */
  readonly staleMs: number;
  readonly now?: () => number;
  readonly isAlive: (pid: number) => boolean;
}

/**
 * Removes the temporary files in `found` whose writer is gone or that are older than `staleMs`; returns
 * the removed paths. Call it only while holding the targets' lock. Never throws: a file that cannot be
 * removed is tried again at the next sweep.
 */
export function sweepTempFiles(found: readonly TempFile[], options: SweepOptions): string[] {
  const now = (options.now ?? Date.now)();
  const removed: string[] = [];
  for (const t of found) {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(t.path).mtimeMs;
    } catch {
      continue; // its writer renamed or removed it meanwhile
    }
    if (options.isAlive(t.pid) && now - mtimeMs <= options.staleMs) continue;
    try {
      unlinkSync(t.path);
      removed.push(t.path);
    } catch {
      // Gone already, or not ours to remove (permissions): the next sweep tries again.
    }
  }
  return removed;
}
