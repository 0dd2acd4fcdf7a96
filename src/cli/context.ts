/**
 * What every index-reading command shares: open the workspace for the configured project, build (or
 * warm-start) its index with a progress bar, and print an answer as the JSON envelope or as text.
 */
import type { CliConfig } from "./args.ts";
import { type CliIo, EXIT_ENV, EXIT_FINDINGS, EXIT_OK } from "./io.ts";
import { progressBar } from "./progress.ts";
import { isEnvError, resolveConfig } from "../workspace/config.ts";
import { type BuildReport, Workspace } from "../workspace/workspace.ts";
import { type Envelope, type QueryResult, envelopeOf, isQueryError } from "../query/envelope.ts";

export interface OpenedWorkspace {
  readonly ws: Workspace;
  readonly report: BuildReport;
}

/** Opens and indexes the configured project, or prints why not and returns the exit status. */
export async function openWorkspace(cfg: CliConfig, io: CliIo): Promise<OpenedWorkspace | number> {
  const config = resolveConfig({ project: cfg.project, sdk: cfg.sdk, schema: cfg.schema, home: cfg.home, cwd: io.cwd, env: io.env });
  if (isEnvError(config)) {
    io.err(`ra3: ${config.envError}\n`);
    if (config.projects) for (const p of config.projects) io.err(`  ${p.dir}\n`);
    return EXIT_ENV;
  }
  const ws = new Workspace(config);
  if (config.schemaDir && !ws.schema.queries) {
    const why = ws.schema.diagnostics[0]?.message ?? "unknown error";
    if (config.schemaSource === "flag") {
      io.err(`ra3: could not load the schema in ${config.schemaDir}: ${why}\n`);
      return EXIT_ENV;
    }
    if (!cfg.quiet) io.err(`ra3: warning: could not load the schema in ${config.schemaDir} (${why}); references are matched heuristically\n`);
  }
  const bar = progressBar(process.stderr, cfg.progress && !cfg.quiet && io.errIsTTY);
  let report: BuildReport;
  try {
    report = await ws.build((phase, done, total) => bar.update(phase, done, total));
  } finally {
    bar.finish();
  }
  return { ws, report };
}

/**
 * Prints a query answer: the envelope as one JSON document with `--json`, else `text(result)`.
 * Query errors go to stderr (or into the envelope with `--json`) and give exit status 1.
 */
export function emit<R>(cfg: CliConfig, io: CliIo, ws: Workspace, result: QueryResult<R>, text: (r: R) => string): number {
  const index = envelopeOf(ws.view());
  if (isQueryError(result)) {
    if (cfg.json) io.out(JSON.stringify({ index, result: null, error: result.error }, null, 2) + "\n");
    else io.err(`ra3: ${result.error.message}\n`);
    return result.error.code === "bad_argument" ? 2 : EXIT_FINDINGS;
  }
  if (cfg.json) {
    const env: Envelope<R> = { index, result };
    io.out(JSON.stringify(env, null, 2) + "\n");
  } else {
    const t = text(result);
    if (t) io.out(t.endsWith("\n") ? t : t + "\n");
  }
  return EXIT_OK;
}
