/** `ra3 uninstall [--yes] [--all]`: revert what setup and install-skill wrote, from the install receipt. */
import type { CliConfig } from "../args.ts";
import { type CliIo, EXIT_ENV, EXIT_FINDINGS, EXIT_OK } from "../io.ts";
import { resolveHome } from "../../project/home.ts";
import { askYesNo, canAsk, platformFromEnv } from "../../setup/environment.ts";
import { nodeFileSystem } from "../../disk/port.ts";
import { installSkill, listSkillInstalls } from "../../setup/skill-install.ts";
import { runUninstall } from "../../setup/uninstall.ts";
import { TOOL_VERSION } from "../../version.ts";

/** Runs `ra3 uninstall`; returns 0 when everything recorded was removed, 1 when something failed, 3 for an unreadable receipt. */
export async function runUninstallCommand(cfg: CliConfig, io: CliIo): Promise<number> {
  const platform = platformFromEnv(io.env);
  const home = resolveHome({ flag: cfg.home, env: io.env, homedir: platform.home, cwd: io.cwd });
  const report = await runUninstall(
    {
      platform,
      fs: nodeFileSystem(),
      home,
      version: TOOL_VERSION,
      now: () => new Date(),
      skills: {
        recorded: () => listSkillInstalls(home).records,
        uninstall: () =>
          installSkill({ home, userHome: platform.home, env: io.env, cwd: io.cwd, sync: true, uninstall: true }),
      },
      print: cfg.json ? () => {} : (t) => io.out(t),
      confirm: askYesNo,
    },
    { yes: cfg.yes, interactive: !cfg.json && canAsk(), all: cfg.all },
  );
  if (cfg.json) io.out(JSON.stringify({ result: report }, null, 2) + "\n");
  if (report.mode === "refused") {
    io.err(`ra3: ${report.error}\n`);
    return EXIT_ENV;
  }
  return report.ok ? EXIT_OK : EXIT_FINDINGS;
}
