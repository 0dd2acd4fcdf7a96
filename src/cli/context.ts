/**
 * What every index-reading command shares: open the workspace for the configured project, build (or
 * warm-start) its index with a progress bar, print an answer as the JSON envelope or as text, and save
 * the snapshot after the answer is out (a query's output never waits for the write).
 */
import type { CliConfig } from "./args.ts";
import { type CliIo, EXIT_ENV, EXIT_FINDINGS, EXIT_OK } from "./io.ts";
import { progressBar } from "./progress.ts";
import { isEnvError, resolveConfig, type WorkspaceConfig } from "../workspace/config.ts";
import { configRequest } from "./config-request.ts";
import { type BuildReport, Workspace } from "../workspace/workspace.ts";
import { saveSnapshot, schemaKeyOf, warmStart } from "../workspace/snapshots.ts";
import { loadWorkspaceSchemaDeferred } from "../workspace/schema.ts";
import { runSteps } from "../steps.ts";
import { canReleaseParent, recordFailedSave, releaseParent, takeFailedSave } from "./detach.ts";
import { SnapshotStore } from "../store/snapshot-store.ts";
import { envelopeOf, isQueryError, type QueryResult, shortEnvelope } from "../query/envelope.ts";
import { visibleLines } from "../query/visible.ts";
import { errorAnswer } from "../query/answers.ts";

/** What a save of the snapshot did (a failure is reported, never fatal). */
export interface SnapshotOutcome {
  readonly path: string;
  readonly saved: boolean;
  /** True when the snapshot on disk already held this index, so it was not rewritten. */
  readonly unchanged: boolean;
  readonly size: number | null;
  readonly message: string | null;
}

/** How a command's save may finish without it (`detach.ts`). */
export interface SaveOptions {
  /** The command's exit status: given, a waiting parent may exit with it once the writer's lock is held. */
  readonly status?: number;
  /** Runs right before the parent is let go: the last words the caller's reader sees. */
  readonly beforeRelease?: () => void;
}

export interface OpenedWorkspace {
  readonly ws: Workspace;
  /** A full build's report, or null after a warm start. */
  readonly report: BuildReport | null;
  /** How the index was obtained. */
  readonly start: {
    readonly mode: "cold" | "warm";
    readonly changed: number;
    readonly deleted: number;
    readonly ms: number;
    readonly note: string | null;
  };
  /**
   * Saves the snapshot unless the one on disk already holds this index, once (later calls return the
   * first outcome). Queries call it after printing their answer ({@link answer}); `ra3 index` before,
   * since its answer reports the save. With `status`, the save may finish after the run's parent exited
   * with that status (a build from nothing in the compiled binary: `detach.ts`).
   */
  saveSnapshot(options?: SaveOptions): SnapshotOutcome;
  /** Where the snapshot is (or will be) saved. */
  readonly snapshotPath: string;
}

/** The run's configuration, or (after printing why, with the mods found in a container folder) EXIT_ENV. */
export function configOrExplain(cfg: CliConfig, io: CliIo): WorkspaceConfig | number {
  const config = resolveConfig(configRequest(cfg, io));
  if (!isEnvError(config)) return config;
  io.err(`ra3: ${config.envError}\n`);
  if (config.projects) { for (const p of config.projects) io.err(`  ${p.dir}\n`); }
  return EXIT_ENV;
}

/**
 * Opens the configured project: warm start from its snapshot when one is valid (re-reading only changed
 * files), else a full build. The caller saves the snapshot (`saveSnapshot`) once it has answered. Prints
 * why not and returns the exit status when there is no project. Without `sites: false` (a command that
 * reads no reference site: `ra3 index`), a warm start's stored sites are decoded before it returns. (A
 * command line of the compiled binary that would build from nothing has already been run again in a child
 * by then: `cold-start.ts`, before the command's module loaded.)
 */
export async function openWorkspace(
  cfg: CliConfig,
  io: CliIo,
  options: { readonly sites?: boolean } = {},
): Promise<OpenedWorkspace | number> {
  const config = configOrExplain(cfg, io);
  if (typeof config === "number") return config;
  // A first load of an XSD set writes its model cache after the answer and the snapshot (saveSnapshot).
  const loaded = loadWorkspaceSchemaDeferred(config);
  const ws = new Workspace(config, loaded.schema);
  if (config.schemaDir && !ws.schema.queries) {
    const why = ws.schema.diagnostics[0]?.message ?? "unknown error";
    if (config.schemaSource === "flag") {
      io.err(`ra3: could not load the schema in ${config.schemaDir}: ${why}\n`);
      return EXIT_ENV;
    }
    if (!cfg.quiet) {
      io.err(
        `ra3: warning: could not load the schema in ${config.schemaDir} (${why}); references are matched heuristically\n`,
      );
    }
  }
  const store = new SnapshotStore(config.home, config.projectDir);
  // A save that went on after an earlier run's answer and failed: said here, once (`detach.ts`).
  const failed = takeFailedSave(store.path);
  if (failed !== null && !cfg.quiet) {
    io.err(`ra3: warning: the snapshot was not saved after an earlier run had answered: ${failed}\n`);
  }
  const schemaKey = schemaKeyOf(ws.schema);
  const t = performance.now();
  const warm = await warmStart(ws, store, schemaKey);
  let report: BuildReport | null = null;
  let changed = 0;
  let deleted = 0;
  let note: string | null = null;
  if (warm.warm) {
    changed = warm.update.changed.length;
    deleted = warm.update.deleted.length;
    if (warm.problem) {
      note = warm.problem;
      if (!cfg.quiet) io.err(`ra3: ${warm.problem}\n`);
    }
  } else {
    if (!warm.quiet) {
      note = warm.reason;
      if (!cfg.quiet) io.err(`ra3: ${warm.reason}\n`);
    }
    const bar = progressBar((t) => io.err(t), cfg.progress && !cfg.quiet && io.errIsTTY);
    try {
      report = await ws.build((phase, done, total) => bar.update(phase, done, total), undefined, {
        publishXmlPhase: false,
      });
    } finally {
      bar.finish();
      ws.close(); // the art read buffer is not needed after the build
    }
  }
  // A stored record found not to decode later (an export reads them all): said, and the snapshot rewritten.
  ws.onRecordProblem = (message) => {
    store.forgetLoaded();
    if (!cfg.quiet) io.err(`ra3: ${message}\n`);
  };
  // A query reads the reference sites: a warm start's stored ones are decoded now (refused and linked
  // again from the files when they do not decode). `ra3 index` reads none.
  if (options.sites !== false) await ws.decodeStoredSites();
  const ms = Math.round((performance.now() - t) * 10) / 10;
  let outcome: SnapshotOutcome | null = null;
  const saveSnapshotOnce = (options: SaveOptions = {}): SnapshotOutcome => {
    if (outcome) return outcome;
    let background = false;
    const status = options.status;
    // The writer's lock is held from here on: a reader waits for the file, so the parent may go.
    const onLocked = status !== undefined && canReleaseParent(io.env)
      ? () => {
        // Once (a save refused for its stored sites runs again); an answer that may not be all out yet (a
        // console's, or a full pipe's: `io.ts` `outputPending`) keeps the parent waiting for the end.
        if (background || io.outputPending?.()) return;
        options.beforeRelease?.();
        background = releaseParent(status, io.env);
      }
      : undefined;
    // Saved whenever the index differs from the snapshot on disk; the store skips a write of the same state.
    const saved = saveSnapshot(ws, store, schemaKey, onLocked);
    outcome = saved.saved || saved.reason === "unchanged"
      ? { path: saved.path, saved: saved.saved, unchanged: !saved.saved, size: saved.size, message: null }
      : { path: store.path, saved: false, unchanged: false, size: null, message: saved.message };
    // Unseen by anyone now: left for the next run (`openWorkspace` says it).
    if (!saved.saved && saved.reason === "error" && background) recordFailedSave(store.path, saved.message);
    if (!saved.saved && saved.reason !== "unchanged" && !cfg.quiet) io.err(`ra3: warning: ${saved.message}\n`);
    // Not said when it fails, as a load that writes it at once does not say it: the next run loads the XSDs again.
    runSteps(loaded.writeCache());
    return outcome;
  };
  return {
    ws,
    report,
    start: { mode: warm.warm ? "warm" : "cold", changed, deleted, ms, note },
    snapshotPath: store.path,
    saveSnapshot: saveSnapshotOnce,
  };
}

/**
 * A query command's ending: prints the answer ({@link emit}), then saves the snapshot, so the answer is
 * never delayed by the write. Returns the exit status.
 */
export function answer<R>(
  cfg: CliConfig,
  io: CliIo,
  opened: OpenedWorkspace,
  result: QueryResult<R>,
  text: (r: R) => string,
  json: JsonForm<R>,
): number {
  const code = emit(cfg, io, opened.ws, result, text, json);
  opened.saveSnapshot({ status: code });
  return code;
}

/** How a command's result goes out with `--json`: its JSON answer, and which envelope beside it. */
export interface JsonForm<R> {
  /** The answer shape shared with the MCP tool (`query/answers.ts`). */
  readonly answer: (r: R) => unknown;
  /** The full envelope (SDK, game, counts) instead of the short one: `ra3 status`, `ra3 index`. */
  readonly fullIndex?: boolean;
}

/**
 * Prints a query answer: with `--json` one JSON document `{index, result}` (the short envelope, or the
 * full one for status and index; `result` is the same answer the MCP tool gives), else `text(result)`.
 * Query errors go to stderr (or into the document as `{index, error}` with `--json`) and give exit status 1.
 */
export function emit<R>(
  cfg: CliConfig,
  io: CliIo,
  ws: Workspace,
  result: QueryResult<R>,
  text: (r: R) => string,
  json: JsonForm<R>,
): number {
  const full = envelopeOf(ws.view());
  const index = json.fullIndex ? full : shortEnvelope(full);
  if (isQueryError(result)) {
    if (cfg.json) io.out(JSON.stringify({ index, error: errorAnswer(result.error) }, null, 2) + "\n");
    else io.err(`ra3: ${visibleLines(result.error.message)}\n`);
    return result.error.code === "bad_argument" ? 2 : EXIT_FINDINGS;
  }
  if (cfg.json) {
    io.out(JSON.stringify({ index, result: json.answer(result) }, null, 2) + "\n");
  } else {
    // Control and bidi characters from the mod (an ESC in a file name) reach the terminal escaped.
    const t = visibleLines(text(result));
    if (t) io.out(t.endsWith("\n") ? t : t + "\n");
  }
  return EXIT_OK;
}
