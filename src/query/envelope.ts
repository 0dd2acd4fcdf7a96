/**
 * The index envelope carried by every answer (CLI `--json` and MCP `structuredContent`), and the
 * error values queries return. An agent must never mistake "not indexed yet" for "not found". Every
 * answer carries the short envelope (state, complete, stale, build id and time, project folder); the
 * status and build answers (`get_status` / `ra3 status`, `reindex` / `ra3 index`) carry the full one,
 * with the SDK, game and counts.
 */
import type { GameId } from "../schema/model.ts";
import type { IndexState, Lifecycle } from "../lifecycle.ts";
import { isStale } from "../lifecycle.ts";
import type { LinkedIndex } from "../index/linked.ts";

export interface IndexCounts {
  readonly files: number;
  readonly assets: number;
  readonly sdkAssets: number;
  readonly references: number;
  readonly defines: number;
  readonly diagnostics: number;
}

export interface IndexEnvelope {
  readonly projectDir: string;
  readonly sdkDir: string | null;
  readonly game: GameId | null;
  readonly state: IndexState;
  readonly buildId: number;
  readonly builtAt: string | null;
  readonly complete: boolean;
  /**
   * Present (true) only while the index holds just the files the entry points' include graph reaches:
   * the project's other files are still being parsed (a server's cold build publishes what is reachable first).
   */
  readonly reachedOnly?: true;
  readonly stale: boolean;
  readonly counts: IndexCounts;
}

/** The index facts every answer carries: enough to tell "not found" from "not indexed (yet)" or "stale". */
export interface ShortEnvelope {
  readonly state: IndexState;
  readonly complete: boolean;
  /** See {@link IndexEnvelope.reachedOnly}. */
  readonly reachedOnly?: true;
  readonly stale: boolean;
  readonly buildId: number;
  readonly builtAt: string | null;
  readonly projectDir: string;
}

/** The short envelope of `full`. */
export function shortEnvelope(full: IndexEnvelope): ShortEnvelope {
  return {
    state: full.state,
    complete: full.complete,
    ...(full.reachedOnly ? { reachedOnly: true as const } : {}),
    stale: full.stale,
    buildId: full.buildId,
    builtAt: full.builtAt,
    projectDir: full.projectDir,
  };
}

export type QueryErrorCode =
  | "not_found"
  | "ambiguous"
  | "bad_argument"
  | "building"
  | "outside_project"
  | "no_project"
  | "no_sdk"
  | "no_index"
  | "timeout"
  | "internal";

/** A failed query: what went wrong and one sentence on what to do next. */
export interface QueryError {
  readonly error: {
    readonly code: QueryErrorCode;
    readonly message: string;
    /** Extra structured context (candidates, suggestions …). */
    readonly details?: Readonly<Record<string, unknown>>;
  };
}

export type QueryResult<R> = R | QueryError;

/** True when `r` is a {@link QueryError}. */
export function isQueryError<R>(r: QueryResult<R>): r is QueryError {
  return typeof r === "object" && r !== null && "error" in r && typeof (r as QueryError).error?.code === "string";
}

/** Builds a {@link QueryError}. */
export function queryError(code: QueryErrorCode, message: string, details?: Record<string, unknown>): QueryError {
  return { error: details ? { code, message, details } : { code, message } };
}

/** What the envelope is made from: the published index (if any) and the lifecycle. */
export interface IndexView {
  readonly projectDir: string;
  readonly sdkDir: string | null;
  readonly game: GameId | null;
  readonly lifecycle: Lifecycle;
  readonly linked: LinkedIndex | null;
  /** The published index holds only the files the include graph reaches (the rest is being parsed). */
  readonly reachedOnly?: boolean;
  readonly buildId: number;
  readonly builtAt: string | null;
}

const ZERO: IndexCounts = { files: 0, assets: 0, sdkAssets: 0, references: 0, defines: 0, diagnostics: 0 };

/** The envelope describing `view`. */
export function envelopeOf(view: IndexView): IndexEnvelope {
  const s = view.linked?.stats;
  return {
    projectDir: view.projectDir,
    sdkDir: view.sdkDir,
    game: view.game,
    state: view.lifecycle.state,
    buildId: view.buildId,
    builtAt: view.builtAt,
    complete: view.lifecycle.complete && view.lifecycle.state !== "building",
    ...(view.reachedOnly && view.linked ? { reachedOnly: true as const } : {}),
    stale: isStale(view.lifecycle),
    counts: s
      ? {
        files: s.projectFiles,
        assets: s.assets,
        sdkAssets: s.sdkAssets,
        references: s.references,
        defines: s.defines,
        diagnostics: s.diagnostics,
      }
      : ZERO,
  };
}
