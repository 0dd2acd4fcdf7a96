/**
 * `get_status` / `ra3 status`: the project, SDK (and why other SDK candidates were skipped), schema,
 * game and index state, plus the asset types present. The cheap probe an agent calls first.
 */
import type { ProjectLayout } from "../project/detect.ts";
import type { SdkInfo, SdkResolution } from "../project/sdk.ts";
import type { SchemaQueries } from "../schema/model.ts";
import type { LinkedIndex, StreamInfo } from "../index/linked.ts";
import { envelopeOf, type IndexView } from "./envelope.ts";
import { displayPath } from "../project/paths.ts";
import { presentMessage } from "./diagnostic-codes.ts";

export interface StatusResult {
  readonly project: string;
  readonly marker: string | null;
  readonly game: string | null;
  readonly mode: "sdk" | "project-only";
  readonly sdk: {
    readonly dir: string;
    readonly status: string;
    readonly source: string | null;
    readonly missing: readonly string[];
  } | null;
  readonly sdkCandidates: readonly {
    readonly source: string;
    readonly path: string | null;
    readonly accepted: boolean;
    readonly reason: string;
  }[];
  readonly schema: {
    readonly dir: string | null;
    readonly source: string | null;
    readonly files: number;
    readonly heuristic: boolean;
  };
  readonly state: string;
  readonly buildId: number;
  readonly builtAt: string | null;
  readonly complete: boolean;
  readonly stale: boolean;
  /**
   * Every stream: its entry point, whether it is compiled (a project entry) or referenced (an SDK stream
   * the mod uses prebuilt), where the entry came from and why.
   */
  readonly streams: readonly StatusStream[];
  /** What ra3 noticed about the entry points (two plausible entries disagreeing, an --entry not found, …). */
  readonly entryNotes: readonly string[];
  /** Asset types present in the index (project and SDK layers), for `type` arguments. */
  readonly types: readonly string[];
  /** The stored snapshot, when the caller looked at it (CLI `status`). */
  readonly snapshot?: SnapshotStatus;
}

export interface StatusStream {
  readonly name: string;
  readonly entry: string;
  readonly context: "compiled" | "referenced";
  readonly origin: StreamInfo["origin"];
  readonly reason: string;
  readonly files: number;
}

/** Diagnostic codes about the entry points, repeated in the status answer. */
const ENTRY_CODES: ReadonlySet<string> = new Set(["entry-conflict", "entry-not-found", "mod-name-alias"]);

export interface SnapshotStatus {
  readonly path: string;
  readonly exists: boolean;
  readonly size: number | null;
  readonly generatedAt: string | null;
  readonly ageSeconds: number | null;
  /** Why the snapshot cannot be used, when it cannot. */
  readonly problem: string | null;
  /** Files that changed on disk since the snapshot (first 20 of each), relative paths. */
  readonly stale: {
    readonly changed: readonly string[];
    readonly added: readonly string[];
    readonly deleted: readonly string[];
    readonly total: number;
  };
}

/**
 * What a status answer is made from: the project's configuration, the loaded schema and the published
 * index. The workspace (the driver) has exactly this shape; the query layer does not depend on it.
 */
export interface StatusSource {
  readonly config: {
    readonly projectDir: string;
    readonly layout: Pick<ProjectLayout, "marker">;
    readonly sdk: Pick<SdkInfo, "dir" | "status" | "missing"> | null;
    readonly sdkResolution: Pick<SdkResolution, "source" | "candidates">;
  };
  readonly game: string | null;
  readonly schema: {
    readonly dir: string | null;
    readonly source: string | null;
    readonly fileCount: number;
    readonly queries: SchemaQueries | null;
    /** The schema is still loading (not heuristic mode). */
    readonly pending?: boolean;
  };
  readonly linked: LinkedIndex | null;
  view(): IndexView;
}

/** The status of a workspace. */
export function statusOf(ws: StatusSource): StatusResult {
  const env = envelopeOf(ws.view());
  const linked = ws.linked;
  const cfg = ws.config;
  return {
    project: cfg.projectDir,
    marker: cfg.layout.marker,
    game: ws.game,
    mode: cfg.sdk ? "sdk" : "project-only",
    sdk: cfg.sdk
      ? { dir: cfg.sdk.dir, status: cfg.sdk.status, source: cfg.sdkResolution.source, missing: cfg.sdk.missing }
      : null,
    sdkCandidates: cfg.sdkResolution.candidates.map((c) => ({
      source: c.source,
      path: c.raw,
      accepted: c.accepted,
      reason: c.reason,
    })),
    schema: {
      dir: ws.schema.dir,
      source: ws.schema.source,
      files: ws.schema.fileCount,
      heuristic: ws.schema.queries === null && !ws.schema.pending,
    },
    state: env.state,
    buildId: env.buildId,
    builtAt: env.builtAt,
    complete: env.complete,
    stale: env.stale,
    streams: linked
      ? linked.streams.map((s) => ({
        name: s.name,
        entry: displayPath(linked, s.entry),
        context: s.context,
        origin: s.origin,
        reason: s.reason,
        files: s.files,
      }))
      : [],
    entryNotes: linked ? linked.diagnostics.filter((d) => ENTRY_CODES.has(d.code)).map(presentMessage) : [],
    types: linked ? [...linked.byType.keys()].sort() : [],
  };
}
