/**
 * The linker: from file records to a {@link LinkedIndex}, as a sequence of phases. Each phase is a
 * function from the read-only {@link LinkContext} and the outputs of earlier phases to a plain output;
 * the published index builds its derived indexes in `linked.ts`. Pure: every file-system question goes
 * through the {@link LinkInputs} ports.
 *
 * A link also returns its {@link LinkState}: the phase outputs a later link of the same records can start
 * from. When only the contents of some files changed (same files, same include graph, each changed file
 * with as many assets as before), the later link re-makes only those files' entries, re-ranks only their
 * assets and re-resolves only the site segments that read them or look up an id whose definitions
 * changed ({@link planPatch} says when it cannot, and why); the result equals a full link exactly. When a
 * changed file gains or loses assets, the earlier tables are shifted to the new numbering (`link-renumber.ts`),
 * and the segments that read no changed file and name none of its ids are taken over renumbered
 * ({@link renumbering}).
 */
import { walkDerivesFrom, type WalkResult, walkStreamsSteps } from "./include-walk.ts";
import { type AssetTable, linkAssetsSteps, recordAsset } from "./link-assets.ts";
import { type KeyedFile, type LinkContext, linkContext, type LinkInputs, type RecordLookup } from "./link-context.ts";
import { type DefineTable, linkDefines } from "./link-defines.ts";
import { type DiagnosticParts, linkDiagnostics } from "./link-diagnostics.ts";
import { fileInfoOf, type FileTable, linkFilesSteps } from "./link-files.ts";
import { type InheritTable, linkInherit } from "./link-inherit.ts";
import { linkPoid } from "./link-poid.ts";
import {
  carrySegmentIndex,
  linkReferencesSteps,
  segmentIndex,
  type SegmentReuse,
  type SiteSegments,
} from "./link-references.ts";
import { shiftAssets, type ShiftedTable, shiftPoid, shiftRanking, shiftStrings } from "./link-renumber.ts";
import { linkStats } from "./link-stats.ts";
import { linkStrings, type StringTable } from "./link-strings.ts";
import {
  type AssetDef,
  type FileInfo,
  LinkedIndex,
  type LinkStats,
  type PoidSite,
  rankAssetsSteps,
  type RankedAssets,
  type ReferenceSite,
  rerankAssets,
} from "./linked.ts";
import type { FileRecord } from "./records.ts";
import { runSteps } from "../steps.ts";

/**
 * What a link leaves for the next one: plain values (the phase outputs and the reference phase's
 * segments), valid for the records of `all` (compared by identity), `inputs` and `walk`.
 */
export interface LinkState {
  readonly inputs: LinkInputs;
  readonly walk: WalkResult;
  readonly all: readonly KeyedFile[];
  readonly files: FileTable;
  readonly table: AssetTable;
  readonly ranking: RankedAssets;
  readonly defines: DefineTable;
  readonly segments: SiteSegments;
  /** The sites (a patched link takes the inheritFrom phase over while its inheritFrom sites are these very objects). */
  readonly sites: readonly ReferenceSite[];
  /** The positions of the inheritFrom sites in {@link sites}. */
  readonly inheritSites: readonly number[];
  readonly inherit: InheritTable;
  readonly poid: readonly PoidSite[];
  readonly strings: StringTable;
  /** The counts of the last link (a patched one counts files and assets the same). */
  readonly stats: LinkStats;
  /** The diagnostics phase's per-file and per-id findings. */
  readonly diagnostics: DiagnosticParts;
}

/** A link's index, its state, and whether it started from an earlier one (else why not). */
export interface Relinked {
  readonly linked: LinkedIndex;
  readonly state: LinkState;
  /** null: patched from the earlier state; else why the link was a full one. */
  readonly fullBecause: string | null;
}

/**
 * Links `records` into an index (`walked`: the include walk, when the caller has it already): a full
 * link, from no earlier state.
 * @example link(records, inputs).findAssets("AlliedAthenaCannon")
 */
export function link(records: RecordLookup, inputs: LinkInputs, walked?: WalkResult): LinkedIndex {
  return runSteps(relinkSteps(records, inputs, walked, null)).linked;
}

/** The changed files of a patchable link, or why it must be a full one. */
type Plan = {
  readonly changed: readonly KeyedFile[];
  readonly before: readonly FileRecord[];
  /** A changed file gained or lost assets: the asset numbering after it moves (see {@link renumbering}). */
  readonly renumber: boolean;
} | {
  readonly full: string;
};

/**
 * Whether a link of `ctx`'s records can start from `previous`: the same inputs, the same include walk
 * (no file appeared or went, no include changed), and each changed file of a kind whose contribution is
 * its own (not a manifest, not a fragment whose container children are assets); `renumber` when one has
 * another number of assets than before.
 */
function planPatch(previous: LinkState | null, ctx: LinkContext, walk: WalkResult): Plan {
  if (!previous) return { full: "no earlier link" };
  if (previous.inputs !== ctx.inputs) return { full: "other link inputs" };
  // A walk shifted from the earlier one (includes only moved) reaches the same files the same way.
  if (!walkDerivesFrom(walk, previous.walk)) return { full: "the include graph or the set of files changed" };
  const all = ctx.all;
  if (previous.all.length !== all.length) return { full: "files appeared or went" };
  const changed: KeyedFile[] = [];
  const before: FileRecord[] = [];
  for (let i = 0; i < all.length; i++) {
    const was = previous.all[i];
    if (was.key !== all[i].key) return { full: "files appeared or went" };
    if (was.loaded.record !== all[i].loaded.record) {
      changed.push(all[i]);
      before.push(was.loaded.record);
    }
  }
  let renumber = false;
  for (let i = 0; i < changed.length; i++) {
    const now = changed[i].loaded.record;
    const old = before[i];
    if (now.kind !== old.kind) return { full: "a file's kind changed" };
    if (now.kind === "manifest") return { full: "a manifest changed" };
    if (now.assets.length !== old.assets.length) renumber = true;
    // Children of a root-level xi:include container are assets numbered after every record's.
    if (previous.table.xiChildOwners.has(changed[i].key) || idChildren(now) !== idChildren(old)) {
      return { full: "a fragment whose container children are assets changed" };
    }
  }
  return { changed, before, renumber };
}

/**
 * How many children with ids each container of a fragment has: while a fragment no root-level
 * xi:include made assets of keeps these counts, no edit of it makes any.
 */
function idChildren(r: FileRecord): string {
  return r.fragment ? r.ranges.map((x) => x.idChildren.length).join(",") : "";
}

/** Whether two records declare and use the same defines at the same places (the define table is then the same). */
function sameDefines(a: FileRecord, b: FileRecord): boolean {
  if (a.defines.length !== b.defines.length || a.defineUses.length !== b.defineUses.length) return false;
  for (let i = 0; i < a.defines.length; i++) {
    const x = a.defines[i];
    const y = b.defines[i];
    if (x.name !== y.name || x.value !== y.value || x.line !== y.line || x.column !== y.column) return false;
  }
  for (let i = 0; i < a.defineUses.length; i++) {
    const x = a.defineUses[i];
    const y = b.defineUses[i];
    if (
      x.name !== y.name || x.line !== y.line || x.column !== y.column || x.element !== y.element ||
      x.attribute !== y.attribute
    ) return false;
  }
  return true;
}

/**
 * {@link link} as its phases, from an earlier link's state (null: a full link), returning the new state
 * too. The generator yields between two phases (a long-running driver lets other work run there);
 * `stats.linkMs` counts the phases' time, not the pauses.
 * @example const { linked, state } = runSteps(relinkSteps(core, inputs, walk, previous))
 */
export function* relinkSteps(
  records: RecordLookup,
  inputs: LinkInputs,
  walked: WalkResult | undefined,
  previous: LinkState | null,
): Generator<void, Relinked, void> {
  let spent = 0;
  let since = performance.now();
  function* phaseBoundary(): Generator<void, void, void> {
    spent += performance.now() - since;
    yield;
    since = performance.now();
  }
  /** A phase in steps: its yields are boundaries too (pauses are not link time). */
  function* inSteps<T>(steps: Generator<void, T, void>): Generator<void, T, void> {
    let step = steps.next();
    for (; !step.done; step = steps.next()) yield* phaseBoundary();
    return step.value;
  }
  const ctx = linkContext(records, inputs);
  const walk = walked ?? (yield* walkStreamsSteps(records, inputs));
  const plan = planPatch(previous, ctx, walk);
  yield* phaseBoundary();
  const patch = "changed" in plan && !plan.renumber ? patched(previous!, ctx, walk, plan) : null;
  // Assets gained or lost: the file and define tables patched as above, the others shifted to the new numbering.
  const renumber = "changed" in plan && plan.renumber ? plan : null;
  const renumbered = renumber ? patchedFiles(previous!, ctx, walk, renumber) : null;
  const files = patch ? patch.files : renumbered ? renumbered.files : yield* inSteps(linkFilesSteps(ctx, walk));
  yield* phaseBoundary();
  // The earlier asset table shifted: the changed files' assets made again, the others moved.
  const shifted = renumber ? shiftAssets(ctx, previous!.table, files, renumber.changed) : null;
  const table = patch ? patch.table : shifted ? shifted.table : yield* inSteps(linkAssetsSteps(ctx, files, walk));
  const { assets } = table;
  yield* phaseBoundary();
  const ranking = (patch && rerankAssets(previous!.ranking, previous!.table.assets, assets, patch.blocks)) ??
    (shifted ? shiftRanking(previous!.ranking, assets, shifted) : yield* inSteps(rankAssetsSteps(assets)));
  yield* phaseBoundary();
  // Neither table holds an asset index: a renumbering link takes them over as a patched one does.
  const unchanged = patch ?? renumbered;
  const defineTable = unchanged && !unchanged.definesChanged ? previous!.defines : linkDefines(ctx, files);
  const { defines, defineUses, defineUseSites } = defineTable;
  yield* phaseBoundary();
  const reuse: SegmentReuse | undefined = patch
    ? { previous: previous!.segments, reusable: patch.reusable(ranking) }
    : shifted
    ? renumbering(previous!, shifted, ranking, renumbered!.changedKeys)
    : undefined;
  // The phase yields between its segments too (through phaseBoundary's bookkeeping: pauses are not link time).
  const referenceSteps = linkReferencesSteps(
    ctx,
    files,
    table,
    ranking,
    reuse ??
      (previous && previous.inputs === inputs ? { previous: previous.segments, reusable: () => false } : undefined),
  );
  const references = yield* inSteps(referenceSteps);
  const { sites } = references;
  yield* phaseBoundary();
  const inherit = patch && sameInheritSites(previous!, references.inheritSites, sites)
    ? previous!.inherit
    : linkInherit(ctx, assets, sites, references.inheritSites);
  yield* phaseBoundary();
  // Poid sites read their own record, its assets' indexes (a patch keeps them) and the spliced modules.
  // (A renumbering link: the same, renumbered, while the splice tables are the earlier ones renumbered.)
  const poidSites = patch && !patch.poidChanged && references.segments.merged === previous!.segments.merged
    ? previous!.poid
    : shifted && !renumbered!.poidChanged && references.spliceSame
    ? shiftPoid(previous!.poid, shifted.map, shifted.lowest)
    : linkPoid(ctx, table, references.splicedModules);
  yield* phaseBoundary();
  const stringTable = patch && !patch.stringsChanged
    ? previous!.strings
    : shifted && !renumbered!.stringsChanged
    ? shiftStrings(previous!.strings, shifted.map, shifted.lowest)
    : linkStrings(ctx, files, table);
  const { strings, stringUses } = stringTable;
  yield* phaseBoundary();
  const { diagnostics, omitted, external, parts } = linkDiagnostics(ctx, {
    // (A renumbering link's duplicate findings are taken over renumbered.)
    reuse: patch || shifted
      ? {
        previous: previous!.diagnostics,
        files: unchanged!.changedKeys,
        ids: patch ? patch.changedIds(ranking) : renumberedIds(previous!.ranking, ranking, shifted!),
        sameTables: (defineTable === previous!.defines || unchanged!.defineNamesSame) && references.spliceSame,
        map: shifted?.map,
        lowest: shifted?.lowest,
      }
      : undefined,
    walk,
    files,
    assets,
    defines,
    references,
    inherit,
    byId: ranking.byId,
  });
  yield* phaseBoundary();
  const stats = linkStats(ctx, {
    files,
    assets,
    sites,
    defines,
    diagnostics: diagnostics.length + omitted.reduce((n, g) => n + g.count, 0),
    externalReferences: external.active + external.inactive,
    linkMs: spent + performance.now() - since,
  }, patch ? previous!.stats : shifted ? shiftedCounts(ctx, previous!, assets, shifted) : undefined);
  const linked = new LinkedIndex({
    files,
    assets,
    ranking,
    sites,
    includes: walk.includes,
    defines,
    diagnostics,
    omittedDiagnostics: omitted,
    streams: walk.streams,
    stats,
    wanted: [...walk.wanted],
    schema: inputs.schema,
    projectDir: inputs.projectDir,
    sdkDir: inputs.sdkDir,
    defineUses,
    defineUseSites,
    inheritCycles: inherit.cycles,
    strings,
    stringUses,
    poidSites,
  });
  if (patch || renumber) carrySegmentIndex(previous!.segments, references.segments, references.made);
  const state: LinkState = {
    inputs,
    walk,
    all: ctx.all,
    files,
    table,
    ranking,
    defines: defineTable,
    segments: references.segments,
    sites,
    inheritSites: references.inheritSites,
    inherit,
    poid: poidSites,
    diagnostics: parts,
    strings: stringTable,
    stats,
  };
  return { linked, state, fullBecause: "full" in plan ? plan.full : null };
}

/**
 * Whether the inheritFrom sites are the earlier link's very objects at the same places: a segment made
 * again has new site objects, so its inheritFrom sites (the only input of the phase besides the assets
 * their cycles name, which sit in changed files and so in segments made again) are then not the same.
 */
function sameInheritSites(
  previous: LinkState,
  inheritSites: readonly number[],
  sites: readonly ReferenceSite[],
): boolean {
  const was = previous.inheritSites;
  if (was.length !== inheritSites.length || previous.sites.length !== sites.length) return false;
  for (let k = 0; k < was.length; k++) {
    const i = inheritSites[k];
    if (was[k] !== i || previous.sites[i] !== sites[i]) return false;
  }
  return true;
}

/**
 * The file table of `previous` with the changed files' entries made again (an entry holds no asset
 * index, so this holds for a link that renumbers too), and which other tables the changes touch.
 */
function patchedFiles(
  previous: LinkState,
  ctx: LinkContext,
  walk: WalkResult,
  plan: { readonly changed: readonly KeyedFile[]; readonly before: readonly FileRecord[] },
) {
  const files = new Map<string, FileInfo>(previous.files);
  const changedKeys = new Set<string>();
  let definesChanged = false;
  let stringsChanged = false;
  let poidChanged = false;
  // The names a changed file declares (a file's findings depend on which names some file in effect declares).
  let defineNamesSame = true;
  plan.changed.forEach((f, n) => {
    changedKeys.add(f.key);
    const old = plan.before[n];
    const rec = f.loaded.record;
    if (old.kind === "str" || old.stringKeys.length || rec.stringKeys.length) stringsChanged = true;
    if (old.poidRefs.length || rec.poidRefs.length) poidChanged = true;
    if (!sameDefines(old, rec)) {
      definesChanged = true;
      const names = (r: FileRecord) => [...new Set(r.defines.map((d) => d.name.toLowerCase()))].sort().join("\u0000");
      if (names(old) !== names(rec)) defineNamesSame = false;
    }
    const info = fileInfoOf(ctx, f, walk.reached.get(f.key));
    if (info) files.set(f.key, info);
  });
  return {
    files: files as FileTable,
    changedKeys,
    definesChanged,
    defineNamesSame,
    stringsChanged,
    poidChanged,
  };
}

/** The file and asset tables of `previous` with the changed files' entries made again. */
function patched(
  previous: LinkState,
  ctx: LinkContext,
  walk: WalkResult,
  plan: { readonly changed: readonly KeyedFile[]; readonly before: readonly FileRecord[] },
) {
  const made = patchedFiles(previous, ctx, walk, plan);
  const { files, changedKeys } = made;
  const assets: AssetDef[] = previous.table.assets.slice();
  const blocks: (readonly number[])[] = [];
  for (const f of plan.changed) {
    const info = files.get(f.key);
    if (!info || info === previous.files.get(f.key)) continue;
    const indexes = previous.table.recordAssets.get(f.key) ?? [];
    for (let i = 0; i < indexes.length; i++) assets[indexes[i]] = recordAsset(ctx, f.loaded, info, i, indexes[i]);
    blocks.push(indexes);
  }
  const table: AssetTable = { ...previous.table, assets };
  const before = previous.table.assets;
  /** Ids whose assets changed (either spelling): the sites and duplicate findings naming them are made again. */
  const changedIds = (ranking: RankedAssets) => {
    const ids = new Set<string>();
    for (const block of blocks) {
      for (const i of block) {
        const a = before[i];
        const b = assets[i];
        if (
          a.id === b.id && a.type === b.type && a.line === b.line && a.column === b.column && a.file === b.file &&
          a.origin === b.origin && a.state === b.state
        ) continue;
        ids.add(previous.ranking.lowerIds[i]).add(ranking.lowerIds[i]);
      }
    }
    return ids;
  };
  // A segment is made again when it reads a changed file (its own, or a fragment it splices) or looked up
  // an id whose assets changed: found through the segment index, not by reading every segment's names.
  const reusable = (ranking: RankedAssets) => {
    const affected = changedIds(ranking);
    const index = segmentIndex(previous.segments);
    const remake = new Set(changedKeys);
    for (const k of changedKeys) for (const s of index.splicedBy.get(k) ?? []) remake.add(s);
    for (const id of affected) for (const s of index.byName.get(id) ?? []) remake.add(s);
    return (seg: { key: string }) => !remake.has(seg.key);
  };
  return { ...made, table, blocks, changedIds, reusable };
}

/**
 * The segment reuse of a link whose changed files gained or lost assets: each asset of an unchanged file
 * keeps its place in the ranking and moves by what the changed files before it gained or lost, so a
 * segment that reads no changed file and names none of their ids (before or after) resolves as before,
 * with its asset indexes mapped. Every id of a changed file counts as changed (the pairing of its old and
 * new assets is unknown).
 */
function renumbering(
  previous: LinkState,
  shifted: ShiftedTable,
  ranking: RankedAssets,
  changedKeys: ReadonlySet<string>,
): SegmentReuse {
  const index = segmentIndex(previous.segments);
  const remake = new Set(changedKeys);
  for (const k of changedKeys) for (const s of index.splicedBy.get(k) ?? []) remake.add(s);
  for (const id of renumberedIds(previous.ranking, ranking, shifted)) {
    for (const s of index.byName.get(id) ?? []) remake.add(s);
  }
  return {
    previous: previous.segments,
    reusable: (seg) => !remake.has(seg.key),
    map: shifted.map,
    lowest: shifted.lowest,
  };
}

/** The ids (lower-cased) the changed files of a renumbering link have or had. */
function renumberedIds(before: RankedAssets, ranking: RankedAssets, shifted: ShiftedTable): Set<string> {
  const ids = new Set<string>();
  for (const x of shifted.removed) ids.add(before.lowerIds[x]);
  for (const a of shifted.added) ids.add(ranking.lowerIds[a]);
  return ids;
}

/**
 * The earlier link's counts of project files and assets with the changed files' difference: a renumbering
 * link has the same files in the same states, and only the changed files' assets are new.
 */
function shiftedCounts(
  ctx: LinkContext,
  previous: LinkState,
  assets: readonly AssetDef[],
  shifted: ShiftedTable,
): LinkStats {
  const counted = (a: AssetDef) => a.origin === "project" && ctx.insideProject(a.file);
  let delta = 0;
  for (const x of shifted.removed) if (counted(previous.table.assets[x])) delta--;
  for (const a of shifted.added) if (counted(assets[a])) delta++;
  return { ...previous.stats, assets: previous.stats.assets + delta };
}
