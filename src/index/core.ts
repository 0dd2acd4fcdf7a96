/**
 * The index core: holds one record per file and links them on demand. Changes come in through
 * {@link IndexCore.applyChanges} (bytes or deletions, from a scan, a watcher, a snapshot or a test);
 * the core never reads the file system itself.
 */
import { pathKey } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import {
  includesMovedOnly,
  type MovedIncludes,
  shiftedWalk,
  type WalkResult,
  walkStreamsSteps,
} from "./include-walk.ts";
import { type LinkState, relinkSteps } from "./link.ts";
import type { KeyedFile, LinkInputs, LoadedFile, RecordLookup } from "./link-context.ts";
import type { LinkedIndex } from "./linked.ts";
import { parseFile, parseFileSteps } from "./parse-file.ts";
import { runSteps, sortSteps } from "../steps.ts";
import type { FileRecord } from "./records.ts";

/** A file's size and modification time: what a warm start compares. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * True when two stamps of a file say it did not change: the same size and modification time, the time
 * compared in whole milliseconds when one side holds only those — Deno's `statSync` truncates the time
 * to milliseconds where Bun and Node keep the fraction, so a snapshot one of them wrote would otherwise
 * make the other re-read every file of a checkout with sub-millisecond times.
 * @example sameStamp({ size: 1, mtimeMs: 1000 }, { size: 1, mtimeMs: 1000.8 }) // true
 */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  if (a.size !== b.size) return false;
  if (a.mtimeMs === b.mtimeMs) return true;
  return (Number.isInteger(a.mtimeMs) || Number.isInteger(b.mtimeMs)) &&
    Math.trunc(a.mtimeMs) === Math.trunc(b.mtimeMs);
}

export type FileChange =
  | { readonly path: string; readonly bytes: Uint8Array; readonly stamp?: FileStamp }
  | { readonly path: string; readonly deleted: true };

export interface StoredFile extends LoadedFile {
  readonly stamp: FileStamp | null;
  readonly key: string;
}

/** A file whose record is produced when first read (a snapshot's lazily decoded file), and then kept. */
export interface DeferredRecord {
  readonly path: string;
  readonly stamp: FileStamp | null;
  /** May throw the first time (a record that does not decode); the core passes that to its reader. */
  readonly record: FileRecord;
  /** Whether `record` has been produced yet. */
  readonly decoded: boolean;
}

/** Whether `f`'s record is deferred and not produced yet (reading `f.record` would produce it). */
export function recordPending(f: StoredFile): boolean {
  return f instanceof DeferredFile && !f.source.decoded;
}

/** A stored file whose record comes from a {@link DeferredRecord} when something reads it. */
class DeferredFile implements StoredFile {
  constructor(readonly key: string, readonly source: DeferredRecord) {}
  get path(): string {
    return this.source.path;
  }
  get stamp(): FileStamp | null {
    return this.source.stamp;
  }
  get record(): FileRecord {
    return this.source.record;
  }
}

/**
 * Where a file's record goes in the link's order: lower first, then by path. The order is then a
 * function of the set of files, not of the order they were read in, so a refreshed index equals a fresh
 * build. Without one, records keep the order they were first stored in (in-memory fixtures).
 */
export type RecordRank = (path: string) => number;

/** Files ranked between two yields of the link order made in steps. */
const ORDER_STEP = 2048;

export class IndexCore implements RecordLookup {
  private readonly files = new Map<string, StoredFile>();
  /** The keys in link order ({@link RecordRank}, then path); null after a file appeared or went. */
  private ordered: string[] | null = null;
  /**
   * The records with their keys in link order, and each key's position; null after a file appeared or
   * went. A changed record gets a new list (copied, one entry replaced): a link's state keeps the old one.
   */
  private keyedList: { readonly list: KeyedFile[]; readonly at: Map<string, number> } | null = null;
  /** Bumped only when a change can alter the include walk (files appear or go, includes change). */
  private structureVersion = 0;
  private walkCache: { version: number; inputs: LinkInputs; result: WalkResult } | null = null;
  /**
   * Records whose includes only moved since the cached walk (an asset or a line added above them): the walk
   * is that one with their places shifted ({@link shiftedWalk}), made when it is next asked for.
   */
  private moved: MovedIncludes[] = [];
  /** What the last link left for the next one (an explicit value: a restored snapshot could provide it). */
  private linkState: LinkState | null = null;
  /** null when the last link was patched from the one before; else why it was a full link. */
  private lastFull: string | null = "no link yet";
  /** Bumped on every change of a record (a link of the records as they are now is current while it holds). */
  private revisionCount = 0;

  constructor(readonly schema: SchemaQueries | null, private readonly rank?: RecordRank) {}

  /**
   * Parses each changed file into its record (or forgets deleted ones). Returns how many were parsed.
   * @example core.applyChanges([{ path: "/m/Data/Mod.xml", bytes }])
   */
  applyChanges(changes: readonly FileChange[]): number {
    let parsed = 0;
    for (const c of changes) {
      const key = pathKey(c.path);
      if ("deleted" in c) {
        if (this.files.delete(key)) {
          this.structureChanged();
          this.revisionCount++;
          this.ordered = null;
          this.keyedList = null;
        }
        continue;
      }
      this.store(key, { path: c.path, record: parseFile(c.path, c.bytes, this.schema), stamp: c.stamp ?? null, key });
      parsed++;
    }
    return parsed;
  }

  /**
   * {@link applyChanges} for one file, its parse in steps of about `stepChars` characters (see
   * `parseFileSteps`): for one big file while other work must run. The record is stored after the last
   * step, so the core holds no half-parsed record between steps. Returns 1 (files parsed). An XML
   * file's bytes are decoded by this call and not held by the steps (see `parseFileSteps`).
   */
  applyChangeSteps(
    change: { readonly path: string; readonly bytes: Uint8Array; readonly stamp?: FileStamp },
    stepChars: number,
  ): Generator<void, number, void> {
    return this.storeParsed(
      change.path,
      change.stamp ?? null,
      parseFileSteps(change.path, change.bytes, this.schema, stepChars),
    );
  }

  private *storeParsed(
    path: string,
    stamp: FileStamp | null,
    parse: Generator<void, FileRecord, void>,
  ): Generator<void, number, void> {
    const record = yield* parse;
    const key = pathKey(path);
    this.store(key, { path, record, stamp, key });
    return 1;
  }

  /** Installs an already-extracted record (warm start from a snapshot). */
  setRecord(path: string, record: FileRecord, stamp: FileStamp | null): void {
    const key = pathKey(path);
    this.store(key, { path, record, stamp, key });
  }

  /**
   * Installs a record that is produced only when something reads it (a warm start's lazily decoded
   * snapshot file): a link, an export, a refresh replacing it. Until then it costs nothing.
   */
  setDeferred(file: DeferredRecord): void {
    const key = pathKey(file.path);
    this.store(key, new DeferredFile(key, file));
  }

  /** How many records installed with {@link setDeferred} have not been produced yet. */
  get deferredCount(): number {
    let n = 0;
    for (const f of this.files.values()) if (recordPending(f)) n++;
    return n;
  }

  /**
   * Forgets every record installed with {@link setDeferred}, produced or not (their source proved
   * untrustworthy: one of them did not decode), and returns their paths: the caller reads them again.
   */
  dropDeferred(): string[] {
    const paths: string[] = [];
    for (const f of this.files.values()) if (f instanceof DeferredFile) paths.push(f.path);
    this.applyChanges(paths.map((path) => ({ path, deleted: true as const })));
    // A link interrupted by the record that did not decode may have left its state half updated.
    this.linkState = null;
    this.walkCache = null;
    this.moved = [];
    return paths;
  }

  private store(key: string, stored: StoredFile): void {
    const old = this.files.get(key);
    const path = stored.path;
    this.files.set(key, stored);
    if (!old || old.path !== path) {
      this.ordered = null;
      this.keyedList = null;
    } else if (this.keyedList) {
      const list = this.keyedList.list.slice();
      list[this.keyedList.at.get(key)!] = { loaded: stored, key };
      this.keyedList = { list, at: this.keyedList.at };
    }
    this.revisionCount++;
    // Editing values leaves the include graph as it was: the walk can be reused (with the places of its
    // includes shifted when only those changed).
    if (!old || old.path !== path) this.structureChanged();
    else if (!sameStructure(old, stored)) {
      const c = this.walkCache;
      if (c && c.version === this.structureVersion && movedOnly(old, stored)) {
        this.moved.push({ path, before: old.record, after: stored.record });
      } else this.structureChanged();
    }
  }

  /** A change that can alter the include walk: the cached walk (and its pending shifts) no longer hold. */
  private structureChanged(): void {
    this.structureVersion++;
    this.moved = [];
  }

  /** The cached walk, with the places of moved includes shifted first (see {@link moved}). */
  private cachedWalk(c: { version: number; inputs: LinkInputs; result: WalkResult }): WalkResult {
    if (this.moved.length) {
      c.result = shiftedWalk(c.result, this.moved, c.inputs);
      this.moved = [];
    }
    return c.result;
  }

  /** A number that changes whenever a change can alter the include walk (files appear or go, includes change). */
  get structure(): number {
    return this.structureVersion;
  }

  /** A number that changes whenever any record changes, appears or goes. */
  get revision(): number {
    return this.revisionCount;
  }

  /**
   * Takes `walk` as the include walk of the records as they are now through `inputs` (a stored walk,
   * whose facts the caller has checked): links reuse it until a change alters the include structure.
   */
  adoptWalk(inputs: LinkInputs, walk: WalkResult): void {
    this.walkCache = { version: this.structureVersion, inputs, result: walk };
    this.moved = [];
  }

  /** The include walk of the records as they are now, when one has been made (or adopted); else null. */
  currentWalk(inputs: LinkInputs): WalkResult | null {
    const c = this.walkCache;
    return c && c.version === this.structureVersion && c.inputs === inputs ? this.cachedWalk(c) : null;
  }

  get(key: string): StoredFile | undefined {
    return this.files.get(key);
  }

  /** The stored file for any spelling of `path`. */
  file(path: string): StoredFile | undefined {
    return this.files.get(pathKey(path));
  }

  /** How many files have a record. */
  get size(): number {
    return this.files.size;
  }

  /** Every stored file in link order (see {@link RecordRank}). */
  *values(): IterableIterator<StoredFile> {
    const files = this.files;
    if (!this.rank) {
      yield* files.values();
      return;
    }
    for (const key of this.order(this.rank)) yield files.get(key)!;
  }

  /** Every stored file with its key, in link order. */
  keyed(): readonly KeyedFile[] {
    if (this.keyedList) return this.keyedList.list;
    const list: KeyedFile[] = [];
    const at = new Map<string, number>();
    for (const loaded of this.values()) {
      at.set(loaded.key, list.length);
      list.push({ loaded, key: loaded.key });
    }
    this.keyedList = { list, at };
    return list;
  }

  private order(rank: RecordRank): readonly string[] {
    if (!this.ordered) runSteps(this.orderSteps(rank));
    return this.ordered!;
  }

  /**
   * Makes the link order when it is out of date, in steps (the ranks a few thousand files at a time, then
   * a sort in steps): after files appeared, at Corona scale it was 35–50 ms in one piece. A driver runs
   * it before a walk in slices (see {@link prepareOrderSteps}); a change between its steps leaves the order
   * to be made at once when asked.
   */
  private *orderSteps(rank: RecordRank): Generator<void, void, void> {
    const revision = this.revisionCount;
    const keys: string[] = [];
    const paths: string[] = [];
    const ranks: number[] = [];
    for (const [key, f] of this.files) {
      keys.push(key);
      paths.push(f.path);
      ranks.push(rank(f.path));
      if (keys.length % ORDER_STEP === 0) yield;
    }
    // Keys are unique: a total order, so a sort in steps gives the one order.
    const compare = (x: number, y: number) =>
      ranks[x] - ranks[y] ||
      (paths[x] < paths[y] ? -1 : paths[x] > paths[y] ? 1 : keys[x] < keys[y] ? -1 : keys[x] > keys[y] ? 1 : 0);
    const at = Int32Array.from(keys, (_, i) => i);
    // Records installed in link order (a warm start installs a snapshot's, saved in this order) need no sort.
    let sorted = true;
    for (let i = 1; i < at.length && sorted; i++) sorted = compare(i - 1, i) <= 0;
    if (!sorted) yield* sortSteps(at, compare);
    if (this.revisionCount === revision) this.ordered = Array.from(at, (i) => keys[i]);
  }

  /** {@link orderSteps} when the records have a rank and the order is out of date; else nothing. */
  *prepareOrderSteps(): Generator<void, void, void> {
    if (this.rank && !this.ordered) yield* this.orderSteps(this.rank);
  }

  /** Files the include walk reaches that have no record yet. */
  wanted(inputs: LinkInputs): string[] {
    return runSteps(this.wantedSteps(inputs));
  }

  /** {@link wanted}, yielding within the include walk when it has to be made. */
  *wantedSteps(inputs: LinkInputs): Generator<void, string[], void> {
    return [...(yield* this.walkSteps(inputs)).wanted];
  }

  /** Links every record into an immutable index (from the last link's state when it can: see `relinkSteps`). */
  link(inputs: LinkInputs): LinkedIndex {
    return runSteps(this.linkSteps(inputs));
  }

  /** {@link link} yielding within the include walk and between the link phases (see `relinkSteps`). */
  *linkSteps(inputs: LinkInputs): Generator<void, LinkedIndex, void> {
    const walk = yield* this.walkSteps(inputs);
    yield;
    const { linked, state, fullBecause } = yield* relinkSteps(this, inputs, walk, this.linkState);
    this.linkState = state;
    this.lastFull = fullBecause;
    return linked;
  }

  /** Whether a link has left its state for the next one (a warm start that published a stored index has none). */
  get hasLinkState(): boolean {
    return this.linkState !== null;
  }

  /** Why the last link was a full one, or null when it was patched from the one before. */
  get lastLinkFullBecause(): string | null {
    return this.lastFull;
  }

  /**
   * The include walk, reused while no record changed (the driver asks for `wanted` and then links;
   * the walk is the same). Resolution caches are the ports' business: they are invalidated on
   * file creation and deletion, which also changes the records.
   */
  private *walkSteps(inputs: LinkInputs): Generator<void, WalkResult, void> {
    if (this.walkCache && this.walkCache.version === this.structureVersion && this.walkCache.inputs === inputs) {
      return this.cachedWalk(this.walkCache);
    }
    // The records cannot change while a driver's job runs in slices (one job at a time): the version
    // taken here is the one the walk describes (with every include where it is now).
    const version = this.structureVersion;
    this.moved = [];
    const result = yield* walkStreamsSteps(this, inputs);
    this.walkCache = { version, inputs, result };
    return result;
  }
}

/**
 * Whether `now` walks like `old`. A replaced deferred record is produced for this (one record); one that
 * cannot be (it does not decode) is being replaced anyway and counts as changed. A new deferred record is
 * not produced here: it counts as changed.
 */
function sameStructure(old: StoredFile, now: StoredFile): boolean {
  if (recordPending(now)) return false;
  if (recordPending(old)) {
    try {
      void old.record;
    } catch {
      return false;
    }
  }
  return structureOf(old.record) === structureOf(now.record);
}

/**
 * Whether `now` walks like `old` but for the places of its includes (see `includesMovedOnly`). Both records
 * are produced already when this is asked (after {@link sameStructure}); an undecodable one counts as changed.
 */
function movedOnly(old: StoredFile, now: StoredFile): boolean {
  if (recordPending(now)) return false;
  try {
    return includesMovedOnly(old.record, now.record) && restOf(old.record) === restOf(now.record);
  } catch {
    return false;
  }
}

/** What the include walk reads of a record besides its includes and xi:includes. */
function walkedRest(r: FileRecord): unknown[] {
  return [
    r.kind,
    r.fragment,
    r.rootName,
    r.streamSources,
    r.streamReferences,
    r.diagnostics.length > 0 && r.kind === "manifest",
  ];
}

/** {@link walkedRest} as one comparable string. */
function restOf(r: FileRecord): string {
  return JSON.stringify(walkedRest(r));
}

/**
 * Everything of a record the include walk reads (with positions, which the walk's edges and
 * diagnostics carry): two records with the same structure walk the same.
 */
function structureOf(r: FileRecord): string {
  return JSON.stringify([...walkedRest(r), r.includes, r.xincludes]);
}
