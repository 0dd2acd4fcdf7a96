/**
 * The live index of a long-running process (the MCP server, `ra3 index --watch`): starts from a snapshot
 * when one is valid (else builds in the background), keeps the index current from file-watcher events
 * (debounced), re-validates stamps on demand (`consistency: "strict"`), and saves snapshots: the first
 * complete build at once, later changes after they have been quiet for a while. One update runs at a
 * time; changes arriving meanwhile cause one follow-up.
 */
import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";
import { isInside } from "../project/paths.ts";
import type { LinkedIndex } from "../index/linked.ts";
import type { IndexView } from "../query/envelope.ts";
import type { WorkspaceConfig } from "./config.ts";
import { type BuildProgress, type BuildReport, type UpdateReport, Workspace } from "./workspace.ts";

/** Where snapshots come from and go to (the snapshot store, or nothing). */
export interface SnapshotPort {
  /**
   * Warm-starts `ws` from a stored snapshot if a valid one exists (records installed, changed files
   * re-read, linked); otherwise returns a one-line reason (null when there simply was none yet).
   */
  restore(
    ws: Workspace,
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

export interface ServiceOptions {
  /** A snapshot port, or a factory given the workspace (the port needs its schema key). */
  readonly snapshots?: SnapshotPort | ((ws: Workspace) => SnapshotPort | null) | null;
  readonly watch?: boolean;
  /** Debounce for watcher events (ms). */
  readonly debounceMs?: number;
  /** Diagnostic lines (stderr in the binary). */
  readonly log?: (line: string) => void;
}

/** Path segments and names that are editor or VCS noise, never mod content. */
const NOISE = /(^|[\\/])(\.git|node_modules)([\\/]|$)|(\.tmp|\.lock|~|\.swp|\.bak|\.orig)$|(^|[\\/])\.[#~]/i;

export class IndexService {
  readonly ws: Workspace;
  private readonly log: (line: string) => void;
  private readonly debounceMs: number;
  private readonly snapshots: SnapshotPort | null;
  private watchers: FSWatcher[] = [];
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private startPromise: Promise<void> | null = null;
  private lastError: string | null = null;
  private disposed = false;

  constructor(config: WorkspaceConfig, options: ServiceOptions = {}) {
    this.ws = new Workspace(config);
    this.log = options.log ?? (() => {});
    this.debounceMs = options.debounceMs ?? 50;
    this.snapshots = typeof options.snapshots === "function" ? options.snapshots(this.ws) : (options.snapshots ?? null);
    if (options.watch) this.startWatching();
  }

  /** Starts the warm start or the first build in the background (idempotent). */
  start(): Promise<void> {
    if (!this.startPromise) {
      // Say "building" at once: until the job runs the envelope would say no_index, which tells an
      // agent to stop using the tools.
      if (!this.ws.linked) this.ws.event("build_started");
      this.startPromise = this.exclusive(() => this.initialBuild());
    }
    return this.startPromise;
  }

  view(): IndexView {
    return this.ws.view();
  }

  get linked(): LinkedIndex | null {
    return this.ws.linked;
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
   * Strict consistency: finish the running work, then re-validate every stamp and apply what changed.
   * Returns null (and leaves the index as it is) when the timeout passes first.
   */
  async strict(timeoutMs: number, signal?: AbortSignal): Promise<UpdateReport | null> {
    const deadline = Date.now() + timeoutMs;
    const started = await within(this.start().then(() => true, () => true), timeoutMs);
    if (!started || signal?.aborted) return null;
    if (this.running) {
      const done = await within(this.running.then(() => true), Math.max(0, deadline - Date.now()));
      if (!done || signal?.aborted) return null;
    }
    return this.exclusive(() => this.ws.refresh());
  }

  /** Forces a full rebuild (`reindex`). */
  reindex(progress?: BuildProgress, signal?: AbortSignal): Promise<BuildReport> {
    return this.exclusive(async () => {
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
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => {});
    await this.snapshots?.flush();
    this.snapshots?.dispose();
    this.ws.close();
  }

  private async initialBuild(): Promise<void> {
    const restored = this.snapshots
      ? await this.snapshots.restore(this.ws)
      : { restored: false as const, reason: null };
    if (restored.restored) {
      const r = restored.update;
      this.log(
        `warm start: ${r.changed.length} changed and ${r.deleted.length} deleted files re-read, ${
          Math.round(r.totalMs)
        } ms`,
      );
      if (r.changed.length || r.deleted.length) this.snapshots?.changed(this.ws, { promptly: true });
      return;
    }
    if (restored.reason) this.log(restored.reason);
    const report = await this.ws.build();
    this.log(`indexed ${this.ws.config.projectDir} in ${Math.round(report.timings.totalMs)} ms`);
    this.snapshots?.changed(this.ws, { promptly: true });
  }

  /** Runs `fn` after the running work; records failures (the last good index stays published). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const tracked = (this.running ?? Promise.resolve()).then(fn).then(
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

  private startWatching(): void {
    const cfg = this.ws.config;
    const roots = [cfg.projectDir, ...(cfg.sdk?.vanillaDir ? [cfg.sdk.vanillaDir] : [])];
    for (const root of roots) {
      try {
        const w = watch(root, { recursive: true }, (_event, filename) => {
          if (!filename) return this.changed(root);
          const name = filename.toString();
          if (NOISE.test(name)) return;
          this.changed(join(root, name));
        });
        w.on(
          "error",
          (e) =>
            this.log(`file watching stopped for ${root}: ${e.message}; use consistency "strict" for fresh answers`),
        );
        this.watchers.push(w);
      } catch (e) {
        this.log(`cannot watch ${root} (${(e as Error).message}); answers are re-validated on demand only`);
      }
    }
  }

  /** Records a changed path (file or folder) and schedules a debounced update. */
  changed(path: string): void {
    if (this.disposed) return;
    const cfg = this.ws.config;
    if (!isInside(path, cfg.projectDir) && !(cfg.sdk?.vanillaDir && isInside(path, cfg.sdk.vanillaDir))) return;
    this.pending.add(path);
    this.ws.event("files_changed");
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const paths = [...this.pending];
      this.pending.clear();
      void this.exclusive(async () => {
        if (!this.ws.linked) return; // the first build reads everything anyway
        const r = await this.ws.refresh(paths);
        if (r.changed.length || r.deleted.length) {
          this.log(`updated ${r.changed.length + r.deleted.length} file(s) in ${Math.round(r.totalMs)} ms`);
          this.snapshots?.changed(this.ws);
        }
      }).catch(() => {});
    }, this.debounceMs);
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
