/**
 * The snapshot of one project on disk: `<home>/snapshots/<slug>-<hash>.msgpack`, a `.meta.json` beside it
 * (readable without decoding the snapshot) and a `.lock` while a writer is at work. Loading never throws
 * and says why a snapshot is unusable; saving takes the lock, writes both files atomically, and skips
 * (reporting "busy") when another process is writing, or (reporting "unchanged") when the file on disk is
 * the one this store loaded or wrote and holds the same state ({@link snapshotStateKey}). Whoever holds
 * the lock first removes the temporary files that crashed writers of this snapshot left
 * ({@link sweepTempFiles}).
 */
import { closeSync, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { snapshotPathFor } from "../project/home.ts";
import { writeFileAtomic, writeFileAtomicSteps } from "../disk/atomic.ts";
import { type FileSystemPort, nodeFileSystem } from "../disk/port.ts";
import {
  CorruptRecord,
  type DecodeResult,
  decodeSnapshot,
  decodeSnapshotSteps,
  LARGE_SNAPSHOT_BYTES,
  type Snapshot,
  type SnapshotExpectation,
  type SnapshotHeader,
  type SnapshotHeaderInfo,
  writeSnapshotSteps,
} from "./codec.ts";
import { CorruptSites, type LinkState } from "./link-codec.ts";
import { acquireLock, isLockBusy, type Lock, type LockBusy, pidIsAlive, waitForLiveWriter } from "./lock.ts";
import { sweepTempFiles, tempFilesOf } from "./leftovers.ts";
import { runSteps, runStepsWithPauses } from "../steps.ts";

/** The `.meta.json` beside a snapshot: its header plus the file's size and record count. */
export interface SnapshotMeta extends SnapshotHeader {
  /** Size of the snapshot file in bytes. */
  readonly size: number;
  /** Number of file records in the snapshot. */
  readonly files: number;
}

export type LoadFailureReason = "missing" | "unreadable";

export type LoadResult = DecodeResult | {
  readonly ok: false;
  readonly reason: LoadFailureReason;
  readonly message: string;
};

export type SaveResult =
  | { readonly saved: true; readonly path: string; readonly size: number; readonly meta: SnapshotMeta }
  /** The snapshot on disk already holds this state: nothing was written. */
  | {
    readonly saved: false;
    readonly reason: "unchanged";
    readonly message: string;
    readonly path: string;
    readonly size: number;
  }
  | { readonly saved: false; readonly reason: "busy"; readonly message: string; readonly busy: LockBusy["busy"] }
  | { readonly saved: false; readonly reason: "error"; readonly message: string };

export interface SnapshotStoreOptions {
  /**
   * A writer's lock dated further than this from now is taken over, and a temporary file older than this
   * is abandoned (default 60 s; a save takes well under a second).
   */
  readonly staleLockMs?: number;
  /** Injectable for tests: whether a writer's pid is alive on this host. */
  readonly isAlive?: (pid: number) => boolean;
  /** Injectable for tests: the file system the snapshot and its meta file are written through. */
  readonly fs?: FileSystemPort;
  /** The size of the pieces the snapshot is written in (default 1 MB; tests use small ones). */
  readonly chunkBytes?: number;
}

const DEFAULT_STALE_MS = 60_000;

/** The state, size, mtime and inode of the snapshot file when this store last read or wrote it. */
interface KnownFile {
  /** A loaded file's state is computed when a save first compares it (a warm start's 10–25 ms, off its path). */
  readonly state: string | (() => string);
  readonly size: number;
  readonly mtimeMs: number;
  /** A file renamed into place by another writer has another inode, even within one mtime tick. */
  readonly ino: number;
}

/**
 * What a snapshot stores, as a digest that ignores when and by which build it was made: the header
 * without `generatedAt`, `buildId` and timings (stats ending in `Ms`), whether a linked section is
 * stored, then every file's path and stamp
 * in order (a record depends only on its file's bytes, which the stamp stands for, and on the schema and
 * tool version in the header). A file without a stamp (unreadable) counts by its diagnostics.
 * @example snapshotStateKey(a) === snapshotStateKey({ ...a, buildId: a.buildId + 1 }) // true
 */
export function snapshotStateKey(s: Snapshot): string {
  return runSteps(snapshotStateKeySteps(s));
}

/** {@link snapshotStateKey} in steps of a thousand files (a server's save: 5–8 ms at Corona scale in one piece). */
function* snapshotStateKeySteps(s: Snapshot): Generator<void, string, void> {
  const stats = Object.entries(s.stats).filter(([k]) => !k.endsWith("Ms")).sort(([a], [b]) => (a < b ? -1 : 1));
  const h = createHash("sha1").update(
    JSON.stringify([
      s.schemaVersion,
      s.toolVersion,
      s.projectDir,
      s.sdkDir,
      s.schemaKey,
      s.phase,
      s.complete,
      s.stale,
      stats,
      // Whether a linked section is stored; not its facts: which questions a process asked the folder
      // listings depends on its history. A loaded section that did not hold is rewritten (forgetLoaded).
      s.linked ? "linked" : null,
    ]),
  );
  // Hashed a thousand files at a time: one update per file (11k at Corona scale) cost 10–40 ms a load.
  let chunk = "";
  let n = 0;
  for (const f of s.files) {
    const stamp = f.stamp ? `${f.stamp.size}\u0001${f.stamp.mtimeMs}` : JSON.stringify(f.record.diagnostics);
    chunk += `\u0000${f.path}\u0001${stamp}`;
    if (++n % 1024 === 0) {
      h.update(chunk);
      chunk = "";
      yield;
    }
  }
  if (chunk) h.update(chunk);
  return h.digest("hex");
}

const disk = nodeFileSystem();

export class SnapshotStore {
  readonly path: string;
  readonly metaPath: string;
  readonly lockPath: string;
  /** The file as this store last loaded or saved it (null: never, or it failed). */
  private known: KnownFile | null = null;

  constructor(
    readonly home: string,
    readonly projectDir: string,
    private readonly options: SnapshotStoreOptions = {},
  ) {
    this.path = snapshotPathFor(home, projectDir);
    this.metaPath = this.path.replace(/\.msgpack$/, "") + ".meta.json";
    this.lockPath = this.path + ".lock";
  }

  /** Every file name a write of this snapshot uses (the temporary files are named after these). */
  private get targets(): readonly string[] {
    return [this.path, this.metaPath, this.lockPath];
  }

  /**
   * Removes what crashed writers of this snapshot left (full-size temporary files, their lock), taking the
   * lock only when there is something to remove. Cheap otherwise (one folder listing); returns the removed
   * temporary files; never throws (what cannot be removed now is tried again at the next save).
   */
  cleanLeftovers(): readonly string[] {
    if (tempFilesOf(this.targets).length === 0) return [];
    let lock;
    try {
      lock = acquireLock(this.lockPath, { staleMs: this.options.staleLockMs, isAlive: this.options.isAlive });
    } catch {
      return [];
    }
    if (isLockBusy(lock)) return []; // its holder sweeps
    try {
      return this.sweep();
    } finally {
      releaseQuietly(lock);
    }
  }

  /** Sweeps this snapshot's abandoned temporary files; call with the lock held. */
  private sweep(): string[] {
    return sweepTempFiles(tempFilesOf(this.targets), {
      staleMs: this.options.staleLockMs ?? DEFAULT_STALE_MS,
      isAlive: this.options.isAlive ?? pidIsAlive,
    });
  }

  /**
   * The stored snapshot if it exists, is intact and matches `expect`; otherwise the reason ("missing"
   * on a first run, or a {@link DecodeResult} failure). Never throws; the caller reports a failure once
   * and rebuilds.
   */
  load(expect: SnapshotExpectation): LoadResult {
    const read = this.readBytes();
    if (!("bytes" in read)) return read;
    return this.loaded(decodeSnapshot(read.bytes, expect), read.stamp);
  }

  /**
   * {@link load} with the decoding cut into steps and `pause` awaited between them (a server answers
   * meanwhile); `onLinked` gets the linked section as soon as it is read, before the records are decoded.
   * With `lazy`, each record is decoded when first read (see `decodeSnapshotSteps`).
   */
  async loadInSteps(
    expect: SnapshotExpectation,
    pause: () => Promise<void>,
    onLinked?: (linked: LinkState, header: SnapshotHeaderInfo) => void,
    lazy = false,
  ): Promise<LoadResult> {
    const read = this.readBytes();
    if (!("bytes" in read)) return read;
    // The read is one step (15 MB at Corona scale), the checksum the next.
    if (read.bytes.length >= LARGE_SNAPSHOT_BYTES) await pause();
    return this.loaded(
      await runStepsWithPauses(decodeSnapshotSteps(read.bytes, expect, onLinked, lazy), pause),
      read.stamp,
    );
  }

  /**
   * Forgets what the last load read, so the next save writes even the same state: for a loaded
   * snapshot whose linked section no longer held (the save stores a current one).
   */
  forgetLoaded(): void {
    this.known = null;
  }

  /** The snapshot file's bytes and the stamp of that same file, or why they could not be read. */
  private readBytes():
    | { readonly bytes: Uint8Array; readonly stamp: { size: number; mtimeMs: number; ino: number } }
    | LoadResult {
    this.known = null;
    try {
      // The stamp and the bytes of the same file, even if a writer renames a new one into place meanwhile.
      const fd = openSync(this.path, "r");
      try {
        const st = fstatSync(fd);
        return { stamp: { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino }, bytes: readFileSync(fd) };
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { ok: false, reason: "missing", message: `no snapshot yet at ${this.path}` };
      return {
        ok: false,
        reason: "unreadable",
        message: `the snapshot ${this.path} could not be read (${code ?? String(e)})`,
      };
    }
  }

  /** Remembers what a successful load read (for the "unchanged" check of later saves). */
  private loaded(decoded: DecodeResult, stamp: { size: number; mtimeMs: number; ino: number }): DecodeResult {
    if (!decoded.ok) return decoded;
    const snapshot = decoded.snapshot;
    let state: string | null = null;
    // (The key reads the record of a file without a stamp: a lazily decoded one is decoded then, and
    // one that does not decode throws `CorruptRecord` to the save's caller, and nothing is written.)
    this.known = { state: () => state ??= snapshotStateKey(snapshot), ...stamp };
    return decoded;
  }

  /**
   * Writes `snapshot` and its meta file under the writers' lock. Returns what happened; an I/O failure
   * is a value ("error"), not an exception, since a failed save must not stop the index. A stored part
   * of `snapshot` that does not decode when read for the state key or the encoding throws (`CorruptRecord`,
   * `CorruptSites`), and nothing is written: the caller decides what of the snapshot it refuses.
   * `between` runs between the encoding's steps (the workspace's memory pacer).
   */
  save(snapshot: Snapshot, between?: () => void, onLocked?: () => void): SaveResult {
    const state = snapshotStateKey(snapshot);
    return this.unchangedOnDisk(state) ?? runSteps(this.writeSteps(snapshot, state, onLocked), between);
  }

  /**
   * Waits while the snapshot file is missing and a live writer holds its lock — a save still running
   * after its run answered (`cli/detach.ts`) — at most `maxMs` (`lock.ts` `waitForLiveWriter`). Returns
   * whether it waited. A stale lock, or none, returns at once. The wait is only for a missing file: a
   * save that answers early only happens after a build from nothing (`cli/relaunch.ts`).
   */
  waitForWriter(maxMs?: number): Promise<boolean> {
    return waitForLiveWriter(this.path, this.lockPath, {
      staleMs: this.options.staleLockMs,
      isAlive: this.options.isAlive,
      fs: this.options.fs ?? disk,
      maxMs,
    });
  }

  /**
   * {@link save} with the encoding cut into steps and `pause` awaited between them, so a server answers
   * requests meanwhile (the lock is held throughout: the snapshot is encoded into its temporary file).
   */
  async saveInSteps(snapshot: Snapshot, pause: () => Promise<void>): Promise<SaveResult> {
    const state = await runStepsWithPauses(snapshotStateKeySteps(snapshot), pause);
    return this.unchangedOnDisk(state) ?? await runStepsWithPauses(this.writeSteps(snapshot, state), pause);
  }

  /**
   * Encodes `snapshot` (whose state key is `state`) straight into a temporary file beside the snapshot,
   * then renames it into place and writes the meta file, all under the lock. The lock is taken before
   * the encoding, since the encoding is the write: no whole snapshot is ever held in memory (see
   * `writeSnapshotSteps`). A failure anywhere leaves the previous snapshot as it was.
   */
  private *writeSteps(snapshot: Snapshot, state: string, onLocked?: () => void): Generator<void, SaveResult, void> {
    let lock;
    try {
      lock = acquireLock(this.lockPath, { staleMs: this.options.staleLockMs, isAlive: this.options.isAlive });
    } catch (e) {
      return { saved: false, reason: "error", message: `could not lock ${this.lockPath} (${errText(e)})` };
    }
    if (isLockBusy(lock)) {
      const b = lock.busy;
      const who = b.pid ? `process ${b.pid}${b.hostname ? ` on ${b.hostname}` : ""}` : "another process";
      return {
        saved: false,
        reason: "busy",
        message: `${who} has been writing the snapshot since ${b.since}; this save was skipped`,
        busy: b,
      };
    }
    // The lock is ours: a reader from now on waits for this save (`waitForWriter`).
    onLocked?.();
    try {
      this.sweep();
      const fs = this.options.fs ?? disk;
      const chunkBytes = this.options.chunkBytes;
      let size = 0;
      const staleMs = this.options.staleLockMs ?? DEFAULT_STALE_MS;
      yield* keptFresh(
        writeFileAtomicSteps(fs, this.path, function* (file) {
          size = yield* writeSnapshotSteps(snapshot, file, chunkBytes);
        }),
        lock,
        staleMs / 3,
      );
      const meta = metaOf(snapshot, size);
      writeFileAtomic(fs, this.metaPath, JSON.stringify(meta, null, 2) + "\n");
      const st = statSync(this.path);
      this.known = { state, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
      return { saved: true, path: this.path, size, meta };
    } catch (e) {
      // A stored part the encoding read that does not decode — a record or the reference sites — is the
      // snapshot's content, not a failed write: thrown as it is (nothing was renamed), the caller refuses
      // it (`saveSnapshot`). Only I/O failures are values.
      if (e instanceof CorruptSites || e instanceof CorruptRecord) throw e;
      return { saved: false, reason: "error", message: `could not write the snapshot ${this.path} (${errText(e)})` };
    } finally {
      releaseQuietly(lock);
    }
  }

  /**
   * "unchanged" when the snapshot file is still the one this store loaded (intact) or wrote and its meta
   * file agrees, for a caller that knows its state is the loaded one (a warm start that published the
   * stored index and changed nothing since): no state key is computed. Else null (then {@link save}).
   */
  unchangedSinceLoad(): SaveResult | null {
    return this.unchangedOnDisk(null);
  }

  /**
   * "unchanged" when the snapshot file is still the one this store loaded (intact) or wrote, its meta file
   * agrees, and it holds `state` (null: the caller knows it does); else null. Only what this store has seen whole counts: a file that
   * merely claims the state (a damaged one of the same size) is rewritten.
   */
  private unchangedOnDisk(state: string | null): SaveResult | null {
    const k = this.known;
    if (!k || (state !== null && (typeof k.state === "string" ? k.state : k.state()) !== state)) return null;
    let st;
    try {
      st = statSync(this.path);
    } catch {
      return null;
    }
    if (st.size !== k.size || st.mtimeMs !== k.mtimeMs || st.ino !== k.ino || this.meta()?.size !== k.size) return null;
    return {
      saved: false,
      reason: "unchanged",
      message: `the snapshot ${this.path} already holds this index; it was not rewritten`,
      path: this.path,
      size: k.size,
    };
  }

  /** The meta file's content, or null when it is missing or not a meta file of this format. */
  meta(): SnapshotMeta | null {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.metaPath, "utf8"));
    } catch {
      return null;
    }
    return checkMeta(raw);
  }
}

function metaOf(s: Snapshot, size: number): SnapshotMeta {
  const { files, linked: _linked, linkedProblem: _problem, ...header } = s;
  return { ...header, size, files: files.length };
}

function checkMeta(raw: unknown): SnapshotMeta | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const isStr = (k: string) => typeof o[k] === "string";
  const isNat = (k: string) => Number.isSafeInteger(o[k]) && (o[k] as number) >= 0;
  if (!["toolVersion", "projectDir", "schemaKey", "generatedAt"].every(isStr)) return null;
  if (!["schemaVersion", "buildId", "size", "files"].every(isNat)) return null;
  if (o.sdkDir !== null && !isStr("sdkDir")) return null;
  if (o.phase !== "xml" && o.phase !== "art") return null;
  if (typeof o.complete !== "boolean" || typeof o.stale !== "boolean") return null;
  const stats = o.stats;
  if (typeof stats !== "object" || stats === null || Array.isArray(stats)) return null;
  if (!Object.values(stats).every((v) => typeof v === "number")) return null;
  return raw as SnapshotMeta;
}

/**
 * Runs `steps`, re-dating `lock` whenever `everyMs` passed since it was last dated: a server's save in
 * steps (huge snapshots, pauses for requests) can outlast the stale period, and a live writer's lock
 * must not be taken over. Abandoning this generator abandons `steps` (their cleanup runs).
 */
function* keptFresh<T>(steps: Generator<void, T, void>, lock: Lock, everyMs: number): Generator<void, T, void> {
  let dated = Date.now();
  try {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      if (Date.now() - dated >= everyMs) {
        lock.refresh();
        dated = Date.now();
      }
      yield;
    }
  } finally {
    steps.return(undefined as T);
  }
}

/** Releases `lock`; an unremovable lock goes stale and is taken over by the next writer. */
function releaseQuietly(lock: Lock): void {
  try {
    lock.release();
  } catch {
    // Nothing to do now: see above.
  }
}

function errText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ? `${err.code}: ${err.message}` : String(e);
}
