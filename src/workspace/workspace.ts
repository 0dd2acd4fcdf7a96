/**
 * The driver: the one place that reads mod files for the index. It scans the project, reads bytes,
 * feeds them to the {@link IndexCore}, loads the files the include walk asks for (SDK files, manifests,
 * includes outside the project), links, and publishes immutable {@link LinkedIndex} values through the
 * lifecycle. Two phases: XML first (published as `ready_xml`), then `.w3x` art.
 */
import { readFileSync } from "node:fs";
import { extensionOf, pathKey } from "../project/paths.ts";
import { scanProjectFiles } from "../project/scan.ts";
import type { SchemaQueries } from "../schema/model.ts";
import { IndexCore, type FileChange, type FileStamp } from "../index/core.ts";
import type { LinkedIndex } from "../index/link.ts";
import { INITIAL_LIFECYCLE, type Lifecycle, type LifecycleEvent, nextState } from "../lifecycle.ts";
import type { IndexView } from "../query/envelope.ts";
import type { GameId } from "../schema/model.ts";
import type { WorkspaceConfig } from "./config.ts";
import { type LinkPorts, makeLinkPorts } from "./link-inputs.ts";
import { type LoadedSchema, loadWorkspaceSchema } from "./schema.ts";

export interface BuildProgress {
  (phase: "scan" | "xml" | "sdk" | "link" | "art", done: number, total: number): void;
}

export interface BuildTimings {
  scanMs: number;
  schemaMs: number;
  parseMs: number;
  sdkMs: number;
  linkMs: number;
  artMs: number;
  totalMs: number;
}

export interface BuildReport {
  readonly timings: BuildTimings;
  readonly parsedFiles: number;
  readonly artFiles: number;
  readonly sdkFiles: number;
  readonly unreadable: readonly { path: string; error: string }[];
}

const MAX_DISCOVERY_ROUNDS = 64;

export class Workspace {
  readonly core: IndexCore;
  readonly ports: LinkPorts;
  readonly schema: LoadedSchema;
  private lifecycleState: Lifecycle = INITIAL_LIFECYCLE;
  private published: LinkedIndex | null = null;
  private buildCounter = 0;
  private builtAtIso: string | null = null;
  private readonly unreadable = new Map<string, string>();

  constructor(readonly config: WorkspaceConfig, schema?: LoadedSchema) {
    this.schema = schema ?? loadWorkspaceSchema(config);
    this.core = new IndexCore(this.schema.queries);
    this.ports = makeLinkPorts(config.layout, config.sdk, this.schema.queries, config.resolver, this.core);
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

  /** What queries and the envelope see right now. */
  view(): IndexView {
    return {
      projectDir: this.config.projectDir,
      sdkDir: this.config.sdk?.dir ?? null,
      game: this.game,
      lifecycle: this.lifecycleState,
      linked: this.published,
      buildId: this.buildCounter,
      builtAt: this.builtAtIso,
    };
  }

  private event(e: LifecycleEvent): void {
    this.lifecycleState = nextState(this.lifecycleState, e);
  }

  private publish(linked: LinkedIndex): void {
    this.published = linked;
    this.builtAtIso = new Date().toISOString();
  }

  /** Full build from disk: scan, parse, walk, link, then art. Synchronous; reports progress. */
  build(progress: BuildProgress = () => {}): BuildReport {
    const t0 = performance.now();
    this.event("build_started");
    this.buildCounter++;
    const timings: BuildTimings = { scanMs: 0, schemaMs: this.schema.loadMs, parseMs: 0, sdkMs: 0, linkMs: 0, artMs: 0, totalMs: 0 };
    try {
      let t = performance.now();
      const scanned = scanProjectFiles(this.config.projectDir);
      timings.scanMs = performance.now() - t;
      progress("scan", scanned.length, scanned.length);

      t = performance.now();
      const xml = scanned.filter((f) => f.kind !== "w3x");
      const art = scanned.filter((f) => f.kind === "w3x");
      this.loadFiles(xml.map((f) => f.path), (n) => progress("xml", n, xml.length), new Map(xml.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs }])));
      timings.parseMs = performance.now() - t;

      t = performance.now();
      // SDK mode: the vanilla XML folder is the SDK layer, indexed whole (reachable or not), like the project.
      let sdkFiles = 0;
      const vanilla = this.config.sdk?.vanillaDir;
      if (vanilla) {
        const sdkXml = scanProjectFiles(vanilla).filter((f) => f.kind === "xml");
        sdkFiles += this.loadFiles(sdkXml.map((f) => f.path), (n) => progress("sdk", n, sdkXml.length), new Map(sdkXml.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs }])));
      }
      sdkFiles += this.discover(false, (n) => progress("sdk", n, n));
      timings.sdkMs = performance.now() - t;

      t = performance.now();
      progress("link", 0, 1);
      this.publish(this.core.link(this.ports.inputs));
      timings.linkMs = performance.now() - t;
      this.event("xml_done");

      t = performance.now();
      this.loadFiles(art.map((f) => f.path), (n) => progress("art", n, art.length), new Map(art.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs }])));
      const moreArt = this.discover(true, () => {});
      this.publish(this.core.link(this.ports.inputs));
      timings.artMs = performance.now() - t;
      this.event("build_done");
      timings.totalMs = performance.now() - t0;
      return {
        timings: roundTimings(timings),
        parsedFiles: xml.length,
        artFiles: art.length + moreArt,
        sdkFiles,
        unreadable: [...this.unreadable].map(([path, error]) => ({ path, error })),
      };
    } catch (e) {
      this.event("build_failed");
      throw e;
    }
  }

  /** Loads the files the include walk wants until nothing new is wanted. Returns how many were loaded. */
  private discover(includeArt: boolean, progress: (n: number) => void): number {
    let loaded = 0;
    for (let round = 0; round < MAX_DISCOVERY_ROUNDS; round++) {
      const wanted = this.core
        .wanted(this.ports.inputs)
        .filter((p) => !this.unreadable.has(pathKey(p)) && (includeArt || extensionOf(p) !== ".w3x"));
      if (wanted.length === 0) break;
      loaded += this.loadFiles(wanted, () => {});
      progress(loaded);
    }
    return loaded;
  }

  /** Reads and parses `paths`; unreadable files are remembered (and not asked for again). */
  private loadFiles(paths: readonly string[], progress: (n: number) => void, stamps?: Map<string, FileStamp>): number {
    const batch: FileChange[] = [];
    let n = 0;
    for (const path of paths) {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch (e) {
        this.unreadable.set(pathKey(path), (e as NodeJS.ErrnoException).code ?? String(e));
        continue;
      }
      batch.push({ path, bytes, stamp: stamps?.get(path) });
      if (batch.length >= 64) {
        n += this.core.applyChanges(batch.splice(0));
        progress(n);
      }
    }
    n += this.core.applyChanges(batch);
    progress(n);
    return n;
  }
}

function roundTimings(t: BuildTimings): BuildTimings {
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    scanMs: r(t.scanMs),
    schemaMs: r(t.schemaMs),
    parseMs: r(t.parseMs),
    sdkMs: r(t.sdkMs),
    linkMs: r(t.linkMs),
    artMs: r(t.artMs),
    totalMs: r(t.totalMs),
  };
}

export type { SchemaQueries };
