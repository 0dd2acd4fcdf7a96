/**
 * The renumbering link's shifts: when changed files gain or lose assets (same files, same include walk),
 * every asset after the first changed one moves by what the changed files before it gained or lost. The
 * tables that hold asset indexes are then the earlier link's shifted, not made again: the asset table (the
 * changed files' entries made again, the others copied with their index moved), the rank order (the
 * earlier order renumbered, the changed files' assets inserted where they rank), the by-id and by-type
 * lists, the string uses and the Poid sites. Each equals what the full phase gives (the link's property
 * test compares every field and order with a fresh build).
 *
 * Why the shift is exact: an unchanged file keeps its record, its file entry and its place in the record
 * order, so each of its assets is the same but for its index, and the index map (earlier → now) is
 * increasing on them. Every order that ties by index (the rank order, the lists made from it) keeps the
 * relative order of the unchanged assets; only the changed files' assets have to be placed.
 */
import type { AssetTable, ManifestOwner, XiChildOwner } from "./link-assets.ts";
import { recordAsset } from "./link-assets.ts";
import type { KeyedFile, LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import type { StringTable } from "./link-strings.ts";
import {
  type AssetDef,
  byIdThenRank,
  byRank,
  LazyLists,
  LinkedAsset,
  plainAsset,
  type PoidSite,
  push,
  type RankedAssets,
  type StringUse,
} from "./linked.ts";

/** The asset table of a renumbering link and how the earlier numbering maps to it. */
export interface ShiftedTable {
  readonly table: AssetTable;
  /** Earlier asset index → this link's (-1: an asset of a changed file, made again). */
  readonly map: Int32Array;
  /** The lowest earlier index whose number changed (the map is the identity below it). */
  readonly lowest: number;
  /** The changed files' assets, this link's indexes (each file's in record order). */
  readonly added: readonly number[];
  /** The changed files' earlier assets, the earlier indexes. */
  readonly removed: readonly number[];
}

/** `a` numbered `index` (the same object when it already is). */
function moved(a: AssetDef, index: number): AssetDef {
  if (a.index === index) return a;
  // A spread would copy only a compact asset's own fields.
  return a instanceof LinkedAsset ? a.moved(index) : { ...plainAsset(a), index };
}

/**
 * The asset table of `previous` with the changed files' assets made again and every other asset moved to
 * its new index, or null when the earlier table does not hold a changed file (the caller links in full).
 * `files` holds this link's entries of the changed files (the others are the earlier link's).
 */
export function shiftAssets(
  ctx: LinkContext,
  previous: AssetTable,
  files: FileTable,
  changed: readonly KeyedFile[],
): ShiftedTable | null {
  const changedFiles = new Map<string, KeyedFile>();
  for (const f of changed) {
    if (!previous.recordAssets.has(f.key)) return null;
    changedFiles.set(f.key, f);
  }
  const before = previous.assets;
  const map = new Int32Array(before.length);
  // Made at the first changed file: every asset before it is the earlier one at the same index.
  let assets: AssetDef[] | null = null;
  // A copy keeps the files' order; only the changed files' and the moved files' lists are replaced.
  const recordAssets = new Map<string, readonly number[]>(previous.recordAssets);
  const added: number[] = [];
  const removed: number[] = [];
  // What the changed files seen so far gained (negative: lost).
  let delta = 0;
  let recordEnd = 0;
  for (const [key, was] of previous.recordAssets) {
    const f = changedFiles.get(key);
    if (f) {
      if (!assets) {
        assets = before.slice(0, recordEnd);
        for (let x = 0; x < recordEnd; x++) map[x] = x;
      }
      const info = files.get(key)!;
      const now: number[] = [];
      const n = f.loaded.record.assets.length;
      for (let i = 0; i < n; i++) {
        now.push(assets.length);
        added.push(assets.length);
        assets.push(recordAsset(ctx, f.loaded, info, i, assets.length));
      }
      for (const x of was) {
        map[x] = -1;
        removed.push(x);
      }
      recordAssets.set(key, now);
      delta += n - was.length;
    } else if (!assets) {
      // Before the first changed file: nothing to do.
    } else if (delta === 0) {
      for (const x of was) {
        map[x] = x;
        assets.push(before[x]);
      }
    } else {
      const now = new Array<number>(was.length);
      for (let j = 0; j < was.length; j++) {
        const x = was[j];
        now[j] = x + delta;
        map[x] = x + delta;
        assets.push(moved(before[x], x + delta));
      }
      recordAssets.set(key, now);
    }
    if (was.length) recordEnd = was[was.length - 1] + 1;
  }
  if (!assets || assets.length !== recordEnd + delta) return null;
  // The assets of root-level xi:include containers and of manifests come after every record's: all move by
  // the whole difference.
  for (let x = recordEnd; x < before.length; x++) {
    map[x] = x + delta;
    assets.push(moved(before[x], x + delta));
  }
  let lowest = 0;
  while (lowest < before.length && map[lowest] === lowest) lowest++;
  const shift = (x: number) => (x < 0 ? x : x + delta);
  let xiChildOwners = previous.xiChildOwners;
  let manifestHandles = previous.manifestHandles;
  let manifestOwners = previous.manifestOwners;
  if (delta !== 0) {
    const owners = new Map<string, readonly XiChildOwner[]>();
    for (const [key, list] of previous.xiChildOwners) {
      owners.set(key, list.map((o) => ({ ...o, asset: o.asset + delta })));
    }
    xiChildOwners = owners;
    manifestHandles = previous.manifestHandles.shifted(delta);
    manifestOwners = previous.manifestOwners.map((m): ManifestOwner => ({
      loaded: m.loaded,
      indexes: m.indexes.map(shift),
    }));
  }
  return {
    table: { assets, recordAssets, xiChildOwners, manifestHandles, manifestOwners },
    map,
    lowest,
    added,
    removed,
  };
}

/**
 * The ranking of the shifted `assets` from the earlier one: the earlier order renumbered (the changed
 * files' earlier assets left out), the changed files' assets inserted where they rank; the by-id and
 * by-type lists renumbered, those of the changed files' ids and types made again, the keys in the order of
 * their best asset (as `rankAssetsSteps` lists them).
 */
export function shiftRanking(
  previous: RankedAssets,
  assets: readonly AssetDef[],
  shifted: ShiftedTable,
): RankedAssets {
  const { map, added, removed } = shifted;
  const lowest = shifted.lowest;
  const n = assets.length;
  const lowerIds: string[] = new Array(n);
  const was = previous.lowerIds;
  for (let x = 0; x < was.length; x++) if (map[x] >= 0) lowerIds[map[x]] = was[x];
  for (const a of added) lowerIds[a] = assets[a].id.toLowerCase();
  // The rank order: the unchanged assets keep their relative order; each added one goes before the first
  // that ranks after it (binary search), in one pass over the earlier order.
  const compare = byRank(assets);
  const kept = new Int32Array(previous.order.length - removed.length);
  let k = 0;
  for (let p = 0; p < previous.order.length; p++) {
    const m = map[previous.order[p]];
    if (m >= 0) kept[k++] = m;
  }
  const inserting = [...added].sort(compare);
  const at = inserting.map((a) => insertAt(kept, a, compare));
  const order = new Int32Array(n);
  let q = 0;
  let from = 0;
  for (let j = 0; j < inserting.length; j++) {
    order.set(kept.subarray(from, at[j]), q);
    q += at[j] - from;
    from = at[j];
    order[q++] = inserting[j];
  }
  order.set(kept.subarray(from), q);
  const pos = new Int32Array(n);
  for (let p = 0; p < n; p++) pos[order[p]] = p;
  const renumbered = (list: readonly number[]): readonly number[] => {
    for (const x of list) if (x >= lowest) return list.map((y) => map[y]);
    return list;
  };
  const byPos = (x: number, y: number) => pos[x] - pos[y];

  // By id: the ids the changed files have or had get their lists made again; every other id keeps its list
  // (renumbered where an asset moved). The keys' order (by each id's best asset) is made when iterated.
  const affected = new Map<string, number[]>();
  for (const x of removed) affected.set(was[x], []);
  for (const a of added) affected.set(lowerIds[a], []);
  for (const [id, list] of affected) {
    for (const x of previous.byId.get(id) ?? []) if (map[x] >= 0) list.push(map[x]);
  }
  for (const a of added) affected.get(lowerIds[a])!.push(a);
  const earlier = previous.byId instanceof RankedIds ? previous.byId.lists : previous.byId;
  const lists = new Map<string, readonly number[]>(earlier);
  for (const [id, list] of affected) {
    if (list.length === 0) lists.delete(id);
    else lists.set(id, list.sort(byPos));
  }
  // Every other id with an asset that moved: its list renumbered, once.
  for (let x = lowest; x < was.length; x++) {
    if (map[x] < 0) continue;
    const id = was[x];
    const list = earlier.get(id)!;
    if (lists.get(id) === list && !affected.has(id)) lists.set(id, list.map((y) => map[y]));
  }
  const byId = new RankedIds(lists, order, lowerIds);

  // By type: each list sorted by id, then best first. The changed files' types lose their earlier assets
  // and get the added ones inserted; the keys in the order of their best asset.
  const byName = byIdThenRank(lowerIds, pos);
  const addedByType = new Map<string, number[]>();
  for (const a of added) push(addedByType, assets[a].type, a);
  const types: { type: string; list: readonly number[]; best: number }[] = [];
  const seen = new Set<string>();
  for (const [type, list] of previous.byType) {
    seen.add(type);
    const adding = addedByType.get(type);
    let now: readonly number[];
    if (removedOfType(list, map) || adding) {
      const merged: number[] = [];
      for (const x of list) if (map[x] >= 0) merged.push(map[x]);
      if (adding) { for (const a of adding) merged.splice(insertAt(merged, a, byName), 0, a); }
      now = merged;
    } else {
      now = renumbered(list);
    }
    if (now.length) types.push({ type, list: now, best: minPos(now, pos) });
  }
  for (const [type, adding] of addedByType) {
    if (seen.has(type)) continue;
    const list = [...adding].sort(byName);
    types.push({ type, list, best: minPos(list, pos) });
  }
  types.sort((x, y) => x.best - y.best);
  const byType = new Map<string, readonly number[]>();
  for (const t of types) byType.set(t.type, t.list);
  return { byId, byType, order, pos, lowerIds };
}

/**
 * Lower-cased id → asset indexes, best first (the by-id lists of a renumbering link): looked up in a map
 * patched from the earlier link's, iterated in the order `rankAssetsSteps` lists them — by each id's best
 * asset — which is made when something first iterates it (a snapshot save, a miss's tables; the link
 * itself only looks ids up).
 */
class RankedIds extends LazyLists {
  private inOrder: Map<string, readonly number[]> | null = null;

  constructor(
    /** The lists by id, in no particular order. */
    readonly lists: ReadonlyMap<string, readonly number[]>,
    private readonly order: Int32Array,
    private readonly lowerIds: readonly string[],
  ) {
    super();
  }

  protected lookup(): ReadonlyMap<string, readonly number[]> {
    return this.lists;
  }

  /** The lists in the order of their best asset (each list's first), made once. */
  protected override iterated(): ReadonlyMap<string, readonly number[]> {
    if (this.inOrder) return this.inOrder;
    const out = new Map<string, readonly number[]>();
    for (let p = 0; p < this.order.length; p++) {
      const i = this.order[p];
      const id = this.lowerIds[i];
      const list = this.lists.get(id)!;
      if (list[0] === i) out.set(id, list);
    }
    return this.inOrder = out;
  }
}

/** Whether `list` holds an asset the map drops (a changed file's earlier asset). */
function removedOfType(list: readonly number[], map: Int32Array): boolean {
  for (const x of list) if (map[x] < 0) return true;
  return false;
}

/** Where `a` goes in the sorted `list` (after every entry that sorts before it). */
function insertAt(list: ArrayLike<number>, a: number, compare: (x: number, y: number) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(list[mid], a) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The best position among `list`'s assets. */
function minPos(list: readonly number[], pos: Int32Array): number {
  let best = Infinity;
  for (const x of list) if (pos[x] < best) best = pos[x];
  return best;
}

/** The string table of an earlier link with each use's asset renumbered (no changed file has string keys). */
export function shiftStrings(previous: StringTable, map: Int32Array, lowest: number): StringTable {
  if (previous.stringUses.size === 0) return previous;
  const stringUses = new Map<string, readonly StringUse[]>();
  for (const [key, uses] of previous.stringUses) {
    stringUses.set(key, uses.some((u) => u.asset >= lowest) ? uses.map((u) => ({ ...u, asset: map[u.asset] })) : uses);
  }
  return { strings: previous.strings, stringUses };
}

/** An earlier link's Poid sites with their owners renumbered (no changed file has Poid references). */
export function shiftPoid(previous: readonly PoidSite[], map: Int32Array, lowest: number): readonly PoidSite[] {
  if (!previous.some((p) => p.from >= lowest)) return previous;
  return previous.map((p) => (p.from >= lowest ? { ...p, from: map[p.from] } : p));
}
