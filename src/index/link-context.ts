/**
 * What every link phase reads: the ports to the project model ({@link LinkInputs}), the records, and a
 * read-only {@link LinkContext} with the answers all phases share (path containment, canonical type
 * names, a file's origin), each computed once per path or name. No phase writes to it.
 */
import { isInside, pathKey } from "../project/paths.ts";
import type { SchemaQueries } from "../schema/model.ts";
import type { Diagnostic, EntryOrigin, Origin } from "./linked.ts";
import type { FileRecord } from "./records.ts";

export interface EntryPoint {
  readonly stream: string;
  readonly file: string;
  readonly layer: "project" | "sdk";
  /** `compiled` (default): the stream is built; `referenced`: only its prebuilt manifest is used. */
  readonly context?: "compiled" | "referenced";
  readonly origin?: EntryOrigin;
  /** Why this file is an entry point, one sentence fragment. */
  readonly reason?: string;
}

export interface IncludeResolution {
  /** The resolved file (real casing), or null. */
  readonly path: string | null;
  readonly caseFixed: boolean;
  /** The source used a `DATA:`/`ART:`/`AUDIO:` prefix. */
  readonly prefixed: boolean;
  /** Nothing was found and the source leads outside the allowed roots: not followed, not looked at. */
  readonly outside?: boolean;
}

/** The linker's ports: every file-system question goes through them (the driver implements them). */
export interface LinkInputs {
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** A usable SDK is configured (else prefixed misses are summarised, not reported one by one). */
  readonly sdkUsable: boolean;
  readonly entries: readonly EntryPoint[];
  /**
   * Work the walk's start would otherwise do in one piece (the entry plan from the records), in steps:
   * a stepped walk runs it first, so reading {@link entries} then costs nothing. Optional.
   */
  prepareSteps?(): Generator<void, void, void>;
  readonly schema: SchemaQueries | null;
  resolve(source: string, includingFile: string, layer: "project" | "sdk"): IncludeResolution;
  /**
   * The manifest standing for a `reference` include's source in the stream entered at `streamEntry`
   * (a `.babproj` StreamReference of that stream first), or null.
   */
  manifestFor(source: string, streamEntry: string | null): string | null;
  /** The vanilla XML root of a `reference` include's stream in the SDK layer, or null. */
  sdkStreamRoot(source: string): string | null;
  /**
   * What the driver found about the project itself, reported with the index's diagnostics: entry-point
   * conflicts, the mod's own-name alias, folders that cannot be listed, paths differing only in case.
   */
  environment(): readonly Diagnostic[];
}

export interface LoadedFile {
  readonly path: string;
  readonly record: FileRecord;
  /** `pathKey(path)`, when the holder keeps it (the core does: not recomputed per link). */
  readonly key?: string;
}

export interface RecordLookup {
  get(key: string): LoadedFile | undefined;
  values(): Iterable<LoadedFile>;
  /** Every record with its key, in `values()` order, when the holder keeps that list (the core does). */
  keyed?(): readonly KeyedFile[];
}

/** A record with its map key (`pathKey` is not free at this scale: computed once per link). */
export interface KeyedFile {
  readonly loaded: LoadedFile;
  readonly key: string;
}

/** The read-only state every phase gets. */
export interface LinkContext {
  readonly inputs: LinkInputs;
  readonly records: RecordLookup;
  readonly schema: SchemaQueries | null;
  /** Every record once, in the lookup's order (the order every per-file phase visits them in). */
  readonly all: readonly KeyedFile[];
  insideProject(path: string): boolean;
  insideSdk(path: string): boolean;
  /** The schema's spelling of a type name (as written when the schema does not know it). */
  canonical(type: string): string;
  /** `project` under the project root, `sdk` under the SDK root, else `project`. */
  originOf(path: string): Origin;
}

/**
 * The context for one link of `records` through `inputs`.
 * @example linkContext(core, inputs).insideProject("/m/x/Data/Mod.xml") // true
 */
export function linkContext(records: RecordLookup, inputs: LinkInputs): LinkContext {
  const schema = inputs.schema;
  // Containment answers per path string (the same few thousand file paths are asked about many times),
  // kept for the next link of the same inputs (an edit's link asks about the same paths again).
  let inside = containment.get(inputs);
  if (!inside) {
    inside = {
      project: memo((p: string) => isInside(p, inputs.projectDir)),
      sdk: memo((p: string) => inputs.sdkDir !== null && isInside(p, inputs.sdkDir)),
    };
    containment.set(inputs, inside);
  }
  const insideProject = inside.project;
  const insideSdk = inside.sdk;
  const canonicalCache = new Map<string, string>();
  let all: readonly KeyedFile[];
  if (records.keyed) all = records.keyed();
  else {
    const list: KeyedFile[] = [];
    for (const loaded of records.values()) list.push({ loaded, key: loaded.key ?? pathKey(loaded.path) });
    all = list;
  }
  return {
    inputs,
    records,
    schema,
    all,
    insideProject,
    insideSdk,
    canonical(t) {
      let c = canonicalCache.get(t);
      if (c === undefined) {
        c = schema ? (schema.canonicalType(t) ?? t) : t;
        canonicalCache.set(t, c);
      }
      return c;
    },
    originOf(path) {
      if (insideProject(path)) return "project";
      if (insideSdk(path)) return "sdk";
      return "project";
    },
  };
}

const XPOINTER_CHILDREN = /xpointer\(\s*\/(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)\s*\/\s*child::\*\s*\)/;

/** The container element named by `xpointer(/n:Name/child::*)`, or null for other forms. */
export function xpointerContainer(xpointer: string | null): string | null {
  if (!xpointer) return null;
  const m = XPOINTER_CHILDREN.exec(xpointer);
  return m ? m[1] : null;
}

/** The containment answers of each link inputs' roots (inputs are immutable: the roots never change). */
const containment = new WeakMap<LinkInputs, { project: (p: string) => boolean; sdk: (p: string) => boolean }>();

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
