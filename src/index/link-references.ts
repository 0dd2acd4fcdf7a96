/**
 * Link phase, references: every reference site of the index, resolved by id and schema type. Sites come
 * in one order: each non-fragment file's own sites (in record order), each followed by what its
 * xi:includes splice into its assets (attributed to the splicing asset, `link-splice.ts`); then the sites
 * of root-level containers' children; then those of fragments nothing splices; then the compiler's
 * dependency pairs from the manifests that no XML site of the same asset stands for (the XML sites they
 * confirm are marked `confirmedByManifest`).
 */
import { pathKey } from "../project/paths.ts";
import type { AssetTable, XiChildOwner } from "./link-assets.ts";
import type { KeyedFile, LinkContext } from "./link-context.ts";
import type { FileTable } from "./link-files.ts";
import { FragmentDiagnostics, type SiteAdder, SpliceCache, type SplicedModule, Splicer } from "./link-splice.ts";
import type { AssetDef, Diagnostic, FileInfo, FileState, OmittedDiagnostic, ReferenceSite } from "./linked.ts";
import { LinkedSite, push, rankCompare, type SiteSource } from "./linked.ts";
import type { RecordDiagnostic, RefRecord } from "./records.ts";

export interface SiteTable {
  readonly sites: readonly ReferenceSite[];
  /** Asset index → the module ids spliced into it. */
  readonly splicedModules: ReadonlyMap<number, readonly SplicedModule[]>;
  /** Fragment file key → its schema warnings as its splices type it (replacing the record's guess). */
  readonly fragmentDiagnostics: ReadonlyMap<string, readonly RecordDiagnostic[]>;
  /** Fragment file keys nothing splices (their sites are `unspliced`). */
  readonly unsplicedFragments: ReadonlySet<string>;
  /** xi:include loops within a document, unsupported and unmatched xpointers. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The id a reference value names: the text after the last `:` (the whole value when that is empty). */
function normaliseRefValue(value: string): string {
  const i = value.lastIndexOf(":");
  if (i < 0) return value;
  const tail = value.slice(i + 1);
  return tail ? tail : value;
}

/**
 * One stretch of the site list: what one file contributes at one stage (its own sites and splices, its
 * root-level containers' children, or its sites as an unspliced fragment), with what it read. A later
 * link reuses it while the records it read are unchanged and no id it looked up changed its definitions.
 */
export interface SiteSegment {
  readonly key: string;
  readonly sites: readonly ReferenceSite[];
  /** Lower-cased ids looked up (every reference, also the guesses that were dropped). */
  readonly names: readonly string[];
  /** The positions of its `inheritFrom` sites in `sites`. */
  readonly inherits: readonly number[];
  /** Fragment keys its splices read (besides its own file). */
  readonly spliced: readonly string[];
  /** What its splices found, or null when it splices nothing. */
  readonly effects: SpliceEffects | null;
  /**
   * Its unresolved sites' findings, set by the diagnostics phase when first needed and kept by a later link
   * that takes the segment over (renumbered or not: they hold no index, and a segment taken over names no
   * id whose definitions changed).
   */
  findings?: ReferenceFindings;
}

/** What a stretch of sites contributes to the reference diagnostics (see `link-diagnostics.ts`). */
export interface ReferenceFindings {
  /** At most the cap of one file, code and severity (see `link-caps.ts`)… */
  readonly diagnostics: readonly Diagnostic[];
  /** …and the rest counted. */
  readonly omitted: readonly OmittedDiagnostic[];
  /** Unresolved sites of included project files that cannot be judged without an SDK. */
  readonly external: number;
  /** The same, in files no entry point includes. */
  readonly externalInactive: number;
}

/** A segment's splice results, merged in segment order into the phase's tables (each entry once). */
interface SpliceEffects {
  readonly splicedModules: ReadonlyMap<number, readonly SplicedModule[]>;
  readonly fragmentDiagnostics: ReadonlyMap<string, readonly RecordDiagnostic[]>;
  readonly diagnostics: readonly Diagnostic[];
}

/** The stages of the site list: a file's own sites and splices, its root-level containers' children, its sites as an unspliced fragment. */
type Stage = 0 | 1 | 2;

/**
 * The reference phase's segments (per stage, by file key, in site order), the splice tables merged from
 * the first two stages, and the splice extractions cached across links.
 */
export interface SiteSegments {
  readonly stages: readonly [
    ReadonlyMap<string, SiteSegment>,
    ReadonlyMap<string, SiteSegment>,
    ReadonlyMap<string, SiteSegment>,
  ];
  readonly merged: SpliceMerge;
  readonly cache: SpliceCache;
  /**
   * Which segments name an id and which splice a fragment: made at the first patched link that needs it,
   * then carried from link to link ({@link carrySegmentIndex}).
   */
  index?: SegmentIndex;
}

/**
 * Lower-cased id → the keys of the segments that looked it up; fragment key → the keys of the segments
 * that splice it. A segment's key names it in all stages (a file has one segment at most: its own sites
 * as a non-fragment, as a fragment with root-level container children, or as an unspliced fragment).
 */
export interface SegmentIndex {
  readonly byName: Map<string, string[]>;
  readonly splicedBy: Map<string, string[]>;
}

/** The index of `segments`' names and splices (one pass over every segment's names). */
export function segmentIndex(segments: SiteSegments): SegmentIndex {
  if (segments.index) return segments.index;
  const index: SegmentIndex = { byName: new Map(), splicedBy: new Map() };
  for (const stage of segments.stages) for (const seg of stage.values()) enter(index, seg);
  segments.index = index;
  return index;
}

/** Adds `seg`'s names and splices to `index`. */
function enter(index: SegmentIndex, seg: SiteSegment): void {
  for (const n of seg.names) push(index.byName, n, seg.key);
  for (const k of seg.spliced) push(index.splicedBy, k, seg.key);
}

/** Removes `seg`'s names and splices from `index`. */
function leave(index: SegmentIndex, seg: SiteSegment): void {
  const drop = (map: Map<string, string[]>, name: string) => {
    const keys = map.get(name);
    if (!keys) return;
    const at = keys.indexOf(seg.key);
    if (at >= 0) keys.splice(at, 1);
    if (keys.length === 0) map.delete(name);
  };
  for (const n of seg.names) drop(index.byName, n);
  for (const k of seg.spliced) drop(index.splicedBy, k);
}

/**
 * Moves `before`'s index (when it has one) over to `after`, a later link's segments: the segments made
 * again, new or gone change it; renumbered ones keep their names and splices. Updates the index in place
 * (the earlier segments are not linked from again), at the end of a link, so an abandoned link leaves it
 * as it was.
 */
export function carrySegmentIndex(
  before: SiteSegments,
  after: SiteSegments,
  made: readonly (readonly [Stage, SiteSegment])[],
): void {
  const index = before.index;
  if (!index || before === after) return;
  for (const [stage, seg] of made) {
    const old = before.stages[stage].get(seg.key);
    if (old) leave(index, old);
    enter(index, seg);
  }
  // With the same files and include walk only unspliced fragments come and go (stage 2).
  for (let s = 0; s < 3; s++) {
    const now = after.stages[s];
    if (s < 2 && now.size === before.stages[s].size) continue;
    for (const [key, old] of before.stages[s]) if (!now.has(key)) leave(index, old);
  }
  after.index = index;
}

/** Which segments of an earlier link may be reused (undefined: none, a full link). */
export interface SegmentReuse {
  readonly previous: SiteSegments;
  /** True when the segment's own records and every id it looked up are as they were. */
  readonly reusable: (segment: SiteSegment) => boolean;
  /**
   * Earlier asset index → this link's (set when files gained or lost assets): a reused segment's sites and
   * splice results are mapped through it; the splice tables are the earlier ones renumbered while no
   * segment that splices, or spliced, is made again.
   */
  readonly map?: Int32Array;
  /** With {@link map}: the lowest earlier index it moves (the map is the identity below it). */
  readonly lowest?: number;
}

/** The reference phase yields after this many segments, or once this many sites were added since its last yield. */
const SEGMENTS_PER_STEP = 32;
const SITES_PER_STEP = 4096;

/** What the reference phase returns: the sites, the phase's segments, the indexes of its inheritFrom sites. */
export type LinkedReferences = SiteTable & {
  readonly segments: SiteSegments;
  readonly inheritSites: readonly number[];
  /** The segments made (not taken over from an earlier link), with their stage. */
  readonly made: readonly (readonly [Stage, SiteSegment])[];
  /**
   * The splice tables are the earlier link's, or (a renumbering link) those renumbered: the same spliced
   * fragments, fragment warnings and xi:include diagnostics (the very objects), the modules under their
   * owners' new indexes.
   */
  readonly spliceSame: boolean;
};

/**
 * Resolves every reference of the linked files, segment by segment (`reuse`: the segments of an earlier
 * link still valid, taken over instead of being resolved again; their sites renumbered when earlier
 * segments grew or shrank). When no segment that splices anything was made again, the splice tables are
 * the earlier link's. In steps: a yield after every {@link SEGMENTS_PER_STEP} segments, or sooner once
 * {@link SITES_PER_STEP} sites were added (at Corona scale the phase is ≈ 80 ms of 100k sites), and within
 * a file with more references than that, after each {@link SITES_PER_STEP} of them. Nothing it
 * reads changes between the steps (a driver only pauses), so the result is the one-block phase's.
 * `ranking`: the by-id lists and, when known, each asset's lower-cased id (the keys of `byId`, kept
 * instead of a copy per distinct value).
 * @example runSteps(linkReferencesSteps(ctx, files, assets, { byId })).sites.filter((s) => s.status !== "resolved")
 */
export function* linkReferencesSteps(
  ctx: LinkContext,
  files: FileTable,
  table: AssetTable,
  ranking: { readonly byId: ReadonlyMap<string, readonly number[]>; readonly lowerIds?: readonly string[] },
  reuse?: SegmentReuse,
): Generator<void, LinkedReferences, void> {
  const { byId, lowerIds } = ranking;
  const cache = reuse?.previous.cache ?? new SpliceCache();
  const resolver = new SiteResolver(ctx, table.assets, byId, lowerIds);
  // Each stage's segments in site order (the maps by key are made after each stage: {@link stageMap}).
  const visited: [SiteSegment[], SiteSegment[], SiteSegment[]] = [[], [], []];
  // The segments' site lists, flattened once at the end; `count` sites so far.
  const lists: (readonly ReferenceSite[])[] = [];
  let count = 0;
  // Whether a stage has a segment whose key the earlier link's stage did not have.
  const newKeys = [false, false, false];
  const inheritSites: number[] = [];
  const made: [Stage, SiteSegment][] = [];
  // The splice tables can be the earlier ones while every segment that splices, or spliced, is reused.
  let spliceChanged = !reuse;
  /** The earlier link's segment of `f` at `stage` taken over (renumbered), or null when it must be made again. */
  const takenOver = (stage: Stage, f: KeyedFile): SiteSegment | null => {
    const old = reuse?.previous.stages[stage].get(f.key);
    if (!old) newKeys[stage] = true;
    if (!old || !reuse!.reusable(old)) return null;
    return reuse!.map ? remapped(old, count, reuse!.map, reuse!.lowest ?? 0) : renumbered(old, count);
  };
  /** `seg`, made again for `f` at `stage`, noted as made. */
  const madeAgain = (stage: Stage, f: KeyedFile, seg: SiteSegment): SiteSegment => {
    const old = reuse?.previous.stages[stage].get(f.key);
    made.push([stage, seg]);
    if (stage !== 2 && (seg.spliced.length || seg.effects || !old || old.spliced.length || old.effects)) {
      spliceChanged = true;
    }
    return seg;
  };
  const segment = (stage: Stage, f: KeyedFile, run: (sink: SiteSink, splicer: Splicer) => void) => {
    place(stage, takenOver(stage, f) ?? madeAgain(stage, f, fresh(f.key, run)));
  };
  /** Appends `seg` (numbered from `count`) to the phase's sites. */
  const place = (stage: Stage, seg: SiteSegment) => {
    if (seg.inherits.length) { for (const k of seg.inherits) inheritSites.push(count + k); }
    if (seg.sites.length) lists.push(seg.sites);
    count += seg.sites.length;
    visited[stage].push(seg);
    segmentsSince++;
    sitesSince += seg.sites.length;
  };
  let segmentsSince = 0;
  let sitesSince = 0;
  /**
   * Whether a step ends here (enough segments or sites made since the last one); the caller yields. A plain
   * function, not a generator: one per file cost a generator object each (33,000 per link at Corona scale).
   */
  const boundary = (): boolean => {
    if (segmentsSince < SEGMENTS_PER_STEP && sitesSince < SITES_PER_STEP) return false;
    segmentsSince = 0;
    sitesSince = 0;
    return true;
  };
  const fresh = (key: string, run: (sink: SiteSink, splicer: Splicer) => void): SiteSegment => {
    const sink = new SiteSink(resolver, count);
    const splicer = new Splicer(ctx, sink, cache);
    run(sink, splicer);
    return segmentOf(key, sink, splicer);
  };
  /** {@link fresh} for a file with many references, yielding after every {@link SITES_PER_STEP} of them. */
  function* freshSteps(f: KeyedFile, info: FileInfo): Generator<void, SiteSegment, void> {
    const sink = new SiteSink(resolver, count);
    const splicer = new Splicer(ctx, sink, cache);
    const refs = f.loaded.record.refs;
    for (let lo = 0; lo < refs.length; lo += SITES_PER_STEP) {
      recordRefs(f, info, table, sink, lo, Math.min(refs.length, lo + SITES_PER_STEP));
      yield;
    }
    recordSplices(f, info, table, splicer);
    return segmentOf(f.key, sink, splicer);
  }
  for (const f of ctx.all) {
    const info = files.get(f.key);
    if (!info || (info.kind !== "xml" && info.kind !== "art") || info.fragment) continue;
    if (f.loaded.record.refs.length > SITES_PER_STEP) {
      // A huge file (a generated one, a big map's XML) in steps of its own: the driver runs between them.
      place(0, takenOver(0, f) ?? madeAgain(0, f, yield* freshSteps(f, info)));
    } else {
      segment(0, f, (sink, splicer) => {
        recordRefs(f, info, table, sink, 0, f.loaded.record.refs.length);
        recordSplices(f, info, table, splicer);
      });
    }
    if (boundary()) yield;
  }
  for (const f of ctx.all) {
    const info = files.get(f.key);
    const owners = table.xiChildOwners.get(f.key);
    if (!info || !info.fragment || !owners) continue;
    segment(1, f, (_, splicer) => rootLevelSites(f, info, owners, splicer));
    if (boundary()) yield;
  }
  if (
    reuse &&
    (visited[0].length !== reuse.previous.stages[0].size || visited[1].length !== reuse.previous.stages[1].size)
  ) {
    spliceChanged = true;
  }
  // The phase's end in steps too (merge, unspliced fragments, manifest sites: 15–35 ms together at Corona scale).
  yield;
  const merged = spliceChanged
    ? SpliceMerge.of([...visited[0], ...visited[1]])
    : reuse!.map
    ? reuse!.previous.merged.renumbered(reuse!.map, reuse!.lowest ?? 0)
    : reuse!.previous.merged;
  yield;
  const unsplicedFragments = new Set<string>();
  for (const f of ctx.all) {
    const info = files.get(f.key);
    if (!info || !info.fragment || info.foreign || table.xiChildOwners.has(f.key) || merged.spliced.has(f.key)) {
      continue;
    }
    unsplicedFragments.add(f.key);
    // A fragment spliced in one link and not in the next has no segment of this stage to reuse.
    segment(2, f, (sink) => {
      for (const r of f.loaded.record.refs) sink.add(r, -1, f.loaded.path, info.state, null, true);
    });
    if (boundary()) yield;
  }
  yield;
  const sites: ReferenceSite[] = lists.flat();
  manifestSites(table, byId, new SiteSink(resolver, 0, sites), lowerIds);
  const stages = [0, 1, 2].map((s) =>
    stageMap(visited[s], newKeys[s] ? undefined : reuse?.previous.stages[s])
  ) as unknown as SiteSegments["stages"];
  return {
    sites,
    splicedModules: merged.splicedModules,
    fragmentDiagnostics: merged.fragmentDiagnostics,
    unsplicedFragments,
    diagnostics: merged.diagnostics,
    inheritSites,
    made,
    segments: { stages, merged, cache },
    spliceSame: !spliceChanged,
  };
}

/**
 * A stage's segments by key, in site order: a copy of the earlier link's map with the segments that are
 * not its own replaced while the stage has the same keys (`before`: the earlier map when every key of
 * `segments` is in it; the same number of keys then means the same files, so the same order — a copy
 * keeps it, and replacing an entry keeps its place), else made anew.
 */
function stageMap(segments: readonly SiteSegment[], before: ReadonlyMap<string, SiteSegment> | undefined) {
  if (before && before.size === segments.length) {
    const map = new Map(before);
    for (const seg of segments) if (before.get(seg.key) !== seg) map.set(seg.key, seg);
    return map;
  }
  const map = new Map<string, SiteSegment>();
  for (const seg of segments) map.set(seg.key, seg);
  return map;
}

/** The segment of `key` a sink and its splicer made. */
function segmentOf(key: string, sink: SiteSink, splicer: Splicer): SiteSegment {
  const inherits: number[] = [];
  sink.sites.forEach((site, k) => {
    if (site.kind === "inheritFrom") inherits.push(k);
  });
  return {
    key,
    sites: sink.sites,
    inherits: inherits.length ? inherits : NO_INDEXES,
    names: sink.names,
    spliced: splicer.splicedFragments.size ? [...splicer.splicedFragments] : NO_KEYS,
    effects: splicer.splicedModules.size || splicer.fragmentDiagnostics.size || splicer.diagnostics.length
      ? effectsOf(splicer)
      : null,
  };
}

const NO_KEYS: readonly string[] = [];
const NO_INDEXES: readonly number[] = [];

/** `seg` with its sites numbered from `base` (the same segment when they already are). */
function renumbered(seg: SiteSegment, base: number): SiteSegment {
  if (seg.sites.length === 0 || seg.sites[0].index === base) return seg;
  return { ...seg, sites: seg.sites.map((s, i) => LinkedSite.of(s, { index: base + i })) };
}

/**
 * `seg` with its sites numbered from `base` and every asset index (a site's owner and targets, the
 * owners of spliced modules) mapped through `map`, which moves no index below `lowest` (the same
 * objects where nothing moves: the segment itself when nothing in it does).
 */
function remapped(seg: SiteSegment, base: number, map: Int32Array, lowest: number): SiteSegment {
  const moves = (s: ReferenceSite) => {
    if (s.from >= lowest) return true;
    const t = s.targets;
    for (let j = 0; j < t.length; j++) if (t[j] >= lowest) return true;
    return false;
  };
  const list = seg.sites;
  let sites = list;
  const renumber = list.length > 0 && list[0].index !== base;
  let k = 0;
  if (!renumber) { while (k < list.length && !moves(list[k])) k++; }
  if (renumber || k < list.length) {
    const out = list.slice(0, k);
    for (let i = k; i < list.length; i++) {
      const s = list[i];
      if (s.index === base + i && !moves(s)) {
        out.push(s);
        continue;
      }
      const targets = s.targets.some((x) => x >= lowest) ? s.targets.map((x) => map[x]) : s.targets;
      out.push(LinkedSite.of(s, { index: base + i, from: s.from >= lowest ? map[s.from] : s.from, targets }));
    }
    sites = out;
  }
  let effects = seg.effects;
  if (effects && ownerFrom(effects.splicedModules, lowest)) {
    const modules = new Map<number, readonly SplicedModule[]>();
    for (const [owner, list] of effects.splicedModules) modules.set(owner >= lowest ? map[owner] : owner, list);
    effects = { ...effects, splicedModules: modules };
  }
  return sites === list && effects === seg.effects ? seg : { ...seg, sites, effects };
}

/** Whether some owner of `modules` is `lowest` or above (a renumbering moves it). */
function ownerFrom(modules: ReadonlyMap<number, unknown>, lowest: number): boolean {
  for (const owner of modules.keys()) if (owner >= lowest) return true;
  return false;
}

/** The splice results of one segment's splicer, as plain tables. */
function effectsOf(splicer: Splicer): SpliceEffects {
  return {
    splicedModules: splicer.splicedModules,
    fragmentDiagnostics: splicer.fragmentDiagnostics,
    diagnostics: splicer.diagnostics,
  };
}

/**
 * The phase's splice tables, merged segment by segment in site order, each entry kept once as one
 * splicer over the whole phase would have: fragments in the order first spliced, modules per asset,
 * fragment warnings and xi:include diagnostics deduplicated.
 */
class SpliceMerge {
  readonly fragmentDiagnostics: ReadonlyMap<string, readonly RecordDiagnostic[]>;

  constructor(
    readonly spliced = new Set<string>(),
    readonly splicedModules = new Map<number, SplicedModule[]>(),
    private readonly fragmentTable = new FragmentDiagnostics(),
    readonly diagnostics: Diagnostic[] = [],
    private readonly seen = new Set<string>(),
  ) {
    this.fragmentDiagnostics = fragmentTable.byFile;
  }

  /**
   * These tables with the modules' owners mapped through `map` (which moves no index below `lowest`), the
   * rest shared; this very merge when no owner moves. The map is increasing, so the owners keep their order.
   */
  renumbered(map: Int32Array, lowest: number): SpliceMerge {
    if (!ownerFrom(this.splicedModules, lowest)) return this;
    const modules = new Map<number, SplicedModule[]>();
    for (const [owner, list] of this.splicedModules) modules.set(owner >= lowest ? map[owner] : owner, list);
    return new SpliceMerge(this.spliced, modules, this.fragmentTable, this.diagnostics, this.seen);
  }

  /** The tables of `segments`, merged in their order. */
  static of(segments: readonly SiteSegment[]): SpliceMerge {
    const m = new SpliceMerge();
    for (const seg of segments) m.add(seg);
    return m;
  }

  private add(seg: SiteSegment): void {
    for (const k of seg.spliced) this.spliced.add(k);
    const e = seg.effects;
    if (!e) return;
    for (const [owner, modules] of e.splicedModules) for (const m of modules) push(this.splicedModules, owner, m);
    for (const [key, diags] of e.fragmentDiagnostics) this.fragmentTable.add(key, diags);
    for (const d of e.diagnostics) {
      const k = `${pathKey(d.file!)}\u0000${d.line}\u0000${d.column}\u0000${d.code}`;
      if (this.seen.has(k)) continue;
      this.seen.add(k);
      this.diagnostics.push(d);
    }
  }
}

interface Resolution {
  readonly id: string;
  /** `id` lower-cased (the key of `byId`). */
  readonly lower: string;
  readonly targets: readonly number[];
  readonly status: ReferenceSite["status"];
}

/** A resolution with the type key it answers (the memo's entry for a value met with one key so far). */
interface KeyedResolution extends Resolution {
  readonly typeKey: string;
}

const NO_TARGETS: readonly number[] = [];

/**
 * The values {@link SiteResolver} memoises at most. A mod names a few thousand values many times each (a
 * Corona-scale mod ≈ 20k distinct ones), all memoised; a huge generated file naming a million values once
 * each kept a million answers alive to the phase's end (≈ 150 MB at 1.27 M sites, and garbage a quick
 * collection cannot free, since it outlived several) for no hit.
 */
const MEMO_LIMIT = 65_536;

/**
 * Resolution by id and type. It depends only on (value, refType, selfType) except when the candidates
 * include the site's own asset (self-references are skipped): the common case is memoised, and the
 * target arrays are shared.
 */
class SiteResolver {
  /**
   * value → (refType or "=" + selfType) → resolution; nested maps avoid building a key string per site.
   * Most values are met with one type key only, so the first answer is kept alone (with its key) and a map
   * is made only for a second key: a map per distinct value cost ~150 bytes each at a million values.
   */
  private readonly memo = new Map<string, KeyedResolution | Map<string, Resolution>>();

  constructor(
    private readonly ctx: LinkContext,
    private readonly assets: readonly AssetDef[],
    private readonly byId: ReadonlyMap<string, readonly number[]>,
    /** Asset index → its id lower-cased (the ranking's): a found id's lower-cased copy is that string. */
    private readonly lowerIds?: readonly string[],
  ) {}

  resolve(r: RefRecord, from: number): Resolution {
    const typeKey = r.refType ?? (r.selfType === null ? "" : `=${r.selfType}`);
    const known = this.memo.get(r.value);
    const hit = known === undefined
      ? undefined
      : known instanceof Map
      ? known.get(typeKey)
      : known.typeKey === typeKey
      ? known
      : undefined;
    if (hit && !hit.targets.includes(from)) return hit;
    const id = normaliseRefValue(r.value);
    const lowered = id.toLowerCase();
    const candidates = this.byId.get(lowered);
    // The segment's names and the memo keep the ranking's copy, not one more string per distinct value.
    const lower = candidates && this.lowerIds ? this.lowerIds[candidates[0]] : lowered;
    if (!candidates) {
      const miss = { id, lower, targets: NO_TARGETS, status: "not_found" as const, typeKey };
      this.remember(r.value, known, miss);
      return miss;
    }
    const { targets, selfSkipped, selfOnly } = this.matching(r, from, candidates);
    const answer = {
      id,
      lower,
      targets: targets.length ? targets : NO_TARGETS,
      status: targets.length ? ("resolved" as const) : selfOnly ? ("not_found" as const) : ("wrong_type" as const),
      typeKey,
    };
    if (!selfSkipped) this.remember(r.value, known, answer);
    return answer;
  }

  /** Stores `answer` for `value` beside what `known` (the memo's entry for it) already holds. */
  private remember(
    value: string,
    known: KeyedResolution | Map<string, Resolution> | undefined,
    answer: KeyedResolution,
  ) {
    if (known === undefined) {
      // At most MEMO_LIMIT values (later ones are resolved every time): see there.
      if (this.memo.size < MEMO_LIMIT) this.memo.set(value, answer);
    } else if (!(known instanceof Map) && known.typeKey === answer.typeKey) {
      this.memo.set(value, answer);
    } else if (known instanceof Map) {
      known.set(answer.typeKey, answer);
    } else {
      this.memo.set(value, new Map([[known.typeKey, known], [answer.typeKey, answer]]));
    }
  }

  /** The candidates whose type the reference accepts, best first (a self-reference skipped). */
  private matching(
    r: RefRecord,
    from: number,
    candidates: readonly number[],
  ): { targets: readonly number[]; selfSkipped: boolean; selfOnly?: boolean } {
    const schema = this.ctx.schema;
    const assets = this.assets;
    const targets: number[] = [];
    let selfSkipped = false;
    for (const c of candidates) {
      const t = assets[c].type;
      if (r.refType && !(schema ? schema.isAssignable(t, r.refType) : t === r.refType)) continue;
      if (r.selfType && !(schema ? schema.isAssignable(t, r.selfType) : t === r.selfType)) continue;
      if (c === from && (r.kind === "inheritFrom" || r.kind === "heuristic")) {
        selfSkipped = true;
        continue;
      }
      targets.push(c);
    }
    // An asset whose inheritFrom names its own id and nothing else of that id is indexed: with the SDK's
    // vanilla layer indexed, a cycle (kept, and reported); without it, the vanilla copy the mod overrides
    // (the common `id="X" inheritFrom="X"` idiom), which is not indexed: not found.
    if (targets.length === 0 && selfSkipped && r.kind === "inheritFrom") {
      if (this.ctx.inputs.sdkUsable) targets.push(from);
      else return { targets, selfSkipped, selfOnly: true };
    }
    // Every candidate matched: the by-id list itself, best first (shared, not copied: one array fewer per
    // distinct value, 48 bytes each at a million of them).
    if (targets.length === candidates.length) return { targets: candidates, selfSkipped };
    // byId is best first already; the sort keeps that order and is a no-op unless candidates tie.
    if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
    return { targets, selfSkipped };
  }
}

/**
 * A stretch of the site list being built: numbers each site as it is added (from `base`) and notes every
 * id it looks up. Sites nobody wrote are kept only when they resolve: a guess (`heuristic`), an XSD
 * default (`default`) and a runtime name (`name`) that match no asset of the right type are not
 * references (and never an unresolved-reference error).
 */
class SiteSink implements SiteAdder {
  readonly names: string[] = [];

  constructor(
    private readonly resolver: SiteResolver,
    private readonly base: number,
    readonly sites: ReferenceSite[] = [],
  ) {}

  add(r: RefRecord, from: number, file: string, state: FileState, via: string | null, unspliced = false): void {
    const { id, lower, targets, status } = this.resolver.resolve(r, from);
    this.names.push(lower);
    if (r.kind === "heuristic" || r.kind === "default" || r.kind === "name") {
      if (status !== "resolved") return;
      // Guesses in files nothing includes (maps, drafts) are noise.
      if (r.kind === "heuristic" && state === "not-included") return;
    }
    this.sites.push(
      new LinkedSite(this.base + this.sites.length, from, r, id, file, targets, status, state, via, unspliced, false),
    );
  }

  /** Adds the site `make` makes with the number it gets. */
  addPrebuilt(make: (index: number) => ReferenceSite): void {
    this.sites.push(make(this.base + this.sites.length));
  }
}

/**
 * The sites of one non-fragment XML or art file's references `from` to `to` (a file's segment is all of
 * them, then {@link recordSplices}).
 */
function recordRefs(
  { loaded, key }: KeyedFile,
  info: FileInfo,
  table: AssetTable,
  sink: SiteSink,
  from: number,
  to: number,
): void {
  const refs = loaded.record.refs;
  const indexes = table.recordAssets.get(key) ?? [];
  for (let k = from; k < to; k++) {
    const r = refs[k];
    sink.add(r, r.owner >= 0 ? indexes[r.owner] : -1, loaded.path, info.state, null);
  }
}

/** Each xi:include's selection of a non-fragment XML or art file, spliced in after its own sites. */
function recordSplices({ loaded, key }: KeyedFile, info: FileInfo, table: AssetTable, splicer: Splicer): void {
  const rec = loaded.record;
  const indexes = table.recordAssets.get(key) ?? [];
  for (const xi of rec.xincludes) {
    if (xi.rootLevel || xi.owner < 0) continue;
    splicer.splice(indexes[xi.owner], loaded, xi, info.origin === "sdk" ? "sdk" : "project", info.state);
  }
}

/**
 * The compiler's own dependency pairs stored in the manifests (vanilla asset → vanilla asset, overrides
 * included). Where the referencing asset has an XML definition whose own sites already resolve to the
 * pair's target, those sites are the answer and the pair only confirms them (`confirmedByManifest`);
 * the other pairs become sites of kind `manifest`. Each (asset, target) pair counts once, however many
 * manifests hold it.
 */
function manifestSites(
  table: AssetTable,
  byId: ReadonlyMap<string, readonly number[]>,
  sink: SiteSink,
  lowerIds?: readonly string[],
): void {
  const { assets } = table;
  const confirm = new Confirmations(sink.sites, assets, byId, lowerIds);
  const manifestTargets = new Map<number, number[]>();
  const sources = new Map<number, SiteSource[]>();
  const seenPairs = new Set<number>();
  for (const { loaded, indexes } of table.manifestOwners) {
    const refs = loaded.record.manifestRefs;
    for (let k = 0; k + 2 < refs.length; k += 3) {
      const from = indexes[refs[k]];
      const to = table.manifestHandles.get(refs[k + 1], refs[k + 2]);
      if (from === undefined || from < 0 || to === undefined) continue;
      // One key per (asset, target) pair of asset indexes (both below 2^26 at any realistic size).
      const pair = from * 67_108_864 + to;
      if (seenPairs.has(pair)) continue;
      seenPairs.add(pair);
      const target = assets[to];
      let targets = manifestTargets.get(to);
      if (!targets) {
        targets = confirm.sameAsset(target);
        if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
        manifestTargets.set(to, targets);
      }
      if (confirm.xmlSitesTo(from, targets)) continue;
      const source = manifestSource(sources, to, target, assets[from].type);
      // The compiler's pair inside a prebuilt manifest: part of what the mod references.
      sink.addPrebuilt((index) =>
        new LinkedSite(
          index,
          from,
          source,
          target.id,
          loaded.path,
          targets,
          "resolved",
          "referenced",
          null,
          false,
          false,
        )
      );
    }
  }
}

/**
 * The source of a manifest pair's site to asset `to` (`target`) from an asset of type `element`: one per
 * target and referencing type, shared by its pairs (`sources`: target → those made so far).
 */
function manifestSource(
  sources: Map<number, SiteSource[]>,
  to: number,
  target: AssetDef,
  element: string,
): SiteSource {
  let made = sources.get(to);
  if (!made) sources.set(to, made = []);
  for (const s of made) if (s.element === element) return s;
  const source: SiteSource = {
    kind: "manifest",
    value: `${target.type}:${target.id}`,
    refType: target.type,
    selfType: null,
    element,
    parent: null,
    attribute: null,
    line: 0,
    column: 0,
  };
  made.push(source);
  return source;
}

/**
 * Which XML sites a manifest pair confirms: those of the referencing asset's XML definitions (same type
 * and id) that resolve to one of the pair's targets. Each definition's sites are grouped by target once,
 * so a pair costs a few map lookups. Marks them by replacing the phase's own site objects, before the list
 * is published.
 */
class Confirmations {
  /** XML asset index → target asset index → its sites resolving to that target. */
  private readonly byTarget = new Map<number, Map<number, number[]>>();
  private xmlSitesFrom: Map<number, number[]> | null = null;

  constructor(
    private readonly sites: ReferenceSite[],
    private readonly assets: readonly AssetDef[],
    private readonly byId: ReadonlyMap<string, readonly number[]>,
    /** Asset index → its id lower-cased, the key of `byId` (no new string per asking). */
    private readonly lowerIds?: readonly string[],
  ) {}

  /** Asset index → {@link sameAsset} of it (a manifest holds many pairs from one asset). */
  private readonly twins = new Map<number, readonly number[]>();

  /** The definitions of `a`'s type and id, in every layer (a new list: the caller may sort it). */
  sameAsset(a: AssetDef): number[] {
    const lists = this.byId.get(this.lowerIds ? this.lowerIds[a.index] : a.id.toLowerCase()) ?? [];
    const out: number[] = [];
    for (const i of lists) if (this.assets[i].type === a.type) out.push(i);
    return out;
  }

  /** {@link sameAsset} of the asset at `index`, made once. */
  private twinsOf(index: number): readonly number[] {
    let twins = this.twins.get(index);
    if (twins === undefined) this.twins.set(index, twins = this.sameAsset(this.assets[index]));
    return twins;
  }

  /** Marks the XML sites of `from`'s definitions that resolve to one of `targets`; true when there was one. */
  xmlSitesTo(from: number, targets: readonly number[]): boolean {
    let confirmed = false;
    for (const twin of this.twinsOf(from)) {
      if (this.assets[twin].origin === "manifest") continue;
      const grouped = this.grouped(twin);
      for (const t of targets) {
        for (const i of grouped.get(t) ?? []) {
          confirmed = true;
          const s = this.sites[i];
          if (!s.confirmedByManifest) this.sites[i] = LinkedSite.of(s, { confirmedByManifest: true });
        }
      }
    }
    return confirmed;
  }

  private grouped(asset: number): Map<number, number[]> {
    let g = this.byTarget.get(asset);
    if (g) return g;
    if (!this.xmlSitesFrom) {
      this.xmlSitesFrom = new Map();
      for (const s of this.sites) if (s.from >= 0) push(this.xmlSitesFrom, s.from, s.index);
    }
    g = new Map();
    for (const i of this.xmlSitesFrom.get(asset) ?? []) {
      for (const t of this.sites[i].targets) push(g, t, i);
    }
    this.byTarget.set(asset, g);
    return g;
  }
}

/** The children of a fragment's root-level containers are assets: the sites inside each are typed and owned as such. */
function rootLevelSites(
  { loaded }: KeyedFile,
  info: FileInfo,
  owners: readonly XiChildOwner[],
  splicer: Splicer,
): void {
  for (const container of new Set(owners.map((o) => o.container))) {
    const mine = owners.filter((o) => o.container === container);
    const ownerAt = (offset: number) => mine.find((o) => offset >= o.start && offset < o.end)?.asset ?? -1;
    splicer.spliceRootLevel(loaded, container, info.state, ownerAt);
  }
}
