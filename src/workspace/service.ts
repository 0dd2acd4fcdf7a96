/**
 * The live index of a long-running process (the MCP server, `ra3 index --watch`): starts from a snapshot
 * when one is valid (else builds in the background), keeps the index current from file-watcher events
 * (debounced), re-validates stamps on demand (`consistency: "strict"`), and saves snapshots: the first
 * complete build at once, later changes after they have been quiet for a while. One update runs at a
 * time; changes arriving meanwhile cause one follow-up.
 *
 * Strict is cheap while the watcher can be trusted. The watcher delivers events from another thread (under
 * load, 2 of 9 strict answers given 5 ms after a write missed it when strict trusted its names alone), so
 * strict first passes a barrier where the platform gives one ({@link nodeWatchBarrier}: after it, every
 * change made before the call has been named) and then stats only the named files and folders (a name
 * stays pending for a while after its event: see {@link SUPPRESSED_MS}) and the indexed files outside the
 * watched folders. Without a barrier it lists no folder but stats every indexed file and the named ones.
 * Strict scans the whole tree instead when the watcher is not running, failed, or lost events (an event
 * without a name: the OS queue overflowed); and, at most every few seconds, a full scan after the answer
 * checks that the watcher reported every change it finds (a change the watcher names soon after is not a
 * miss; if it misses one, strict scans in full from then on).
 */
import { mkdtempSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isInside, pathKey } from "../project/paths.ts";
import type { LinkedIndex } from "../index/linked.ts";
import { CorruptSites } from "../store/link-codec.ts";
import type { IndexView } from "../query/envelope.ts";
import type { WorkspaceConfig } from "./config.ts";
import type { FileSource } from "./file-source.ts";
import type { LoadedSchema } from "./schema.ts";
import { type BuildProgress, type BuildReport, SCHEMA_LATER, type UpdateReport, Workspace } from "./workspace.ts";

/** Where snapshots come from and go to (the snapshot store, or nothing). */
export interface SnapshotPort {
  /**
   * Warm-starts `ws` from a stored snapshot if a valid one exists (records installed, changed files
   * re-read, linked); otherwise returns a one-line reason (null when there simply was none yet). With
   * `served`, the stored index is published before the disk is checked, and `served` called then.
   */
  restore(
    ws: Workspace,
    served?: () => void,
  ): Promise<{ restored: true; update: UpdateReport } | { restored: false; reason: string | null }>;
  /**
   * Schedules a save: quiet-period merged, or (`promptly`, for the first complete build) at once, so a
   * process that lives for less than the quiet period still leaves a snapshot for the next start.
   */
  changed(ws: Workspace, options?: { readonly promptly?: boolean }): void;
  /** Saves now if a save is pending. */
  flush(): Promise<void>;
  dispose(): void;
}

/** A running recursive watch of one folder. */
export interface FolderWatch {
  close(): void;
}

/**
 * Starts watching `root` recursively: `change` with the changed path relative to `root`, or null when the
 * watcher lost track (the OS event queue overflowed); `error` when it stopped. Throws when it cannot start.
 */
export type WatchFolder = (
  root: string,
  events: { change(name: string | null): void; error(e: Error): void },
) => FolderWatch;

/** The real watcher: `node:fs` `watch`, recursive. */
const nodeWatchFolder: WatchFolder = (root, events) => {
  const w = watch(
    root,
    { recursive: true },
    (_event, filename) => events.change(filename ? filename.toString() : null),
  );
  w.on("error", (e) => events.error(e));
  return w;
};

/**
 * Makes the watcher hand over what it has: resolves true once `change` has been called for every change
 * made on disk before the call, false when it cannot say (then strict stats every indexed file).
 */
export type WatchBarrier = () => Promise<boolean>;

/** A barrier for the watchers of one process, and how to stop it. */
export interface WatchBarrierHandle {
  readonly barrier: WatchBarrier;
  close(): void;
}

/** How long a barrier waits for its own event before strict stats every indexed file instead. */
const BARRIER_TIMEOUT_MS = 1000;

/**
 * The real watcher's barrier (Linux): every `node:fs` watch of a Bun process reads one inotify queue, in
 * which the kernel puts events in the order the changes happened, and its reading thread hands each batch
 * to this thread in order. A file this process creates in a folder of its own (made at the first call, in
 * the system's temporary folder, never the mod's; removed by `close`) is therefore reported after every
 * change made before it was created; a second one, created after the first was reported, is read in a
 * later batch than the first, so once it arrives every event read with the first (the thread may hand one
 * batch's events to their watchers in any order) has arrived too. `test/workspace/strict.test.ts` writes
 * and asks at once, hundreds of times. Null elsewhere (Windows and macOS watch each folder through its own
 * handle: no order across folders is promised); a barrier whose folder cannot be made or watched says false.
 */
function nodeWatchBarrier(): WatchBarrierHandle | null {
  if (process.platform !== "linux") return null;
  const waiting = new Map<string, (arrived: boolean) => void>();
  let place: { dir: string; watch: ReturnType<typeof watch> } | null | undefined;
  const open = () => {
    if (place !== undefined) return place;
    let dir: string | null = null;
    try {
      dir = mkdtempSync(join(tmpdir(), "ra3-watch-"));
      const w = watch(dir, (_event, name) => {
        const done = name ? waiting.get(name.toString()) : undefined;
        done?.(true);
      });
      w.on("error", () => close());
      place = { dir, watch: w };
    } catch {
      if (dir) rmSync(dir, { recursive: true, force: true });
      place = null;
    }
    return place;
  };
  let count = 0;
  let last: string | null = null;
  const mark = (): Promise<boolean> => {
    const at = open();
    if (!at) return Promise.resolve(false);
    const name = String(count++);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      waiting.set(name, resolve);
      timer = setTimeout(() => {
        // A watch that does not report its own folder (yet): strict stats every indexed file from now on.
        resolve(false);
        close();
      }, BARRIER_TIMEOUT_MS);
    }).finally(() => {
      clearTimeout(timer);
      waiting.delete(name);
    });
    try {
      writeFileSync(join(at.dir, name), "");
    } catch {
      waiting.get(name)?.(false);
      return arrived;
    }
    if (last) rmSync(join(at.dir, last), { force: true });
    last = name;
    return arrived;
  };
  const close = () => {
    for (const done of waiting.values()) done(false);
    if (!place) {
      place = null;
      return;
    }
    place.watch.close();
    rmSync(place.dir, { recursive: true, force: true });
    place = null;
  };
  return { barrier: async () => (await mark()) && (await mark()), close };
}

/** Why strict consistency re-validated the way it did. */
export type StrictScope =
  /**
   * After a barrier (every event delivered): only the files and folders the watcher named, and the indexed
   * files outside the watched folders, were stat'ed.
   */
  | "named"
  /** No folder listed: the indexed files and those the watcher named were stat'ed. */
  | "watched"
  /** The whole tree was scanned and stat'ed (the watcher is off, failed, or lost events). */
  | "full";

export interface StrictReport extends UpdateReport {
  readonly scope: StrictScope;
}

/** At most this often a full scan after a trusted strict answer checks that the watcher missed nothing. */
const FULL_SCAN_EVERY_MS = 5000;

/**
 * A change this close after a reported change of the same file may go unreported (Bun's watcher passes
 * one event per path and 1–2 ms of its reading thread's time): a named path stays pending until a stat
 * taken this long after its last event has seen it.
 */
const SUPPRESSED_MS = 25;

/** The full check waits until nothing ran and no strict call came for this long (strict calls would wait for it). */
const CHECK_IDLE_MS = 500;

/** A warm-started service links in the background (for patched edits) once nothing ran for this long. */
const IDLE_LINK_MS = 1000;

/** Without a barrier, how long the check waits for the watcher to name a change its scan found. */
const CHECK_GRACE_MS = 1000;

export interface ServiceOptions {
  /** A snapshot port, or a factory given the workspace once its schema is loaded (the port needs its key). */
  readonly snapshots?: SnapshotPort | ((ws: Workspace) => SnapshotPort | null) | null;
  readonly watch?: boolean;
  /** Debounce for watcher events (ms). */
  readonly debounceMs?: number;
  /** Diagnostic lines (stderr in the binary). */
  readonly log?: (line: string) => void;
  /** The folder watcher (tests inject one); `node:fs` `watch` by default. */
  readonly watchFolder?: WatchFolder;
  /**
   * The watcher's barrier (see {@link WatchBarrier}): by default the real one's ({@link nodeWatchBarrier})
   * with the real watcher, none with an injected one; null: none.
   */
  readonly watchBarrier?: WatchBarrierHandle | null;
  /** At most this often a trusted strict call is followed by a full check (default 5 s). */
  readonly fullScanEveryMs?: number;
  /** Without a barrier, how long the check waits for the watcher to name what its scan found (default 1 s). */
  readonly checkGraceMs?: number;
  /** How long a warm-started service waits with nothing running before it links in the background (default 1 s). */
  readonly idleLinkMs?: number;
  /** How long the full check waits for no work and no strict call (default 0.5 s; 0: it is the next job). */
  readonly checkIdleMs?: number;
  /** Where mod files are read (default: the disk; tests inject a slow one). */
  readonly files?: FileSource;
  /** Reads an XSD file of the schema (default: the disk; tests inject a slow one). */
  readonly readSchemaFile?: (path: string) => Uint8Array;
  /** The longest a job runs between two yields (default ~10 ms; 0: after every step, for tests that count yields). */
  readonly sliceMs?: number;
  /**
   * Publish the snapshot's index first — its stored link as soon as it is decoded, or (a snapshot
   * without one, with files to re-read) decoded, compared with the disk by one scan, linked as stored —
   * and re-read after (a server: queries answer from it, marked stale, while the refresh runs). Off: the warm start publishes once, after the re-reads
   * (`ra3 index --watch`, which has no one asking).
   */
  readonly serveStoredIndex?: boolean;
}

/** Path segments and names that are editor or VCS noise, never mod content. */
const NOISE = /(^|[\\/])(\.git|node_modules)([\\/]|$)|(\.tmp|\.lock|~|\.swp|\.bak|\.orig)$|(^|[\\/])\.[#~]/i;

export class IndexService {
  readonly ws: Workspace;
  private readonly log: (line: string) => void;
  private readonly debounceMs: number;
  private snapshots: SnapshotPort | null = null;
  /** Settles when the schema is loaded and the snapshot port made; every job waits for it. */
  private readonly ready: Promise<void>;
  private watchers: FolderWatch[] = [];
  private barrier: WatchBarrierHandle | null = null;
  /** The folders the watchers cover (a strict call after a barrier stats the indexed files outside them). */
  private watchedRoots: string[] = [];
  /** While a full check runs and its verdict waits: every path the watcher named (by key). */
  private namedDuringCheck: Set<string> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private checkTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly checkIdleMs: number;
  /** When the last strict call came (`performance.now()`). */
  private lastStrict = -Infinity;
  private readonly idleLinkMs: number;
  /**
   * Settles (true: it linked) when the background link after a warm start ran; null when none was
   * scheduled or it has not started yet.
   */
  linkPrepared: Promise<boolean> | null = null;
  /**
   * Whether the watcher's events cover every change: false when watching is off, could not start for a
   * root, stopped with an error, or was found to have missed a change.
   */
  private watchTrusted = false;
  /** The watcher lost events (overflow) since the last full scan. */
  private watchLost = false;
  /** When the last full scan (build, warm start, full strict, check) began; -Infinity: never. */
  private lastFullScan = -Infinity;
  private readonly fullScanEveryMs: number;
  private readonly checkGraceMs: number;
  /** The paths the watcher named that no update has taken, with when (`performance.now()`) it last named each. */
  private pending = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private startPromise: Promise<void> | null = null;
  private lastError: string | null = null;
  private disposed = false;
  private readonly serveStoredIndex: boolean;
  /**
   * Settles when the start no longer restores a snapshot: its index is published, or there was no
   * usable one (a build runs instead). Null before {@link start}.
   */
  private restorePhase: Promise<void> | null = null;

  constructor(config: WorkspaceConfig, options: ServiceOptions = {}) {
    // The XSD set loads in steps after the constructor, not in it (every job waits for it): a server
    // answers (building) meanwhile.
    this.ws = new Workspace(config, SCHEMA_LATER, options.files, { sliceMs: options.sliceMs });
    this.log = options.log ?? (() => {});
    this.debounceMs = options.debounceMs ?? 50;
    const snapshots = options.snapshots;
    // After a yield: the caller (a tool call opening the project) answers before the first step runs.
    this.ready = new Promise((r) => setImmediate(r)).then(() =>
      this.ws.loadSchema((steps) => this.ws.newSlicer().drive(steps), options.readSchemaFile)
    ).then(() => {
      if (this.disposed) return;
      this.snapshots = typeof snapshots === "function" ? snapshots(this.ws) : (snapshots ?? null);
    });
    // A failed load is a job's failure (recorded by `exclusive`), not an unhandled rejection here.
    this.ready.catch(() => {});
    this.fullScanEveryMs = options.fullScanEveryMs ?? FULL_SCAN_EVERY_MS;
    this.checkGraceMs = options.checkGraceMs ?? CHECK_GRACE_MS;
    this.idleLinkMs = options.idleLinkMs ?? IDLE_LINK_MS;
    this.checkIdleMs = options.checkIdleMs ?? CHECK_IDLE_MS;
    this.serveStoredIndex = options.serveStoredIndex ?? false;
    if (options.watch) {
      this.startWatching(options.watchFolder ?? nodeWatchFolder);
      this.barrier = options.watchBarrier !== undefined
        ? options.watchBarrier
        : options.watchFolder
        ? null
        : nodeWatchBarrier();
    }
  }

  /** The schema once it is loaded (in steps, after the constructor). */
  async schemaLoaded(): Promise<LoadedSchema> {
    await this.ready;
    return this.ws.schema;
  }

  /** Starts the warm start or the first build in the background (idempotent). */
  start(): Promise<void> {
    if (!this.startPromise) {
      // Say "building" at once: until the job runs the envelope would say no_index, which tells an
      // agent to stop using the tools.
      if (!this.ws.linked) this.ws.event("build_started");
      let restored = () => {};
      this.restorePhase = new Promise<void>((resolve) => (restored = resolve));
      this.startPromise = this.exclusive(() => this.initialBuild(restored));
      void this.startPromise.then(restored, restored);
    }
    return this.startPromise;
  }

  view(): IndexView {
    return this.ws.view();
  }

  get linked(): LinkedIndex | null {
    return this.ws.linked;
  }

  /** The running decode of the published index's stored sites (concurrent queries share it). */
  private sitesDecoding: Promise<string | null> | null = null;

  /**
   * Decodes the published index's stored reference sites if nothing has read them yet: the one way a
   * query of the server gets there (every tool and resource that may read sites calls this first). The
   * decode only reads the published index, so it runs at once (a warm start's queries do not wait for
   * its re-reads); when the sites do not decode, the refusal — the workspace's: that snapshot's records
   * read again and the index linked from the files — mutates the workspace, so it runs in the exclusive
   * section after the running work (never beside a refresh), and its failure is recorded like an
   * update's. Resolves to null when the published index's sites can be read, or to why not (the sites
   * did not decode and the refusal failed: the caller answers that, not from the broken index).
   */
  decodeStoredSites(): Promise<string | null> {
    const linked = this.ws.linked;
    if (!linked || !linked.sitesDeferred) return Promise.resolve(null);
    this.sitesDecoding ??= (async () => {
      try {
        await this.ws.newSlicer().drive(linked.sitesSteps());
        return null;
      } catch (e) {
        if (!(e instanceof CorruptSites)) throw e;
        // Decoded again there (the same failure) and refused, unless an index published meanwhile replaced it.
        try {
          await this.exclusive(() => this.ws.decodeStoredSites());
          return null;
        } catch (failed) {
          return `${e.message}, and linking the files again failed: ${
            failed instanceof Error ? failed.message : String(failed)
          }`;
        }
      } finally {
        this.sitesDecoding = null;
      }
    })();
    return this.sitesDecoding;
  }

  /** The message of the last failed build or update, if any. */
  get error(): string | null {
    return this.lastError;
  }

  /** Resolves when an index has been published (or the timeout passed); returns it or null. */
  async waitForIndex(timeoutMs: number, signal?: AbortSignal): Promise<LinkedIndex | null> {
    if (this.ws.linked) return this.ws.linked;
    void this.start();
    return waitUntil(() => this.ws.linked !== null || this.ws.lifecycle.state === "error", timeoutMs, signal).then(() =>
      this.ws.linked
    );
  }

  /**
   * Waits (at most `timeoutMs`) while the start is restoring a snapshot into a servable index — its
   * stored link decoded, or decoded, compared with the disk by one scan and linked — and returns the
   * published index then (null when there
   * is none: no usable snapshot, a build runs, or the time passed). Never waits for a build or for the
   * re-reading of changed files.
   */
  async waitForStoredIndex(timeoutMs: number, signal?: AbortSignal): Promise<LinkedIndex | null> {
    if (this.ws.linked) return this.ws.linked;
    void this.start();
    const phase = this.restorePhase!.then(() => true);
    const aborted = new Promise<boolean>((resolve) => {
      if (signal?.aborted) resolve(false);
      signal?.addEventListener("abort", () => resolve(false), { once: true });
    });
    await within(Promise.race([phase, aborted]), timeoutMs);
    return this.ws.linked;
  }

  /**
   * Strict consistency: finish the running work, then bring the index up to date with the disk: a stat
   * of the indexed files and of those the watcher named when it can be trusted, else a scan of the whole
   * tree (see the module comment). Returns null (and leaves the index as it is) when the timeout passes first.
   */
  async strict(timeoutMs: number, signal?: AbortSignal): Promise<StrictReport | null> {
    this.lastStrict = performance.now();
    const deadline = Date.now() + timeoutMs;
    const started = await within(this.start().then(() => true, () => true), timeoutMs);
    if (!started || signal?.aborted) return null;
    // Watcher events already delivered to this thread are handled before the dirty set is taken.
    if (this.watchTrusted) await new Promise((r) => setImmediate(r));
    if (this.running) {
      const done = await within(this.running.then(() => true), Math.max(0, deadline - Date.now()));
      if (!done || signal?.aborted) return null;
    }
    return this.exclusive(async () => {
      if (!this.watchTrusted || this.watchLost) return { ...(await this.fullRefresh()), scope: "full" as const };
      // After the barrier every change made before this call is in the pending set (unless it lost events).
      const delivered = this.barrier ? await this.barrier.barrier() : false;
      if (!this.watchTrusted || this.watchLost) return { ...(await this.fullRefresh()), scope: "full" as const };
      const report = delivered
        ? await this.ws.refreshNamed(this.takePending(), this.watchedRoots)
        : await this.ws.refreshKnown(this.takePending());
      if (performance.now() - this.lastFullScan >= this.fullScanEveryMs) this.scheduleCheck();
      return { ...report, scope: delivered ? "named" as const : "watched" as const };
    });
  }

  /** A refresh from a scan of the whole tree; what the watcher reported meanwhile is covered by it. */
  private async fullRefresh(): Promise<UpdateReport> {
    this.takePending();
    this.lastFullScan = performance.now();
    this.watchLost = false;
    return this.ws.refresh();
  }

  /**
   * The paths the watcher named that no update has taken yet (the debounced update is cancelled). Those
   * named less than {@link SUPPRESSED_MS} ago stay pending, with an update to come: the watcher does not
   * report a file's change that closely follows a reported change of it (Bun passes one event per path
   * and 1–2 ms), so a stat taken now may precede a change that will never be reported.
   */
  private takePending(): string[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const paths = [...this.pending.keys()];
    const now = performance.now();
    for (const [path, at] of this.pending) if (now - at >= SUPPRESSED_MS) this.pending.delete(path);
    if (this.pending.size) this.armUpdate(Math.max(this.debounceMs, SUPPRESSED_MS));
    return paths;
  }

  /**
   * After a trusted strict answer, at most every {@link FULL_SCAN_EVERY_MS}, once the service has been
   * idle for {@link CHECK_IDLE_MS}: a full scan that checks the watcher reported every change. What it
   * finds is applied; if the watcher did not name something it found, the watcher is no longer trusted
   * and strict scans in full from then on.
   */
  private scheduleCheck(): void {
    this.lastFullScan = performance.now(); // one check per period, even while this one waits its turn
    if (this.checkIdleMs <= 0) return this.runCheck();
    // Once nothing runs and no strict call came for a while: a strict call would wait for the scan.
    const later = () => {
      this.checkTimer = setTimeout(attempt, this.checkIdleMs);
      this.checkTimer.unref?.();
    };
    const attempt = () => {
      this.checkTimer = null;
      if (this.disposed) return;
      if (this.running || performance.now() - this.lastStrict < this.checkIdleMs) return later();
      this.runCheck();
    };
    if (!this.checkTimer) later();
  }

  /** The full check itself (see {@link scheduleCheck}). */
  private runCheck(): void {
    const named = new Set<string>();
    void this.exclusive(async () => {
      if (this.disposed) return null;
      for (const p of this.pending.keys()) named.add(pathKey(p));
      this.namedDuringCheck = named;
      const r = await this.fullRefresh();
      const found = [...r.changed, ...r.deleted];
      if (found.length) this.snapshots?.changed(this.ws);
      return found;
    }).then(async (found) => {
      // A change made while the scan ran can be found before its event arrives: the watcher missed it
      // only if it has not named it (or a folder above it) once it had time to (its barrier, else a while).
      if (found?.length && !(this.barrier && await this.barrier.barrier())) await sleep(this.checkGraceMs);
      this.namedDuringCheck = null;
      const missed = (found ?? []).filter((p) => !namedAbove(named, p));
      if (missed.length && !this.disposed) {
        this.watchTrusted = false;
        this.log(
          `the file watcher missed ${missed.length} change(s) a full scan found; consistency "strict" scans the whole tree from now on`,
        );
      }
    }).catch(() => {});
  }

  /** Forces a full rebuild (`reindex`). */
  reindex(progress?: BuildProgress, signal?: AbortSignal): Promise<BuildReport> {
    return this.exclusive(async () => {
      this.lastFullScan = performance.now();
      const report = await this.ws.build(progress, signal);
      this.snapshots?.changed(this.ws);
      return report;
    });
  }

  /**
   * After a cancelled rebuild the previous index is still published: re-validates the stamps and leaves
   * the "error" state the cancelled build left behind (a refresh that finds nothing to apply records no
   * event, so "update applied" is recorded here).
   */
  recoverFromCancelledBuild(timeoutMs: number): void {
    void this.strict(timeoutMs).then(
      (r) => {
        if (r) this.ws.event("update_applied");
      },
      () => {},
    );
  }

  /** Stops watching, flushes a pending snapshot. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.barrier?.close();
    this.barrier = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.checkTimer) clearTimeout(this.checkTimer);
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => {});
    await this.snapshots?.flush();
    this.snapshots?.dispose();
    this.ws.close();
  }

  /** The warm start or the first build; `restorePhaseOver` is called once no snapshot is being restored. */
  private async initialBuild(restorePhaseOver: () => void): Promise<void> {
    // A warm start and a build both scan the whole tree after the watcher started.
    this.takePending();
    this.lastFullScan = performance.now();
    const restored = this.snapshots
      ? await this.snapshots.restore(this.ws, this.serveStoredIndex ? restorePhaseOver : undefined)
      : { restored: false as const, reason: null };
    restorePhaseOver();
    if (restored.restored) {
      this.prepareLinkWhenIdle();
      const r = restored.update;
      this.log(
        `warm start: ${r.changed.length} changed and ${r.deleted.length} deleted files re-read, ${
          Math.round(r.totalMs)
        } ms`,
      );
      if (r.changed.length || r.deleted.length) this.snapshots?.changed(this.ws, { promptly: true });
      await this.writeSchemaCache();
      return;
    }
    if (restored.reason) this.log(restored.reason);
    const report = await this.ws.build();
    this.log(`indexed ${this.ws.config.projectDir} in ${Math.round(report.timings.totalMs)} ms`);
    this.snapshots?.changed(this.ws, { promptly: true });
    await this.writeSchemaCache();
  }

  /** The XSD set's model cache, after the first index is published (see `Workspace.writeSchemaCacheSteps`). */
  private async writeSchemaCache(): Promise<void> {
    if (this.disposed) return;
    await this.ws.newSlicer().drive(this.ws.writeSchemaCacheSteps());
  }

  /**
   * After a warm start that published the stored index as it was, the core has no link state and the
   * first edit would link in full: once nothing has run for {@link IDLE_LINK_MS}, link in the background
   * (in slices, not published) so that edits patch from the start ({@link linkPrepared} says when).
   * The stored index's reference sites are decoded first, also in slices, so the first query that
   * reads them does not wait for that (or for their refusal, when they do not decode).
   */
  private prepareLinkWhenIdle(): void {
    const later = () => {
      this.idleTimer = setTimeout(attempt, this.idleLinkMs);
      this.idleTimer.unref?.();
    };
    const attempt = () => {
      this.idleTimer = null;
      if (this.disposed) return;
      if (this.running) return later();
      this.linkPrepared = this.exclusive(async () => {
        await this.ws.decodeStoredSites();
        return this.ws.prepareIncrementalLink();
      }).catch(() => false);
    };
    later();
  }

  /** Runs `fn` after the running work; records failures (the last good index stays published). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const tracked = (this.running ?? Promise.resolve()).then(() => this.ready).then(fn).then(
      (v) => {
        this.lastError = null;
        return v;
      },
      (e) => {
        this.lastError = e instanceof Error ? e.message : String(e);
        this.log(`index update failed: ${this.lastError}`);
        throw e;
      },
    );
    const marker: Promise<void> = tracked.then(
      () => {},
      () => {},
    );
    this.running = marker;
    void marker.then(() => {
      if (this.running === marker) this.running = null;
    });
    return tracked;
  }

  private startWatching(watchFolder: WatchFolder): void {
    const cfg = this.ws.config;
    const roots = [cfg.projectDir, ...(cfg.sdk?.vanillaDir ? [cfg.sdk.vanillaDir] : [])];
    this.watchedRoots = roots;
    this.watchTrusted = true;
    for (const root of roots) {
      try {
        const w = watchFolder(root, {
          change: (name) => {
            if (name === null) {
              // The watcher lost track of what changed: the next strict call scans everything.
              this.watchLost = true;
              return this.changed(root);
            }
            if (NOISE.test(name)) return;
            this.changed(join(root, name));
          },
          error: (e) => {
            this.watchTrusted = false;
            this.log(`file watching stopped for ${root}: ${e.message}; use consistency "strict" for fresh answers`);
          },
        });
        this.watchers.push(w);
      } catch (e) {
        this.watchTrusted = false;
        this.log(`cannot watch ${root} (${(e as Error).message}); answers are re-validated on demand only`);
      }
    }
  }

  /** Records a changed path (file or folder) and schedules a debounced update. */
  changed(path: string): void {
    if (this.disposed) return;
    const cfg = this.ws.config;
    if (!isInside(path, cfg.projectDir) && !(cfg.sdk?.vanillaDir && isInside(path, cfg.sdk.vanillaDir))) return;
    this.pending.set(path, performance.now());
    this.namedDuringCheck?.add(pathKey(path));
    this.ws.event("files_changed");
    this.armUpdate(this.debounceMs);
  }

  /** (Re)schedules the update of the pending paths `ms` from now. */
  private armUpdate(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.exclusive(async () => {
        const paths = this.takePending();
        if (!this.ws.linked) return; // the first build reads everything anyway
        const r = await this.ws.refresh(paths);
        if (r.changed.length || r.deleted.length) {
          this.log(`updated ${r.changed.length + r.deleted.length} file(s) in ${Math.round(r.totalMs)} ms`);
          this.snapshots?.changed(this.ws);
        }
      }).catch(() => {});
    }, ms);
  }
}

/** `p`'s value, or false when `ms` pass first; the timer never outlives the race (it would keep the process alive). */
function within(p: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Whether `path` or a folder above it is among the path keys in `named`. */
function namedAbove(named: ReadonlySet<string>, path: string): boolean {
  for (let k = pathKey(path);;) {
    if (named.has(k)) return true;
    const up = k.lastIndexOf("/");
    if (up <= 0) return false;
    k = k.slice(0, up);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitUntil(done: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() >= deadline || signal?.aborted) return false;
    await sleep(Math.min(20, Math.max(1, deadline - Date.now())));
  }
  return true;
}
