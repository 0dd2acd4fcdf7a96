/**
 * The linker: from file records to a {@link LinkedIndex}. Walks every stream's include graph (cycles
 * reported with their path), decides which files are active, collects assets (XML, root-level
 * xi:include containers, manifests), defines and reference sites (fragments attributed to the assets
 * that splice them), resolves references by id and schema type, and produces link-level diagnostics.
 * Pure: all file-system questions go through the `LinkInputs` ports.
 */
import { displayPath, extensionOf, isInside, pathKey } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import type {
  AssetDef,
  DefineDef,
  Diagnostic,
  FileInfo,
  IncludeEdge,
  LinkStats,
  Origin,
  PoidSite,
  ReferenceSite,
  StreamInfo,
  StringDef,
  StringUse,
} from "./linked.ts";
import type { FileRecord, RefRecord } from "./records.ts";

export interface EntryPoint {
  readonly stream: string;
  readonly file: string;
  readonly layer: "project" | "sdk";
}

export interface IncludeResolution {
  /** The resolved file (real casing), or null. */
  readonly path: string | null;
  readonly caseFixed: boolean;
  /** The source used a `DATA:`/`ART:`/`AUDIO:` prefix. */
  readonly prefixed: boolean;
}

export interface LinkInputs {
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** A usable SDK is configured (else prefixed misses are summarised, not reported one by one). */
  readonly sdkUsable: boolean;
  readonly entries: readonly EntryPoint[];
  readonly schema: SchemaQueries | null;
  resolve(source: string, includingFile: string, layer: "project" | "sdk"): IncludeResolution;
  /** The manifest standing for a `reference` include's source, or null. */
  manifestFor(source: string): string | null;
  /** The vanilla XML root of a `reference` include's stream in the SDK layer, or null. */
  sdkStreamRoot(source: string): string | null;
}

export interface LoadedFile {
  readonly path: string;
  readonly record: FileRecord;
}

export interface RecordLookup {
  get(key: string): LoadedFile | undefined;
  values(): Iterable<LoadedFile>;
}

const MAX_DEPTH = 300;
const XPOINTER_CHILDREN = /xpointer\(\s*\/(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)\s*\/\s*child::\*\s*\)/;

/** The container element named by `xpointer(/n:Name/child::*)`, or null for other forms. */
export function xpointerContainer(xpointer: string | null): string | null {
  if (!xpointer) return null;
  const m = XPOINTER_CHILDREN.exec(xpointer);
  return m ? m[1] : null;
}

/** The id a reference value names: the text after the last `:` (the whole value when that is empty). */
export function normaliseRefValue(value: string): string {
  const i = value.lastIndexOf(":");
  if (i < 0) return value;
  const tail = value.slice(i + 1);
  return tail ? tail : value;
}

const ORIGIN_RANK: Record<Origin, number> = { project: 0, sdk: 1, manifest: 2 };

export interface FileState {
  path: string;
  streams: Set<string>;
  viaAll: boolean;
  reached: boolean;
  missing: boolean;
}

export class LinkedIndex {
  readonly files: ReadonlyMap<string, FileInfo>;
  readonly assets: readonly AssetDef[];
  readonly sites: readonly ReferenceSite[];
  readonly includes: readonly IncludeEdge[];
  readonly defines: ReadonlyMap<string, readonly DefineDef[]>;
  readonly diagnostics: readonly Diagnostic[];
  readonly streams: readonly StreamInfo[];
  readonly stats: LinkStats;
  /** Files a walk reached that have no record yet (the driver should load them and link again). */
  readonly wanted: readonly string[];
  /** Lower-cased id → asset indexes (all types), best first. */
  readonly byId: ReadonlyMap<string, readonly number[]>;
  /** Asset index → reference sites that resolve to it. */
  readonly referencedBy: IndexedLists;
  /** Asset index → reference sites written inside it. */
  readonly referencesFrom: IndexedLists;
  /** File key → include edges out of / into it. */
  readonly includesFrom: ReadonlyMap<string, readonly number[]>;
  readonly includesTo: ReadonlyMap<string, readonly number[]>;
  /** Asset types present (canonical) → asset indexes sorted by id. */
  readonly byType: ReadonlyMap<string, readonly number[]>;
  readonly schema: SchemaQueries | null;
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** Lower-cased define name → number of `$NAME` uses in active files. */
  readonly defineUses: ReadonlyMap<string, number>;
  /** String-table entries of the project's `.str` files. */
  readonly strings: readonly StringDef[];
  /** Poid (pipeline-local) references, resolved within their own object; never global references. */
  readonly poidSites: readonly PoidSite[];
  /** Lower-cased string key → the assets whose display fields use it. */
  readonly stringUses: ReadonlyMap<string, readonly StringUse[]>;

  constructor(parts: {
    files: Map<string, FileInfo>;
    assets: AssetDef[];
    sites: ReferenceSite[];
    includes: IncludeEdge[];
    defines: Map<string, DefineDef[]>;
    diagnostics: Diagnostic[];
    streams: StreamInfo[];
    stats: LinkStats;
    wanted: string[];
    schema: SchemaQueries | null;
    projectDir: string;
    sdkDir: string | null;
    defineUses: Map<string, number>;
    strings: StringDef[];
    stringUses: Map<string, StringUse[]>;
    poidSites: PoidSite[];
  }) {
    this.files = parts.files;
    this.assets = parts.assets;
    this.sites = parts.sites;
    this.includes = parts.includes;
    this.defines = parts.defines;
    this.diagnostics = parts.diagnostics;
    this.streams = parts.streams;
    this.stats = parts.stats;
    this.wanted = parts.wanted;
    this.schema = parts.schema;
    this.projectDir = parts.projectDir;
    this.sdkDir = parts.sdkDir;
    this.defineUses = parts.defineUses;
    this.strings = parts.strings;
    this.poidSites = parts.poidSites;
    this.stringUses = parts.stringUses;
    // One global best-first order (origin, active, file, line) gives every list its order by a number.
    const n = parts.assets.length;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const assetsArr = parts.assets;
    order.sort((x, y) => rankCompare(assetsArr[x], assetsArr[y]));
    const rankPos = new Int32Array(n);
    for (let p = 0; p < n; p++) rankPos[order[p]] = p;
    const lowerIds: string[] = new Array(n);
    const byId = new Map<string, number[]>();
    const byType = new Map<string, number[]>();
    for (let p = 0; p < n; p++) {
      const a = assetsArr[order[p]];
      const lower = a.id.toLowerCase();
      lowerIds[a.index] = lower;
      push(byId, lower, a.index);
      push(byType, a.type, a.index);
    }
    for (const list of byType.values()) {
      list.sort((x, y) => {
        const lx = lowerIds[x];
        const ly = lowerIds[y];
        return lx < ly ? -1 : lx > ly ? 1 : rankPos[x] - rankPos[y];
      });
    }
    this.byId = byId;
    this.byType = byType;
    const referencedBy = new IndexedLists(n);
    const referencesFrom = new IndexedLists(n);
    for (const s of parts.sites) {
      for (const t of s.targets) referencedBy.add(t, s.index);
      if (s.from >= 0) referencesFrom.add(s.from, s.index);
    }
    this.referencedBy = referencedBy;
    this.referencesFrom = referencesFrom;
    const includesFrom = new Map<string, number[]>();
    const includesTo = new Map<string, number[]>();
    parts.includes.forEach((e, i) => {
      push(includesFrom, pathKey(e.from), i);
      if (e.to) push(includesTo, pathKey(e.to), i);
    });
    this.includesFrom = includesFrom;
    this.includesTo = includesTo;
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

/** What walking every stream's include graph found. */
export interface WalkResult {
  readonly fileStates: Map<string, FileState>;
  readonly includes: IncludeEdge[];
  readonly diagnostics: Diagnostic[];
  readonly wanted: Set<string>;
  readonly streams: StreamInfo[];
  readonly manifestsUsed: Map<string, string>;
  readonly suppressedPrefixed: Map<string, number>;
}

/**
 * Walks every entry point's include graph. Cheap (no reference work), so a driver can call it
 * repeatedly while it loads the files the walk asks for (`wanted`).
 */
export function walkStreams(records: RecordLookup, inputs: LinkInputs): WalkResult {
  const fileStates = new Map<string, FileState>();
  const includes: IncludeEdge[] = [];
  const diagnostics: Diagnostic[] = [];
  const wanted = new Set<string>();
  const streams: StreamInfo[] = [];
  const manifestsUsed = new Map<string, string>(); // manifest key → first stream
  const suppressedPrefixed = new Map<string, number>(); // source → count
  const cycleEdges = new Set<string>();
  const edgeSeen = new Set<string>();
  const sdkStreamsQueued = new Set<string>();
  const entries = [...inputs.entries];

  const stateOf = (path: string): FileState => {
    const key = pathKey(path);
    let s = fileStates.get(key);
    if (!s) {
      s = { path, streams: new Set(), viaAll: false, reached: false, missing: false };
      fileStates.set(key, s);
    }
    return s;
  };

  const addEdge = (edge: IncludeEdge): void => {
    const key = `${pathKey(edge.from)}\u0000${edge.line}\u0000${edge.column}\u0000${edge.source}`;
    if (edgeSeen.has(key)) return;
    edgeSeen.add(key);
    includes.push(edge);
  };

  const notFound = (
    file: string,
    source: string,
    res: IncludeResolution,
    line: number,
    column: number,
    what: string,
  ): void => {
    if (res.prefixed && !inputs.sdkUsable) {
      suppressedPrefixed.set(source, (suppressedPrefixed.get(source) ?? 0) + 1);
      return;
    }
    if (!isInside(file, inputs.projectDir)) return; // vanilla's own broken includes are not the modder's problem
    diagnostics.push({
      code: "include-not-found",
      severity: "warning",
      message: `${what} "${source}" was not found`,
      file,
      line,
      column,
    });
  };

  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e];
    const visited = new Map<string, boolean>(); // key → walked with instance context?
    const onStack: string[] = [];
    const stackKeys = new Set<string>();
    const manifests: string[] = [];
    let fileCount = 0;

    const walk = (file: string, instance: boolean, depth: number): void => {
      const key = pathKey(file);
      const prev = visited.get(key);
      if (prev !== undefined && (prev === false || instance)) return;
      visited.set(key, instance);
      const state = stateOf(file);
      if (prev === undefined) fileCount++;
      state.reached = true;
      state.streams.add(entry.stream);
      if (!instance) state.viaAll = true;
      const loaded = records.get(key);
      if (!loaded) {
        wanted.add(file);
        return;
      }
      if (depth > MAX_DEPTH) {
        diagnostics.push({
          code: "include-depth",
          severity: "warning",
          message: `includes nested deeper than ${MAX_DEPTH} levels`,
          file,
          line: 1,
          column: 1,
        });
        return;
      }
      const rec = loaded.record;
      onStack.push(loaded.path);
      stackKeys.add(key);
      for (const inc of rec.includes) {
        const res = inputs.resolve(inc.source, loaded.path, entry.layer);
        addEdge({
          from: loaded.path,
          to: res.path,
          source: inc.source,
          type: inc.type ?? "all",
          line: inc.line,
          column: inc.column,
          caseFixed: res.caseFixed,
        });
        if (!res.path) {
          notFound(loaded.path, inc.source, res, inc.line, inc.column, "include");
          continue;
        }
        if (inc.type === null) continue;
        if (inc.type === "reference") {
          reference(inc.source, res.path, loaded.path, depth);
          continue;
        }
        follow(loaded.path, res.path, inc.type === "instance" || instance, depth, inc.line, inc.column, inc.source);
      }
      for (const xi of rec.xincludes) {
        const res = inputs.resolve(xi.href, loaded.path, entry.layer);
        addEdge({
          from: loaded.path,
          to: res.path,
          source: xi.href,
          type: "xi",
          line: xi.line,
          column: xi.column,
          caseFixed: res.caseFixed,
        });
        if (!res.path) {
          notFound(loaded.path, xi.href, res, xi.line, xi.column, "xi:include");
          continue;
        }
        follow(loaded.path, res.path, instance, depth, xi.line, xi.column, xi.href);
      }
      onStack.pop();
      stackKeys.delete(key);
    };

    const follow = (
      from: string,
      to: string,
      instance: boolean,
      depth: number,
      line: number,
      column: number,
      source: string,
    ): void => {
      const toKey = pathKey(to);
      if (stackKeys.has(toKey)) {
        const edgeKey = `${pathKey(from)}\u0000${toKey}`;
        if (!cycleEdges.has(edgeKey)) {
          cycleEdges.add(edgeKey);
          const start = onStack.findIndex((p) => pathKey(p) === toKey);
          const cycle = [...onStack.slice(start), to].map((p) => displayPath(inputs, p));
          diagnostics.push({
            code: "include-cycle",
            severity: "warning",
            message: `include cycle: ${cycle.join(" → ")} (the include of "${source}" is skipped)`,
            file: from,
            line,
            column,
          });
        }
        return;
      }
      walk(to, instance, depth + 1);
    };

    const reference = (source: string, placeholder: string, from: string, depth: number): void => {
      const manifest = inputs.manifestFor(source);
      let manifestOk = false;
      if (manifest) {
        const mk = pathKey(manifest);
        const loaded = records.get(mk);
        if (!loaded) {
          wanted.add(manifest);
        } else if (
          loaded.record.kind === "manifest" && loaded.record.diagnostics.every((d) => d.severity !== "error")
        ) {
          manifestOk = true;
          if (!manifests.includes(loaded.path)) manifests.push(loaded.path);
          if (!manifestsUsed.has(mk)) manifestsUsed.set(mk, entry.stream);
          const st = stateOf(loaded.path);
          st.reached = true;
          st.streams.add(entry.stream);
          st.viaAll = true;
        }
      }
      const root = inputs.sdkStreamRoot(source);
      if (root) {
        const rk = pathKey(root);
        if (!sdkStreamsQueued.has(rk)) {
          sdkStreamsQueued.add(rk);
          entries.push({ stream: `sdk:${baseStreamName(root)}`, file: root, layer: "sdk" });
        }
      }
      if (!manifestOk && !root) {
        // BAB falls back to the placeholder XML when the manifest is missing or unreadable.
        follow(from, placeholder, true, depth, 0, 0, source);
      }
    };

    walk(entry.file, false, 0);
    streams.push({ name: entry.stream, entry: entry.file, layer: entry.layer, files: fileCount, manifests });
  }

  // Inactive project files: no stream walks them, but their own includes still resolve (and can be missing).
  for (const loaded of records.values()) {
    const st = fileStates.get(pathKey(loaded.path));
    if ((st && st.reached) || !isInside(loaded.path, inputs.projectDir)) continue;
    for (const inc of loaded.record.includes) {
      const res = inputs.resolve(inc.source, loaded.path, "project");
      addEdge({
        from: loaded.path,
        to: res.path,
        source: inc.source,
        type: inc.type ?? "all",
        line: inc.line,
        column: inc.column,
        caseFixed: res.caseFixed,
      });
      if (!res.path && !(res.prefixed && !inputs.sdkUsable)) {
        notFound(loaded.path, inc.source, res, inc.line, inc.column, "include");
      }
    }
    for (const xi of loaded.record.xincludes) {
      const res = inputs.resolve(xi.href, loaded.path, "project");
      addEdge({
        from: loaded.path,
        to: res.path,
        source: xi.href,
        type: "xi",
        line: xi.line,
        column: xi.column,
        caseFixed: res.caseFixed,
      });
      if (!res.path && !(res.prefixed && !inputs.sdkUsable)) {
        notFound(loaded.path, xi.href, res, xi.line, xi.column, "xi:include");
      }
    }
  }
  return { fileStates, includes, diagnostics, wanted, streams, manifestsUsed, suppressedPrefixed };
}

/**
 * Links `records` into an index.
 * @example link(records, inputs).findAssets("AlliedAthenaCannon")
 */
export function link(records: RecordLookup, inputs: LinkInputs, walkedAlready?: WalkResult): LinkedIndex {
  const started = performance.now();
  const schema = inputs.schema;
  // Containment answers per path string (the same few thousand file paths are asked about many times).
  const insideProject = memo((p: string) => isInside(p, inputs.projectDir));
  const insideSdk = memo((p: string) => inputs.sdkDir !== null && isInside(p, inputs.sdkDir));
  // Every record once, with its map key (pathKey is not free at this scale).
  const all: { loaded: LoadedFile; key: string }[] = [];
  for (const loaded of records.values()) all.push({ loaded, key: pathKey(loaded.path) });
  const walked = walkedAlready ?? walkStreams(records, inputs);
  const { fileStates, includes, wanted, streams, manifestsUsed, suppressedPrefixed } = walked;
  // The walk result may be cached and reused: never add to its arrays.
  const diagnostics = [...walked.diagnostics];
  // Files: every record under the project root, plus everything a walk reached.
  const files = new Map<string, FileInfo>();
  const originOf = (path: string): Origin => {
    if (insideProject(path)) return "project";
    if (insideSdk(path)) return "sdk";
    return "project";
  };
  for (const { loaded, key } of all) {
    const st = fileStates.get(key);
    const underRoots = insideProject(loaded.path) || insideSdk(loaded.path);
    if (!underRoots && !st?.reached) continue;
    const rec = loaded.record;
    files.set(key, {
      path: loaded.path,
      kind: rec.kind,
      origin: rec.kind === "manifest" ? "manifest" : originOf(loaded.path),
      active: st?.reached ?? false,
      streams: st ? [...st.streams] : [],
      viaInstance: st ? st.reached && !st.viaAll : false,
      fragment: rec.fragment,
      rootName: rec.rootName,
      assetCount: rec.assets.length,
    });
  }
  for (const [key, st] of fileStates) {
    if (files.has(key)) continue;
    files.set(key, {
      path: st.path,
      kind: "missing",
      origin: originOf(st.path),
      active: st.reached,
      streams: [...st.streams],
      viaInstance: st.reached && !st.viaAll,
      fragment: false,
      rootName: null,
      assetCount: 0,
    });
  }

  // Assets.
  const assets: AssetDef[] = [];
  const recordAssetIndex = new Map<string, number[]>(); // file key → asset index per record asset
  const canonicalCache = new Map<string, string>();
  const canonical = (t: string): string => {
    let c = canonicalCache.get(t);
    if (c === undefined) {
      c = schema ? (schema.canonicalType(t) ?? t) : t;
      canonicalCache.set(t, c);
    }
    return c;
  };
  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info || info.kind === "manifest") continue;
    const rec = loaded.record;
    const indexes: number[] = [];
    for (let i = 0; i < rec.assets.length; i++) {
      const a = rec.assets[i];
      indexes.push(assets.length);
      assets.push({
        index: assets.length,
        type: canonical(a.type),
        id: a.id,
        file: loaded.path,
        line: a.line,
        column: a.column,
        startLine: a.startLine,
        endLine: a.endLine,
        origin: info.origin,
        streams: info.streams,
        active: info.active,
        viaInstance: info.viaInstance,
        inheritFrom: a.inheritFrom,
        manifestSource: null,
        viaXInclude: false,
        recordIndex: i,
      });
    }
    recordAssetIndex.set(key, indexes);
  }
  // Root-level xi:include containers: their children with ids are top-level assets of the fragment file.
  const xiAssetSeen = new Set<string>();
  const xiChildOwners = new Map<string, { start: number; end: number; asset: number }[]>();
  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info || !info.active) continue;
    for (const xi of loaded.record.xincludes) {
      if (!xi.rootLevel) continue;
      const res = inputs.resolve(xi.href, loaded.path, info.origin === "sdk" ? "sdk" : "project");
      if (!res.path) continue;
      const target = records.get(pathKey(res.path));
      if (!target || !target.record.fragment) continue;
      const container = xpointerContainer(xi.xpointer) ?? target.record.rootName;
      const range = target.record.ranges.find((r) => r.local === container);
      if (!range) continue;
      const tkey = pathKey(target.path);
      const tinfo = files.get(tkey);
      for (const c of range.idChildren) {
        const k = `${tkey}\u0000${c.offset}`;
        if (xiAssetSeen.has(k)) continue;
        xiAssetSeen.add(k);
        push(xiChildOwners, tkey, { start: c.start, end: c.end, asset: assets.length });
        assets.push({
          index: assets.length,
          type: canonical(c.type),
          id: c.id,
          file: target.path,
          line: c.line,
          column: c.column,
          startLine: c.line,
          endLine: c.line,
          origin: tinfo?.origin ?? originOf(target.path),
          streams: info.streams,
          active: true,
          viaInstance: info.viaInstance,
          inheritFrom: null,
          manifestSource: null,
          viaXInclude: true,
          recordIndex: -1,
        });
      }
    }
  }
  // Manifest assets, de-duplicated by (typeId, id) across manifests (first stream wins).
  const manifestSeen = new Set<string>();
  const manifestHandles = new Map<string, number>(); // "typeId:instanceId" → asset index
  const manifestOwners: { loaded: LoadedFile; indexes: number[] }[] = [];
  for (const [mk, stream] of manifestsUsed) {
    const loaded = records.get(mk);
    if (!loaded) continue;
    const indexes: number[] = [];
    const streamsOfManifest = [stream];
    manifestOwners.push({ loaded, indexes });
    for (const m of loaded.record.manifestAssets) {
      const k = `${m.typeId}\u0000${m.id.toLowerCase()}`;
      const handle = `${m.typeId}:${m.instanceId}`;
      if (manifestSeen.has(k)) {
        indexes.push(manifestHandles.get(handle) ?? -1);
        continue;
      }
      manifestSeen.add(k);
      manifestHandles.set(handle, assets.length);
      indexes.push(assets.length);
      assets.push({
        index: assets.length,
        type: canonical(m.type),
        id: m.id,
        file: loaded.path,
        line: 0,
        column: 0,
        startLine: 0,
        endLine: 0,
        origin: "manifest",
        streams: streamsOfManifest,
        active: true,
        viaInstance: false,
        inheritFrom: null,
        manifestSource: m.sourceFile,
        viaXInclude: false,
        recordIndex: -1,
      });
    }
  }

  const byId = new Map<string, number[]>();
  for (const a of assets) push(byId, a.id.toLowerCase(), a.index);

  // Defines: project-global, from active files (and every project file's own defines for local checks).
  const defines = new Map<string, DefineDef[]>();
  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info || !info.active) continue;
    for (const d of loaded.record.defines) {
      push(defines, d.name.toLowerCase(), {
        name: d.name,
        value: d.value,
        file: loaded.path,
        line: d.line,
        column: d.column,
        origin: info.origin,
        active: info.active,
      });
    }
  }

  // Reference sites.
  const sites: ReferenceSite[] = [];
  const splicedFragments = new Set<string>();
  // Resolution depends only on (value, refType, selfType) except when the candidates include the site's
  // own asset (self-references are skipped): memoise the common case, and share the target arrays.
  type Resolution = { id: string; targets: number[]; status: ReferenceSite["status"] };
  // value → (refType or "=" + selfType) → resolution; nested maps avoid building a key string per site.
  const resolutions = new Map<string, Map<string, Resolution>>();
  const NO_TARGETS: number[] = [];
  const resolve = (r: RefRecord, from: number): Resolution => {
    let byType = resolutions.get(r.value);
    if (byType === undefined) {
      byType = new Map();
      resolutions.set(r.value, byType);
    }
    const typeKey = r.refType ?? (r.selfType === null ? "" : `=${r.selfType}`);
    const hit = byType.get(typeKey);
    if (hit && !hit.targets.includes(from)) return hit;
    const id = normaliseRefValue(r.value);
    const candidates = byId.get(id.toLowerCase());
    if (!candidates) {
      const miss = { id, targets: NO_TARGETS, status: "not_found" as const };
      byType.set(typeKey, miss);
      return miss;
    }
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
    if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
    const answer = {
      id,
      targets: targets.length ? targets : NO_TARGETS,
      status: targets.length ? ("resolved" as const) : ("wrong_type" as const),
    };
    if (!selfSkipped) byType.set(typeKey, answer);
    return answer;
  };
  const addSite = (r: RefRecord, from: number, file: string, active: boolean, via: string | null): void => {
    const { id, targets, status } = resolve(r, from);
    // A guess that matched nothing is not a reference; guesses in inactive files (maps, drafts) are noise.
    if (r.kind === "heuristic" && (status !== "resolved" || !active)) return;
    sites.push({
      index: sites.length,
      from,
      kind: r.kind,
      value: r.value,
      id,
      refType: r.refType,
      selfType: r.selfType,
      element: r.element,
      parent: r.parent,
      attribute: r.attribute,
      file,
      line: r.line,
      column: r.column,
      targets,
      status,
      active,
      via,
    });
  };

  // Module ids an asset gets from fragments it splices (for Poid resolution), per asset index.
  const splicedModules = new Map<number, { id: string; element: string; file: string; line: number }[]>();
  const splice = (
    owner: number,
    includer: string,
    xi: { href: string; xpointer: string | null },
    layer: "project" | "sdk",
    active: boolean,
    depth: number,
    chain: string[],
  ): void => {
    if (depth > 16) return;
    const res = inputs.resolve(xi.href, includer, layer);
    if (!res.path) return;
    const tk = pathKey(res.path);
    if (chain.includes(tk)) return;
    const target = records.get(tk);
    if (!target || !target.record.fragment) return;
    splicedFragments.add(tk);
    const container = xpointerContainer(xi.xpointer);
    const range = container ? target.record.ranges.find((r) => r.local === container) : null;
    if (container && !range) return;
    const lo = range ? range.start : 0;
    const hi = range ? range.end : Number.MAX_SAFE_INTEGER;
    for (const r of target.record.refs) {
      if (r.offset >= lo && r.offset < hi) addSite(r, owner, target.path, active, xi.href);
    }
    for (const m of target.record.localIds) {
      if (m.offset >= lo && m.offset < hi) {
        push(splicedModules, owner, { id: m.id, element: m.element, file: target.path, line: m.line });
      }
    }
    for (const inner of target.record.xincludes) {
      if (inner.offset >= lo && inner.offset < hi) {
        splice(owner, target.path, inner, layer, active, depth + 1, [...chain, tk]);
      }
    }
  };

  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info || (info.kind !== "xml" && info.kind !== "art") || info.fragment) continue;
    const rec = loaded.record;
    const indexes = recordAssetIndex.get(key) ?? [];
    for (const r of rec.refs) addSite(r, r.owner >= 0 ? indexes[r.owner] : -1, loaded.path, info.active, null);
    for (const xi of rec.xincludes) {
      if (xi.rootLevel || xi.owner < 0) continue;
      splice(indexes[xi.owner], loaded.path, xi, info.origin === "sdk" ? "sdk" : "project", info.active, 0, [key]);
    }
  }
  // Poid references name modules of their own object (its own ids, and those spliced in by xi:include).
  const poidSites: PoidSite[] = [];
  for (const { loaded, key } of all) {
    const rec = loaded.record;
    if (rec.poidRefs.length === 0 || rec.fragment) continue;
    const indexes = recordAssetIndex.get(key) ?? [];
    for (const r of rec.poidRefs) {
      if (r.owner < 0) continue;
      const asset = indexes[r.owner];
      const want = r.value.toLowerCase();
      const own = rec.localIds.find((m) => m.owner === r.owner && m.id.toLowerCase() === want);
      const spliced = own ? undefined : splicedModules.get(asset)?.find((m) => m.id.toLowerCase() === want);
      const target = own
        ? { element: own.element, file: loaded.path, line: own.line }
        : spliced
        ? { element: spliced.element, file: spliced.file, line: spliced.line }
        : null;
      poidSites.push({
        from: asset,
        value: r.value,
        element: r.element,
        attribute: r.attribute,
        file: loaded.path,
        line: r.line,
        column: r.column,
        target,
      });
    }
  }

  // The compiler's own dependency pairs stored in the manifests: vanilla asset → vanilla asset (and overrides).
  const manifestTargets = new Map<number, number[]>();
  for (const { loaded, indexes } of manifestOwners) {
    const refs = loaded.record.manifestRefs;
    for (let k = 0; k + 2 < refs.length; k += 3) {
      const from = indexes[refs[k]];
      const to = manifestHandles.get(`${refs[k + 1]}:${refs[k + 2]}`);
      if (from === undefined || from < 0 || to === undefined) continue;
      let targets = manifestTargets.get(to);
      if (!targets) {
        const target = assets[to];
        targets = (byId.get(target.id.toLowerCase()) ?? []).filter((i) => assets[i].type === target.type);
        if (targets.length > 1) targets.sort((x, y) => rankCompare(assets[x], assets[y]));
        manifestTargets.set(to, targets);
      }
      const target = assets[to];
      sites.push({
        index: sites.length,
        from,
        kind: "manifest",
        value: `${target.type}:${target.id}`,
        id: target.id,
        refType: target.type,
        selfType: null,
        element: assets[from].type,
        parent: null,
        attribute: null,
        file: loaded.path,
        line: 0,
        column: 0,
        targets,
        status: "resolved",
        active: true,
        via: null,
      });
    }
  }
  // Fragments: the references inside a root-level container's children belong to the assets those
  // children became; the rest of a fragment spliced nowhere still shows, owned by no asset.
  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info || !info.fragment) continue;
    const owners = xiChildOwners.get(key);
    const spliced = splicedFragments.has(key);
    if (!owners && spliced) continue;
    for (const r of loaded.record.refs) {
      const owner = owners?.find((o) => r.offset >= o.start && r.offset < o.end);
      if (owner) addSite(r, owner.asset, loaded.path, info.active, null);
      else if (!spliced) addSite(r, -1, loaded.path, info.active, null);
    }
  }

  // String tables and the display fields that use their keys.
  const strings: StringDef[] = [];
  const stringUses = new Map<string, StringUse[]>();
  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info) continue;
    if (loaded.record.kind === "str" && insideProject(loaded.path)) {
      for (const e of loaded.record.strings) {
        strings.push({ key: e.key, text: e.text, file: loaded.path, line: e.line });
      }
    }
    if (loaded.record.stringKeys.length === 0) continue;
    const indexes = recordAssetIndex.get(key) ?? [];
    for (const u of loaded.record.stringKeys) {
      if (u.owner < 0 || indexes[u.owner] === undefined) continue;
      push(stringUses, u.key.toLowerCase(), {
        asset: indexes[u.owner],
        element: u.element,
        attribute: u.attribute,
        line: u.line,
      });
    }
  }

  // Diagnostics: record-level ones of project files, then link-level ones.
  const fileDiagnostics: Diagnostic[] = [];
  const externalDefines = new Map<string, number>();
  const defineUses = new Map<string, number>();
  for (const { loaded, key } of all) {
    if (files.get(key)?.active) {
      for (const u of loaded.record.defineUses) {
        const k = u.name.toLowerCase();
        defineUses.set(k, (defineUses.get(k) ?? 0) + 1);
      }
    }
  }
  for (const { loaded, key } of all) {
    const info = files.get(key);
    if (!info || info.origin !== "project") continue;
    for (const d of loaded.record.diagnostics) {
      fileDiagnostics.push({
        code: d.code,
        severity: d.severity,
        message: d.message,
        file: loaded.path,
        line: d.line,
        column: d.column,
      });
    }
    const localDefines = new Set(loaded.record.defines.map((d) => d.name.toLowerCase()));
    if (!loaded.record.fragment) {
      for (const u of loaded.record.defineUses) {
        const k = u.name.toLowerCase();
        if (defines.has(k) || localDefines.has(k)) continue;
        if (!inputs.sdkUsable) {
          // Without the SDK the vanilla defines are unknown: count, don't accuse.
          if (info.active) externalDefines.set(u.name, (externalDefines.get(u.name) ?? 0) + 1);
          continue;
        }
        fileDiagnostics.push({
          code: "undefined-define",
          severity: "warning",
          message: `$${u.name} is not defined by any <Define>`,
          file: loaded.path,
          line: u.line,
          column: u.column,
        });
      }
    }
  }

  // Cross-file duplicates: same type and id, project origin, not instance-only, same stream, different file.
  const dupSeen = new Map<string, AssetDef>();
  for (const a of assets) {
    if (a.origin !== "project" || a.viaInstance || !a.active || a.viaXInclude) continue;
    for (const s of a.streams) {
      const k = `${s}\u0000${a.type}\u0000${a.id.toLowerCase()}`;
      const first = dupSeen.get(k);
      if (!first) {
        dupSeen.set(k, a);
      } else if (pathKey(first.file) !== pathKey(a.file)) {
        diagnostics.push({
          code: "duplicate-id",
          severity: "error",
          message: `${a.type} "${a.id}" is also defined in ${
            displayPath(inputs, first.file)
          }:${first.line} (stream ${s})`,
          file: a.file,
          line: a.line,
          column: a.column,
        });
      }
    }
  }

  let external = 0;
  let externalInactive = 0;
  let resolved = 0;
  for (const s of sites) {
    if (s.status === "resolved") {
      resolved++;
      continue;
    }
    if (!insideProject(s.file)) continue;
    if (!inputs.sdkUsable) {
      if (s.active) external++;
      else externalInactive++;
      continue;
    }
    if (!s.active) continue; // inactive files (maps, drafts) are checked with `ra3 check FILE`, not in the index-wide report
    const cands = (byId.get(s.id.toLowerCase()) ?? []).map((i) => assets[i].type);
    const wantedType = s.refType ?? s.selfType;
    diagnostics.push({
      code: s.status === "wrong_type" ? "wrong-type-reference" : "unresolved-reference",
      severity: "warning",
      message: s.status === "wrong_type"
        ? `"${s.value}" exists only as ${[...new Set(cands)].join(", ")}, not as ${wantedType ?? "the expected type"}`
        : `"${s.value}" was not found${wantedType ? ` (expected ${wantedType})` : ""}`,
      file: s.file,
      line: s.line,
      column: s.column,
    });
  }
  if (external + externalInactive > 0) {
    diagnostics.push({
      code: "external-references",
      severity: "information",
      message: `${external} reference${external === 1 ? " points" : "s point"} at assets outside the project` +
        (externalInactive ? ` (and ${externalInactive} more in inactive files)` : "") +
        "; give --sdk to check them",
      file: null,
      line: 0,
      column: 0,
    });
  }
  if (externalDefines.size > 0) {
    const total = [...externalDefines.values()].reduce((a, b) => a + b, 0);
    const names = [...externalDefines.keys()].sort().slice(0, 5).map((n) => `$${n}`).join(", ");
    diagnostics.push({
      code: "external-defines",
      severity: "information",
      message: `${total} use${total === 1 ? "" : "s"} of ${externalDefines.size} define${
        externalDefines.size === 1 ? "" : "s"
      } not declared in the project (${names}${
        externalDefines.size > 5 ? ", …" : ""
      }); they may be vanilla defines: give --sdk to check them`,
      file: null,
      line: 0,
      column: 0,
    });
  }
  if (suppressedPrefixed.size > 0) {
    const total = [...suppressedPrefixed.values()].reduce((a, b) => a + b, 0);
    const examples = [...suppressedPrefixed.keys()].slice(0, 3).join(", ");
    diagnostics.push({
      code: "sdk-not-configured",
      severity: "information",
      message: `${total} include${total === 1 ? "" : "s"} of ${suppressedPrefixed.size} DATA:/ART:/AUDIO: source${
        suppressedPrefixed.size === 1 ? "" : "s"
      } ${total === 1 ? "points" : "point"} into the SDK (e.g. ${examples}); give --sdk to resolve them`,
      file: null,
      line: 0,
      column: 0,
    });
  }

  const allDiagnostics = [...fileDiagnostics, ...diagnostics].sort(compareDiagnostics);
  let projectFiles = 0;
  let activeFiles = 0;
  for (const f of files.values()) {
    // counts.files covers the XML and .w3x files under the project root (not string tables, babproj, manifests).
    const ext = extensionOf(f.path);
    if (f.kind === "missing" || !insideProject(f.path) || (ext !== ".xml" && ext !== ".w3x")) continue;
    projectFiles++;
    if (f.active) activeFiles++;
  }
  let projectAssets = 0;
  for (const a of assets) if (a.origin === "project" && insideProject(a.file)) projectAssets++;
  let defineCount = 0;
  for (const list of defines.values()) defineCount += list.length;
  const stats: LinkStats = {
    files: files.size,
    projectFiles,
    activeFiles,
    assets: projectAssets,
    sdkAssets: assets.length - projectAssets,
    references: sites.length,
    resolvedReferences: resolved,
    externalReferences: external + externalInactive,
    defines: defineCount,
    diagnostics: allDiagnostics.length,
    linkMs: Math.round((performance.now() - started) * 10) / 10,
  };
  return new LinkedIndex({
    files,
    assets,
    sites,
    includes,
    defines,
    diagnostics: allDiagnostics,
    streams,
    stats,
    wanted: [...wanted],
    schema,
    projectDir: inputs.projectDir,
    sdkDir: inputs.sdkDir,
    defineUses,
    strings,
    stringUses,
    poidSites,
  });
}

function baseStreamName(path: string): string {
  const b = path.replace(/\\/g, "/").split("/").pop() ?? path;
  return b.replace(/\.xml$/i, "").toLowerCase();
}

function rankCompare(a: AssetDef, b: AssetDef): number {
  return (
    ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin] ||
    (a.active ? 0 : 1) - (b.active ? 0 : 1) ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line
  );
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const fa = a.file ?? "";
  const fb = b.file ?? "";
  return (fa < fb ? -1 : fa > fb ? 1 : 0) || a.line - b.line || a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
}

/** `fn` with its answers remembered per argument. */
function memo(fn: (p: string) => boolean): (p: string) => boolean {
  const cache = new Map<string, boolean>();
  return (p) => {
    let v = cache.get(p);
    if (v === undefined) {
      v = fn(p);
      cache.set(p, v);
    }
    return v;
  };
}

/** Lists of numbers indexed by a small integer (asset index): arrays, not a Map, on this hot path. */
export class IndexedLists {
  private readonly lists: (number[] | undefined)[];
  constructor(size: number) {
    this.lists = new Array(size);
  }
  add(i: number, value: number): void {
    const l = this.lists[i];
    if (l) l.push(value);
    else this.lists[i] = [value];
  }
  /** The list at `i`, or undefined. */
  get(i: number): readonly number[] | undefined {
    return this.lists[i];
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
