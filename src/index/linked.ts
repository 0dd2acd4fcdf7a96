/**
 * The linked index: the immutable result of linking every file record, and its types. Queries read only
 * this. The link phases produce the plain lists; {@link LinkedIndex} is the one place the derived indexes
 * (by id, by type, reverse and forward references, include edges by file) are built from them. Nothing
 * here is mutated after publication (a snapshot's stored sites are decoded on first read: the same list).
 */
import { pathKey } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import {
  type AssetDecl,
  type IncludeType,
  REFERENCE_KINDS,
  type ReferenceKind,
  type RefRecord,
  type Severity,
} from "./records.ts";
import { runSteps, sortSteps } from "../steps.ts";

export type Origin = "project" | "sdk" | "manifest";

/**
 * Whether the builder compiles a file (or an asset's definition) into the mod:
 * - `compiled`: reached from an entry point through `all` / `instance` includes or xi:include;
 * - `referenced`: reached only through `type="reference"` includes (or an SDK stream they pull in):
 *   its assets can be referenced, but the stream does not compile it (it uses a prebuilt manifest);
 * - `not-included`: no entry point reaches it.
 */
export type FileState = "compiled" | "referenced" | "not-included";

/** Where an entry point came from (reported by `get_status` with its reason). */
export type EntryOrigin =
  /** `--entry` (or the project's config) */
  | "explicit"
  /** named by a build script (BuildMod.bat, DefaultScript.cs, …) */
  | "build-script"
  /** a `<Stream>` of a `.babproj` */
  | "babproj"
  /** a well-known file name (Data/Mod.xml, Data/Static.xml) */
  | "well-known"
  /** a `Data/AdditionalMaps/MapMetaData_*.xml` global stream */
  | "map-metadata"
  /** the SDK's vanilla stream root a `reference` include names */
  | "sdk-stream";

/** The first well-formedness error of a file (the builder rejects the file until it is fixed). */
export interface XmlErrorAt {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface AssetDef {
  /** Index in `LinkedIndex.assets`. */
  readonly index: number;
  /** Canonical type name (schema spelling when known, else as written). */
  readonly type: string;
  readonly id: string;
  /** Absolute path of the defining file (the manifest for manifest assets). */
  readonly file: string;
  /** 1-based line of the id (0 for manifest assets). */
  readonly line: number;
  readonly column: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly origin: Origin;
  /** Streams whose walk reached the defining file (empty when not included). */
  readonly streams: readonly string[];
  readonly state: FileState;
  /** `state === "compiled"` (kept for compatibility). */
  readonly active: boolean;
  /** Compiled only through `instance` includes (emitted only when an emitted asset references it). */
  readonly viaInstance: boolean;
  /** The defining file has an XML error: the builder rejects it, though the definition was read. */
  readonly fileHasErrors: boolean;
  /** Raw inheritFrom value, or null. */
  readonly inheritFrom: string | null;
  /** Manifest assets: the source file recorded by the compiler (e.g. `DATA:globaldata/weapon.xml`). */
  readonly manifestSource: string | null;
  /** The asset came from a root-level xi:include container (attributed to the fragment file). */
  readonly viaXInclude: boolean;
  /** Index of the record-level asset in its file (-1 for manifest and xi assets). */
  readonly recordIndex: number;
  /**
   * Offsets of the whole element in the decoded text of `file` (from its `<` to the end of its end tag),
   * or -1 when unknown (manifest assets; art, whose scan records only the start: `end` is then -1).
   */
  readonly start: number;
  readonly end: number;
}

/**
 * What the assets of one file share (one per file and link, or per manifest, or per fragment and the file
 * whose root-level xi:include made its container children assets): held once, not in every asset.
 */
export interface AssetHost {
  readonly file: string;
  readonly origin: Origin;
  readonly streams: readonly string[];
  readonly state: FileState;
  readonly viaInstance: boolean;
  readonly fileHasErrors: boolean;
  readonly viaXInclude: boolean;
}

/**
 * The link's {@link AssetDef}: its number, canonical type and record index of its own, its declaration's
 * fields through the record's {@link AssetDecl} (not copied), its file's through one {@link AssetHost}. A
 * plain object of every field cost 224 bytes an asset (21 properties), a copy of the declaration's fields
 * 112 (12 slots), this 64 (6 slots; issue 15 item 4). A spread (`{ ...a }`) copies only the own fields: use
 * {@link plainAsset}; `JSON.stringify` writes every field.
 */
export class LinkedAsset implements AssetDef {
  constructor(
    readonly index: number,
    readonly type: string,
    protected readonly host: AssetHost,
    /** Where it is declared (the record's own object; never changed). */
    protected readonly decl: AssetDecl,
    readonly recordIndex: number,
    /** False for an art file's asset: the art scan records where an asset starts, not where it ends. */
    private readonly hasEnd: boolean = true,
  ) {}
  get id(): string {
    return this.decl.id;
  }
  get line(): number {
    return this.decl.line;
  }
  get column(): number {
    return this.decl.column;
  }
  get startLine(): number {
    return this.decl.startLine;
  }
  get endLine(): number {
    return this.decl.endLine;
  }
  get inheritFrom(): string | null {
    return this.decl.inheritFrom;
  }
  get start(): number {
    return this.decl.start;
  }
  get end(): number {
    return this.hasEnd ? this.decl.end : -1;
  }
  get file(): string {
    return this.host.file;
  }
  get origin(): Origin {
    return this.host.origin;
  }
  get streams(): readonly string[] {
    return this.host.streams;
  }
  get state(): FileState {
    return this.host.state;
  }
  get active(): boolean {
    return this.host.state === "compiled";
  }
  get viaInstance(): boolean {
    return this.host.viaInstance;
  }
  get fileHasErrors(): boolean {
    return this.host.fileHasErrors;
  }
  get viaXInclude(): boolean {
    return this.host.viaXInclude;
  }
  get manifestSource(): string | null {
    return null;
  }
  /** The same asset numbered `index` (a renumbering link moves it). */
  moved(index: number): LinkedAsset {
    return new LinkedAsset(index, this.type, this.host, this.decl, this.recordIndex, this.hasEnd);
  }
  toJSON(): AssetDef {
    return plainAsset(this);
  }
}

/** A manifest's asset: a {@link LinkedAsset} with the source file the compiler recorded. */
export class ManifestAsset extends LinkedAsset {
  constructor(
    index: number,
    type: string,
    id: string,
    host: AssetHost,
    private readonly source: string | null,
  ) {
    super(index, type, host, MANIFEST_DECL, -1, false);
    this.manifestId = id;
  }
  /** Its id (the shared declaration has none). */
  private readonly manifestId: string;
  override get id(): string {
    return this.manifestId;
  }
  override get manifestSource(): string | null {
    return this.source;
  }
  override moved(index: number): LinkedAsset {
    return new ManifestAsset(index, this.type, this.manifestId, this.host, this.source);
  }
}

/** The place of every manifest asset (none in any text), shared: its id is its own field. */
const MANIFEST_DECL: AssetDecl = {
  type: "",
  id: "",
  line: 0,
  column: 0,
  startLine: 0,
  endLine: 0,
  start: -1,
  end: -1,
  inheritFrom: null,
};

/** Every field of `a` as one plain object, in the interface's order (what a spread of a plain one gives). */
export function plainAsset(a: AssetDef): AssetDef {
  return {
    index: a.index,
    type: a.type,
    id: a.id,
    file: a.file,
    line: a.line,
    column: a.column,
    startLine: a.startLine,
    endLine: a.endLine,
    origin: a.origin,
    streams: a.streams,
    state: a.state,
    active: a.active,
    viaInstance: a.viaInstance,
    fileHasErrors: a.fileHasErrors,
    inheritFrom: a.inheritFrom,
    manifestSource: a.manifestSource,
    viaXInclude: a.viaXInclude,
    recordIndex: a.recordIndex,
    start: a.start,
    end: a.end,
  };
}

export type ReferenceStatus =
  /** at least one matching definition */
  | "resolved"
  /** the id exists, but only with types the reference does not accept */
  | "wrong_type"
  /** no asset has this id */
  | "not_found";

export interface ReferenceSite {
  readonly index: number;
  /** The asset the site belongs to (index into assets), or -1 (outside any asset). */
  readonly from: number;
  readonly kind: ReferenceKind;
  /** The token as written, possibly `Type:Id`. */
  readonly value: string;
  /** The id looked up (last `:` segment of `value`). */
  readonly id: string;
  readonly refType: string | null;
  readonly selfType: string | null;
  readonly element: string;
  readonly parent: string | null;
  readonly attribute: string | null;
  /** File holding the site (for a spliced fragment: the fragment file). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Matching definitions (indexes into assets), best first. */
  readonly targets: readonly number[];
  readonly status: ReferenceStatus;
  /** The state of the file holding the site (for a spliced fragment: of the splicing asset). */
  readonly state: FileState;
  /** `state === "compiled"`. */
  readonly active: boolean;
  /** Spliced in through this xi:include (its href, or its xpointer for one into its own document), else null. */
  readonly via: string | null;
  /**
   * In a fragment nothing splices in: no splice context types its elements, so they are typed by a guess
   * from the root element's name (and the site belongs to no asset).
   */
  readonly unspliced: boolean;
  /** A compiled manifest holds the same dependency (the pair of the referencing asset and its target). */
  readonly confirmedByManifest: boolean;
}

/** A site's kind is its index in the one list of kinds (3 bits: at most 8, which a test checks). */
const KINDS = REFERENCE_KINDS;
const STATUSES: readonly ReferenceStatus[] = ["resolved", "wrong_type", "not_found"];
const STATES: readonly FileState[] = ["compiled", "referenced", "not-included"];
/** The position of `v` in `list` (a handful of literals: a scan beats a map lookup). */
function codeOf<T>(list: readonly T[], v: T): number {
  for (let i = 0; i < list.length; i++) if (list[i] === v) return i;
  throw new Error(`linked site: ${String(v)} is not one of ${list.join(", ")}`);
}
const UNSPLICED = 1 << 7;
const CONFIRMED = 1 << 8;

/**
 * Where a site is: its file and xi:include, shared by the sites next to each other that have the same (a
 * file's own sites, one splice's); its own when its id is not its value (`Type:Id`).
 */
interface SitePlace {
  readonly file: string;
  readonly via: string | null;
  /** The id when it is not the value, else null. */
  readonly id: string | null;
}

/**
 * What a site was read from: the record's reference ({@link RefRecord} is one); a manifest pair's site
 * shares one per target and referencing type; {@link LinkedSite.of} given a plain site (not made by a
 * link: tests) makes one of its own.
 */
export type SiteSource = Pick<
  RefRecord,
  "kind" | "value" | "refType" | "selfType" | "element" | "parent" | "attribute" | "line" | "column"
>;

/**
 * The place of the site made last: the next one, in the same file through the same include, shares it
 * (sites are made file by file). Only an object to share, never a value: a stale one is simply not reused.
 */
let lastPlace: SitePlace = { file: "", via: null, id: null };

/**
 * The link's {@link ReferenceSite} in 6 slots: what it was read from through its {@link SiteSource} (the
 * record's own reference, not copied), status, state and the two flags packed in one number, file and
 * xi:include in a {@link SitePlace} shared with its neighbours. A plain object of every field cost 224
 * bytes a site (21 properties), a copy of the reference's fields 112 (12 slots), this 64 (issue 15 item 4).
 * A spread (`{ ...s }`) copies only the own fields: use {@link plainSite}; `JSON.stringify` writes every
 * field.
 */
export class LinkedSite implements ReferenceSite {
  private readonly bits: number;
  private readonly place: SitePlace;
  constructor(
    readonly index: number,
    readonly from: number,
    private readonly source: SiteSource,
    id: string,
    file: string,
    readonly targets: readonly number[],
    status: ReferenceStatus,
    state: FileState,
    via: string | null,
    unspliced: boolean,
    confirmedByManifest: boolean,
  ) {
    this.bits = codeOf(KINDS, source.kind) | (codeOf(STATUSES, status) << 3) | (codeOf(STATES, state) << 5) |
      (unspliced ? UNSPLICED : 0) | (confirmedByManifest ? CONFIRMED : 0);
    if (id !== source.value) this.place = { file, via, id };
    else if (lastPlace.file === file && lastPlace.via === via && lastPlace.id === null) this.place = lastPlace;
    else this.place = lastPlace = { file, via, id: null };
  }
  /** `s` (any site) as a {@link LinkedSite}, with `changes` (of its number, owner, targets, flags) applied. */
  static of(
    s: ReferenceSite,
    changes: Partial<Pick<ReferenceSite, "index" | "from" | "targets" | "confirmedByManifest">> = {},
  ): LinkedSite {
    const source: SiteSource = s instanceof LinkedSite ? s.source : sourceOf(s);
    return new LinkedSite(
      changes.index ?? s.index,
      changes.from ?? s.from,
      source,
      s.id,
      s.file,
      changes.targets ?? s.targets,
      s.status,
      s.state,
      s.via,
      s.unspliced,
      changes.confirmedByManifest ?? s.confirmedByManifest,
    );
  }
  get kind(): ReferenceKind {
    return KINDS[this.bits & 7];
  }
  get value(): string {
    return this.source.value;
  }
  get refType(): string | null {
    return this.source.refType;
  }
  get selfType(): string | null {
    return this.source.selfType;
  }
  get element(): string {
    return this.source.element;
  }
  get parent(): string | null {
    return this.source.parent;
  }
  get attribute(): string | null {
    return this.source.attribute;
  }
  get id(): string {
    const id = this.place.id;
    return id === null ? this.source.value : id;
  }
  get file(): string {
    return this.place.file;
  }
  get line(): number {
    return this.source.line;
  }
  get column(): number {
    return this.source.column;
  }
  get status(): ReferenceStatus {
    return STATUSES[(this.bits >> 3) & 3];
  }
  get state(): FileState {
    return STATES[(this.bits >> 5) & 3];
  }
  get active(): boolean {
    return (this.bits & (3 << 5)) === 0;
  }
  get via(): string | null {
    return this.place.via;
  }
  get unspliced(): boolean {
    return (this.bits & UNSPLICED) !== 0;
  }
  get confirmedByManifest(): boolean {
    return (this.bits & CONFIRMED) !== 0;
  }
  toJSON(): ReferenceSite {
    return plainSite(this);
  }
}

/** The {@link SiteSource} fields of `s`, as an object of their own. */
export function sourceOf(s: SiteSource): SiteSource {
  return {
    kind: s.kind,
    value: s.value,
    refType: s.refType,
    selfType: s.selfType,
    element: s.element,
    parent: s.parent,
    attribute: s.attribute,
    line: s.line,
    column: s.column,
  };
}

/** Every field of `s` as one plain object, in the interface's order (what a spread of a plain one gives). */
export function plainSite(s: ReferenceSite): ReferenceSite {
  return {
    index: s.index,
    from: s.from,
    kind: s.kind,
    value: s.value,
    id: s.id,
    refType: s.refType,
    selfType: s.selfType,
    element: s.element,
    parent: s.parent,
    attribute: s.attribute,
    file: s.file,
    line: s.line,
    column: s.column,
    targets: s.targets,
    status: s.status,
    state: s.state,
    active: s.active,
    via: s.via,
    unspliced: s.unspliced,
    confirmedByManifest: s.confirmedByManifest,
  };
}

export interface IncludeEdge {
  readonly from: string;
  /** Resolved target (real casing), or null when it could not be resolved. */
  readonly to: string | null;
  readonly source: string;
  /** null when the `type` attribute is missing or invalid (the builder ignores the include). */
  readonly type: IncludeType | "xi" | null;
  /**
   * What answers it: `file` (the target is read), `manifest` (a `reference` include answered by a
   * prebuilt manifest), `sdk-stream` (a `reference` include answered by an SDK stream of its own),
   * `ignored` (invalid type), `missing` (not found), `outside` (it leads outside the allowed roots, so
   * it was not looked up: docs/builder-rules.md, "What ra3 reads").
   */
  readonly resolution: "file" | "manifest" | "sdk-stream" | "ignored" | "missing" | "outside";
  readonly line: number;
  readonly column: number;
  /** The written path differs from the on-disk casing. */
  readonly caseFixed: boolean;
}

export interface DefineDef {
  readonly name: string;
  readonly value: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly origin: Origin;
  /** The state of the declaring file: only compiled and referenced files' defines are in effect. */
  readonly state: FileState;
  readonly active: boolean;
}

/** A `$NAME` use of a define. */
export interface DefineUseSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly element: string;
  readonly attribute: string | null;
  /** The state of the file holding the use. */
  readonly state: FileState;
}

/** An `inheritFrom` chain that comes back to where it started: `A → B → A`, or `A → A`. */
export interface InheritCycle {
  /** The assets in chain order (the first repeats after the last). */
  readonly assets: readonly number[];
  /** The `inheritFrom` site of each, in the same order. */
  readonly sites: readonly number[];
}

export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  /** Absolute path, or null for index-wide diagnostics. */
  readonly file: string | null;
  readonly line: number;
  readonly column: number;
}

/**
 * Diagnostics of one project file, code and severity that its record or the link counted past the cap
 * instead of holding (`RECORD_DIAGNOSTIC_CAP`, see `link-caps.ts`): every count and every answer's "N more"
 * includes them; none is ever listed. One group per file, code and severity.
 */
export interface OmittedDiagnostic {
  /** Absolute path. */
  readonly file: string;
  readonly code: string;
  readonly severity: Severity;
  readonly count: number;
  /** Position of the first one. */
  readonly line: number;
  readonly column: number;
}

export type FileKindLinked = "xml" | "art" | "binary" | "str" | "babproj" | "manifest" | "missing";

export interface FileInfo {
  readonly path: string;
  readonly kind: FileKindLinked;
  readonly origin: Origin;
  readonly state: FileState;
  /** `state === "compiled"` (kept for compatibility). */
  readonly active: boolean;
  readonly streams: readonly string[];
  /** Compiled only through instance includes. */
  readonly viaInstance: boolean;
  readonly fragment: boolean;
  /** Not asset XML (see `FileRecord.foreign`). */
  readonly foreign: boolean;
  readonly rootName: string | null;
  readonly assetCount: number;
  /** The first XML error, or null. */
  readonly xmlError: XmlErrorAt | null;
}

export interface StreamInfo {
  readonly name: string;
  readonly entry: string;
  readonly layer: "project" | "sdk";
  /** `compiled`: built from the entry; `referenced`: an SDK stream whose prebuilt manifest the mod uses. */
  readonly context: "compiled" | "referenced";
  readonly origin: EntryOrigin;
  /** Why the entry is one (empty for entries given without a reason). */
  readonly reason: string;
  /** SDK streams: the `reference` include that pulled the stream in. */
  readonly referencedFrom: {
    readonly file: string;
    readonly line: number;
    readonly column: number;
    readonly source: string;
  } | null;
  readonly files: number;
  readonly manifests: readonly string[];
}

export interface LinkStats {
  readonly files: number;
  readonly projectFiles: number;
  /** Project XML/.w3x files in the state `compiled`. */
  readonly activeFiles: number;
  /** Project XML/.w3x files in the state `referenced`. */
  readonly referencedFiles: number;
  readonly assets: number;
  readonly sdkAssets: number;
  readonly references: number;
  readonly resolvedReferences: number;
  readonly externalReferences: number;
  readonly defines: number;
  readonly diagnostics: number;
  readonly linkMs: number;
}

export interface StringDef {
  readonly key: string;
  readonly text: string;
  readonly file: string;
  readonly line: number;
}

export interface StringUse {
  /** Index of the asset whose field holds the key. */
  readonly asset: number;
  readonly element: string;
  readonly attribute: string | null;
  readonly line: number;
}

/** A Poid attribute (e.g. `UpdateModuleId`) and the module of its own object it names, if found. */
export interface PoidSite {
  readonly from: number;
  readonly value: string;
  readonly element: string;
  readonly attribute: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The module element carrying that id (possibly in a spliced fragment), or null (no diagnostic: modules may come from elsewhere). */
  readonly target: { readonly element: string; readonly file: string; readonly line: number } | null;
}

/**
 * Reference sites produced on first read: a snapshot's stored sites, decoded when something first reads
 * them (a warm start that publishes the stored index never does). `produce` throws when they do not
 * decode (the store's error, which the workspace turns into a refusal and a relink).
 */
export interface DeferredSites {
  /** How many sites there are (known without decoding them). */
  readonly length: number;
  /** Whether they have been decoded (then {@link produce} returns them as they are). */
  readonly decoded: boolean;
  /** The sites, decoded now if they were not yet. */
  produce(): readonly ReferenceSite[];
  /** {@link produce} in steps (a server answers in between). */
  produceSteps(): Generator<void, readonly ReferenceSite[], void>;
}

/** What the link phases produce: the plain lists the published index is made of (the rest is derived). */
export type LinkedParts =
  & Pick<
    LinkedIndex,
    | "files"
    | "assets"
    | "includes"
    | "defines"
    | "diagnostics"
    | "omittedDiagnostics"
    | "streams"
    | "stats"
    | "wanted"
    | "schema"
    | "projectDir"
    | "sdkDir"
    | "defineUses"
    | "defineUseSites"
    | "inheritCycles"
    | "strings"
    | "stringUses"
    | "poidSites"
  >
  & { readonly sites: readonly ReferenceSite[] | DeferredSites; readonly ranking: AssetRanking };

export class LinkedIndex {
  readonly files: ReadonlyMap<string, FileInfo>;
  readonly assets: readonly AssetDef[];
  /** The sites, or a snapshot's stored ones until first read (see {@link sites}). */
  private siteList: readonly ReferenceSite[] | DeferredSites;
  readonly includes: readonly IncludeEdge[];
  /**
   * Lower-cased name → every declaration: compiled files' first, then referenced, then not-included
   * ones (each in record order). Only compiled and referenced files' declarations are in effect.
   */
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  readonly diagnostics: readonly Diagnostic[];
  /** The diagnostics records counted past their cap, by file (in `diagnostics` order), line and column. */
  readonly omittedDiagnostics: readonly OmittedDiagnostic[];
  readonly streams: readonly StreamInfo[];
  readonly stats: LinkStats;
  /** Files a walk reached that have no record yet (the driver should load them and link again). */
  readonly wanted: readonly string[];
  /** Lower-cased id → asset indexes (all types), best first. */
  readonly byId: ReadonlyMap<string, readonly number[]>;
  /**
   * The reverse lists and the include maps, made on first use: a warm start publishing a stored index
   * (100k sites at Corona scale) spent 20–60 ms on them in one block, and `ra3 index` never reads them.
   */
  private reverse: { readonly referencedBy: NumberLists; readonly referencesFrom: NumberLists } | null = null;
  private includeMaps: ReturnType<typeof includesByFile> | null = null;
  /** Asset types present (canonical) → asset indexes sorted by id. */
  readonly byType: ReadonlyMap<string, readonly number[]>;
  readonly schema: SchemaQueries | null;
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** Lower-cased define name → number of `$NAME` uses in compiled or referenced files. */
  readonly defineUses: ReadonlyMap<string, number>;
  /** Lower-cased define name → every `$NAME` use, in files of any state (compiled first, then by file and line). */
  readonly defineUseSites: ReadonlyMap<string, readonly DefineUseSite[]>;
  /** `inheritFrom` cycles, each once (from its first asset in index order). */
  readonly inheritCycles: readonly InheritCycle[];
  /** Site index → the cycle its `inheritFrom` belongs to. */
  readonly cycleOfSite: ReadonlyMap<number, InheritCycle>;
  /** String-table entries of the project's `.str` files. */
  readonly strings: readonly StringDef[];
  /** Poid (pipeline-local) references, resolved within their own object; never global references. */
  readonly poidSites: readonly PoidSite[];
  /** Lower-cased string key → the assets whose display fields use it. */
  readonly stringUses: ReadonlyMap<string, readonly StringUse[]>;

  constructor(parts: LinkedParts) {
    this.files = parts.files;
    this.assets = parts.assets;
    this.siteList = parts.sites;
    this.includes = parts.includes;
    this.defines = parts.defines;
    this.diagnostics = parts.diagnostics;
    this.omittedDiagnostics = parts.omittedDiagnostics;
    this.streams = parts.streams;
    this.stats = parts.stats;
    this.wanted = parts.wanted;
    this.schema = parts.schema;
    this.projectDir = parts.projectDir;
    this.sdkDir = parts.sdkDir;
    this.defineUses = parts.defineUses;
    this.defineUseSites = parts.defineUseSites;
    this.inheritCycles = parts.inheritCycles;
    const cycleOfSite = new Map<number, InheritCycle>();
    for (const c of parts.inheritCycles) for (const si of c.sites) cycleOfSite.set(si, c);
    this.cycleOfSite = cycleOfSite;
    this.strings = parts.strings;
    this.poidSites = parts.poidSites;
    this.stringUses = parts.stringUses;
    this.byId = parts.ranking.byId;
    this.byType = parts.ranking.byType;
  }

  /**
   * Every reference site, in index order. A snapshot's stored sites are decoded on first read (and throw
   * the store's error when they do not decode: the caller refuses that index, see `Workspace`).
   */
  get sites(): readonly ReferenceSite[] {
    const s = this.siteList;
    if (Array.isArray(s)) return s;
    const list = (s as DeferredSites).produce();
    this.siteList = list;
    return list;
  }

  /** Whether the sites are still a stored byte range nothing has decoded. */
  get sitesDeferred(): boolean {
    const s = this.siteList;
    return !Array.isArray(s) && !(s as DeferredSites).decoded;
  }

  /** The sites as they are held: decoded, or still deferred (a save re-encodes them only if it writes). */
  get heldSites(): readonly ReferenceSite[] | DeferredSites {
    return this.siteList;
  }

  /** {@link sites} in steps: a server decodes stored sites between its answers. */
  *sitesSteps(): Generator<void, readonly ReferenceSite[], void> {
    const s = this.siteList;
    if (Array.isArray(s)) return s;
    const list = yield* (s as DeferredSites).produceSteps();
    this.siteList = list;
    return list;
  }

  /** Asset index → reference sites that resolve to it. */
  get referencedBy(): NumberLists {
    return (this.reverse ??= this.reverseLists()).referencedBy;
  }

  /** Asset index → reference sites written inside it. */
  get referencesFrom(): NumberLists {
    return (this.reverse ??= this.reverseLists()).referencesFrom;
  }

  /** File key → include edges out of it. */
  get includesFrom(): ReadonlyMap<string, readonly number[]> {
    return (this.includeMaps ??= includesByFile(this.includes)).from;
  }

  /** File key → include edges into it. */
  get includesTo(): ReadonlyMap<string, readonly number[]> {
    return (this.includeMaps ??= includesByFile(this.includes)).to;
  }

  private reverseLists(): { readonly referencedBy: NumberLists; readonly referencesFrom: NumberLists } {
    const n = this.assets.length;
    const referencedBy = new IndexedLists(n);
    const referencesFrom = new IndexedLists(n);
    for (const s of this.sites) {
      for (const t of s.targets) referencedBy.count(t);
      if (s.from >= 0) referencesFrom.count(s.from);
    }
    referencedBy.allocate();
    referencesFrom.allocate();
    for (const s of this.sites) {
      for (const t of s.targets) referencedBy.add(t, s.index);
      if (s.from >= 0) referencesFrom.add(s.from, s.index);
    }
    return { referencedBy, referencesFrom };
  }

  /** Definitions of `id` (case-insensitive), optionally of one type (assignable), best first. */
  findAssets(id: string, type?: string | null): AssetDef[] {
    const list = this.byId.get(id.toLowerCase()) ?? [];
    const out: AssetDef[] = [];
    for (const i of list) {
      const a = this.assets[i];
      if (type && !this.typeMatches(a.type, type)) continue;
      out.push(a);
    }
    return out;
  }

  /** `actual` equals `wanted` (case-insensitive) or derives from it in the schema. */
  typeMatches(actual: string, wanted: string): boolean {
    if (actual.toLowerCase() === wanted.toLowerCase()) return true;
    if (!this.schema) return false;
    const w = this.schema.canonicalType(wanted);
    return w !== null && this.schema.isAssignable(actual, w);
  }

  /** File info by any spelling of its path. */
  file(path: string): FileInfo | undefined {
    return this.files.get(pathKey(path));
  }
}

/** Include edges by file, per list of edges: a link that reuses the include walk reuses these too. */
const includeMaps = new WeakMap<readonly IncludeEdge[], {
  readonly from: ReadonlyMap<string, readonly number[]>;
  readonly to: ReadonlyMap<string, readonly number[]>;
}>();

function includesByFile(includes: readonly IncludeEdge[]) {
  let maps = includeMaps.get(includes);
  if (maps) return maps;
  const from = new Map<string, number[]>();
  const to = new Map<string, number[]>();
  includes.forEach((e, i) => {
    push(from, pathKey(e.from), i);
    if (e.to) push(to, pathKey(e.to), i);
  });
  maps = { from, to };
  includeMaps.set(includes, maps);
  return maps;
}

/** The assets by id and by type, each list best first (the linker resolves references through `byId`). */
export interface AssetRanking {
  /** Lower-cased id → asset indexes (all types), best first. */
  readonly byId: ReadonlyMap<string, readonly number[]>;
  /** Canonical type → asset indexes sorted by lower-cased id, then best first. */
  readonly byType: ReadonlyMap<string, readonly number[]>;
}

/** The ranking with the order it was made from, which a later link patches ({@link rerankAssets}). */
export interface RankedAssets extends AssetRanking {
  /** Asset indexes, best first. */
  readonly order: Int32Array;
  /** Asset index → its position in `order`. */
  readonly pos: Int32Array;
  /** Asset index → its id lower-cased. */
  readonly lowerIds: readonly string[];
}

/**
 * A read-only map of asset lists whose maps are made when first needed: the one it looks keys up in
 * ({@link lookup}) and the one it iterates in order ({@link iterated}, by default the same). The by-id
 * lists of a renumbering link and of a warm start are such maps: the link only looks ids up, and `ra3
 * index` never does.
 */
export abstract class LazyLists implements ReadonlyMap<string, readonly number[]> {
  /** The map keys are looked up in (made once by the subclass). */
  protected abstract lookup(): ReadonlyMap<string, readonly number[]>;
  /** The map in iteration order. */
  protected iterated(): ReadonlyMap<string, readonly number[]> {
    return this.lookup();
  }
  get size(): number {
    return this.lookup().size;
  }
  get(key: string): readonly number[] | undefined {
    return this.lookup().get(key);
  }
  has(key: string): boolean {
    return this.lookup().has(key);
  }
  forEach(
    f: (value: readonly number[], key: string, map: ReadonlyMap<string, readonly number[]>) => void,
    self?: unknown,
  ): void {
    this.iterated().forEach((value, key) => f.call(self, value, key, this));
  }
  keys(): MapIterator<string> {
    return this.iterated().keys();
  }
  values(): MapIterator<readonly number[]> {
    return this.iterated().values();
  }
  entries(): MapIterator<[string, readonly number[]]> {
    return this.iterated().entries();
  }
  [Symbol.iterator](): MapIterator<[string, readonly number[]]> {
    return this.iterated().entries();
  }
}

/** Best first ({@link rankCompare}); equal ones by index, so the order never depends on the sort. */
export function byRank(assets: readonly AssetDef[]): (x: number, y: number) => number {
  return (x, y) => rankCompare(assets[x], assets[y]) || x - y;
}

/** A type list's order: by lower-cased id, equal ids best first (by their position in the rank order). */
export function byIdThenRank(lowerIds: readonly string[], pos: Int32Array): (x: number, y: number) => number {
  return (x, y) => {
    const lx = lowerIds[x];
    const ly = lowerIds[y];
    return lx < ly ? -1 : lx > ly ? 1 : pos[x] - pos[y];
  };
}

/**
 * Ranks `assets` in the one global best-first order ({@link rankCompare}) and lists them by id and by
 * type, so every list gets its order by a number; in steps (the sort a few thousand assets at a time, then
 * the lists), for a link that yields between its steps: at Corona scale (32k assets) the phase was 50–80 ms
 * in one piece.
 * @example runSteps(rankAssetsSteps(assets)).byId.get("alliedathenacannon") // [index of the project copy, …]
 */
export function* rankAssetsSteps(assets: readonly AssetDef[]): Generator<void, RankedAssets, void> {
  const n = assets.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // The order of rankCompare, then index, compared as numbers: each asset's (origin, state, file) group
  // ranked once (a file's assets are next to each other: a group per run), then its line.
  const group = groupRanks(assets);
  const line = new Float64Array(n);
  for (let i = 0; i < n; i++) line[i] = assets[i].line;
  yield* sortSteps(order, (x, y) => group[x] - group[y] || line[x] - line[y] || x - y);
  const pos = new Int32Array(n);
  for (let p = 0; p < n; p++) pos[order[p]] = p;
  const lowerIds: string[] = new Array(n);
  for (let i = 0; i < n; i++) lowerIds[i] = assets[i].id.toLowerCase();
  yield;
  return yield* listedSteps(assets, order, pos, lowerIds, null, null);
}

/**
 * Asset index → the rank of its (origin, state, file) among those of every asset: equal for equal
 * groups, ordered as {@link rankCompare} orders them before the line. One comparison per run of
 * neighbours in the same group, and a sort of one representative per run.
 */
function groupRanks(assets: readonly AssetDef[]): Int32Array {
  const n = assets.length;
  const run = new Int32Array(n);
  const firsts: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = assets[i];
    const p = firsts.length ? assets[firsts[firsts.length - 1]] : null;
    if (p === null || p.origin !== a.origin || p.state !== a.state || p.file !== a.file) firsts.push(i);
    run[i] = firsts.length - 1;
  }
  const groupCompare = (x: number, y: number) => {
    const a = assets[x];
    const b = assets[y];
    return ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin] || STATE_RANK[a.state] - STATE_RANK[b.state] ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  };
  const sorted = firsts.map((_, r) => r).sort((x, y) => groupCompare(firsts[x], firsts[y]));
  const rankOfRun = new Int32Array(firsts.length);
  let rank = 0;
  for (let k = 0; k < sorted.length; k++) {
    if (k > 0 && groupCompare(firsts[sorted[k - 1]], firsts[sorted[k]]) !== 0) rank++;
    rankOfRun[sorted[k]] = rank;
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = rankOfRun[run[i]];
  return out;
}

/**
 * {@link rankAssetsSteps} of `assets` from the ranking of `before` (the same number of assets, each file's at
 * the same indexes) where only the assets of `blocks` (one list of asset indexes per changed file)
 * changed: each block is re-sorted in place (a file's assets are next to each other in the order, and
 * stay so: they share origin, state and file), then the lists are made again, reusing those of types no
 * changed asset has or had. Null when a block is not contiguous (the caller ranks afresh).
 */
export function rerankAssets(
  previous: RankedAssets,
  before: readonly AssetDef[],
  assets: readonly AssetDef[],
  blocks: readonly (readonly number[])[],
): RankedAssets | null {
  const moved = (i: number) => {
    const a = before[i];
    const b = assets[i];
    return a.id !== b.id || a.type !== b.type || a.line !== b.line || a.file !== b.file || a.origin !== b.origin ||
      a.state !== b.state;
  };
  if (!blocks.some((block) => block.some(moved))) return previous;
  const order = previous.order.slice();
  const pos = previous.pos.slice();
  const lowerIds = previous.lowerIds.slice();
  const types = new Set<string>();
  const compare = byRank(assets);
  for (const block of blocks) {
    if (block.length === 0) continue;
    let lo = Infinity;
    let hi = -1;
    for (const i of block) {
      lo = Math.min(lo, pos[i]);
      hi = Math.max(hi, pos[i]);
      lowerIds[i] = assets[i].id.toLowerCase();
      if (moved(i)) types.add(before[i].type).add(assets[i].type);
    }
    if (hi - lo + 1 !== block.length) return null;
    const sorted = [...block].sort(compare);
    for (let j = 0; j < sorted.length; j++) {
      order[lo + j] = sorted[j];
      pos[sorted[j]] = lo + j;
    }
  }
  return runSteps(listedSteps(assets, order, pos, lowerIds, previous.byType, types));
}

/**
 * The by-id and by-type lists of `order` (keys in the order of their best asset). With `keep`, the
 * by-type lists of types not in `changedTypes` are taken from it as they are. In steps: the lists are
 * made, then each long one is sorted in steps.
 */
function* listedSteps(
  assets: readonly AssetDef[],
  order: Int32Array,
  pos: Int32Array,
  lowerIds: readonly string[],
  keep: ReadonlyMap<string, readonly number[]> | null,
  changedTypes: ReadonlySet<string> | null,
): Generator<void, RankedAssets, void> {
  const n = order.length;
  const byId = new Map<string, number[]>();
  const byType = new Map<string, readonly number[]>();
  const sortable: number[][] = [];
  const building = new Map<string, number[]>();
  for (let p = 0; p < n; p++) {
    const i = order[p];
    push(byId, lowerIds[i], i);
    const type = assets[i].type;
    let list = building.get(type);
    if (list === undefined) {
      if (byType.has(type)) continue;
      const kept = keep && !changedTypes!.has(type) ? keep.get(type) : undefined;
      if (kept) {
        byType.set(type, kept);
        continue;
      }
      list = [];
      sortable.push(list);
      building.set(type, list);
      byType.set(type, list);
    }
    list.push(i);
  }
  yield;
  const byLowerId = byIdThenRank(lowerIds, pos);
  for (const list of sortable) yield* sortSteps(list, byLowerId);
  return { byId, byType, order, pos, lowerIds };
}

const ORIGIN_RANK: Record<Origin, number> = { project: 0, sdk: 1, manifest: 2 };

const STATE_RANK: Record<FileState, number> = { compiled: 0, referenced: 1, "not-included": 2 };

/** Best first: project before SDK before manifest, compiled before referenced before not included, then by file and line. */
export function rankCompare(a: AssetDef, b: AssetDef): number {
  return (
    ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin] ||
    STATE_RANK[a.state] - STATE_RANK[b.state] ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line
  );
}

/** Lists of numbers by a small integer (an asset index), read-only. */
export interface NumberLists {
  /** The list at `i`, or undefined. */
  get(i: number): readonly number[] | undefined;
}

/**
 * Lists of numbers indexed by a small integer (asset index), filled in two passes (count every entry,
 * allocate, add them in order) into two typed arrays: each list is a run of one `Int32Array`, the
 * offsets another. One small array per asset and list cost ~100 bytes an asset at a million assets
 * (issue 15 item 4); this costs 4 bytes per entry plus 4 per asset. A list is copied out on `get`.
 */
class IndexedLists implements NumberLists {
  /** Counts, then (after {@link allocate}) where each list starts; `starts[i + 1]` ends list `i`. */
  private starts: Int32Array;
  /** After {@link allocate}: the next free slot of each list while adding. */
  private next: Int32Array | null = null;
  private values: Int32Array = new Int32Array(0);
  constructor(size: number) {
    this.starts = new Int32Array(size + 1);
  }
  /** First pass: one more entry will be added at `i`. */
  count(i: number): void {
    this.starts[i + 1]++;
  }
  /** Between the passes: turns the counts into offsets. */
  allocate(): void {
    const starts = this.starts;
    for (let i = 1; i < starts.length; i++) starts[i] += starts[i - 1];
    this.values = new Int32Array(starts[starts.length - 1]);
    this.next = starts.slice(0, starts.length - 1);
  }
  /** Second pass: appends `value` to the list at `i` (counted before). */
  add(i: number, value: number): void {
    this.values[this.next![i]++] = value;
  }
  /** The list at `i`, or undefined when it is empty. */
  get(i: number): readonly number[] | undefined {
    const a = this.starts[i];
    const b = this.starts[i + 1];
    if (!(b > a)) return undefined;
    const out: number[] = new Array(b - a);
    for (let k = a; k < b; k++) out[k - a] = this.values[k];
    return out;
  }
}

/** Appends `value` to the list at `key`. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
