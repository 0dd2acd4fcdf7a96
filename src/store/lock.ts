/**
 * One snapshot writer at a time: a lock file holding its owner's pid, host, creation time and a random
 * token. The file appears with its content in one step (written beside it, then hard-linked into place,
 * which fails when a lock exists), so a lock that is empty or unparsable was left by a crash and is
 * stale at once. A lock whose owner died (same host, pid gone) or whose time is more than `staleMs` away
 * from now (in the past, or in the future: another host's clock) is taken over, so no lock lives longer
 * than twice `staleMs`; a holder that works longer re-dates its lock as it goes ({@link Lock.refresh}).
 * The lock only saves duplicate work: snapshot writes are atomic renames, so even
 * two writers that both believe they hold it leave one complete file, never a torn one.
 */
import { linkSync, unlinkSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname as osHostname } from "node:os";
import { removeQuietly, renameWithRetry, stageFile, tempPathFor } from "../disk/atomic.ts";
import { type FileSystemPort, nodeFileSystem } from "../disk/port.ts";

/** What a lock file holds (JSON). */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** ISO-8601 time the lock was taken. */
  readonly createdAt: string;
  /** Random; tells our lock from a later one with the same pid. */
  readonly token: string;
}

export interface Lock {
  readonly path: string;
  /** The owner as the lock file holds it now (its time moves on with each {@link refresh}). */
  readonly owner: LockOwner;
  /** True when the lock was taken over from a dead or stale owner. */
  readonly recovered: boolean;
  /**
   * Removes the lock file if it is still ours (its token matches). Returns false when someone else's
   * lock is there now (ours was judged stale and taken over) or it is already gone. Idempotent.
   */
  release(): boolean;
  /**
   * Dates the lock now, if it is still ours, so a holder that works longer than the stale period is not
   * taken over while alive. The new content replaces the old one by the one atomic write (`disk/atomic.ts`:
   * a reader sees one or the other, never a torn file; on Windows the rename is retried while a reader
   * holds the file open). Returns false when the lock is not ours any more or could not be replaced: then
   * the file keeps its previous content and the lock simply ages, as before.
   */
  refresh(): boolean;
}

export interface LockBusy {
  readonly busy: {
    /** 0 when the lock vanished and reappeared while we tried (a race with other writers). */
    readonly pid: number;
    readonly hostname: string;
    /** When the holder took the lock (ISO-8601). */
    readonly since: string;
  };
}

export interface AcquireOptions {
  /** A lock dated further than this from now (past or future) is stale whoever holds it (default 60 s). */
  readonly staleMs?: number;
  /** Injectable for tests. */
  readonly now?: () => number;
  readonly hostname?: string;
  readonly pid?: number;
  /** Whether a pid on this host is alive (default: `process.kill(pid, 0)`, ESRCH means dead). */
  readonly isAlive?: (pid: number) => boolean;
  /**
   * Where the lock is read, re-dated and removed (default: the disk, where it is created by a hard link:
   * it appears with its content in one step). Tests pass an in-memory one, on which it is created by an
   * exclusive create and a write (not one step: for tests of one writer only).
   */
  readonly fs?: FileSystemPort;
}

const DEFAULT_STALE_MS = 60_000;
const MAX_ATTEMPTS = 3;

/** True unless signalling `pid` says it does not exist (EPERM: it exists, owned by another user). */
export function pidIsAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** True when `v` is a {@link LockBusy}. */
export function isLockBusy(v: Lock | LockBusy): v is LockBusy {
  return "busy" in v;
}

/**
 * Takes the lock at `lockPath`, or reports who holds it. Throws only on environment failures (the folder
 * cannot be created, no permission).
 * @example const l = acquireLock(`${snapshot}.lock`, { staleMs: 60_000 }); if (!isLockBusy(l)) try { … } finally { l.release() }
 */
export function acquireLock(lockPath: string, options: AcquireOptions = {}): Lock | LockBusy {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const now = options.now ?? Date.now;
  const host = options.hostname ?? osHostname();
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? pidIsAlive;
  const fs = options.fs ?? nodeFileSystem();
  const create = options.fs ? (path: string, content: string) => createExclusive(fs, path, content) : createLockFile;
  fs.mkdir(fs.path.dirname(lockPath));

  let recovered = false;
  let lastBusy: LockBusy | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const owner: LockOwner = {
      pid,
      hostname: host,
      createdAt: new Date(now()).toISOString(),
      token: randomBytes(8).toString("hex"),
    };
    if (create(lockPath, JSON.stringify(owner))) return makeLock(fs, lockPath, owner, recovered, now);

    const seen = readLock(fs, lockPath);
    if (seen === "missing") continue; // released between our attempt and the read: try again
    const stale = isStale(seen, { staleMs, now: now(), host, isAlive });
    if (!stale) {
      lastBusy = busyOf(seen, now());
      break;
    }
    // Re-check right before unlinking: if another process took over in between, the content changed and
    // that lock is not ours to delete.
    const again = readLock(fs, lockPath);
    if (again !== "missing" && sameContent(again, seen)) fs.remove(lockPath);
    recovered = true;
  }
  if (lastBusy) return lastBusy;
  const final = readLock(fs, lockPath);
  return busyOf(final === "missing" ? null : final, now());
}

/**
 * The holder of the lock at `lockPath` while it is live (not stale by {@link acquireLock}'s rules), or
 * null: no lock, or one a writer would take over. Never throws (an unreadable lock counts as none).
 */
export function liveLockHolder(
  lockPath: string,
  options: Pick<AcquireOptions, "staleMs" | "now" | "hostname" | "isAlive" | "fs"> = {},
): LockOwner | null {
  const fs = options.fs ?? nodeFileSystem();
  let seen;
  try {
    seen = readLock(fs, lockPath);
  } catch {
    return null;
  }
  if (seen === "missing") return null;
  const stale = isStale(seen, {
    staleMs: options.staleMs ?? DEFAULT_STALE_MS,
    now: (options.now ?? Date.now)(),
    host: options.hostname ?? osHostname(),
    isAlive: options.isAlive ?? pidIsAlive,
  });
  return stale ? null : seen.owner;
}

/**
 * Waits while `target` is missing and a live writer holds `lockPath` (a save still running after its run
 * answered: `cli/detach.ts`), polling every few milliseconds, at most `maxMs`. Returns whether it waited;
 * a stale lock, or none, or the file there, returns at once.
 */
export async function waitForLiveWriter(
  target: string,
  lockPath: string,
  options: Pick<AcquireOptions, "staleMs" | "isAlive" | "fs"> & { readonly maxMs?: number } = {},
): Promise<boolean> {
  const fs = options.fs ?? nodeFileSystem();
  const writing = () => !fs.exists(target) && liveLockHolder(lockPath, options) !== null;
  if (!writing()) return false;
  const until = Date.now() + (options.maxMs ?? WRITER_WAIT_MS);
  while (Date.now() < until && writing()) await new Promise((r) => setTimeout(r, WRITER_POLL_MS));
  return true;
}

/** How long a reader waits for a running save of a missing file (a Corona-scale snapshot: ≈ 0.3 s). */
const WRITER_WAIT_MS = 30_000;
const WRITER_POLL_MS = 5;

type SeenLock = { readonly owner: LockOwner | null; readonly raw: string };

/** Error codes of file systems without hard links (FAT, some network shares). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Creates `lockPath` holding `content`, or returns false when it exists. The content is written to a
 * temporary file first and hard-linked into place, so no reader ever sees the lock empty or half-written;
 * where hard links are unsupported the lock is created with `wx` and written (a crash in that instant
 * leaves an empty lock, which the next writer takes over at once).
 */
export function createLockFile(lockPath: string, content: string): boolean {
  const temp = tempPathFor(nodeFileSystem(), lockPath);
  writeFileSync(temp, content, { flag: "wx", mode: 0o644 });
  try {
    linkSync(temp, lockPath);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (code === "EEXIST") return false;
    if (!NO_HARD_LINKS.has(code)) throw e;
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // Already gone; a leftover is swept with the snapshot's other temporary files.
    }
  }
  return createExclusive(nodeFileSystem(), lockPath, content);
}

/** Creates `lockPath` with `content` unless it exists (then false); not in one step: see {@link createLockFile}. */
function createExclusive(fs: FileSystemPort, lockPath: string, content: string): boolean {
  let file;
  try {
    file = fs.openNew(lockPath, { exclusive: true, mode: 0o644 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    file.append(new TextEncoder().encode(content));
  } finally {
    file.close();
  }
  return true;
}

function readLock(fs: FileSystemPort, lockPath: string): SeenLock | "missing" {
  const bytes = fs.readFile(lockPath);
  if (bytes === null) return "missing";
  const raw = new TextDecoder().decode(bytes);
  return { owner: parseOwner(raw), raw };
}

function parseOwner(raw: string): LockOwner | null {
  try {
    const o = JSON.parse(raw) as Record<string, unknown>;
    if (typeof o !== "object" || o === null) return null;
    if (
      typeof o.pid !== "number" || typeof o.hostname !== "string" || typeof o.createdAt !== "string" ||
      typeof o.token !== "string"
    ) return null;
    if (Number.isNaN(Date.parse(o.createdAt))) return null;
    return { pid: o.pid, hostname: o.hostname, createdAt: o.createdAt, token: o.token };
  } catch {
    return null;
  }
}

function isStale(
  seen: SeenLock,
  ctx: { staleMs: number; now: number; host: string; isAlive: (pid: number) => boolean },
): boolean {
  // Locks appear with their content in one step: an empty or unparsable one is a crash's leftover.
  if (!seen.owner) return true;
  if (seen.owner.hostname === ctx.host && !ctx.isAlive(seen.owner.pid)) return true;
  // A time in the future comes from another clock; beyond the stale period it tells nothing, and within
  // it the lock still expires staleMs after its date, so no lock lives longer than 2 × staleMs.
  return Math.abs(ctx.now - Date.parse(seen.owner.createdAt)) > ctx.staleMs;
}

function sameContent(a: SeenLock, b: SeenLock): boolean {
  return a.raw === b.raw;
}

function busyOf(seen: SeenLock | null, now: number): LockBusy {
  if (!seen?.owner) return { busy: { pid: 0, hostname: "", since: new Date(now).toISOString() } };
  return { busy: { pid: seen.owner.pid, hostname: seen.owner.hostname, since: seen.owner.createdAt } };
}

function makeLock(fs: FileSystemPort, path: string, first: LockOwner, recovered: boolean, now: () => number): Lock {
  let owner = first;
  const ours = () => {
    const seen = readLock(fs, path);
    return seen !== "missing" && seen.owner?.token === owner.token;
  };
  return {
    path,
    get owner() {
      return owner;
    },
    recovered,
    release(): boolean {
      if (!ours()) return false;
      fs.remove(path);
      return true;
    },
    refresh(): boolean {
      if (!ours()) return false;
      const next: LockOwner = { ...owner, createdAt: new Date(now()).toISOString() };
      // Staged beside the lock and renamed over it (the atomic write's own two steps, without its symbolic
      // link, permission and backup handling, and with no pause between Windows' rename retries: a refresh
      // runs inside a server's save steps, and a lock that cannot be re-dated now is re-dated at the next one).
      let temp: string | null = null;
      try {
        temp = stageFile(fs, path, new TextEncoder().encode(JSON.stringify(next)));
        renameWithRetry(fs, temp, path, 0);
      } catch {
        if (temp !== null) removeQuietly(fs, temp);
        return false;
      }
      owner = next;
      return true;
    },
  };
}
