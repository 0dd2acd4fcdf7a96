/**
 * Connects a workspace to the snapshot store: warm start (install the stored records whose stamps still
 * match, re-read the rest), saving (the core's records + stamps), and the quiet-period port the live
 * service uses so a burst of edits causes one write, not one per edit.
 */
import { CorruptRecord, type Snapshot, SNAPSHOT_SCHEMA_VERSION } from "../store/codec.ts";
import { CorruptSites } from "../store/link-codec.ts";
import { QuietPeriodWriter } from "../store/scheduler.ts";
import { type SaveResult, SnapshotStore } from "../store/snapshot-store.ts";
import { planWarmStart, snapshotFiles } from "../store/warm-start.ts";
import { pathKey } from "../project/paths.ts";
import type { ScannedFile } from "../project/scan.ts";
import type { FileStamp } from "../index/core.ts";
import { runSteps } from "../steps.ts";
import { TOOL_VERSION } from "../version.ts";
import { memoryPacer } from "./memory.ts";
import type { LoadedSchema } from "./schema.ts";
import type { SnapshotPort } from "./service.ts";
import type { UpdateReport, Workspace } from "./workspace.ts";

/**
 * Identifies the schema records were extracted with: a snapshot made with another XSD set (or none) is
 * stale as a whole. The XSD set's content key (its files' bytes, digested while they were read), not a
 * hash of the model's JSON, which cost ≈ 20 ms on every run with a schema.
 */
export function schemaKeyOf(schema: LoadedSchema): string {
  if (!schema.queries || schema.contentKey === null) return "none";
  return schema.contentKey;
}

/** The snapshot of a workspace's current records. */
function snapshotOf(ws: Workspace, schemaKey: string): Snapshot {
  return runSteps(snapshotOfSteps(ws, schemaKey));
}

/**
 * {@link snapshotOf} in steps, for a server's save: the records are taken first, the linked section
 * after them in steps ({@link Workspace.storedLinkSteps}), and left out when a record changed meanwhile
 * (the snapshot is then the records' alone, as a save of records not yet linked is).
 */
function* snapshotOfSteps(ws: Workspace, schemaKey: string): Generator<void, Snapshot, void> {
  const view = ws.view();
  const stats: Record<string, number> = {};
  if (ws.linked) { for (const [k, v] of Object.entries(ws.linked.stats)) stats[k] = v; }
  const revision = ws.core.revision;
  const files = snapshotFiles(ws.core);
  yield;
  const linked = yield* ws.storedLinkSteps();
  return {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    toolVersion: TOOL_VERSION,
    projectDir: ws.config.projectDir,
    sdkDir: ws.config.sdk?.dir ?? null,
    schemaKey,
    generatedAt: view.builtAt ?? new Date().toISOString(),
    buildId: view.buildId,
    phase: view.lifecycle.complete ? "art" : "xml",
    complete: view.lifecycle.complete,
    stale: view.lifecycle.state === "stale",
    stats,
    files,
    linked: revision === ws.core.revision ? linked : null,
  };
}

export type WarmStartResult =
  | {
    readonly warm: true;
    readonly reused: number;
    readonly update: UpdateReport;
    readonly loadMs: number;
    /**
     * What came of the snapshot's linked section: `index` (published as stored: no walk, no link),
     * `walk` (its include walk reused, the records re-linked), `stale` (its facts no longer hold: walked
     * and linked), `refused` (it did not hold together), `none` (the snapshot had none).
     */
    readonly linked: "index" | "walk" | "stale" | "refused" | "none";
    /**
     * Set when a stored record did not decode once it was read (the records are decoded lazily): the
     * snapshot's records were then read again from the files (the index is theirs) and it is rewritten.
     */
    readonly problem?: string;
  }
  | { readonly warm: false; readonly reason: string; readonly quiet: boolean };

/**
 * Starts `ws` from its stored snapshot (after removing what crashed writers left): one scan of the disk,
 * then the records whose stamp still matches are installed, changed, added and deleted files re-read and
 * the index linked. Returns why not when there is no usable snapshot (`quiet` when that is simply the
 * first run).
 *
 * The snapshot's linked section, when its facts still hold (the same configuration, scan report and
 * folder listings) and no file appeared or went, gives the include walk; when no record changed either,
 * it is the index, published as stored (no walk, no link).
 *
 * With `served` (a server, whose requests wait for the stored index, never for re-reads): a linked
 * section is published as soon as it is decoded, marked stale until the scan has compared it with the
 * disk, and `served` called; without one, when the scan found files to re-read or drop, every stored
 * record is first installed and linked as it is, published marked stale, and `served` called. The
 * refresh then replaces the changed records and drops the vanished ones while queries answer from the
 * stored index. The result equals the one-pass warm start's.
 */
export async function warmStart(
  ws: Workspace,
  store: SnapshotStore,
  schemaKey: string,
  served?: () => void,
): Promise<WarmStartResult> {
  const t = performance.now();
  // The run before may still be writing the snapshot after its answer (`cli/detach.ts`): wait for it.
  await store.waitForWriter();
  // A writer killed mid-save left its temporary file: remove it before anything else is written.
  store.cleanLeftovers();
  // Records are decoded when read (most warm starts read none): one that then does not decode is refused.
  let problem: string | null = null;
  ws.onRecordProblem = (message) => {
    problem ??= message;
    store.forgetLoaded(); // the next save rewrites the snapshot
  };
  // In time slices: a server keeps answering while the snapshot is decoded.
  const slicer = ws.newSlicer();
  let servedEarly = false;
  const loaded = await store.loadInSteps(
    { projectDir: ws.config.projectDir, toolVersion: TOOL_VERSION, schemaKey },
    () => slicer.pause(),
    served
      ? (linked, header) => {
        // A server answers from the stored index at once; the records are decoded after.
        ws.continueFrom(header.buildId);
        ws.publishStoredLink(linked, header.complete, header.generatedAt);
        if (header.complete) ws.event("files_changed"); // not yet compared with the disk
        servedEarly = true;
        served();
      }
      : undefined,
    true,
  );
  if (!loaded.ok) {
    return { warm: false, reason: `${loaded.message}; rebuilding the index`, quiet: loaded.reason === "missing" };
  }
  const snapshot = loaded.snapshot;
  ws.continueFrom(snapshot.buildId);
  // One stat pass: the scan's stamps decide which records to reuse, then the refresh starts from them.
  // (Its folder listings also serve the include walk, and its case collisions are reported by the link.)
  const scanned = await ws.scanAll(snapshot.files);
  // Each path's key once (it was computed four times per file), and a pause between the parts: at
  // Corona scale (11k files) each takes 5–25 ms, which a server must not spend in one block.
  const keys = snapshot.files.map((f) => pathKey(f.path));
  const scannedKeys = scanned.map((f) => pathKey(f.path));
  await slicer.pause();
  const scannedStamps = new Map<string, FileStamp>();
  for (let i = 0; i < scanned.length; i++) {
    scannedStamps.set(scannedKeys[i], { size: scanned[i].size, mtimeMs: scanned[i].mtimeMs });
  }
  // A stored file the scan does not list (inside a root but of a kind the scan skips, e.g. an include
  // target `.inc`, or one the confined scan left out) is stamped by `confinedStamps` (null when it may
  // not be read now).
  const stat = ws.confinedStamps();
  const plan = planWarmStart(snapshot.files, (path, i) => scannedStamps.get(keys[i]) ?? stat(path));
  const stored = new Set(keys);
  let added = 0;
  for (const key of scannedKeys) if (!stored.has(key)) added++;
  // Stored files the scan did not list (stamped by a stat instead): the refresh forgets and re-reads them.
  const unscanned = snapshot.files.length - (scanned.length - added);
  const refreshWork = plan.changed.length + plan.vanished.length + added;
  const link = snapshot.linked ?? null;
  await slicer.pause();
  // The stored walk holds while no file appeared or went and the folders list as they did.
  const walkHolds = link !== null && plan.vanished.length === 0 && added === 0 &&
    await slicer.drive(ws.storedLinkHoldsSteps(link));
  const indexHolds = walkHolds && plan.changed.length === 0;
  await slicer.pause();
  const vanished = new Set(plan.vanished.map(pathKey));
  const kept = vanished.size === 0 ? snapshot.files : snapshot.files.filter((_, i) => !vanished.has(keys[i]));
  const install = async () => {
    for (let i = 0; i < kept.length; i += INSTALL_PER_STEP) {
      ws.installRecords(kept.slice(i, i + INSTALL_PER_STEP));
      await slicer.pause();
    }
  };
  if (servedEarly) {
    await install();
  } else if (indexHolds) {
    await install();
    ws.publishStoredLink(link, snapshot.complete, snapshot.generatedAt);
  } else if (served && refreshWork > 0) {
    // Served as stored, but for the files gone or now outside the roots (a record an older ra3 read
    // there, a link retargeted): the index never holds what the confinement would not read.
    await install();
    try {
      await ws.serveStored(snapshot.complete, snapshot.generatedAt);
      served();
    } catch (e) {
      // A stored record did not decode: the refresh below reads the snapshot's files again.
      if (!(e instanceof CorruptRecord)) throw e;
      ws.refuseDeferred(e);
    }
  } else {
    // Changed records too: re-read in place, an edit that keeps the include structure keeps the walk.
    await install();
    ws.event("build_started");
  }
  if (walkHolds) ws.adoptStoredLink(link, indexHolds);
  // A linked section that was not the index is stale or missing: the next save writes a current one.
  if (!indexHolds) store.forgetLoaded();
  const loadMs = performance.now() - t;
  // The stored index holds and the scan listed every stored file as stored: the refresh would find
  // nothing to re-read, drop or link (it compares the same stamps again), so the index is confirmed.
  const asStored = indexHolds && unscanned === 0;
  const update = asStored ? ws.confirmCurrent() : await ws.refreshFrom(scanned);
  // Saving this workspace while it still serves that index stores what the file holds: no need to hash it.
  if (asStored && snapshot.projectDir === ws.config.projectDir && snapshot.sdkDir === (ws.config.sdk?.dir ?? null)) {
    servedAsStored.set(ws, store);
  }
  ws.event("build_done");
  return {
    warm: true,
    reused: plan.reuse.length,
    update,
    loadMs: Math.round(loadMs * 10) / 10,
    linked: indexHolds ? "index" : walkHolds ? "walk" : link ? "stale" : snapshot.linkedProblem ? "refused" : "none",
    ...(problem === null ? {} : { problem }),
  };
}

/**
 * The store whose loaded snapshot a workspace published as its index with nothing to re-read (while
 * `Workspace.servesStoredIndex` holds, a save would store that snapshot's state: see {@link saveSnapshot}).
 */
const servedAsStored = new WeakMap<Workspace, SnapshotStore>();

/** Stored records installed between two pauses of a warm start. */
const INSTALL_PER_STEP = 2048;

/**
 * A stat function answering from `scanned` (by any spelling of the path); a file the scan does not list
 * (inside a root but of a kind the scan skips, e.g. an include target `.inc`, or one the confined scan
 * left out) is asked of `stat` (`Workspace.confinedStamps`: null when it may not be read now).
 */
function stampIn(
  scanned: readonly Pick<ScannedFile, "path" | "size" | "mtimeMs">[],
  stat: (path: string) => FileStamp | null,
): (path: string) => FileStamp | null {
  const byKey = new Map<string, FileStamp>();
  for (const f of scanned) byKey.set(pathKey(f.path), { size: f.size, mtimeMs: f.mtimeMs });
  return (path) => byKey.get(pathKey(path)) ?? stat(path);
}

/** Between two steps of a save run at once: the process's memory pacer (a huge index's save). */
const paceMemory = (): void => memoryPacer.step();

/** Saves the workspace's snapshot; a failure is a value (the index keeps working). */
export function saveSnapshot(
  ws: Workspace,
  store: SnapshotStore,
  schemaKey: string,
  onLocked?: () => void,
): SaveResult {
  if (servedAsStored.get(ws) === store && ws.servesStoredIndex) {
    // The stored index, published as it was, nothing changed since: the state is the loaded file's.
    const unchanged = store.unchangedSinceLoad();
    if (unchanged) return unchanged;
  }
  const snapshot = snapshotOf(ws, schemaKey);
  try {
    return store.save(snapshot, paceMemory, onLocked);
  } catch (e) {
    const refused = refusedPart(e);
    if (!("sites" in refused)) return refused;
    let outcome: { result: SaveResult } | { error: unknown };
    try {
      outcome = { result: store.save({ ...snapshot, linked: null }, paceMemory, onLocked) };
    } catch (again) {
      outcome = { error: again };
    }
    return afterRetry(ws, refused.sites, outcome);
  }
}

/**
 * What a save does when a stored part of `snapshot` did not decode as the store read it (`e`: the store
 * throws those, and returns I/O failures as values), the one rule of both save paths: a deferred record —
 * nothing is written (the record's reason is the result; the next run reads that snapshot's files again
 * when it meets the record); the stored sites — returned, and the caller saves `snapshot` again without its
 * linked section (the records may be good: the next warm start links them), see {@link afterRetry}.
 * Anything else is rethrown.
 */
function refusedPart(e: unknown): SaveResult | { readonly sites: CorruptSites } {
  if (e instanceof CorruptRecord) return { saved: false, reason: "error", message: e.message };
  if (!(e instanceof CorruptSites)) throw e;
  return { sites: e };
}

/**
 * What the save again without the linked section gave (`outcome`: its result, or what it threw), the
 * stored sites' refusal said once with it: saved without the linked section, or not saved and why (a
 * record that does not decode, met only now: the linked section is written first).
 */
function afterRetry(
  ws: Workspace,
  sites: CorruptSites,
  outcome: { readonly result: SaveResult } | { readonly error: unknown },
): SaveResult {
  let r: SaveResult;
  if ("result" in outcome) r = outcome.result;
  else {
    const refused = refusedPart(outcome.error);
    r = "sites" in refused ? { saved: false, reason: "error", message: refused.sites.message } : refused;
  }
  ws.onRecordProblem?.(
    r.saved || r.reason === "unchanged"
      ? `${sites.message}; the snapshot was saved without its linked section`
      : `${sites.message}; the snapshot was not saved (${r.message})`,
  );
  return r;
}

/**
 * The snapshot port of the live service: warm start on restore, the first complete build saved promptly,
 * later saves quiet-period merged; the store skips any save of the state already on disk.
 */
export class StoreSnapshotPort implements SnapshotPort {
  readonly store: SnapshotStore;
  private readonly writer: QuietPeriodWriter;
  private ws: Workspace | null = null;
  private warm: Promise<WarmStartResult> | null = null;

  constructor(
    home: string,
    projectDir: string,
    private readonly schemaKey: string,
    private readonly log: (line: string) => void = () => {},
    quietMs = 3000,
  ) {
    this.store = new SnapshotStore(home, projectDir);
    this.writer = new QuietPeriodWriter(
      async () => {
        if (!this.ws) return;
        // In time slices: a server keeps answering while the snapshot is taken and encoded. Started by a
        // timer, the save first lets waiting requests in (it may run right after a link's last step).
        const slicer = this.ws.newSlicer();
        await slicer.yieldNow();
        const pause = () => slicer.pause();
        const snapshot = await slicer.drive(snapshotOfSteps(this.ws, this.schemaKey));
        let r;
        try {
          r = await this.store.saveInSteps(snapshot, pause);
        } catch (e) {
          const refused = refusedPart(e);
          if ("sites" in refused) {
            let outcome: { result: SaveResult } | { error: unknown };
            try {
              outcome = { result: await this.store.saveInSteps({ ...snapshot, linked: null }, pause) };
            } catch (again) {
              outcome = { error: again };
            }
            r = afterRetry(this.ws, refused.sites, outcome);
          } else r = refused;
        }
        if (!r.saved && r.reason !== "unchanged") this.log(`snapshot not saved: ${r.message}`);
      },
      quietMs,
      undefined,
      (e) => this.log(`snapshot not saved: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  async restore(
    ws: Workspace,
    served?: () => void,
  ): Promise<{ restored: true; update: UpdateReport } | { restored: false; reason: string | null }> {
    this.ws = ws;
    this.warm = warmStart(ws, this.store, this.schemaKey, served);
    const r = await this.warm;
    // A stored record found not to decode later (by an edit's link): said, and the snapshot rewritten.
    ws.onRecordProblem = (message) => {
      this.store.forgetLoaded();
      this.log(message);
    };
    if (r.warm && r.problem) this.log(r.problem);
    if (r.warm) return { restored: true, update: r.update };
    return { restored: false, reason: r.quiet ? null : r.reason };
  }

  changed(ws: Workspace, options: { readonly promptly?: boolean } = {}): void {
    this.ws = ws;
    if (options.promptly) this.writer.changedPromptly();
    else this.writer.changed();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  dispose(): void {
    this.writer.dispose();
  }
}

export interface SnapshotInspection {
  readonly path: string;
  /** Null when there is no usable snapshot; `reason` says why. */
  readonly meta: {
    readonly generatedAt: string;
    readonly buildId: number;
    readonly size: number;
    readonly files: number;
    readonly complete: boolean;
  } | null;
  readonly reason: string | null;
  /** Files whose stamp differs from the snapshot's, files on disk it does not have, files it has that are gone. */
  readonly changed: readonly string[];
  readonly added: readonly string[];
  readonly deleted: readonly string[];
}

/**
 * Loads the snapshot into `ws` without re-reading anything (the index is the stored link when nothing
 * changed and it still holds, else linked from the stored records as they are, without those of files
 * gone or now outside the roots) and lists what on disk no longer matches it. For `ra3 status`: cheap
 * and read-only.
 */
export function inspectSnapshot(
  ws: Workspace,
  store: SnapshotStore,
  schemaKey: string,
  scanned: readonly { path: string; size: number; mtimeMs: number }[],
): SnapshotInspection {
  const loaded = store.load({ projectDir: ws.config.projectDir, toolVersion: TOOL_VERSION, schemaKey });
  if (!loaded.ok) return { path: store.path, meta: null, reason: loaded.message, changed: [], added: [], deleted: [] };
  const s = loaded.snapshot;
  const plan = planWarmStart(s.files, stampIn(scanned, ws.confinedStamps()));
  // As stored, but for the files gone or now outside the roots (see warmStart).
  const gone = new Set(plan.vanished.map(pathKey));
  ws.installRecords(s.files.filter((f) => !gone.has(pathKey(f.path))));
  ws.continueFrom(s.buildId);
  const known = new Set(s.files.map((f) => pathKey(f.path)));
  const added = scanned.filter((f) => !known.has(pathKey(f.path))).map((f) => f.path);
  const moved = plan.changed.length + plan.vanished.length + added.length > 0;
  if (!moved && s.linked && ws.storedLinkHolds(s.linked)) {
    // Nothing changed and the stored link still holds: its index, not a link of the records.
    ws.publishStoredLink(s.linked, s.complete, s.generatedAt);
    ws.adoptStoredLink(s.linked, true);
  } else ws.restoreLinked(s.complete, moved, s.generatedAt);
  const meta = store.meta();
  return {
    path: store.path,
    meta: {
      generatedAt: s.generatedAt,
      buildId: s.buildId,
      size: meta?.size ?? 0,
      files: s.files.length,
      complete: s.complete,
    },
    reason: null,
    changed: plan.changed,
    added,
    deleted: plan.vanished,
  };
}

/** What the meta file of a saved snapshot says (read without decoding the snapshot). */
export interface SavedSnapshotFacts {
  readonly generatedAt: string;
  readonly buildId: number;
  readonly complete: boolean;
}

/**
 * The snapshot saved for `projectDir` by this version of ra3, as its meta file describes it, or null
 * when there is none (or it is another version's or another project's, which a warm start would reject).
 * @example savedSnapshot(home, "/mods/MyMod")?.buildId // 12
 */
export function savedSnapshot(home: string, projectDir: string): SavedSnapshotFacts | null {
  const meta = new SnapshotStore(home, projectDir).meta();
  if (!meta || meta.toolVersion !== TOOL_VERSION || pathKey(meta.projectDir) !== pathKey(projectDir)) return null;
  return { generatedAt: meta.generatedAt, buildId: meta.buildId, complete: meta.complete };
}
