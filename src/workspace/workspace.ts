/**
 * The driver: the one place that reads mod files for the index. It scans the project (and the SDK's
 * vanilla folder), reads bytes, feeds them to the {@link IndexCore}, loads the files the include walk asks
 * for (SDK files, manifests, includes outside the project), links, and publishes immutable
 * {@link LinkedIndex} values through the lifecycle. A full build has two phases: XML first (published as
 * `ready_xml`), then `.w3x` art. Later changes are applied incrementally: only changed, added or deleted
 * files are re-read, then everything is re-linked (linking is the cheap part).
 */
import { lstatSync, type Stats, statSync } from "node:fs";
import { displayPath, extensionOf, isInside, keyInside, native, pathKey } from "../project/paths.ts";
import {
  type CaseCollision,
  type ScannedFile,
  type ScanOptions,
  scanProjectFiles,
  scanProjectFilesInSlices,
  withoutCaseCollisions,
} from "../project/scan.ts";
import type { GameId } from "../schema/model.ts";
import {
  type DeferredRecord,
  type FileChange,
  type FileStamp,
  IndexCore,
  sameStamp,
  type StoredFile,
} from "../index/core.ts";
import type { WalkResult } from "../index/include-walk.ts";
import { type Diagnostic, LinkedIndex } from "../index/linked.ts";
import { CorruptSites, type LinkFacts, type LinkState, linkStateOf } from "../store/link-codec.ts";
import { CorruptRecord } from "../store/codec.ts";
import { linkFactsHoldSteps, linkFactsNowSteps } from "./link-facts.ts";
import { runSteps } from "../steps.ts";
import { emptyRecord, type FileRecord } from "../index/records.ts";
import { INITIAL_LIFECYCLE, type Lifecycle, type LifecycleEvent, nextState } from "../lifecycle.ts";
import type { IndexView } from "../query/envelope.ts";
import type { WorkspaceConfig } from "./config.ts";
import { type LinkPorts, makeLinkPorts } from "./link-inputs.ts";
import {
  type DeferredSchema,
  type LoadedSchema,
  loadWorkspaceSchema,
  loadWorkspaceSchemaDeferredSteps,
  unloadedSchema,
} from "./schema.ts";
import { DiskFileSource, type FileSource } from "./file-source.ts";
import { collectIfLarge, LARGE_FILE_BYTES } from "./memory.ts";
import { Slicer } from "./slices.ts";

/**
 * The phases of a build, in order: `reach` parses the files the entry points' include graph reaches
 * (a server's cold build publishes them first), `xml` the project's other files (all of them when the
 * build is not reachable-first), `sdk` the SDK's vanilla XML, then the link and the `.w3x` art.
 */
export type BuildPhase = "scan" | "reach" | "xml" | "sdk" | "link" | "art";

export interface BuildProgress {
  (phase: BuildPhase, done: number, total: number): void;
}

/** A full build's phases, in ms. */
export interface BuildTimings {
  scanMs: number;
  /** Parsing and linking the reachable files before the first publish (0 when not reachable-first). */
  reachMs: number;
  /**
   * The load of the workspace's schema (0 without one): it happens when the workspace is made, before the
   * build, so it is not part of {@link totalMs} (and a rebuild, which loads nothing, reports it again).
   */
  schemaMs: number;
  parseMs: number;
  /** Parsing the SDK's XML layer and the files the include walk pulls in (SDK files, manifests). */
  sdkMs: number;
  linkMs: number;
  artMs: number;
  /** The build itself, from its scan to its last link (the schema's load before it not counted). */
  totalMs: number;
}

export interface BuildReport {
  readonly timings: BuildTimings;
  readonly parsedFiles: number;
  readonly artFiles: number;
  readonly sdkFiles: number;
  /** Files the first, reachable-only index was published with (null: none was published before the whole XML). */
  readonly reachedFiles: number | null;
  readonly unreadable: readonly { path: string; error: string }[];
}

export interface UpdateReport {
  /** Files re-read because they are new or their stamp changed. */
  readonly changed: readonly string[];
  readonly deleted: readonly string[];
  readonly linkMs: number;
  readonly totalMs: number;
}

/** Thrown (as an AbortError) when a build is cancelled. */
export class BuildCancelled extends Error {
  constructor() {
    super("the index build was cancelled");
    this.name = "AbortError";
  }
}

const MAX_DISCOVERY_ROUNDS = 64;
/** Files parsed between two progress reports. */
const PROGRESS_EVERY = 64;

/** What the workspace builds with: the schema, and the core and link ports made for it. */
interface SchemaBound {
  readonly schema: LoadedSchema;
  readonly core: IndexCore;
  readonly ports: LinkPorts;
}

/** How a workspace's long jobs are cut (see `slices.ts`). */
export interface WorkspaceSlices {
  /**
   * The longest a job runs between two yields, in ms (default: the slicer's, ~10 ms). 0 yields after
   * every step: tests count yields instead of measuring time.
   */
  readonly sliceMs?: number;
}

/**
 * XML files at least this large are parsed in steps of {@link PARSE_STEP_CHARS} characters, with a
 * pause between steps; smaller ones in one piece (a 64 KB file parses in 1-3 ms).
 */
export const SLICED_PARSE_BYTES = 64 * 1024;
/** Characters of a big XML file parsed in one step (1-5 ms of parsing and extraction). */
export const PARSE_STEP_CHARS = 64 * 1024;

/** The constructor's `schema` argument for a workspace whose schema {@link Workspace.loadSchema} loads later. */
export const SCHEMA_LATER = "later";

export class Workspace {
  private bound: SchemaBound;
  /** The load of a schema left for later: null before it starts, settled once it is installed. */
  private schemaLoad: Promise<void> | null = null;
  /** The schema cache's write {@link loadSchema} left for later ({@link writeSchemaCacheSteps}). */
  private schemaCacheWrite: DeferredSchema["writeCache"] | null = null;
  private schemaPending: boolean;
  private lifecycleState: Lifecycle = INITIAL_LIFECYCLE;
  private published: LinkedIndex | null = null;
  private buildCounter = 0;
  private builtAtIso: string | null = null;
  private readonly unreadable = new Map<string, { path: string; error: string }>();
  /** Roots whose files the index covers (project, then the SDK's vanilla folder). */
  private readonly roots: string[];
  private current: { phase: BuildPhase; done: number; total: number } | null = null;
  /** Paths of the last project scan that differ from a kept one only in letter case. */
  private collisions: readonly CaseCollision[] = [];
  private readonly droppedByCase = new Set<string>();
  /** Folders of the project the last scan could not list (permission denied). */
  private readonly unlistedByScan = new Set<string>();
  /** {@link scanFacts} when the published index was linked ("" when unknown: the next refresh re-links). */
  private linkedScanFacts = "";
  /** Links the scans did not follow (they lead outside the allowed roots), by key. */
  private readonly refusedLinks = new Map<string, string>();
  /** The core's revision and include walk the published index was linked from (-1, null: unknown). */
  private publishedRevision = -1;
  private publishedWalk: WalkResult | null = null;
  /** The facts of a stored link published as the index (checked when adopted); null for a link made here. */
  private publishedFacts: LinkFacts | null = null;
  /**
   * True while the published index holds only the files the include graph reaches (a reachable-first
   * build published it; it stays so if that build fails before the rest is linked).
   */
  private reachedOnlyNow = false;
  /** A reachable-first build is parsing the rest (so waiting for it makes sense). */
  private restRunning = false;
  /** Called with true when the index holds every XML file, false when the build ended without it. */
  private readonly restWaiters: ((indexed: boolean) => void)[] = [];

  /**
   * @param schema the loaded schema; default: loaded now from the configuration; {@link SCHEMA_LATER}:
   *   loaded by {@link loadSchema} (a server answers meanwhile: the XSD load takes 0.1–0.6 s). Until then
   *   the workspace has no schema (heuristic queries, `fileCount` 0) and must not be built or restored.
   * @param source where file bytes are read (default: the disk)
   */
  constructor(
    readonly config: WorkspaceConfig,
    schema?: LoadedSchema | typeof SCHEMA_LATER,
    private readonly source: FileSource = new DiskFileSource(),
    private readonly slices: WorkspaceSlices = {},
  ) {
    this.schemaPending = schema === SCHEMA_LATER;
    this.bound = this.bind(
      schema === SCHEMA_LATER ? unloadedSchema(config) : (schema ?? loadWorkspaceSchema(config)),
    );
    this.roots = [config.projectDir, ...(config.sdk?.vanillaDir ? [config.sdk.vanillaDir] : [])];
  }

  /** The core and link ports for `schema`. */
  private bind(schema: LoadedSchema): SchemaBound {
    const config = this.config;
    // The link's order is the build's: the project's files, then those outside it, art last; each by path.
    const projectKey = pathKey(config.projectDir);
    const core = new IndexCore(
      schema.queries,
      (p) => (extensionOf(p) === ".w3x" ? 2 : 0) + (keyInside(pathKey(p), projectKey) ? 0 : 1),
    );
    // A stored link's facts are the questions the index asks from here on (see link-facts.ts).
    config.resolver.restartLookups();
    const ports = makeLinkPorts(config.layout, config.sdk, schema.queries, config.resolver, core, {
      entries: config.entries,
      buildScripts: config.buildScripts,
      driverNotes: () => [...this.caseNotes(), ...this.linkNotes()],
      unlistedFolders: () => this.unlistedByScan,
      confinement: config.confinement,
    });
    return { schema, core, ports };
  }

  /**
   * Loads the schema left for later (see the constructor), its steps driven by `drive` (the server
   * pauses between them) and its XSDs read by `readFile` (default: the disk), and installs it with a fresh core; resolves at once when it is loaded. Callers
   * await it before anything reads files into the core (the empty core made without it is replaced).
   */
  loadSchema(
    drive: (steps: Generator<void, DeferredSchema, void>) => Promise<DeferredSchema>,
    readFile?: (path: string) => Uint8Array,
  ): Promise<void> {
    if (!this.schemaPending) return Promise.resolve();
    this.schemaLoad ??= drive(loadWorkspaceSchemaDeferredSteps(this.config, readFile)).then((loaded) => {
      this.bound = this.bind(loaded.schema);
      this.schemaPending = false;
      this.schemaCacheWrite = loaded.writeCache;
    });
    return this.schemaLoad;
  }

  /**
   * The XSD set's model cache, written by a schema {@link loadSchema} loaded from the XSDs: left until the
   * first index is published (a server's first answer does not wait for it), then made in steps. The write
   * happens once (later calls, and a schema that came from the cache, take no step).
   */
  *writeSchemaCacheSteps(): Generator<void, void, void> {
    if (this.schemaCacheWrite) yield* this.schemaCacheWrite();
  }

  /** Whether the schema is still to be loaded ({@link loadSchema}). */
  get schemaLoading(): boolean {
    return this.schemaPending;
  }

  get schema(): LoadedSchema {
    return this.bound.schema;
  }

  get core(): IndexCore {
    return this.bound.core;
  }

  get ports(): LinkPorts {
    return this.bound.ports;
  }

  get game(): GameId | null {
    return this.schema.queries?.model.game ?? this.config.sdk?.game ?? null;
  }

  get lifecycle(): Lifecycle {
    return this.lifecycleState;
  }

  get linked(): LinkedIndex | null {
    return this.published;
  }

  get buildId(): number {
    return this.buildCounter;
  }

  /**
   * True while the published index is a reachable-first build's first one: it holds the files the
   * entry points' include graph reaches (with the SDK files and manifests they name), not the project's
   * other files, which are being parsed.
   */
  get reachedOnly(): boolean {
    return this.reachedOnlyNow;
  }

  /**
   * Resolves once the published index holds every XML file (at once when it is not
   * {@link reachedOnly}): true then; false when `timeoutMs` passed first or the build ended without it
   * (it failed; at once when no build is parsing the rest).
   */
  waitForRest(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.reachedOnlyNow) return Promise.resolve(true);
    if (!this.restRunning) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const done = (v: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        resolve(v);
      };
      const aborted = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      signal?.addEventListener("abort", aborted, { once: true });
      this.restWaiters.push(done);
    });
  }

  /** Ends the wait for the rest: the index holds every XML file now, or the build ended without it. */
  private restEnded(): void {
    this.restRunning = false;
    for (const w of this.restWaiters.splice(0)) w(!this.reachedOnlyNow);
  }

  /** The running build's phase and progress, or null. */
  get progress(): { phase: BuildPhase; done: number; total: number } | null {
    return this.current;
  }

  /**
   * Links the installed records as they are (no disk access) and publishes them with the stored
   * snapshot's facts: `complete`, whether the disk has moved on (`stale`), when it was built.
   */
  restoreLinked(complete: boolean, stale: boolean, builtAt: string): LinkedIndex {
    this.event("build_started");
    const linked = this.relink();
    this.builtAtIso = builtAt;
    this.event(complete ? "build_done" : "xml_done");
    if (stale) this.event("files_changed");
    return linked;
  }

  /**
   * {@link restoreLinked} for a server: the installed records are linked in slices and published as the
   * stored snapshot's index before the changed files are re-read, so it is marked stale (a complete
   * snapshot) until the refresh has applied them. Queries answer from it meanwhile.
   */
  async serveStored(complete: boolean, builtAt: string): Promise<LinkedIndex> {
    this.event("build_started");
    const linked = await this.relinkInSlices(this.newSlicer());
    this.builtAtIso = builtAt;
    this.event(complete ? "build_done" : "xml_done");
    // An incomplete one stays `ready_xml` (not complete) until the refresh's end says build_done.
    if (complete) this.event("files_changed");
    return linked;
  }

  /**
   * Publishes a snapshot's stored link as the index, without walking or linking: the index the records
   * were linked into when the snapshot was saved. Not yet checked against the disk: until
   * {@link confirmStoredLink}, nothing counts as current (the next refresh re-links).
   */
  publishStoredLink(state: LinkState, complete: boolean, builtAt: string): LinkedIndex {
    this.event("build_started");
    const { inputs } = this.ports;
    const linked = new LinkedIndex({
      ...state.parts,
      includes: state.walk.includes,
      streams: state.walk.streams,
      wanted: [...state.walk.wanted],
      schema: inputs.schema,
      projectDir: inputs.projectDir,
      sdkDir: inputs.sdkDir,
    });
    this.published = linked;
    this.reachedOnlyNow = false;
    this.builtAtIso = builtAt;
    this.linkedScanFacts = "";
    this.publishedRevision = -1;
    this.publishedWalk = null;
    this.publishedFacts = null;
    this.event(complete ? "build_done" : "xml_done");
    return linked;
  }

  /**
   * Gives the core a link state when it has none — after a warm start that published the stored index as
   * it was, the first edit would otherwise link in full (the snapshot does not store the state): a link of
   * the records as they are, in slices, not published (the published index is that link already).
   * Returns whether it linked. A server runs it once it is idle after a warm start.
   */
  async prepareIncrementalLink(): Promise<boolean> {
    if (this.core.hasLinkState || !this.published) return false;
    await this.newSlicer().drive(this.core.linkSteps(this.ports.inputs));
    return true;
  }

  /**
   * Whether a stored link's facts still hold after this run's scan (same configuration, scan report and
   * folder listings). With the stored records installed unchanged, its walk and its index are current.
   */
  storedLinkHolds(state: LinkState): boolean {
    return runSteps(this.storedLinkHoldsSteps(state));
  }

  /** {@link storedLinkHolds} in steps (a few hundred folders' listings compared in each). */
  *storedLinkHoldsSteps(state: LinkState): Generator<void, boolean, void> {
    if (this.unlistable()) return false;
    return yield* linkFactsHoldSteps(this.config, state.facts, this.scanFacts());
  }

  /**
   * Takes a stored link's include walk for the records now installed (the caller checked the facts and
   * that no file appeared or went); with `published`, the published index is the stored one and current.
   */
  adoptStoredLink(state: LinkState, published: boolean): void {
    this.core.adoptWalk(this.ports.inputs, state.walk);
    if (!published) return;
    this.publishedWalk = state.walk;
    this.publishedRevision = this.core.revision;
    this.publishedFacts = state.facts;
    this.linkedScanFacts = this.scanFacts();
  }

  /**
   * Whether the published index is a snapshot's stored index as {@link adoptStoredLink} took it, with no
   * record changed since, ready, and the scan agreeing: saving now would store what that snapshot holds.
   */
  get servesStoredIndex(): boolean {
    return this.publishedFacts !== null && this.published !== null && this.publishedRevision === this.core.revision &&
      this.lifecycleState.state === "ready" && this.linkedScanFacts === this.scanFacts();
  }

  /**
   * What to store as the snapshot's linked section: the published index with its walk and the facts it
   * depended on, when it is complete and current (no record changed since it was linked, nothing stale,
   * no folder that could only be stepped through by exact name); else null.
   */
  storedLink(): LinkState | null {
    return runSteps(this.storedLinkSteps());
  }

  /**
   * {@link storedLink} in steps (the facts' folder questions a few hundred at a time), for a server's
   * save: null also when anything it depends on changed between the steps.
   */
  *storedLinkSteps(): Generator<void, LinkState | null, void> {
    const linked = this.published;
    const walk = this.publishedWalk;
    const revision = this.core.revision;
    const current = () =>
      this.published === linked && this.publishedWalk === walk && this.publishedRevision === revision &&
      this.core.revision === revision && this.lifecycleState.state === "ready" &&
      this.linkedScanFacts === this.scanFacts();
    if (!linked || !walk || !current()) return null;
    // A stored link published as it was keeps its facts: this run asked the resolver fewer questions.
    const facts = this.publishedFacts ??
      (yield* linkFactsNowSteps(this.config, this.linkedScanFacts, this.unlistable()));
    // Anything changed between the steps (another link, a scan, an edit): no linked section this time.
    return facts && current() ? linkStateOf(linked, walk, facts) : null;
  }

  /** A folder was met that cannot be listed (its files are found by exact name only). */
  private unlistable(): boolean {
    return this.unlistedByScan.size > 0 || this.config.resolver.unlistableSeen.size > 0;
  }

  /** Continues the build numbering of a restored snapshot (build ids only grow). */
  continueFrom(buildId: number): void {
    if (buildId > this.buildCounter) this.buildCounter = buildId;
  }

  /** What queries and the envelope see right now. */
  view(): IndexView {
    return {
      projectDir: this.config.projectDir,
      sdkDir: this.config.sdk?.dir ?? null,
      game: this.game,
      lifecycle: this.lifecycleState,
      linked: this.published,
      reachedOnly: this.reachedOnlyNow,
      buildId: this.buildCounter,
      builtAt: this.builtAtIso,
    };
  }

  /** Applies a lifecycle event (the service reports file changes it has seen but not applied yet). */
  event(e: LifecycleEvent): void {
    this.lifecycleState = nextState(this.lifecycleState, e);
  }

  private publish(linked: LinkedIndex, reachedOnly = false): void {
    this.published = linked;
    this.reachedOnlyNow = reachedOnly;
    this.builtAtIso = new Date().toISOString();
  }

  private relink(): LinkedIndex {
    this.linkedScanFacts = this.scanFacts();
    const revision = this.core.revision;
    const linked = this.core.link(this.ports.inputs);
    this.publishLinked(linked, revision);
    return linked;
  }

  /**
   * {@link relink} in slices: other work (a server's requests) runs between the link's phases.
   * `reachedOnly`: the records are a reachable-first build's reached files.
   */
  private async relinkInSlices(slicer: Slicer, reachedOnly = false): Promise<LinkedIndex> {
    this.linkedScanFacts = this.scanFacts();
    const revision = this.core.revision;
    const linked = await slicer.drive(this.core.linkSteps(this.ports.inputs));
    this.publishLinked(linked, revision, reachedOnly);
    // The link's last step (its counts, the index) ends a slice: what the caller does next starts another.
    await slicer.pause();
    return linked;
  }

  /**
   * Publishes a link of the records at `revision`, with the walk it was made from (`reachedOnly`: the
   * records are a reachable-first build's reached files).
   */
  private publishLinked(linked: LinkedIndex, revision: number, reachedOnly = false): void {
    this.publish(linked, reachedOnly);
    this.publishedRevision = revision;
    this.publishedWalk = this.core.currentWalk(this.ports.inputs);
    this.publishedFacts = null;
  }

  /**
   * What the last project scan found that the link reports without any record changing (paths that
   * differ only in case, folders it could not list, links it did not follow), as a comparable key.
   */
  private scanFacts(): string {
    return JSON.stringify([this.collisions, [...this.unlistedByScan].sort(), [...this.refusedLinks.values()].sort()]);
  }

  /**
   * Full build from disk: scan, parse, walk, link (publish `ready_xml`), then art (publish `ready`).
   * Reachable-first (the default for a two-phase build into an empty index: a server's cold start), the
   * files the include graph reaches are parsed and published first (`ready_xml`, {@link reachedOnly});
   * then the rest is parsed and the XML index published again, equal to the one a build that parses
   * everything first publishes (the same records: see {@link setAsideOutsideSteps}).
   */
  async build(
    progress: BuildProgress = () => {},
    signal?: AbortSignal,
    options: { publishXmlPhase?: boolean; reachableFirst?: boolean } = {},
  ): Promise<BuildReport> {
    // A one-shot CLI run has no one to show the XML-only index to: it skips that link.
    const twoPhase = options.publishXmlPhase ?? true;
    // Only into an empty core: a rebuild keeps serving the previous index, whose records it replaces.
    const reachableFirst = twoPhase && (options.reachableFirst ?? true) && this.core.size === 0;
    const t0 = performance.now();
    this.event("build_started");
    this.buildCounter++;
    const timings: BuildTimings = {
      scanMs: 0,
      reachMs: 0,
      schemaMs: this.schema.loadMs,
      parseMs: 0,
      sdkMs: 0,
      linkMs: 0,
      artMs: 0,
      totalMs: 0,
    };
    const report = (phase: BuildPhase, done: number, total: number) => {
      this.current = { phase, done, total };
      progress(phase, done, total);
    };
    const slicer = this.newSlicer();
    let reachedFiles: number | null = null;
    try {
      let t = performance.now();
      const scanned = await this.scanProject(slicer);
      const vanilla = this.config.sdk?.vanillaDir
        ? (await this.scanRoot(this.config.sdk.vanillaDir, slicer)).filter((f) => f.kind === "xml")
        : [];
      this.dropVanished([...scanned, ...vanilla]);
      timings.scanMs = performance.now() - t;
      report("scan", scanned.length, scanned.length);

      const xml = scanned.filter((f) => f.kind !== "w3x");
      const art = scanned.filter((f) => f.kind === "w3x");
      t = performance.now();
      let aside: SetAside | null = null;
      if (reachableFirst) {
        // Publishing costs one more link: worth it only when the rest takes longer to parse than
        // what was parsed (a mod whose include graph reaches most of its files publishes once).
        if (await this.loadReachable([...xml, ...vanilla], report, slicer, signal)) {
          reachedFiles = this.core.size;
          report("link", 0, 1);
          await this.relinkInSlices(slicer, true);
          this.restRunning = true;
          this.event("xml_done");
        }
        timings.reachMs = performance.now() - t;
        t = performance.now();
      }
      // A reachable-first build parses what it did not yet; any other build re-reads every file.
      const toParse = async (files: readonly ScannedFile[]) =>
        reachableFirst ? await slicer.drive(this.unloadedSteps(files)) : files;
      await this.loadScanned(await toParse(xml), "xml", report, slicer, signal);
      collectIfLarge();
      timings.parseMs = performance.now() - t;

      t = performance.now();
      // SDK mode: the vanilla XML folder is the SDK layer, indexed whole (reachable or not), like the project.
      let sdkFiles = await this.loadScanned(await toParse(vanilla), "sdk", report, slicer, signal);
      if (reachableFirst) {
        // Counted as a full build counts them: the vanilla files parsed (not those that could not be read).
        sdkFiles = vanilla.filter((f) => this.core.file(f.path) && !this.unreadable.has(pathKey(f.path))).length;
        aside = await slicer.drive(this.setAsideOutsideSteps([...xml, ...vanilla]));
      }
      // The files the include walk wants beyond those: at once when an XML-only index is published next;
      // a build that publishes none asks after the art (below), since a walk made now would be made again
      // as soon as the art's records arrive (at Corona scale the second walk was 260 ms).
      if (twoPhase) sdkFiles += (await this.discover(false, slicer, signal, aside)).files;
      timings.sdkMs = performance.now() - t;

      t = performance.now();
      if (twoPhase) {
        report("link", 0, 1);
        await this.relinkInSlices(slicer);
        this.restEnded();
        this.event("xml_done");
      }
      timings.linkMs = performance.now() - t;

      t = performance.now();
      await this.loadScanned(art, "art", report, slicer, signal);
      timings.artMs = performance.now() - t;
      t = performance.now();
      const more = await this.discover(true, slicer, signal);
      // What the walk pulled in besides art counts, as above, with the SDK layer (time included).
      sdkFiles += more.files - more.art;
      collectIfLarge();
      if (twoPhase) timings.artMs += performance.now() - t;
      else timings.sdkMs += performance.now() - t;
      // The final link (the only one of a one-shot run) counts as link time, not as art.
      t = performance.now();
      await this.relinkInSlices(slicer);
      collectIfLarge();
      timings.linkMs += performance.now() - t;
      this.event("build_done");
      timings.totalMs = performance.now() - t0;
      return {
        timings: roundTimings(timings),
        parsedFiles: xml.length,
        artFiles: art.length + more.art,
        sdkFiles,
        reachedFiles,
        unreadable: [...this.unreadable.values()],
      };
    } catch (e) {
      this.event("build_failed");
      throw e;
    } finally {
      this.restEnded();
      this.current = null;
    }
  }

  /**
   * Parses what the include graph reaches, round by round: the `.babproj` files first (they name
   * streams and the manifests standing for reference includes, so the entry plan reads them), then
   * the files the walk of what is parsed so far asks for (`wanted`: entry points, their includes,
   * SDK files and manifests), until it asks for nothing new. Returns true when that is done and the
   * rest is the larger part (in bytes), worth one more link to publish before it is parsed; false as
   * soon as what is parsed outweighs the rest (then a walk per round is all the early start would buy).
   */
  private async loadReachable(
    scanned: readonly ScannedFile[],
    report: BuildProgress,
    slicer: Slicer,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const stamps = new Map<string, FileStamp>();
    for (const f of scanned) stamps.set(f.path, { size: f.size, mtimeMs: f.mtimeMs });
    let n = 0;
    const progress = (k: number) => report("reach", n + k, n + k);
    // In steps: the unloaded files, then the records' link order (which the next walk needs anyway).
    const restIsLarger = async () => {
      const rest = sizeOf(await slicer.drive(this.unloadedSteps(scanned)));
      await slicer.drive(this.core.prepareOrderSteps());
      return rest > sizeOf([...this.core.values()].map((f) => ({ size: f.stamp?.size ?? 0 })));
    };
    const seeds = scanned.filter((f) => extensionOf(f.path) === ".babproj").map((f) => f.path);
    n += await this.loadPaths(seeds, slicer, signal, progress, stamps);
    for (;;) {
      // The walk in steps (at Corona scale it is 100-250 ms in one piece), then, as in {@link discover},
      // every wanted file checked against the confinement before its read.
      const wanted = await slicer.drive(
        this.toRead(await slicer.drive(this.core.wantedSteps(this.ports.inputs)), false),
      );
      if (wanted.length === 0) return await restIsLarger();
      n += await this.loadPaths(wanted, slicer, signal, progress, stamps);
      if (!(await restIsLarger())) return false;
      await slicer.pause();
    }
  }

  /** The files of `files` that have no record yet, in steps of a few thousand (at Corona scale 15–30 ms in one piece). */
  private *unloadedSteps(files: readonly ScannedFile[]): Generator<void, ScannedFile[], void> {
    const out: ScannedFile[] = [];
    for (let i = 0; i < files.length; i++) {
      if (this.core.file(files[i].path) === undefined) out.push(files[i]);
      if (i % FILES_PER_STEP === FILES_PER_STEP - 1) yield;
    }
    return out;
  }

  /**
   * Makes the record set the one a build that parses everything first has before its discovery (the
   * core orders records by rank and path, so only the set matters): the files the reachable phase
   * loaded from outside the scan (SDK files, manifests, files of other folders that includes name) are
   * set aside and returned, for {@link discover} to put back when the full include walk asks for them —
   * and to leave out those it does not ask for (a partial record set can walk differently, e.g. before
   * the mod's own-name alias is known). The unreadable files among them are forgotten with them, the
   * others listed in scan order (as a full build's report lists them).
   */
  private *setAsideOutsideSteps(scanned: readonly ScannedFile[]): Generator<void, SetAside, void> {
    // In steps of a few thousand files (at Corona scale it was 35–115 ms in one piece).
    const order: string[] = [];
    for (const f of scanned) {
      order.push(pathKey(f.path));
      if (order.length % FILES_PER_STEP === 0) yield;
    }
    const inScan = new Set(order);
    yield;
    const aside: SetAside = { records: new Map(), unreadable: new Map() };
    yield* this.core.prepareOrderSteps();
    let n = 0;
    for (const s of this.core.values()) {
      const key = pathKey(s.path);
      if (!inScan.has(key)) aside.records.set(key, s);
      if (++n % FILES_PER_STEP === 0) yield;
    }
    this.core.applyChanges([...aside.records.values()].map((s) => ({ path: s.path, deleted: true as const })));
    const failed = new Map(this.unreadable);
    this.unreadable.clear();
    for (const key of order) {
      const f = failed.get(key);
      if (f) this.unreadable.set(key, f);
    }
    for (const [key, f] of failed) if (!inScan.has(key)) aside.unreadable.set(key, f);
    return aside;
  }

  /**
   * Installs records from a snapshot. Call {@link refresh} afterwards to re-validate stamps (a warm start).
   * A lazily decoded snapshot file ({@link DeferredRecord}) is decoded only when something reads its
   * record; one that then does not decode makes the workspace read that snapshot's files again
   * ({@link refuseDeferred}).
   */
  installRecords(
    files: readonly ({ path: string; stamp: FileStamp | null; record: FileRecord } | DeferredRecord)[],
  ): void {
    for (const f of files) {
      if ("decoded" in f) this.core.setDeferred(f);
      else this.core.setRecord(f.path, f.record, f.stamp);
    }
  }

  /** Told (once per refusal) when a snapshot's record did not decode and its files were read again. */
  onRecordProblem: ((message: string) => void) | null = null;

  /**
   * A deferred record did not decode (`e`): none of that snapshot's records can be trusted, so every
   * deferred one is forgotten (the caller then refreshes: they are read again from the files, as new).
   */
  refuseDeferred(e: CorruptRecord): void {
    const dropped = this.core.dropDeferred();
    this.onRecordProblem?.(`${e.message}; its ${dropped.length} records were read again from the files`);
  }

  /**
   * Produces every deferred record (an export reads them all). When one does not decode, the
   * snapshot's records are read again from the files and the index relinked ({@link refuseDeferred}).
   */
  async decodeDeferred(): Promise<void> {
    await this.decodeStoredSites();
    if (this.core.deferredCount === 0) return;
    try {
      for (const f of this.core.values()) void f.record;
    } catch (e) {
      if (!(e instanceof CorruptRecord)) throw e;
      this.refuseDeferred(e);
      await this.refreshFrom(await this.scanAll());
    }
  }

  /** The running decode of the published index's stored sites (concurrent queries wait for the one). */
  private sitesDecoding: Promise<void> | null = null;

  /**
   * Decodes the published index's stored reference sites if nothing has read them yet, in slices: every
   * query or export that may read sites (or what is derived from them: the reverse lists, miss tables,
   * unreferenced assets) calls this first, since a warm start that published the stored index keeps only
   * their byte range. When they do not decode, that index is refused ({@link refuseStoredSites}) and the
   * one published after is linked from the files.
   */
  decodeStoredSites(): Promise<void> {
    const linked = this.published;
    if (!linked || !linked.sitesDeferred) return Promise.resolve();
    this.sitesDecoding ??= (async () => {
      try {
        await this.newSlicer().drive(linked.sitesSteps());
      } catch (e) {
        if (!(e instanceof CorruptSites)) throw e;
        await this.refuseStoredSites(e, linked);
      } finally {
        this.sitesDecoding = null;
      }
    })();
    return this.sitesDecoding;
  }

  /**
   * The stored sites of `broken` (the published index) did not decode (`e`): nothing of that snapshot is
   * trusted any more, so its deferred records are forgotten and read again from the files, and the index
   * is linked again from the records (also when every record had been decoded already).
   */
  private async refuseStoredSites(e: CorruptSites, broken: LinkedIndex): Promise<void> {
    const dropped = this.core.dropDeferred();
    this.onRecordProblem?.(
      `${e.message}; the index was linked again from the files (${dropped.length} records read again)`,
    );
    await this.refreshFrom(await this.scanAll());
    if (this.published === broken) await this.relinkInSlices(this.newSlicer());
  }

  /**
   * Brings the index up to date with the disk by stamps (size, mtime): re-reads new and changed files,
   * forgets deleted ones, re-links and publishes. Cheap when nothing changed (one scan, no reads).
   * With `paths`, only those files (or folders) are looked at (watcher events).
   */
  async refresh(paths?: readonly string[]): Promise<UpdateReport> {
    const t0 = performance.now();
    if (!paths) return this.refreshFrom(await this.scanAll(), t0);
    return this.apply(this.expand(paths), this.knownUnder(paths), paths, t0);
  }

  /**
   * {@link refresh} without listing folders: a stat of every indexed file and of `paths` (files and
   * folders the watcher named, so new ones are found). Edits and deletions of indexed files are always
   * seen; a new file only when it is named, or when an include reaches it.
   */
  async refreshKnown(paths: readonly string[]): Promise<UpdateReport> {
    const t0 = performance.now();
    const candidates = this.expand(paths);
    const seen = new Set(candidates.map((f) => pathKey(f.path)));
    // Only the files that changed or went are handed on (`known`: a file in it without a candidate is
    // gone): an unchanged one (nearly all, on every strict call without a barrier) costs its stat alone.
    const known: string[] = [];
    const slicer = this.newSlicer();
    // A known file that now leads outside the roots gets no stamp, so the refresh forgets it.
    const stamp = this.confinedStamps();
    const files = this.core.keyed();
    for (let i = 0; i < files.length; i++) {
      // A stat is a few microseconds: a pause (a clock read, a promise) every 64 of them.
      if ((i & 63) === 0) await slicer.pause();
      const key = files[i].key;
      const s = this.core.get(key)!;
      if (seen.has(key)) {
        known.push(s.path);
        continue;
      }
      const st = stamp(s.path);
      if (st && s.stamp && sameStamp(s.stamp, st)) continue;
      known.push(s.path);
      if (st) candidates.push({ path: s.path, size: st.size, mtimeMs: st.mtimeMs, kind: "other-text" });
    }
    return this.apply(candidates, known, null, t0);
  }

  /**
   * The end of a refresh that found nothing to apply, for a caller that compared the scan with the
   * records itself (a warm start whose stored index holds): the published index is current.
   */
  confirmCurrent(): UpdateReport {
    this.event("update_applied");
    return { changed: [], deleted: [], linkMs: 0, totalMs: 0 };
  }

  /**
   * {@link refresh} of what a watcher that has delivered every event named (`paths`: files and folders
   * below `watched`), plus a stat of each indexed file outside `watched` (no watcher reports those: SDK
   * placeholders, manifests, files of the mod's parent folders). No folder is listed unless named.
   */
  async refreshNamed(paths: readonly string[], watched: readonly string[]): Promise<UpdateReport> {
    const t0 = performance.now();
    const candidates = this.expand(paths);
    const known = this.knownUnder(paths);
    const seen = new Set(candidates.map((f) => pathKey(f.path)));
    const stamp = this.confinedStamps();
    const slicer = this.newSlicer();
    for (const s of this.outside(watched)) {
      known.push(s.path);
      if (seen.has(s.key)) continue;
      const st = stamp(s.path);
      if (st) candidates.push({ path: s.path, size: st.size, mtimeMs: st.mtimeMs, kind: "other-text" });
      await slicer.pause();
    }
    return this.apply(candidates, known, paths, t0);
  }

  /** The indexed files outside the `watched` folders (kept while no file appears or goes). */
  private outside(watched: readonly string[]): readonly StoredFile[] {
    const c = this.outsideCache;
    if (c && c.structure === this.core.structure && c.watched === watched) return c.files;
    const roots = watched.map(pathKey);
    const files: StoredFile[] = [];
    for (const s of this.core.values()) if (!roots.some((r) => keyInside(s.key, r))) files.push(s);
    this.outsideCache = { structure: this.core.structure, watched, files };
    return files;
  }

  /**
   * {@link refresh} with the stamps of a full scan already taken ({@link scanAll}): a warm start scans
   * once, plans from the scan and refreshes from it, so no file is stat'ed twice.
   */
  refreshFrom(scanned: readonly ScannedFile[], t0 = performance.now()): Promise<UpdateReport> {
    return this.apply(scanned, [...this.core.values()].map((s) => s.path), null, t0);
  }

  /**
   * {@link applyOnce}; when a deferred record from a snapshot turns out not to decode (found as the
   * update reads it), that snapshot's records are read again from the files and the update is a full
   * refresh from a new scan: never an index of a record that did not decode.
   */
  private async apply(
    candidates: readonly ScannedFile[],
    known: readonly string[],
    paths: readonly string[] | null,
    t0: number,
  ): Promise<UpdateReport> {
    try {
      return await this.applyOnce(candidates, known, paths, t0);
    } catch (e) {
      if (!(e instanceof CorruptRecord)) throw e;
      this.refuseDeferred(e);
      return this.applyOnce(await this.scanAll(), [...this.core.values()].map((s) => s.path), null, t0);
    }
  }

  private async applyOnce(
    candidates: readonly ScannedFile[],
    known: readonly string[],
    paths: readonly string[] | null,
    t0: number,
  ): Promise<UpdateReport> {
    const changed: string[] = [];
    const deleted: string[] = [];
    const seen = new Set<string>();
    // The stamps just taken are the ones stored with the re-read records (no second stat per file).
    const stamps = new Map<string, FileStamp>();
    for (const f of candidates) {
      seen.add(pathKey(f.path));
      const stored = this.core.file(f.path);
      if (stored && stored.stamp && sameStamp(stored.stamp, f)) continue;
      changed.push(f.path);
      stamps.set(f.path, { size: f.size, mtimeMs: f.mtimeMs });
    }
    for (const p of known) {
      if (seen.has(pathKey(p)) || (paths && this.ports.confinement.admitsNow(p) && existsAsFile(p))) continue;
      deleted.push(p);
    }
    const hadIndex = this.published !== null;
    if (changed.length === 0 && deleted.length === 0 && hadIndex && this.scanFacts() === this.linkedScanFacts) {
      // Nothing to apply: the published index is current (clears stale or a failed update's error). A
      // scan that found other case collisions or unlistable folders than the last link knew relinks.
      this.event("update_applied");
      return { changed, deleted, linkMs: 0, totalMs: round(performance.now() - t0) };
    }
    const structural = deleted.length > 0 || changed.some((p) => !this.core.file(p));
    if (structural) {
      // A file appeared or vanished: directory listings and resolved includes may have changed.
      for (const p of [...deleted, ...changed]) this.ports.invalidate(p);
    }
    this.core.applyChanges(deleted.map((path) => ({ path, deleted: true as const })));
    const slicer = this.newSlicer();
    await this.loadPaths(changed, slicer, undefined, undefined, stamps);
    await this.discover(true, slicer);
    const linked = await this.relinkInSlices(slicer);
    this.event("update_applied");
    return { changed, deleted, linkMs: round(linked.stats.linkMs), totalMs: round(performance.now() - t0) };
  }

  /**
   * The project's files, without the paths that differ from a kept one only in letter case (recorded
   * for a diagnostic), noting the folders that could not be listed.
   */
  private async scanProject(slicer: Slicer): Promise<ScannedFile[]> {
    this.unlistedByScan.clear();
    const raw = await this.scanRoot(this.config.projectDir, slicer, (path, e) => {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code === "EACCES" || code === "EPERM") && this.config.lister.unlistable?.(path)) {
        this.unlistedByScan.add(path);
      }
    });
    const { files, collisions } = withoutCaseCollisions(raw);
    this.collisions = collisions;
    this.droppedByCase.clear();
    for (const c of collisions) for (const d of c.dropped) this.droppedByCase.add(d);
    return files;
  }

  /**
   * The options every scan of `root` runs with: links leading outside the allowed roots are neither
   * stat'ed nor followed, and are remembered (for {@link linkNotes}) until the next scan of `root`.
   */
  private confinedScan(root: string, opts: ScanOptions = {}): ScanOptions {
    for (const [k, p] of this.refusedLinks) if (isInside(p, root)) this.refusedLinks.delete(k);
    const confinement = this.ports.confinement;
    return {
      ...opts,
      admitLink: (p) => confinement.admits(p),
      onRefusedLink: (p) => this.refusedLinks.set(pathKey(p), p),
    };
  }

  /** One warning per link the scans did not follow, in path order. */
  private linkNotes(): Diagnostic[] {
    const roots = { projectDir: this.config.projectDir, sdkDir: this.config.sdk?.dir ?? null };
    return [...this.refusedLinks.values()].sort().map((p) => ({
      code: "link-outside-roots",
      severity: "warning",
      message: `${
        displayPath(roots, p)
      } is not followed: it is a link that leads to nothing or outside the folders ra3 reads`,
      file: null,
      line: 0,
      column: 0,
    }));
  }

  /** The paths the scan set aside because they differ from a kept one only in letter case. */
  private caseNotes(): Diagnostic[] {
    const roots = { projectDir: this.config.projectDir, sdkDir: this.config.sdk?.dir ?? null };
    const out: Diagnostic[] = [];
    for (const c of this.collisions) {
      const others = c.dropped.map((d) => displayPath(roots, d)).join(", ");
      out.push({
        code: "case-collision",
        severity: "warning",
        message: `${others} ${
          c.dropped.length === 1 ? "differs" : "differ"
        } from this file's path only in letter case: on Windows they are one file. ra3 uses ${
          displayPath(roots, c.kept)
        } (the first in sorted order) for every include and ignores ${others}; rename or remove one`,
        file: c.kept,
        line: 1,
        column: 1,
      });
    }
    return out;
  }

  /**
   * Every indexed file on disk now with its stamp: the project tree, the SDK's vanilla XML, and a stat
   * of each file outside the roots that the index holds (SDK placeholders, manifests, other mods' files
   * that includes reached) or that `alsoOutside` names (a snapshot's files, before they are installed).
   */
  async scanAll(alsoOutside: Iterable<{ readonly path: string }> = []): Promise<ScannedFile[]> {
    const slicer = this.newSlicer();
    const out = await this.scanProject(slicer);
    if (this.config.sdk?.vanillaDir) {
      out.push(...(await this.scanRoot(this.config.sdk.vanillaDir, slicer)).filter((f) => f.kind === "xml"));
    }
    // Files outside the scanned folders that includes reached (SDK placeholders, manifests, other mods'
    // files). One the confinement does not admit now (a record from an older snapshot, a link
    // retargeted) is left out, so the refresh forgets it.
    const outside = new Map<string, string>();
    // (11k stored files at a warm start: each key once, the roots' keys once, a pause now and then.)
    const rootKeys = this.roots.map(pathKey);
    let n = 0;
    for (const list of [this.core.values(), alsoOutside]) {
      for (const s of list) {
        const key = pathKey(s.path);
        if (!rootKeys.some((r) => keyInside(key, r))) outside.set(key, s.path);
        if (++n % 2048 === 0) await slicer.pause();
      }
    }
    const stamp = this.confinedStamps();
    for (const path of outside.values()) {
      const st = stamp(path);
      if (st) out.push({ path, size: st.size, mtimeMs: st.mtimeMs, kind: "other-text" });
    }
    return out;
  }

  /**
   * The files below `root`, scanned in slices under the confinement ({@link confinedScan}); every folder
   * listing read on the way is kept by the directory lister, so the include walk's case resolution does
   * not read those folders again.
   */
  private scanRoot(
    root: string,
    slicer: Slicer,
    onError?: (path: string, error: Error) => void,
  ): Promise<ScannedFile[]> {
    const lister = this.config.resolver.lister;
    // Only listings that succeeded are kept: a folder the scan could not list stays unknown to the
    // lister, which then finds it unlistable itself and steps through it by exact names.
    return scanProjectFilesInSlices(
      root,
      () => slicer.pause(),
      this.confinedScan(root, { onListing: (dir, dirents) => lister.prime?.(dir, dirents), onError }),
    );
  }

  /**
   * A stamp for each of many indexed files, taken only when the file may be read now
   * (`Confinement.admitsNow`), for about the cost of a stat: each folder is checked once (lexically and
   * by its real path), then the file is `lstat`'ed (a file that is not itself a link lies where its folder
   * really is); a file that is a link is checked whole before its target is stat'ed. Null: missing, not a
   * file, or not admitted.
   */
  confinedStamps(): (path: string) => FileStamp | null {
    const confinement = this.ports.confinement;
    const folders = new Map<string, boolean>();
    return (path) => {
      const dir = native.dirname(path);
      const name = path.slice(dir.length + 1);
      // Not a plain name in `dir` (an unnormalized path): the whole check.
      if (name === "" || name === "." || name === ".." || /[\\/]/.test(name)) {
        return confinement.admitsNow(path) ? statStamp(path) : null;
      }
      let admitted = folders.get(dir);
      if (admitted === undefined) folders.set(dir, admitted = confinement.admitsNow(dir));
      if (!admitted) return null;
      let st: Stats;
      try {
        st = lstatSync(path);
      } catch {
        return null;
      }
      if (st.isSymbolicLink()) return confinement.admitsNow(path) ? statStamp(path) : null;
      return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : null;
    };
  }

  /** Stamps of the given files, and of every indexed file below the given folders. */
  private expand(paths: readonly string[]): ScannedFile[] {
    const out: ScannedFile[] = [];
    for (const p of paths) {
      // A watched path that now leads outside the roots (replaced by such a link) is not looked at.
      if (!this.ports.confinement.admitsNow(p)) continue;
      let st;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        const below = scanProjectFiles(p, this.confinedScan(p));
        out.push(...(isInside(p, this.config.projectDir) ? below : below.filter((f) => f.kind === "xml")));
      } else if (st.isFile() && isIndexedExtension(p) && !this.droppedByCase.has(p)) {
        out.push({ path: this.realCase(p), size: st.size, mtimeMs: st.mtimeMs, kind: "other-text" });
      }
    }
    return out;
  }

  private outsideCache: { structure: number; watched: readonly string[]; files: readonly StoredFile[] } | null = null;

  /**
   * The indexed files at or below `paths`. A path that is an indexed file names only itself (one map
   * lookup); the others (folders, new names) are compared with every indexed file's key once.
   */
  private knownUnder(paths: readonly string[]): string[] {
    const out: string[] = [];
    const folders: string[] = [];
    for (const p of paths) {
      const f = this.core.file(p);
      if (f) out.push(f.path);
      else folders.push(pathKey(p));
    }
    if (folders.length === 0) return out;
    for (const s of this.core.values()) if (folders.some((k) => keyInside(s.key, k))) out.push(s.path);
    return out;
  }

  private realCase(p: string): string {
    return this.core.file(p)?.path ?? p;
  }

  /** Forgets records of files under the roots that a fresh scan no longer lists. */
  private dropVanished(scanned: readonly ScannedFile[]): void {
    const present = new Set(scanned.map((f) => pathKey(f.path)));
    const gone: FileChange[] = [];
    for (const s of this.core.values()) {
      if (this.roots.some((r) => isInside(s.path, r)) && !present.has(pathKey(s.path))) {
        gone.push({ path: s.path, deleted: true });
      }
    }
    this.core.applyChanges(gone);
  }

  /**
   * Loads the files the include walk wants until nothing new is wanted. Returns how many were loaded
   * (`files`) and how many of those are art (`art`, only with `includeArt`).
   * A wanted file that `aside` holds (a reachable-first build parsed it already) is put back instead of
   * read again, at the place a first read would have put it.
   */
  private async discover(
    includeArt: boolean,
    slicer: Slicer,
    signal?: AbortSignal,
    aside: SetAside | null = null,
  ): Promise<{ readonly files: number; readonly art: number }> {
    let files = 0;
    let art = 0;
    for (let round = 0; round < MAX_DISCOVERY_ROUNDS; round++) {
      const wanted = await slicer.drive(
        this.toRead(await slicer.drive(this.core.wantedSteps(this.ports.inputs)), includeArt),
      );
      if (wanted.length === 0) break;
      if (!aside) {
        const artPaths = includeArt ? wanted.filter((p) => extensionOf(p) === ".w3x") : [];
        const loadedArt = artPaths.length ? await this.loadPaths(artPaths, slicer, signal) : 0;
        const rest = artPaths.length ? wanted.filter((p) => extensionOf(p) !== ".w3x") : wanted;
        files += loadedArt + await this.loadPaths(rest, slicer, signal);
        art += loadedArt;
        continue;
      }
      for (const p of wanted) {
        const key = pathKey(p);
        const kept = aside.records.get(key);
        if (!kept) {
          const n = await this.loadPaths([p], slicer, signal);
          files += n;
          if (extensionOf(p) === ".w3x") art += n;
          continue;
        }
        this.core.setRecord(kept.path, kept.record, kept.stamp);
        const failed = aside.unreadable.get(key);
        if (failed) this.unreadable.set(key, failed);
        files++;
        if (extensionOf(p) === ".w3x") art++;
      }
    }
    return { files, art };
  }

  /**
   * The files of `wanted` to read, in steps of 256: not known to be unreadable, art only with
   * `includeArt`, and admitted by the confinement. What the walk wants came through confined lookups;
   * an entry point the project layout named (a Data/Mod.xml that is a link leading out) did not, so
   * every wanted file is checked before its read (a realpath each: 55 ms for the 7,215 files of one
   * round at Corona scale).
   */
  private *toRead(wanted: readonly string[], includeArt: boolean): Generator<void, string[], void> {
    const confinement = this.ports.confinement;
    const out: string[] = [];
    for (let k = 0; k < wanted.length; k++) {
      const p = wanted[k];
      if (!this.unreadable.has(pathKey(p)) && (includeArt || extensionOf(p) !== ".w3x") && confinement.admitsNow(p)) {
        out.push(p);
      }
      if (k % 256 === 255) yield;
    }
    return out;
  }

  private loadScanned(
    files: readonly ScannedFile[],
    phase: BuildPhase,
    report: BuildProgress,
    slicer: Slicer,
    signal?: AbortSignal,
  ): Promise<number> {
    const stamps = new Map(files.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs }]));
    return this.loadPaths(files.map((f) => f.path), slicer, signal, (n) => report(phase, n, files.length), stamps);
  }

  /** A slicer for one job, with this workspace's slice budget. */
  newSlicer(): Slicer {
    return new Slicer(this.slices.sliceMs);
  }

  /** Releases what the workspace holds for reading (the art read buffer); it can still be used after. */
  close(): void {
    this.source.release?.();
  }

  /**
   * Reads and parses `paths`, pausing between files (the slicer yields once its slice is spent);
   * unreadable files are remembered.
   */
  private async loadPaths(
    paths: readonly string[],
    slicer: Slicer,
    signal?: AbortSignal,
    progress?: (n: number) => void,
    stamps?: Map<string, FileStamp>,
  ): Promise<number> {
    let n = 0;
    for (const path of paths) {
      let bytes: Uint8Array | null;
      let stamp = stamps?.get(path);
      // Art files are only scanned: their bytes may be read into a reused buffer, parsed at once.
      const art = extensionOf(path) === ".w3x";
      try {
        if (!stamp) stamp = statStamp(path) ?? undefined;
        bytes = this.source.read(path, art);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? String(e);
        this.unreadable.set(pathKey(path), { path, error: code });
        if (code === "ENOENT") {
          this.core.applyChanges([{ path, deleted: true }]);
        } else {
          // Kept in the index as a file with an error, so `check` reports it; no stamp: re-read next time.
          this.core.setRecord(path, unreadableRecord(code), null);
        }
        continue;
      }
      this.unreadable.delete(pathKey(path));
      const size = bytes.length;
      if (!art && size >= SLICED_PARSE_BYTES) {
        // A big file (a map's XML) in steps: the server answers between them. Its bytes are its own; they
        // are decoded before the steps and dropped here, so the engine may free them while the text is
        // parsed (the steps do not hold them: see `parseFileSteps`).
        const steps = this.core.applyChangeSteps({ path, bytes, stamp }, PARSE_STEP_CHARS);
        bytes = null;
        n += await slicer.drive(steps);
      } else {
        // Parsed at once: a slice ends after any file (and a reused art buffer is overwritten by the next read).
        n += this.core.applyChanges([{ path, bytes, stamp }]);
      }
      if (size >= LARGE_FILE_BYTES) collectIfLarge();
      if (n % PROGRESS_EVERY === 0) progress?.(n);
      await slicer.pause();
      if (signal?.aborted) throw new BuildCancelled();
    }
    progress?.(n);
    return n;
  }
}

/** Files handled between two yields by the workspace's own loops (set-aside, unloaded files). */
const FILES_PER_STEP = 2048;

/** The bytes of `files` by their stamps. */
function sizeOf(files: readonly { readonly size: number }[]): number {
  let n = 0;
  for (const f of files) n += f.size;
  return n;
}

/** Files a reachable-first build loaded from outside the scan, held while the build order is restored. */
interface SetAside {
  readonly records: Map<string, StoredFile>;
  /** Those of them that could not be read, with the error. */
  readonly unreadable: Map<string, { path: string; error: string }>;
}

/** The record of a file that exists but could not be read. */
function unreadableRecord(code: string): FileRecord {
  const why = code === "EACCES" || code === "EPERM"
    ? "permission denied; check the file's permissions"
    : `${code}; check the file`;
  return {
    ...emptyRecord("binary"),
    diagnostics: [{
      code: "unreadable-file",
      severity: "error",
      message: `could not read the file: ${why}`,
      line: 1,
      column: 1,
    }],
  };
}

function isIndexedExtension(p: string): boolean {
  const ext = extensionOf(p);
  return ext === ".xml" || ext === ".w3x" || ext === ".str" || ext === ".babproj" || ext === ".manifest";
}

/** The file's stamp (size, mtime), or null when it is missing or not a file. */
export function statStamp(path: string): FileStamp | null {
  try {
    const st = statSync(path);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}

function existsAsFile(path: string): boolean {
  return statStamp(path) !== null;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

function roundTimings(t: BuildTimings): BuildTimings {
  return {
    scanMs: round(t.scanMs),
    reachMs: round(t.reachMs),
    schemaMs: round(t.schemaMs),
    parseMs: round(t.parseMs),
    sdkMs: round(t.sdkMs),
    linkMs: round(t.linkMs),
    artMs: round(t.artMs),
    totalMs: round(t.totalMs),
  };
}
