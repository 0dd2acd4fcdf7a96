/**
 * One snapshot writer at a time: a lock file created exclusively (`wx`) holding its owner's pid, host,
 * creation time and a random token. A lock whose owner died (same host, pid gone) or that is older than
 * `staleMs` is taken over. The lock only saves duplicate work: snapshot writes are atomic renames, so
 * even two writers that both believe they hold it leave one complete file, never a torn one.
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { hostname as osHostname } from "node:os";
import { parentDir } from "../project/paths.ts";

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
  readonly owner: LockOwner;
  /** True when the lock was taken over from a dead or stale owner. */
  readonly recovered: boolean;
  /**
   * Removes the lock file if it is still ours (its token matches). Returns false when someone else's
   * lock is there now (ours was judged stale and taken over) or it is already gone. Idempotent.
   */
  release(): boolean;
}

export interface LockBusy {
  readonly busy: {
    /** 0 when the lock file is being written or unreadable. */
    readonly pid: number;
    readonly hostname: string;
    /** When the holder took the lock (ISO-8601). */
    readonly since: string;
  };
}

export interface AcquireOptions {
  /** A lock older than this is stale whoever holds it (default 60 s). */
  readonly staleMs?: number;
  /** Injectable for tests. */
  readonly now?: () => number;
  readonly hostname?: string;
  readonly pid?: number;
  /** Whether a pid on this host is alive (default: `process.kill(pid, 0)`, ESRCH means dead). */
  readonly isAlive?: (pid: number) => boolean;
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
  mkdirSync(parentDir(lockPath), { recursive: true });

  let recovered = false;
  let lastBusy: LockBusy | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const owner: LockOwner = {
      pid,
      hostname: host,
      createdAt: new Date(now()).toISOString(),
      token: randomBytes(8).toString("hex"),
    };
    if (tryCreate(lockPath, owner)) return makeLock(lockPath, owner, recovered);

    const seen = readLock(lockPath);
    if (seen === "missing") continue; // released between our attempt and the read: try again
    const stale = isStale(seen, { staleMs, now: now(), host, isAlive });
    if (!stale) {
      lastBusy = busyOf(seen);
      break;
    }
    // Re-check right before unlinking: if another process took over in between, the content changed and
    // that lock is not ours to delete.
    const again = readLock(lockPath);
    if (again !== "missing" && sameContent(again, seen)) {
      try {
        unlinkSync(lockPath);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
    }
    recovered = true;
  }
  if (lastBusy) return lastBusy;
  const final = readLock(lockPath);
  return final === "missing" ? { busy: { pid: 0, hostname: "", since: new Date(now()).toISOString() } } : busyOf(final);
}

type SeenLock = { readonly owner: LockOwner | null; readonly raw: string; readonly mtimeMs: number };

function tryCreate(lockPath: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readLock(lockPath: string): SeenLock | "missing" {
  let raw: string;
  let mtimeMs: number;
  try {
    raw = readFileSync(lockPath, "utf8");
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw e;
  }
  return { owner: parseOwner(raw), raw, mtimeMs };
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
  // An unparsable lock is being written right now or was left half-written by a crash: judge it by its age.
  if (!seen.owner) return ctx.now - seen.mtimeMs > ctx.staleMs;
  if (seen.owner.hostname === ctx.host && !ctx.isAlive(seen.owner.pid)) return true;
  return ctx.now - Date.parse(seen.owner.createdAt) > ctx.staleMs;
}

function sameContent(a: SeenLock, b: SeenLock): boolean {
  return a.raw === b.raw && a.mtimeMs === b.mtimeMs;
}

function busyOf(seen: SeenLock): LockBusy {
  if (!seen.owner) return { busy: { pid: 0, hostname: "", since: new Date(seen.mtimeMs).toISOString() } };
  return { busy: { pid: seen.owner.pid, hostname: seen.owner.hostname, since: seen.owner.createdAt } };
}

function makeLock(path: string, owner: LockOwner, recovered: boolean): Lock {
  return {
    path,
    owner,
    recovered,
    release(): boolean {
      const seen = readLock(path);
      if (seen === "missing" || seen.owner?.token !== owner.token) return false;
      try {
        unlinkSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw e;
      }
      return true;
    },
  };
}
