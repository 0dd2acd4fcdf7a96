/**
 * The command dispatcher: argv → config → the command's module → exit status.
 */
import { type CliConfig, type CommandName, isUsageError, parseCli } from "./args.ts";
import { helpText } from "./help.ts";
import { type CliIo, EXIT_OK, EXIT_USAGE } from "./io.ts";
import { BUILD, TOOL_VERSION, versionLine } from "../version.ts";

type Command = (cfg: CliConfig, io: CliIo) => number | Promise<number>;

/**
 * Each command's module, loaded when it runs: a CLI query does not evaluate the MCP server, the SDK
 * and its JSON-schema validator, or setup's client dialects (startup time, see docs/performance.md).
 */
const COMMANDS: Partial<Record<CommandName, () => Promise<Command>>> = {
  index: () => import("./commands/index.ts").then((m) => m.runIndex),
  status: () => import("./commands/status.ts").then((m) => m.runStatus),
  find: () => import("./commands/find.ts").then((m) => m.runFind),
  list: () => import("./commands/list.ts").then((m) => m.runList),
  define: () => import("./commands/define.ts").then((m) => m.runDefine),
  include: () => import("./commands/include.ts").then((m) => m.runInclude),
  file: () => import("./commands/file.ts").then((m) => m.runFile),
  files: () => import("./commands/files.ts").then((m) => m.runFiles),
  refs: () => import("./commands/refs.ts").then((m) => m.runRefs),
  uses: () => import("./commands/uses.ts").then((m) => m.runUses),
  unreferenced: () => import("./commands/unreferenced.ts").then((m) => m.runUnreferenced),
  check: () => import("./commands/check.ts").then((m) => m.runCheck),
  strings: () => import("./commands/strings.ts").then((m) => m.runStrings),
  mcp: () => import("./commands/mcp.ts").then((m) => m.runMcp),
  "install-skill": () => import("./commands/install-skill.ts").then((m) => m.runInstallSkill),
  export: () => import("./commands/export.ts").then((m) => m.runExport),
  setup: () => import("./commands/setup.ts").then((m) => m.runSetupCommand),
  doctor: () => import("./commands/doctor.ts").then((m) => m.runDoctorCommand),
  uninstall: () => import("./commands/uninstall.ts").then((m) => m.runUninstallCommand),
};

/** Runs one command line; returns the exit status. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const cfg = parseCli(argv);
  if (isUsageError(cfg)) {
    io.err(`ra3: ${cfg.usageError}\n`);
    return EXIT_USAGE;
  }
  if (cfg.command === "version") {
    const json = { tool: "ra3", version: TOOL_VERSION, commit: BUILD.commit, buildDate: BUILD.date };
    io.out(cfg.json ? JSON.stringify(json) + "\n" : versionLine() + "\n");
    return EXIT_OK;
  }
  if (cfg.command === "help") {
    io.out(helpText(cfg.positionals[0]));
    return EXIT_OK;
  }
  const load = COMMANDS[cfg.command];
  if (!load) {
    io.err(`ra3: ${cfg.command} is not available in this build yet\n`);
    return EXIT_USAGE;
  }
  // A cold build runs in a child (`cold-start.ts`): decided before the command's module loads.
  const cold = await import("./cold-start.ts");
  if (cold.OPENS_INDEX.has(cfg.command)) {
    const status = await cold.relaunchForColdBuild(cfg, io);
    if (status !== null) return status;
  }
  const command = await load();
  return command(cfg, io);
}
