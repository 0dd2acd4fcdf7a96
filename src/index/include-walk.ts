/**
 * The include walk: from every entry point through `<Include>` and `xi:include`, which files each stream
 * reaches and in which context (through `all` includes, only through `instance` ones, or only through
 * `reference` ones), the include edges and how each resolved, the manifests standing for `reference`
 * includes, the SDK streams those pull in, cycles (reported with their path) and missing targets. Cheap
 * (no reference work), so a driver can run it repeatedly while it loads the files the walk asks for
 * (`wanted`), and the core reuses it while no record's include structure changes.
 *
 * Along a path the context only weakens: `all` (0), then `instance` (1), then `reference` (2). A hop
 * through an `instance` include makes the rest of the path at least instance, a `reference` one
 * reference; `xi:include` keeps the context. A file is walked again when a stronger context reaches it, so each
 * file is walked at most three times per stream. An SDK stream (pulled in by a `reference` include)
 * starts in the reference context: the mod references its prebuilt manifest, it does not compile it.
 * An include the ports answer `outside` (it leads out of the allowed roots) is an edge to nothing with
 * its own diagnostic, which names the include and never says whether anything exists there.
 */
import { displayPath, isInside, pathKey } from "../project/paths.ts";
import type { EntryPoint, IncludeResolution, LinkInputs, LoadedFile, RecordLookup } from "./link-context.ts";
import type { Diagnostic, IncludeEdge, StreamInfo } from "./linked.ts";
import { shortenedChain } from "./link-caps.ts";
import type { FileRecord } from "./records.ts";
import { runSteps } from "../steps.ts";

/** The context a walk reached a file in: 0 `all`, 1 only `instance`, 2 only `reference` includes. */
export type WalkContext = 0 | 1 | 2;

/** The contexts of an entry point's stream: compiled (a project entry) or referenced (an SDK stream). */
const ENTRY_CONTEXT: Record<NonNullable<EntryPoint["context"]>, WalkContext> = { compiled: 0, referenced: 2 };

/** How the walks reached one file. */
export interface FileReach {
  readonly path: string;
  /** Streams whose walk reached the file. */
  readonly streams: ReadonlySet<string>;
  /** The strongest context any walk reached it in. */
  readonly context: WalkContext;
}

/** What walking every stream's include graph found. */
export interface WalkResult {
  /** File key → how it was reached (files no walk reached are absent). */
  readonly reached: ReadonlyMap<string, FileReach>;
  readonly includes: readonly IncludeEdge[];
  readonly diagnostics: readonly Diagnostic[];
  /** Files a walk reached that have no record yet. */
  readonly wanted: ReadonlySet<string>;
  readonly streams: readonly StreamInfo[];
  /** Manifest key → the first stream that uses it. */
  readonly manifestsUsed: ReadonlyMap<string, string>;
  /** Prefixed (`DATA:`…) sources that missed without a usable SDK → how often (summarised, not reported). */
  readonly suppressedPrefixed: ReadonlyMap<string, number>;
}

const MAX_DEPTH = 300;

/** What answers one `reference` include. */
interface ReferenceTarget {
  /** The readable prebuilt manifest, or null. */
  readonly manifest: LoadedFile | null;
  /** The SDK stream root it names, or null. */
  readonly root: string | null;
  readonly resolution: "manifest" | "sdk-stream" | "file";
}

interface MutableReach {
  path: string;
  streams: Set<string>;
  context: WalkContext;
}

/** One stream's walk: what it has visited (and with which context), its include stack, its manifests. */
interface StreamWalk {
  readonly entry: EntryPoint;
  /** File key → the strongest context this stream walked it in. */
  readonly visited: Map<string, WalkContext>;
  readonly onStack: string[];
  /** The keys of {@link onStack}'s files, each with its position there. */
  readonly stackKeys: Map<string, number>;
  readonly manifests: string[];
  fileCount: number;
}

/**
 * Walks every entry point's include graph (and the SDK streams `reference` includes pull in), then the
 * includes of project files no stream reaches (their targets can still be missing).
 * @example walkStreams(core, inputs).streams[0].files // files reached from Data/Mod.xml
 */
export function walkStreams(records: RecordLookup, inputs: LinkInputs): WalkResult {
  return runSteps(walkStreamsSteps(records, inputs));
}

/** Files visited between two yields of {@link walkStreamsSteps}. */
const FILES_PER_STEP = 32;

/**
 * {@link walkStreams} in steps: yields after every few files visited (a long-running driver lets other
 * work run there; at mod scale the walk is hundreds of milliseconds) and returns the same result.
 */
export function* walkStreamsSteps(records: RecordLookup, inputs: LinkInputs): Generator<void, WalkResult, void> {
  if (inputs.prepareSteps) yield* inputs.prepareSteps();
  const w = new IncludeWalker(records, inputs);
  for (let e = 0; e < w.entries.length; e++) yield* w.walkEntry(w.entries[e]);
  yield* w.walkUnreached();
  return {
    reached: w.reached,
    includes: w.includes,
    diagnostics: w.diagnostics,
    wanted: w.wanted,
    streams: w.streams,
    manifestsUsed: w.manifestsUsed,
    suppressedPrefixed: w.suppressedPrefixed,
  };
}

/** The walk's state across streams; each method is one step of the walk. */
class IncludeWalker {
  readonly reached = new Map<string, MutableReach>();
  readonly includes: IncludeEdge[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly wanted = new Set<string>();
  readonly streams: StreamInfo[] = [];
  readonly manifestsUsed = new Map<string, string>();
  readonly suppressedPrefixed = new Map<string, number>();
  /** Entry points; SDK streams are appended as `reference` includes name them. */
  readonly entries: EntryPoint[];
  /** SDK stream root key → the `reference` include that first pulled it in. */
  private readonly referencedFrom = new Map<string, StreamInfo["referencedFrom"]>();
  private readonly cycleEdges = new Set<string>();
  /** Keys of the walked files whose edges are listed (see {@link visitIncludes}). */
  private readonly edgesListed = new Set<string>();
  private readonly sdkStreamsQueued = new Set<string>();

  constructor(private readonly records: RecordLookup, private readonly inputs: LinkInputs) {
    this.entries = [...inputs.entries];
  }

  /** Visits since the last yield (see {@link FILES_PER_STEP}). */
  private sinceYield = 0;

  *walkEntry(entry: EntryPoint): Generator<void, void, void> {
    const s: StreamWalk = { entry, visited: new Map(), onStack: [], stackKeys: new Map(), manifests: [], fileCount: 0 };
    const context = ENTRY_CONTEXT[entry.context ?? "compiled"];
    yield* this.visit(s, entry.file, pathKey(entry.file), context, 0);
    this.streams.push({
      name: entry.stream,
      entry: entry.file,
      layer: entry.layer,
      context: context === 2 ? "referenced" : "compiled",
      origin: entry.origin ?? "well-known",
      reason: entry.reason ?? "",
      referencedFrom: this.referencedFrom.get(pathKey(entry.file)) ?? null,
      files: s.fileCount,
      manifests: s.manifests,
    });
  }

  /** Inactive project files: no stream walks them, but their own includes still resolve (and can be missing). */
  *walkUnreached(): Generator<void, void, void> {
    const { inputs } = this;
    for (const loaded of this.records.values()) {
      if (this.reached.has(loaded.key ?? pathKey(loaded.path)) || !isInside(loaded.path, inputs.projectDir)) continue;
      if (++this.sinceYield >= FILES_PER_STEP) {
        this.sinceYield = 0;
        yield;
      }
      for (const inc of loaded.record.includes) {
        const res = inputs.resolve(inc.source, loaded.path, "project");
        const how = inc.type === null
          ? "ignored"
          : !res.path
          ? unresolved(res)
          : inc.type === "reference"
          ? this.referenceTarget(inc.source, null).resolution
          : "file";
        this.addEdge(loaded.path, res, inc.source, inc.type, how, inc.line, inc.column);
        if (!res.path && (res.outside || !(res.prefixed && !inputs.sdkUsable))) {
          this.notFound(loaded.path, inc.source, res, inc.line, inc.column, "include");
        }
      }
      for (const xi of loaded.record.xincludes) {
        if (xi.href === "") continue; // only an xpointer: its own document, no file to include
        const res = inputs.resolve(xi.href, loaded.path, "project");
        this.addEdge(loaded.path, res, xi.href, "xi", res.path ? "file" : unresolved(res), xi.line, xi.column);
        if (!res.path && (res.outside || !(res.prefixed && !inputs.sdkUsable))) {
          this.notFound(loaded.path, xi.href, res, xi.line, xi.column, "xi:include");
        }
      }
    }
  }

  /** Marks `path` (whose key is `key`) reached by stream `s` in `context` (keeping the strongest context seen). */
  private reach(path: string, key: string, s: StreamWalk, context: WalkContext): void {
    const r = this.reached.get(key);
    if (!r) this.reached.set(key, { path, streams: new Set([s.entry.stream]), context });
    else {
      r.streams.add(s.entry.stream);
      if (context < r.context) r.context = context;
    }
  }

  private *visit(
    s: StreamWalk,
    file: string,
    key: string,
    context: WalkContext,
    depth: number,
  ): Generator<void, void, void> {
    const prev = s.visited.get(key);
    if (prev !== undefined && prev <= context) return;
    if (++this.sinceYield >= FILES_PER_STEP) {
      this.sinceYield = 0;
      yield;
    }
    s.visited.set(key, context);
    if (prev === undefined) s.fileCount++;
    this.reach(file, key, s, context);
    const loaded = this.records.get(key);
    if (!loaded) {
      this.wanted.add(file);
      return;
    }
    if (depth > MAX_DEPTH) {
      this.diagnostics.push({
        code: "include-depth",
        severity: "warning",
        message: `includes nested deeper than ${MAX_DEPTH} levels`,
        file,
        line: 1,
        column: 1,
      });
      return;
    }
    s.stackKeys.set(key, s.onStack.length);
    s.onStack.push(loaded.path);
    yield* this.visitIncludes(s, loaded, key, context, depth);
    s.onStack.pop();
    s.stackKeys.delete(key);
  }

  private *visitIncludes(
    s: StreamWalk,
    loaded: LoadedFile,
    key: string,
    context: WalkContext,
    depth: number,
  ): Generator<void, void, void> {
    const { inputs } = this;
    const rec = loaded.record;
    // A file's edges are the same however often it is walked (a stronger context, another stream): they
    // are listed at its first walk; the ones a later walk makes are the same edges, not kept.
    const edges = !this.edgesListed.has(key);
    if (edges) this.edgesListed.add(key);
    for (const inc of rec.includes) {
      const res = inputs.resolve(inc.source, loaded.path, s.entry.layer);
      if (!res.path || inc.type === null) {
        if (edges) {
          this.addEdge(
            loaded.path,
            res,
            inc.source,
            inc.type,
            res.path ? "ignored" : unresolved(res),
            inc.line,
            inc.column,
          );
        }
        if (!res.path) this.notFound(loaded.path, inc.source, res, inc.line, inc.column, "include");
        continue;
      }
      if (inc.type === "reference") {
        const target = this.referenceTarget(inc.source, s);
        if (edges) this.addEdge(loaded.path, res, inc.source, "reference", target.resolution, inc.line, inc.column);
        this.reference(s, target, { file: loaded.path, line: inc.line, column: inc.column, source: inc.source });
        // BAB falls back to the referenced XML when no prebuilt manifest (or SDK stream) stands for it.
        if (target.resolution === "file") yield* this.follow(s, loaded.path, key, res.path, 2, depth, 0, 0, inc.source);
        continue;
      }
      if (edges) this.addEdge(loaded.path, res, inc.source, inc.type, "file", inc.line, inc.column);
      const next = inc.type === "instance" && context === 0 ? 1 : context;
      yield* this.follow(s, loaded.path, key, res.path, next, depth, inc.line, inc.column, inc.source);
    }
    for (const xi of rec.xincludes) {
      if (xi.href === "") continue; // only an xpointer: its own document, no file to include
      const res = inputs.resolve(xi.href, loaded.path, s.entry.layer);
      if (edges) this.addEdge(loaded.path, res, xi.href, "xi", res.path ? "file" : unresolved(res), xi.line, xi.column);
      if (!res.path) {
        this.notFound(loaded.path, xi.href, res, xi.line, xi.column, "xi:include");
        continue;
      }
      yield* this.follow(s, loaded.path, key, res.path, context, depth, xi.line, xi.column, xi.href);
    }
  }

  /** Walks into `to` unless it is on the include stack (a cycle: reported once per edge, then skipped). */
  private *follow(
    s: StreamWalk,
    from: string,
    fromKey: string,
    to: string,
    context: WalkContext,
    depth: number,
    line: number,
    column: number,
    source: string,
  ): Generator<void, void, void> {
    const toKey = pathKey(to);
    if (!s.stackKeys.has(toKey)) {
      yield* this.visit(s, to, toKey, context, depth + 1);
      return;
    }
    const edgeKey = `${fromKey}\u0000${toKey}`;
    if (this.cycleEdges.has(edgeKey)) return;
    this.cycleEdges.add(edgeKey);
    // The files from the one included again to here, and it again: a long chain shortened in the middle
    // (each cycle edge of a deep chain named the whole stack: n messages of up to n paths).
    const start = s.stackKeys.get(toKey)!;
    const length = s.onStack.length - start + 1;
    const cycle = shortenedChain(
      length,
      (j) => displayPath(this.inputs, j === length - 1 ? to : s.onStack[start + j]),
    );
    this.diagnostics.push({
      code: "include-cycle",
      severity: "warning",
      message: `include cycle: ${cycle.join(" → ")} (the include of "${source}" is skipped)`,
      file: from,
      line,
      column,
    });
  }

  /**
   * What answers a `reference` include of `source` (in stream `s`, or outside any stream): the prebuilt
   * manifest standing for it, when readable; else the SDK stream it names (the SDK's vanilla XML root,
   * walked as a stream of its own); else the referenced XML itself (`file`).
   */
  private referenceTarget(source: string, s: StreamWalk | null): ReferenceTarget {
    const { inputs } = this;
    const manifest = inputs.manifestFor(source, s ? s.entry.file : null);
    let readable: LoadedFile | null = null;
    if (manifest) {
      const loaded = this.records.get(pathKey(manifest));
      if (!loaded) {
        if (s) this.wanted.add(manifest);
      } else if (
        loaded.record.kind === "manifest" && loaded.record.diagnostics.every((d) => d.severity !== "error")
      ) {
        readable = loaded;
      }
    }
    const root = inputs.sdkStreamRoot(source);
    const resolution = readable ? "manifest" : root ? "sdk-stream" : "file";
    return { manifest: readable, root, resolution };
  }

  /** Uses what answers a `reference` include: the manifest joins the stream, the SDK stream is queued. */
  private reference(s: StreamWalk, target: ReferenceTarget, from: NonNullable<StreamInfo["referencedFrom"]>): void {
    const loaded = target.manifest;
    if (loaded) {
      const mk = loaded.key ?? pathKey(loaded.path);
      if (!s.manifests.includes(loaded.path)) s.manifests.push(loaded.path);
      if (!this.manifestsUsed.has(mk)) this.manifestsUsed.set(mk, s.entry.stream);
      this.reach(loaded.path, mk, s, 2);
    }
    const root = target.root;
    if (root) {
      const rk = pathKey(root);
      if (!this.sdkStreamsQueued.has(rk)) {
        this.sdkStreamsQueued.add(rk);
        this.referencedFrom.set(rk, from);
        this.entries.push({
          stream: `sdk:${baseStreamName(root)}`,
          file: root,
          layer: "sdk",
          context: "referenced",
          origin: "sdk-stream",
          reason: sdkStreamReason(this.inputs, from.file, from.line),
        });
      }
    }
  }

  /**
   * Lists one include edge. Each file's edges are listed once per walk: at its first walk
   * ({@link visitIncludes}), or by {@link walkUnreached} for a project file no stream reaches.
   */
  private addEdge(
    from: string,
    res: IncludeResolution,
    source: string,
    type: IncludeEdge["type"],
    resolution: IncludeEdge["resolution"],
    line: number,
    column: number,
  ): void {
    this.includes.push({ from, to: res.path, source, type, resolution, line, column, caseFixed: res.caseFixed });
  }

  private notFound(
    file: string,
    source: string,
    res: IncludeResolution,
    line: number,
    column: number,
    what: string,
  ): void {
    const { inputs } = this;
    if (res.outside) {
      if (!isInside(file, inputs.projectDir)) return;
      this.diagnostics.push({
        code: "include-outside-roots",
        severity: "warning",
        message: `${what} "${source}" is not followed: it leads outside the folders ra3 reads`,
        file,
        line,
        column,
      });
      return;
    }
    if (res.prefixed && !inputs.sdkUsable) {
      this.suppressedPrefixed.set(source, (this.suppressedPrefixed.get(source) ?? 0) + 1);
      return;
    }
    if (!isInside(file, inputs.projectDir)) return; // vanilla's own broken includes are not the modder's problem
    this.diagnostics.push({
      code: "include-not-found",
      severity: "warning",
      message: `${what} "${source}" was not found`,
      file,
      line,
      column,
    });
  }
}

/** Why an SDK stream is one: the `reference` include at `file:line` that first pulled it in. */
function sdkStreamReason(inputs: LinkInputs, file: string, line: number): string {
  return `the SDK's vanilla stream, referenced by ${displayPath(inputs, file)}:${line}`;
}

/** A file whose includes moved (the same includes, in the same order, at other places). */
export interface MovedIncludes {
  readonly path: string;
  readonly before: FileRecord;
  readonly after: FileRecord;
}

/** The walk a shifted walk was made from ({@link shiftedWalk}). */
const shiftedFrom = new WeakMap<WalkResult, WalkResult>();

/**
 * Whether `walk` is `earlier`, or was made from it by {@link shiftedWalk} (through at most a few shifts):
 * the same files reached in the same contexts, the same edges in the same order.
 */
export function walkDerivesFrom(walk: WalkResult, earlier: WalkResult): boolean {
  let w: WalkResult | undefined = walk;
  for (let n = 0; w && n < 64; n++, w = shiftedFrom.get(w)) if (w === earlier) return true;
  return false;
}

/**
 * Whether a walk of `after` goes as one of `before` does, the places of its includes aside: the same
 * includes (type, source) and xi:includes (everything but where they are and which asset holds them), in
 * the same order. The walk reads a record's includes only for their target, type and place.
 */
export function includesMovedOnly(before: FileRecord, after: FileRecord): boolean {
  const a = before.includes;
  const b = after.includes;
  if (a.length !== b.length || before.xincludes.length !== after.xincludes.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i].type !== b[i].type || a[i].rawType !== b[i].rawType || a[i].source !== b[i].source) return false;
  }
  for (let i = 0; i < before.xincludes.length; i++) {
    const x = before.xincludes[i];
    const y = after.xincludes[i];
    if (
      x.href !== y.href || x.xpointer !== y.xpointer || x.rootLevel !== y.rootLevel ||
      x.parentType !== y.parentType || x.parent !== y.parent
    ) return false;
  }
  return true;
}

/**
 * `walk` with the includes of `moved` files at their new places: what a walk of the records as they are now
 * gives, without walking. Positions only name edges and findings (edges are told apart by file and place,
 * one to one here), so the files reached, their order and contexts are the same; each edge, diagnostic and
 * stream that names a moved include's place names its new one.
 */
export function shiftedWalk(walk: WalkResult, moved: readonly MovedIncludes[], inputs: LinkInputs): WalkResult {
  let includes = walk.includes;
  let diagnostics = walk.diagnostics;
  let streams = walk.streams;
  for (const m of moved) {
    const key = pathKey(m.path);
    const to = new Map<string, { line: number; column: number }>();
    const place = (line: number, column: number) => `${line}:${column}`;
    m.before.includes.forEach((inc, i) => to.set(place(inc.line, inc.column), m.after.includes[i]));
    m.before.xincludes.forEach((xi, i) => to.set(place(xi.line, xi.column), m.after.xincludes[i]));
    // Edges and findings name a file by its record's path (a key for another spelling of the same length).
    const of = (file: string | null, line: number, column: number) =>
      file !== null && (file === m.path || (file.length === m.path.length && pathKey(file) === key))
        ? to.get(place(line, column))
        : undefined;
    includes = includes.map((e) => {
      const p = of(e.from, e.line, e.column);
      return p ? { ...e, line: p.line, column: p.column } : e;
    });
    diagnostics = diagnostics.map((d) => {
      const p = of(d.file, d.line, d.column);
      return p ? { ...d, line: p.line, column: p.column } : d;
    });
    streams = streams.map((st) => {
      const r = st.referencedFrom;
      const p = r ? of(r.file, r.line, r.column) : undefined;
      if (!r || !p) return st;
      return {
        ...st,
        reason: sdkStreamReason(inputs, r.file, p.line),
        referencedFrom: { ...r, line: p.line, column: p.column },
      };
    });
  }
  const shifted: WalkResult = { ...walk, includes, diagnostics, streams };
  shiftedFrom.set(shifted, walk);
  return shifted;
}

/** How an include that resolved to nothing is recorded: `outside` the allowed roots, or `missing`. */
function unresolved(res: IncludeResolution): "outside" | "missing" {
  return res.outside ? "outside" : "missing";
}

/** A stream's name from its root file: `CnC3Xml/Static.xml` → `static`. */
function baseStreamName(path: string): string {
  const b = path.replace(/\\/g, "/").split("/").pop() ?? path;
  return b.replace(/\.xml$/i, "").toLowerCase();
}
