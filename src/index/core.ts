/**
 * The index core: holds one record per file and links them on demand. Changes come in through
 * {@link IndexCore.applyChanges} (bytes or deletions, from a scan, a watcher, a snapshot or a test);
 * the core never reads the file system itself.
 */
import { pathKey } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import { type WalkResult, walkStreamsSteps } from "./include-walk.ts";
import { type LinkState, relinkSteps } from "./link.ts";
import type { KeyedFile, LinkInputs, LoadedFile, RecordLookup } from "./link-context.ts";
import type { LinkedIndex } from "./linked.ts";
import { parseFile } from "./parse-file.ts";
import { runSteps } from "../steps.ts";
import type { FileRecord } from "./records.ts";

/** A file's size and modification time: what a warm start compares. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

export type FileChange =
  | { readonly path: string; readonly bytes: Uint8Array; readonly stamp?: FileStamp }
  | { readonly path: string; readonly deleted: true };

export interface StoredFile extends LoadedFile {
  readonly stamp: FileStamp | null;
  readonly key: string;
}

/**
 * Where a file's record goes in the link's order: lower first, then by path. The order is then a
 * function of the set of files, not of the order they were read in, so a refreshed index equals a fresh
 * build. Without one, records keep the order they were first stored in (in-memory fixtures).
 */
export type RecordRank = (path: string) => number;

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
          this.structureVersion++;
          this.revisionCount++;
          this.ordered = null;
          this.keyedList = null;
        }
        continue;
      }
      this.store(key, c.path, parseFile(c.path, c.bytes, this.schema), c.stamp ?? null);
      parsed++;
    }
    return parsed;
  }

  /** Installs an already-extracted record (warm start from a snapshot). */
  setRecord(path: string, record: FileRecord, stamp: FileStamp | null): void {
    this.store(pathKey(path), path, record, stamp);
  }

  private store(key: string, path: string, record: FileRecord, stamp: FileStamp | null): void {
    const old = this.files.get(key);
    const stored = { path, record, stamp, key };
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
    // Editing values leaves the include graph as it was: the walk can be reused.
    if (!old || old.path !== path || structureOf(old.record) !== structureOf(record)) this.structureVersion++;
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
  }

  /** The include walk of the records as they are now, when one has been made (or adopted); else null. */
  currentWalk(inputs: LinkInputs): WalkResult | null {
    const c = this.walkCache;
    return c && c.version === this.structureVersion && c.inputs === inputs ? c.result : null;
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
    if (this.ordered) return this.ordered;
    const ranked = [...this.files].map(([key, f]) => ({ key, path: f.path, rank: rank(f.path) }));
    ranked.sort((a, b) =>
      a.rank - b.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
    );
    this.ordered = ranked.map((r) => r.key);
    return this.ordered;
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
      return this.walkCache.result;
    }
    // The records cannot change while a driver's job runs in slices (one job at a time): the version
    // taken here is the one the walk describes.
    const version = this.structureVersion;
    const result = yield* walkStreamsSteps(this, inputs);
    this.walkCache = { version, inputs, result };
    return result;
  }
}

/**
 * Everything of a record the include walk reads (with positions, which the walk's edges and
 * diagnostics carry): two records with the same structure walk the same.
 */
function structureOf(r: FileRecord): string {
  return JSON.stringify([
    r.kind,
    r.fragment,
    r.rootName,
    r.includes,
    r.xincludes,
    r.streamSources,
    r.streamReferences,
    r.diagnostics.length > 0 && r.kind === "manifest",
  ]);
}
