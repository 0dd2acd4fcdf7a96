/** What the command line asks `resolveConfig` for (shared by the commands, the MCP server and `cold-start.ts`). */
import type { CliConfig } from "./args.ts";
import type { CliIo } from "./io.ts";
import type { ConfigRequest } from "../workspace/config.ts";

/** The project, SDK, schema, home and entry flags of `cfg`, with the run's folder and environment. */
export function configRequest(cfg: CliConfig, io: CliIo): ConfigRequest {
  return {
    project: cfg.project,
    sdk: cfg.sdk,
    schema: cfg.schema,
    home: cfg.home,
    entries: cfg.entries,
    cwd: io.cwd,
    env: io.env,
  };
}
