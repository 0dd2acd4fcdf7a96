/**
 * The snapshot's linked section: what the last link produced (the include walk and the published index's
 * parts) and the facts it depended on, so a warm start where nothing changed publishes it instead of
 * walking and linking again, and one where only values changed reuses the walk. Written with the same
 * spec engine and string table as the file records (`record-codec.ts`); a spec is tied to its type, so a
 * field added to the index and forgotten here is a compile error.
 *
 * Maps and sets travel as lists in their iteration order, which the published index keeps (a map's order
 * is part of what equals a fresh build). What is derivable is not stored: an asset's or a site's index
 * (its position), `active` (its state is `compiled`), the key of a file or a reached file (`pathKey` of
 * its path), and the keys of the by-id and by-type lists (the lower-cased id and the type of a list's first
 * asset; the lists themselves are stored: ranking the assets again cost a warm start 20–80 ms); the writer throws when a value is not what the reader derives (a bug: the link changed its rule). Read back, the section is checked for indexes outside their
 * lists (an encoder of another build writing the same version): such a section is refused, and the
 * warm start links the records instead.
 */
import type { FileReach, WalkContext, WalkResult } from "../index/include-walk.ts";
import type {
  AssetDef,
  DeferredSites,
  DefineDef,
  DefineUseSite,
  Diagnostic,
  FileInfo,
  IncludeEdge,
  InheritCycle,
  LinkedIndex,
  LinkedParts,
  LinkStats,
  OmittedDiagnostic,
  PoidSite,
  ReferenceSite,
  StreamInfo,
  StringDef,
  StringUse,
} from "../index/linked.ts";
import { LazyLists } from "../index/linked.ts";
import { pathKey } from "../project/paths.ts";
import { type ByteReader, type ByteWriter, CorruptInput } from "./bytes.ts";
import { runSteps } from "../steps.ts";
import {
  cannotHold,
  compileSpec,
  flag,
  optionalIndex,
  readObjectSteps,
  type SizedItems,
  slotsOf,
  type Spec,
  type StringTable,
  withItemWriter,
  writeObjectSteps,
  written,
} from "./record-codec.ts";

/** What a stored link depended on beyond the records, each as a comparable value. */
export interface LinkFacts {
  /** The link's configuration: layout, SDK, entry options, build scripts. */
  readonly config: string;
  /** What the project scan reported (paths differing only in case, folders it could not list). */
  readonly scan: string;
  /** The questions asked of folder listings, one JSON array per folder: the folder, then the names. */
  readonly folders: readonly string[];
  /** A digest of their answers (see `CaseResolver.lookupAnswers`). */
  readonly listing: string;
}

/** The parts of a published index the link computed (the rest comes from the workspace's inputs). */
export type StoredParts = Omit<LinkedParts, "schema" | "projectDir" | "sdkDir" | "includes" | "streams" | "wanted">;

/** A stored link: valid while the records, the facts and the configuration are those it was made from. */
export interface LinkState {
  readonly facts: LinkFacts;
  readonly walk: WalkResult;
  readonly parts: StoredParts;
}

/**
 * The link state of a published index and the walk it was linked from.
 * @example linkStateOf(ws.linked!, walk, facts)
 */
export function linkStateOf(linked: LinkedIndex, walk: WalkResult, facts: LinkFacts): LinkState {
  return {
    facts,
    walk,
    parts: {
      files: linked.files,
      assets: linked.assets,
      sites: linked.heldSites,
      defines: linked.defines,
      diagnostics: linked.diagnostics,
      omittedDiagnostics: linked.omittedDiagnostics,
      stats: linked.stats,
      defineUses: linked.defineUses,
      defineUseSites: linked.defineUseSites,
      inheritCycles: linked.inheritCycles,
      strings: linked.strings,
      stringUses: linked.stringUses,
      poidSites: linked.poidSites,
      ranking: { byId: linked.byId, byType: linked.byType },
    },
  };
}

// ---- wire shapes: the maps and sets of the walk and the index as lists ----

interface WireFacts {
  readonly config: string;
  readonly scan: string;
  readonly folders: readonly string[];
  readonly listing: string;
}
interface WireReach {
  readonly path: string;
  readonly streams: readonly string[];
  readonly context: number;
}
interface WireNamed {
  readonly key: string;
  readonly value: string;
}
interface WireCount {
  readonly key: string;
  readonly count: number;
}
interface WireNumbers {
  readonly list: readonly number[];
}
interface WireDefines {
  readonly key: string;
  readonly defs: readonly DefineDef[];
}
interface WireDefineUseSites {
  readonly key: string;
  readonly uses: readonly DefineUseSite[];
}
interface WireStringUses {
  readonly key: string;
  readonly uses: readonly StringUse[];
}
interface WireLink {
  readonly facts: WireFacts;
  readonly reached: readonly WireReach[];
  readonly includes: readonly IncludeEdge[];
  readonly walkDiagnostics: readonly Diagnostic[];
  readonly wanted: readonly string[];
  readonly streams: readonly StreamInfo[];
  readonly manifestsUsed: readonly WireNamed[];
  readonly suppressedPrefixed: readonly WireCount[];
  readonly files: readonly FileInfo[];
  readonly assets: readonly AssetDef[];
  readonly defines: readonly WireDefines[];
  readonly diagnostics: readonly Diagnostic[];
  readonly omittedDiagnostics: readonly OmittedDiagnostic[];
  readonly stats: LinkStats;
  readonly defineUses: readonly WireCount[];
  readonly defineUseSites: readonly WireDefineUseSites[];
  readonly inheritCycles: readonly InheritCycle[];
  readonly strings: readonly StringDef[];
  readonly stringUses: readonly WireStringUses[];
  readonly poidSites: readonly PoidSite[];
  readonly byId: readonly WireNumbers[];
  readonly byType: readonly WireNumbers[];
}

const DIAGNOSTIC: Spec<Diagnostic> = {
  code: "str",
  severity: "str",
  message: "str",
  file: "str?",
  line: "int",
  column: "int",
};
const OMITTED: Spec<OmittedDiagnostic> = {
  file: "str",
  code: "str",
  severity: "str",
  count: "uint",
  line: "int",
  column: "int",
};
const EDGE: Spec<IncludeEdge> = {
  from: "str",
  to: "str?",
  source: "str",
  type: "str?",
  resolution: "str",
  line: "int",
  column: "int",
  caseFixed: "bool",
};
const STREAM: Spec<StreamInfo> = {
  name: "str",
  entry: "str",
  layer: "str",
  context: "str",
  origin: "str",
  reason: "str",
  referencedFrom: { optional: { file: "str", line: "int", column: "int", source: "str" } },
  files: "uint",
  manifests: "str[]",
};
const COMPILED = { is: { field: "state", value: "compiled" } } as const;
const FILE: Spec<FileInfo> = {
  path: "str",
  kind: "str",
  origin: "str",
  state: "str",
  active: COMPILED,
  streams: "str[]",
  viaInstance: "bool",
  fragment: "bool",
  foreign: "bool",
  rootName: "str?",
  assetCount: "uint",
  xmlError: { optional: { line: "int", column: "int", message: "str" } },
};
export const ASSET: Spec<AssetDef> = withItemWriter<AssetDef>(
  {
    index: "position",
    type: "str",
    id: "str",
    file: "str",
    line: "int",
    column: "int",
    startLine: "int",
    endLine: "int",
    origin: "str",
    streams: "str[]",
    state: "str",
    active: COMPILED,
    viaInstance: "bool",
    fileHasErrors: "bool",
    inheritFrom: "str?",
    manifestSource: "str?",
    viaXInclude: "bool",
    recordIndex: "int",
    start: "int",
    end: "int",
  },
  (sub) => {
    const [type, id, file, origin, state, inheritFrom, manifestSource] = slotsOf(
      sub,
      "index type id file line column startLine endLine origin streams state active viaInstance fileHasErrors " +
        "inheritFrom manifestSource viaXInclude recordIndex start end",
    );
    return (w, table, item, position) => {
      const a = item as AssetDef;
      if (a.index !== position) throw cannotHold("index", a.index, `its position is ${position}`);
      w.uint(table.internAt(type, written(a.type, "type")));
      w.uint(table.internAt(id, written(a.id, "id")));
      w.uint(table.internAt(file, written(a.file, "file")));
      w.int(a.line);
      w.int(a.column);
      w.int(a.startLine);
      w.int(a.endLine);
      w.uint(table.internAt(origin, written(a.origin, "origin")));
      const streams = a.streams;
      w.uint(streams.length);
      for (const stream of streams) w.uint(table.intern(written(stream, "streams")));
      const st = written(a.state, "state");
      w.uint(table.internAt(state, st));
      if (a.active !== (st === "compiled")) throw cannotHold("active", a.active, `state is ${st}`);
      w.uint(flag(a.viaInstance, "viaInstance"));
      w.uint(flag(a.fileHasErrors, "fileHasErrors"));
      w.uint(optionalIndex(table, inheritFrom, a.inheritFrom, "inheritFrom"));
      w.uint(optionalIndex(table, manifestSource, a.manifestSource, "manifestSource"));
      w.uint(flag(a.viaXInclude, "viaXInclude"));
      w.int(a.recordIndex);
      w.int(a.start);
      w.int(a.end);
    };
  },
);
export const SITE: Spec<ReferenceSite> = withItemWriter<ReferenceSite>(
  {
    index: "position",
    from: "int",
    kind: "str",
    value: "str",
    id: { same: "value" },
    refType: "str?",
    selfType: "str?",
    element: "str",
    parent: "str?",
    attribute: "str?",
    file: "str",
    line: "int",
    column: "int",
    targets: "int[]",
    status: "str",
    state: "str",
    active: COMPILED,
    via: "str?",
    unspliced: "bool",
    confirmedByManifest: "bool",
  },
  (sub) => {
    const [kind, value, id, refType, selfType, element, parent, attribute, file, status, state, via] = slotsOf(
      sub,
      "index from kind value id refType selfType element parent attribute file line column targets status state " +
        "active via unspliced confirmedByManifest",
    );
    return (w, table, item, position) => {
      const s = item as ReferenceSite;
      if (s.index !== position) throw cannotHold("index", s.index, `its position is ${position}`);
      w.int(s.from);
      w.uint(table.internAt(kind, written(s.kind, "kind")));
      const v = written(s.value, "value");
      w.uint(table.internAt(value, v));
      const sid = written(s.id, "id");
      w.uint(sid === v ? 0 : table.internAt(id, sid) + 1);
      w.uint(optionalIndex(table, refType, s.refType, "refType"));
      w.uint(optionalIndex(table, selfType, s.selfType, "selfType"));
      w.uint(table.internAt(element, written(s.element, "element")));
      w.uint(optionalIndex(table, parent, s.parent, "parent"));
      w.uint(optionalIndex(table, attribute, s.attribute, "attribute"));
      w.uint(table.internAt(file, written(s.file, "file")));
      w.int(s.line);
      w.int(s.column);
      const targets = s.targets;
      w.uint(targets.length);
      for (const t of targets) w.int(t);
      w.uint(table.internAt(status, written(s.status, "status")));
      const st = written(s.state, "state");
      w.uint(table.internAt(state, st));
      if (s.active !== (st === "compiled")) throw cannotHold("active", s.active, `state is ${st}`);
      w.uint(optionalIndex(table, via, s.via, "via"));
      w.uint(flag(s.unspliced, "unspliced"));
      w.uint(flag(s.confirmedByManifest, "confirmedByManifest"));
    };
  },
);
const DEFINE: Spec<DefineDef> = {
  name: "str",
  value: "str",
  file: "str",
  line: "int",
  column: "int",
  origin: "str",
  state: "str",
  active: "bool",
};
const DEFINE_USE_SITE: Spec<DefineUseSite> = {
  file: "str",
  line: "int",
  column: "int",
  element: "str",
  attribute: "str?",
  state: "str",
};
const STATS: Spec<LinkStats> = {
  files: "uint",
  projectFiles: "uint",
  activeFiles: "uint",
  referencedFiles: "uint",
  assets: "uint",
  sdkAssets: "uint",
  references: "uint",
  resolvedReferences: "uint",
  externalReferences: "uint",
  defines: "uint",
  diagnostics: "uint",
  linkMs: "num",
};
const STRING_DEF: Spec<StringDef> = { key: "str", text: "str", file: "str", line: "int" };
const STRING_USE: Spec<StringUse> = { asset: "int", element: "str", attribute: "str?", line: "int" };
const POID_SITE: Spec<PoidSite> = {
  from: "int",
  value: "str",
  element: "str",
  attribute: "str",
  file: "str",
  line: "int",
  column: "int",
  target: { optional: { element: "str", file: "str", line: "int" } },
};
const COUNT: Spec<WireCount> = { key: "str", count: "uint" };

const LINK_SPEC: Spec<WireLink> = {
  facts: { optional: { config: "str", scan: "str", folders: "str[]", listing: "str" } },
  reached: { list: { path: "str", streams: "str[]", context: "uint" } },
  includes: { list: EDGE },
  walkDiagnostics: { list: DIAGNOSTIC },
  wanted: "str[]",
  streams: { list: STREAM },
  manifestsUsed: { list: { key: "str", value: "str" } },
  suppressedPrefixed: { list: COUNT },
  files: { list: FILE },
  assets: { list: ASSET },
  defines: { list: { key: "str", defs: { list: DEFINE } } },
  diagnostics: { list: DIAGNOSTIC },
  omittedDiagnostics: { list: OMITTED },
  stats: { optional: STATS },
  defineUses: { list: COUNT },
  defineUseSites: { list: { key: "str", uses: { list: DEFINE_USE_SITE } } },
  inheritCycles: { list: { assets: "int[]", sites: "int[]" } },
  strings: { list: STRING_DEF },
  stringUses: { list: { key: "str", uses: { list: STRING_USE } } },
  poidSites: { list: POID_SITE },
  byId: { list: { list: "int[]" } },
  byType: { list: { list: "int[]" } },
};

const LINK_FIELDS = compileSpec(LINK_SPEC);

/**
 * The reference sites, written after the rest of the section behind their byte length: a warm start
 * that publishes the stored index never reads them (they were about 40 % of the section's decode at
 * Corona scale), so it keeps only their range ({@link StoredSites}).
 */
const SITES_FIELDS = compileSpec<{ readonly sites: readonly ReferenceSite[] }>({ sites: { list: SITE } });

/** The wire layout of the linked section, for the snapshot's layout fingerprint. */
export const LINK_LAYOUT_FIELDS: readonly unknown[] = [LINK_FIELDS, SITES_FIELDS];

/** Objects of one list read or written between two yields. */
const ITEMS_PER_STEP = 4096;

/** Map entries made from the read lists between two yields (each a key computed from a path or an id). */
const MAP_ITEMS_PER_STEP = 2048;

/**
 * The fields of few distinct values (types, states, element and attribute names…) of the long lists,
 * interned before anything else: the table numbers strings in order of first sight, and a number below
 * 128 (16,384) takes one byte (two), so these fields cost one or two bytes instead of three at Corona scale.
 */
export const SITE_VOCABULARY = [
  "kind",
  "status",
  "state",
  "element",
  "parent",
  "attribute",
  "refType",
  "selfType",
  "via",
] as const satisfies readonly (keyof ReferenceSite)[];
const ASSET_VOCABULARY = ["type", "origin", "state"] as const satisfies readonly (keyof AssetDef)[];

/** List items whose vocabulary is interned between two yields (Corona's sites took 40 ms in one step). */
const VOCABULARY_ITEMS_PER_STEP = 8192;

/**
 * Interns the string values of `fields` of every item of `list` into `table`, in item order (the table
 * numbers strings by first sight), yielding after every `perStep` items: the same table for any `perStep`.
 */
export function* internVocabularySteps<T>(
  table: StringTable,
  list: readonly T[],
  fields: readonly (keyof T)[],
  perStep = VOCABULARY_ITEMS_PER_STEP,
): Generator<void, void, void> {
  // A field's value is most often its previous item's, interned already: skipped without a lookup.
  const last: unknown[] = fields.map(() => undefined);
  let n = 0;
  for (const item of list) {
    for (let i = 0; i < fields.length; i++) {
      const v = item[fields[i]];
      if (v === last[i]) continue;
      last[i] = v;
      if (typeof v === "string") table.intern(v);
    }
    if (++n % perStep === 0) yield;
  }
}

/**
 * {@link internVocabularySteps} of {@link SITE_VOCABULARY} over the sites, written out field by field: a
 * site reads its fields through getters, and the generic loop's `item[fields[i]]` cost 36 ms for the TW
 * SDK's 68k sites. The same table, in the same order, with the same yields.
 */
export function* internSiteVocabularySteps(
  table: StringTable,
  sites: readonly ReferenceSite[],
  perStep = VOCABULARY_ITEMS_PER_STEP,
): Generator<void, void, void> {
  let kind: unknown, status: unknown, state: unknown, element: unknown, parent: unknown;
  let attribute: unknown, refType: unknown, selfType: unknown, via: unknown;
  let n = 0;
  for (const s of sites) {
    let v: unknown = s.kind;
    if (v !== kind && typeof (kind = v) === "string") table.intern(v as string);
    v = s.status;
    if (v !== status && typeof (status = v) === "string") table.intern(v as string);
    v = s.state;
    if (v !== state && typeof (state = v) === "string") table.intern(v as string);
    v = s.element;
    if (v !== element && typeof (element = v) === "string") table.intern(v as string);
    v = s.parent;
    if (v !== parent && typeof (parent = v) === "string") table.intern(v as string);
    v = s.attribute;
    if (v !== attribute && typeof (attribute = v) === "string") table.intern(v as string);
    v = s.refType;
    if (v !== refType && typeof (refType = v) === "string") table.intern(v as string);
    v = s.selfType;
    if (v !== selfType && typeof (selfType = v) === "string") table.intern(v as string);
    v = s.via;
    if (v !== via && typeof (via = v) === "string") table.intern(v as string);
    if (++n % perStep === 0) yield;
  }
}

/** Writes `state` to `w`, its strings into `table`, yielding after every few thousand list items. */
export function* writeLinkStateSteps(w: ByteWriter, table: StringTable, state: LinkState): Generator<void, void, void> {
  const { walk, parts } = state;
  // Stored sites nothing read are decoded to be written again (their string indexes are this table's).
  const sites = Array.isArray(parts.sites) ? parts.sites : yield* (parts.sites as DeferredSites).produceSteps();
  // Each part a step of its own, the long lists in several (together 50 ms at Corona scale).
  yield* internVocabularySteps(table, parts.assets, ASSET_VOCABULARY);
  yield;
  yield* internSiteVocabularySteps(table, sites);
  yield;
  const reached = [...walk.reached].map(([key, r]) => ({
    path: keyed(key, r.path),
    streams: [...r.streams],
    context: r.context,
  }));
  yield;
  const wire: WireLink = {
    facts: state.facts,
    reached,
    includes: walk.includes,
    walkDiagnostics: walk.diagnostics,
    wanted: [...walk.wanted],
    streams: walk.streams,
    manifestsUsed: [...walk.manifestsUsed].map(([key, value]) => ({ key, value })),
    suppressedPrefixed: [...walk.suppressedPrefixed].map(([key, count]) => ({ key, count })),
    files: [...parts.files].map(([key, f]) => (keyed(key, f.path), f)),
    assets: parts.assets,
    defines: [...parts.defines].map(([key, defs]) => ({ key, defs })),
    diagnostics: parts.diagnostics,
    omittedDiagnostics: parts.omittedDiagnostics,
    stats: parts.stats,
    defineUses: [...parts.defineUses].map(([key, count]) => ({ key, count })),
    defineUseSites: [...parts.defineUseSites].map(([key, uses]) => ({ key, uses })),
    inheritCycles: parts.inheritCycles,
    strings: parts.strings,
    stringUses: [...parts.stringUses].map(([key, uses]) => ({ key, uses })),
    poidSites: parts.poidSites,
    // Written as they are made (a list per distinct id: 1.27 M of them for a 200 MB mod).
    byId: listsKeyedBy(
      parts.ranking.byId,
      (a, key) => isLowerCaseOf(key, a.id),
      parts.assets,
    ) as unknown as WireNumbers[],
    byType: listsKeyedBy(parts.ranking.byType, (a, key) => a.type === key, parts.assets) as unknown as WireNumbers[],
  };
  // The lists made above are a step of their own (with the first items written, 24 ms at Corona scale).
  yield;
  yield* writeObjectSteps(w, table, LINK_FIELDS, wire, ITEMS_PER_STEP);
  const lengthAt = w.length;
  w.u32(0);
  yield* writeObjectSteps(w, table, SITES_FIELDS, { sites }, ITEMS_PER_STEP);
  w.setU32(lengthAt, w.length - lengthAt - 4);
}

/**
 * Stored reference sites that did not decode when first read (their range was kept, not decoded, by
 * the warm start). The checksum matched, so an encoder of another build wrote the same version: the
 * stored index they belong to cannot be trusted, and the workspace links the files again.
 */
export class CorruptSites extends Error {
  constructor(why: string) {
    super(`the snapshot is corrupt: its stored reference sites do not decode (${why})`);
    this.name = "CorruptSites";
  }
}

/**
 * A linked section's reference sites as their byte range in the snapshot, decoded on first read and
 * then kept; checked like the rest of the section (every asset index inside the assets), and throwing
 * {@link CorruptSites} when they do not decode to exactly that range.
 */
class StoredSites implements DeferredSites {
  private value: readonly ReferenceSite[] | null = null;

  constructor(
    private readonly range: ByteReader,
    /** Where the range starts (each read has its own reader from there: reads in steps may overlap). */
    private readonly start: number,
    private readonly table: readonly string[],
    readonly length: number,
    private readonly assets: number,
  ) {}

  get decoded(): boolean {
    return this.value !== null;
  }

  produce(): readonly ReferenceSite[] {
    return this.value ?? runSteps(this.produceSteps());
  }

  *produceSteps(): Generator<void, readonly ReferenceSite[], void> {
    if (this.value) return this.value;
    try {
      const r = this.range.from(this.start);
      const { sites } = (yield* readObjectSteps(r, this.table, SITES_FIELDS, ITEMS_PER_STEP)) as unknown as {
        sites: ReferenceSite[];
      };
      // (Their count is `length` by construction: both are the range's first varint.)
      if (r.pos !== r.end) throw new CorruptInput(`${r.end - r.pos} bytes are left after them`);
      const problem = yield* sitesProblemSteps(sites, this.assets);
      if (problem !== null) throw new CorruptInput(problem);
      return this.value ??= sites;
    } catch (e) {
      if (e instanceof CorruptInput || e instanceof TypeError || e instanceof RangeError) {
        throw new CorruptSites(e.message);
      }
      throw e;
    }
  }
}

/** The first site naming an asset outside the `n`, or null; yields after every few thousand sites. */
function* sitesProblemSteps(sites: readonly ReferenceSite[], n: number): Generator<void, string | null, void> {
  const asset = (i: number) => Number.isInteger(i) && i >= 0 && i < n;
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i];
    if (site.from !== -1 && !asset(site.from)) return `reference site ${i} belongs to asset ${site.from} of ${n}`;
    for (const t of site.targets) if (!asset(t)) return `reference site ${i} points at asset ${t} of ${n}`;
    if ((i + 1) % (4 * ITEMS_PER_STEP) === 0) yield;
  }
  return null;
}

/**
 * The lists of `map` as they are written (one item object, refilled), each checked to be keyed by what
 * the reader derives from its first asset (`keyed`: the asset's lower-cased id, or its type).
 */
function listsKeyedBy(
  map: ReadonlyMap<string, readonly number[]>,
  keyed: (a: AssetDef, key: string) => boolean,
  assets: readonly AssetDef[],
): SizedItems<WireNumbers> {
  return {
    length: map.size,
    [Symbol.iterator]() {
      // One item and one iterator result, refilled: nothing allocated per list.
      const keys = map.keys();
      const item: { list: readonly number[] } = { list: [] };
      const result = { done: false, value: item };
      return {
        next() {
          const k = keys.next();
          if (k.done) return { done: true, value: undefined };
          const key = k.value;
          const list = map.get(key)!;
          const first = assets[list[0]];
          if (first === undefined || !keyed(first, key)) {
            throw new Error(`linked section encoder: the asset list keyed ${key} does not start with such an asset`);
          }
          item.list = list;
          return result;
        },
      };
    },
  };
}

/**
 * `id.toLowerCase() === key`, without making the lower-cased copy when `id` is ASCII (a string per
 * asset, 1.27 M of them for a 200 MB mod, was garbage of the encode).
 */
export function isLowerCaseOf(key: string, id: string): boolean {
  if (key.length !== id.length) return id.toLowerCase() === key; // only non-ASCII case maps change length
  for (let i = 0; i < id.length; i++) {
    let c = id.charCodeAt(i);
    if (c >= 0x80) return id.toLowerCase() === key;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== key.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The map of `lists`, each keyed by `keyOf` its first asset, yielding every few thousand lists; throws
 * `CorruptInput` on an empty list or an index outside the assets.
 */
function* keyedListsSteps(
  lists: readonly WireNumbers[],
  keyOf: (a: AssetDef) => string,
  assets: readonly AssetDef[],
): Generator<void, Map<string, readonly number[]>, void> {
  const map = new Map<string, readonly number[]>();
  let n = 0;
  for (const { list } of lists) {
    const first = assets[list[0]];
    if (first === undefined) throw new CorruptInput(`an asset list starts with ${list[0]} of ${assets.length}`);
    map.set(keyOf(first), list);
    if (++n % MAP_ITEMS_PER_STEP === 0) yield;
  }
  return map;
}

/**
 * Lists keyed by their first asset, as a map made on first use: keying the 32k by-id lists of a Corona-
 * scale mod by a lower-cased id took a warm start 15–30 ms, and `ra3 index` never looks an id up. The
 * lists were checked when read ({@link assetListsProblemSteps}), so making the map cannot fail; it is
 * the map {@link keyedListsSteps} makes, in the same order.
 */
class KeyedLists extends LazyLists {
  private made: Map<string, readonly number[]> | null = null;

  constructor(
    private readonly lists: readonly WireNumbers[],
    private readonly keyOf: (a: AssetDef) => string,
    private readonly assets: readonly AssetDef[],
  ) {
    super();
  }

  protected lookup(): ReadonlyMap<string, readonly number[]> {
    if (this.made) return this.made;
    const map = new Map<string, readonly number[]>();
    for (const { list } of this.lists) map.set(this.keyOf(this.assets[list[0]]), list);
    return this.made = map;
  }
}

/** The first list of `lists` that is empty or names an asset outside the `n`, or null; in steps. */
function* assetListsProblemSteps(lists: readonly WireNumbers[], n: number): Generator<void, string | null, void> {
  let k = 0;
  for (const { list } of lists) {
    if (list.length === 0) return "an asset list is empty";
    for (const i of list) if (!(Number.isInteger(i) && i >= 0 && i < n)) return `an asset list names ${i} of ${n}`;
    if (++k % MAP_ITEMS_PER_STEP === 0) yield;
  }
  return null;
}

/** `path`, after checking that `key` is what the reader derives from it. */
function keyed(key: string, path: string): string {
  if (pathKey(path) !== key) throw new Error(`linked section encoder: ${path} is keyed ${key}, not by its pathKey`);
  return path;
}

/**
 * Reads a linked section, yielding after every few thousand sites, assets, files…; throws
 * `CorruptInput` on damaged data. The result is not checked yet: see {@link linkStateProblemSteps}.
 */
export function* readLinkStateSteps(r: ByteReader, table: readonly string[]): Generator<void, LinkState, void> {
  const o = (yield* readObjectSteps(r, table, LINK_FIELDS, ITEMS_PER_STEP)) as unknown as WireLink;
  // The sites: only their range and count now (the count is the list's first varint).
  const siteBytes = r.slice(r.u32());
  const sitesAt = siteBytes.pos;
  const sites = new StoredSites(siteBytes, sitesAt, table, siteBytes.count(), o.assets.length);
  yield;
  // The maps in steps too (a key per path): 11k reached files and 11k files took 25–50 ms in one block.
  const reached = new Map<string, FileReach>();
  let n = 0;
  for (const x of o.reached) {
    reached.set(pathKey(x.path), { path: x.path, streams: new Set(x.streams), context: x.context as WalkContext });
    if (++n % MAP_ITEMS_PER_STEP === 0) yield;
  }
  const walk: WalkResult = {
    reached,
    includes: o.includes,
    diagnostics: o.walkDiagnostics,
    wanted: new Set(o.wanted),
    streams: o.streams,
    manifestsUsed: new Map(o.manifestsUsed.map((x) => [x.key, x.value])),
    suppressedPrefixed: new Map(o.suppressedPrefixed.map((x) => [x.key, x.count])),
  };
  const files = new Map<string, FileInfo>();
  for (const info of o.files) {
    files.set(pathKey(info.path), info);
    if (++n % MAP_ITEMS_PER_STEP === 0) yield;
  }
  yield;
  const listsProblem = yield* assetListsProblemSteps(o.byId, o.assets.length);
  if (listsProblem !== null) throw new CorruptInput(listsProblem);
  const byId = new KeyedLists(o.byId, (a) => a.id.toLowerCase(), o.assets);
  const byType = yield* keyedListsSteps(o.byType, (a) => a.type, o.assets);
  yield;
  return {
    facts: o.facts,
    walk,
    parts: {
      files,
      assets: o.assets,
      sites,
      defines: new Map(o.defines.map((x) => [x.key, x.defs])),
      diagnostics: o.diagnostics,
      omittedDiagnostics: o.omittedDiagnostics,
      stats: o.stats,
      defineUses: new Map(o.defineUses.map((x) => [x.key, x.count])),
      defineUseSites: new Map(o.defineUseSites.map((x) => [x.key, x.uses])),
      inheritCycles: o.inheritCycles,
      strings: o.strings,
      stringUses: new Map(o.stringUses.map((x) => [x.key, x.uses])),
      poidSites: o.poidSites,
      ranking: { byId, byType },
    },
  };
}

/**
 * The first inconsistency of a read link state (an index outside its list, a numbering gap), or null;
 * yields after every few thousand sites.
 * The checksum already matched, so this only catches an encoder of another build writing this version.
 */
export function* linkStateProblemSteps(s: LinkState): Generator<void, string | null, void> {
  const { assets, sites, stringUses, poidSites, ranking } = s.parts;
  const n = assets.length;
  const asset = (i: number) => Number.isInteger(i) && i >= 0 && i < n;
  // (An asset's and a site's index is its position, set by the reader: not checked. Stored sites are
  // checked when they are decoded, on first read: see StoredSites.)
  if (Array.isArray(sites)) {
    const problem = yield* sitesProblemSteps(sites as readonly ReferenceSite[], n);
    if (problem !== null) return problem;
  }
  for (const p of poidSites) {
    if (p.from !== -1 && !asset(p.from)) return `a Poid site belongs to asset ${p.from} of ${n}`;
  }
  for (const c of s.parts.inheritCycles) {
    if (c.assets.some((a) => !asset(a))) return `an inheritFrom cycle names an asset outside the ${n}`;
    if (c.sites.some((i) => !Number.isInteger(i) || i < 0 || i >= sites.length)) {
      return `an inheritFrom cycle names a site outside the ${sites.length}`;
    }
  }
  for (const uses of stringUses.values()) {
    for (const u of uses) if (!asset(u.asset)) return `a string use names asset ${u.asset} of ${n}`;
  }
  // (The by-id lists were checked when read: their map is made on first use.)
  for (const lists of ranking.byId instanceof KeyedLists ? [ranking.byType] : [ranking.byId, ranking.byType]) {
    for (const list of lists.values()) for (const i of list) if (!asset(i)) return `an asset list names ${i} of ${n}`;
  }
  if (s.parts.stats === null) return "the link statistics are missing";
  if (s.facts === null) return "the facts the link depended on are missing";
  return null;
}
