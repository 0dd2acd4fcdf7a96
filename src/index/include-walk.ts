/**
 * The include walk: from every entry point through `<Include>` and `xi:include`, which files each stream
 * reaches (and how: through `all` or only `instance` includes), the include edges, the manifests standing
 * for `reference` includes, the SDK streams those pull in, cycles (reported with their path) and missing
 * targets. Cheap (no reference work), so a driver can run it repeatedly while it loads the files the walk
 * asks for (`wanted`), and the core reuses it while no record's include structure changes.
 */
import { displayPath, isInside, pathKey } from "../project/paths.ts";
import type { EntryPoint, IncludeResolution, LinkInputs, LoadedFile, RecordLookup } from "./link-context.ts";
import type { Diagnostic, IncludeEdge, StreamInfo } from "./linked.ts";

/** How the walks reached one file. */
export interface FileState {
  readonly path: string;
  /** Streams whose walk reached the file. */
  readonly streams: ReadonlySet<string>;
  /** Some walk reached it through `all` includes (not only `instance` ones). */
  readonly viaAll: boolean;
  readonly reached: boolean;
}

/** What walking every stream's include graph found. */
export interface WalkResult {
  readonly fileStates: ReadonlyMap<string, FileState>;
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

interface MutableState {
  path: string;
  streams: Set<string>;
  viaAll: boolean;
  reached: boolean;
}

/** One stream's walk: what it has visited (and with which context), its include stack, its manifests. */
interface StreamWalk {
  readonly entry: EntryPoint;
  /** File key → walked with instance context? */
  readonly visited: Map<string, boolean>;
  readonly onStack: string[];
  readonly stackKeys: Set<string>;
  readonly manifests: string[];
  fileCount: number;
}

/**
 * Walks every entry point's include graph (and the SDK streams `reference` includes pull in), then the
 * includes of project files no stream reaches (their targets can still be missing).
 * @example walkStreams(core, inputs).streams[0].files // files reached from Data/Mod.xml
 */
export function walkStreams(records: RecordLookup, inputs: LinkInputs): WalkResult {
  const w = new IncludeWalker(records, inputs);
  for (let e = 0; e < w.entries.length; e++) w.walkEntry(w.entries[e]);
  w.walkUnreached();
  return {
    fileStates: w.fileStates,
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
  readonly fileStates = new Map<string, MutableState>();
  readonly includes: IncludeEdge[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly wanted = new Set<string>();
  readonly streams: StreamInfo[] = [];
  readonly manifestsUsed = new Map<string, string>();
  readonly suppressedPrefixed = new Map<string, number>();
  /** Entry points; SDK streams are appended as `reference` includes name them. */
  readonly entries: EntryPoint[];
  private readonly cycleEdges = new Set<string>();
  private readonly edgeSeen = new Set<string>();
  private readonly sdkStreamsQueued = new Set<string>();

  constructor(private readonly records: RecordLookup, private readonly inputs: LinkInputs) {
    this.entries = [...inputs.entries];
  }

  walkEntry(entry: EntryPoint): void {
    const s: StreamWalk = { entry, visited: new Map(), onStack: [], stackKeys: new Set(), manifests: [], fileCount: 0 };
    this.visit(s, entry.file, false, 0);
    this.streams.push({
      name: entry.stream,
      entry: entry.file,
      layer: entry.layer,
      files: s.fileCount,
      manifests: s.manifests,
    });
  }

  /** Inactive project files: no stream walks them, but their own includes still resolve (and can be missing). */
  walkUnreached(): void {
    const { inputs } = this;
    for (const loaded of this.records.values()) {
      const st = this.fileStates.get(pathKey(loaded.path));
      if ((st && st.reached) || !isInside(loaded.path, inputs.projectDir)) continue;
      for (const inc of loaded.record.includes) {
        const res = inputs.resolve(inc.source, loaded.path, "project");
        this.addEdge(loaded.path, res, inc.source, inc.type ?? "all", inc.line, inc.column);
        if (!res.path && !(res.prefixed && !inputs.sdkUsable)) {
          this.notFound(loaded.path, inc.source, res, inc.line, inc.column, "include");
        }
      }
      for (const xi of loaded.record.xincludes) {
        const res = inputs.resolve(xi.href, loaded.path, "project");
        this.addEdge(loaded.path, res, xi.href, "xi", xi.line, xi.column);
        if (!res.path && !(res.prefixed && !inputs.sdkUsable)) {
          this.notFound(loaded.path, xi.href, res, xi.line, xi.column, "xi:include");
        }
      }
    }
  }

  private stateOf(path: string): MutableState {
    const key = pathKey(path);
    let s = this.fileStates.get(key);
    if (!s) {
      s = { path, streams: new Set(), viaAll: false, reached: false };
      this.fileStates.set(key, s);
    }
    return s;
  }

  private visit(s: StreamWalk, file: string, instance: boolean, depth: number): void {
    const key = pathKey(file);
    const prev = s.visited.get(key);
    if (prev !== undefined && (prev === false || instance)) return;
    s.visited.set(key, instance);
    const state = this.stateOf(file);
    if (prev === undefined) s.fileCount++;
    state.reached = true;
    state.streams.add(s.entry.stream);
    if (!instance) state.viaAll = true;
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
    s.onStack.push(loaded.path);
    s.stackKeys.add(key);
    this.visitIncludes(s, loaded, instance, depth);
    s.onStack.pop();
    s.stackKeys.delete(key);
  }

  private visitIncludes(s: StreamWalk, loaded: LoadedFile, instance: boolean, depth: number): void {
    const { inputs } = this;
    const rec = loaded.record;
    for (const inc of rec.includes) {
      const res = inputs.resolve(inc.source, loaded.path, s.entry.layer);
      this.addEdge(loaded.path, res, inc.source, inc.type ?? "all", inc.line, inc.column);
      if (!res.path) {
        this.notFound(loaded.path, inc.source, res, inc.line, inc.column, "include");
        continue;
      }
      if (inc.type === null) continue;
      if (inc.type === "reference") {
        this.reference(s, inc.source, res.path, loaded.path, depth);
        continue;
      }
      this.follow(
        s,
        loaded.path,
        res.path,
        inc.type === "instance" || instance,
        depth,
        inc.line,
        inc.column,
        inc.source,
      );
    }
    for (const xi of rec.xincludes) {
      const res = inputs.resolve(xi.href, loaded.path, s.entry.layer);
      this.addEdge(loaded.path, res, xi.href, "xi", xi.line, xi.column);
      if (!res.path) {
        this.notFound(loaded.path, xi.href, res, xi.line, xi.column, "xi:include");
        continue;
      }
      this.follow(s, loaded.path, res.path, instance, depth, xi.line, xi.column, xi.href);
    }
  }

  /** Walks into `to` unless it is on the include stack (a cycle: reported once per edge, then skipped). */
  private follow(
    s: StreamWalk,
    from: string,
    to: string,
    instance: boolean,
    depth: number,
    line: number,
    column: number,
    source: string,
  ): void {
    const toKey = pathKey(to);
    if (!s.stackKeys.has(toKey)) {
      this.visit(s, to, instance, depth + 1);
      return;
    }
    const edgeKey = `${pathKey(from)}\u0000${toKey}`;
    if (this.cycleEdges.has(edgeKey)) return;
    this.cycleEdges.add(edgeKey);
    const start = s.onStack.findIndex((p) => pathKey(p) === toKey);
    const cycle = [...s.onStack.slice(start), to].map((p) => displayPath(this.inputs, p));
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
   * A `reference` include: the prebuilt manifest standing for it (when readable), the SDK stream it
   * names (walked as a stream of its own), else the placeholder XML, as BAB falls back to it.
   */
  private reference(s: StreamWalk, source: string, placeholder: string, from: string, depth: number): void {
    const { inputs } = this;
    const manifest = inputs.manifestFor(source);
    let manifestOk = false;
    if (manifest) {
      const mk = pathKey(manifest);
      const loaded = this.records.get(mk);
      if (!loaded) {
        this.wanted.add(manifest);
      } else if (
        loaded.record.kind === "manifest" && loaded.record.diagnostics.every((d) => d.severity !== "error")
      ) {
        manifestOk = true;
        if (!s.manifests.includes(loaded.path)) s.manifests.push(loaded.path);
        if (!this.manifestsUsed.has(mk)) this.manifestsUsed.set(mk, s.entry.stream);
        const st = this.stateOf(loaded.path);
        st.reached = true;
        st.streams.add(s.entry.stream);
        st.viaAll = true;
      }
    }
    const root = inputs.sdkStreamRoot(source);
    if (root) {
      const rk = pathKey(root);
      if (!this.sdkStreamsQueued.has(rk)) {
        this.sdkStreamsQueued.add(rk);
        this.entries.push({ stream: `sdk:${baseStreamName(root)}`, file: root, layer: "sdk" });
      }
    }
    if (!manifestOk && !root) {
      // BAB falls back to the placeholder XML when the manifest is missing or unreadable.
      this.follow(s, from, placeholder, true, depth, 0, 0, source);
    }
  }

  private addEdge(
    from: string,
    res: IncludeResolution,
    source: string,
    type: IncludeEdge["type"],
    line: number,
    column: number,
  ): void {
    const key = `${pathKey(from)}\u0000${line}\u0000${column}\u0000${source}`;
    if (this.edgeSeen.has(key)) return;
    this.edgeSeen.add(key);
    this.includes.push({ from, to: res.path, source, type, line, column, caseFixed: res.caseFixed });
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

/** A stream's name from its root file: `CnC3Xml/Static.xml` → `static`. */
function baseStreamName(path: string): string {
  const b = path.replace(/\\/g, "/").split("/").pop() ?? path;
  return b.replace(/\.xml$/i, "").toLowerCase();
}
