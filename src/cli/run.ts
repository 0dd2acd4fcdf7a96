/**
 * The command dispatcher: argv → config → the command's module → exit status.
 */
import { type CliConfig, type CommandName, isUsageError, parseCli } from "./args.ts";
import { helpText } from "./help.ts";
import { type CliIo, EXIT_OK, EXIT_USAGE } from "./io.ts";
import { runDefine } from "./commands/define.ts";
import { runFile } from "./commands/file.ts";
import { runFiles } from "./commands/files.ts";
import { runFind } from "./commands/find.ts";
import { runInclude } from "./commands/include.ts";
import { runIndex } from "./commands/index.ts";
import { runList } from "./commands/list.ts";
import { runStatus } from "./commands/status.ts";
import { runRefs } from "./commands/refs.ts";
import { runUses } from "./commands/uses.ts";
import { runUnreferenced } from "./commands/unreferenced.ts";
import { runCheck } from "./commands/check.ts";
import { runStrings } from "./commands/strings.ts";
import { runMcp } from "./commands/mcp.ts";
import { runInstallSkill } from "./commands/install-skill.ts";
import { runExport } from "./commands/export.ts";
import { runSetupCommand } from "./commands/setup.ts";
import { runDoctorCommand } from "./commands/doctor.ts";
import { runUninstallCommand } from "./commands/uninstall.ts";
import { BUILD, TOOL_VERSION, versionLine } from "../version.ts";

type Command = (cfg: CliConfig, io: CliIo) => number | Promise<number>;

const COMMANDS: Partial<Record<CommandName, Command>> = {
  index: runIndex,
  status: runStatus,
  find: runFind,
  list: runList,
  define: runDefine,
  include: runInclude,
  file: runFile,
  files: runFiles,
  refs: runRefs,
  uses: runUses,
  unreferenced: runUnreferenced,
  check: runCheck,
  strings: runStrings,
  mcp: runMcp,
  "install-skill": runInstallSkill,
  export: runExport,
  setup: runSetupCommand,
  doctor: runDoctorCommand,
  uninstall: runUninstallCommand,
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
  const command = COMMANDS[cfg.command];
  if (!command) {
    io.err(`ra3: ${cfg.command} is not available in this build yet\n`);
    return EXIT_USAGE;
  }
  return command(cfg, io);
}
