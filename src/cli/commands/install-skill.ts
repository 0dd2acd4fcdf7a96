/** `ra3 install-skill [--target …]... [--uninstall] [--sync]`: install, upgrade, sync or remove the Agent Skill. */
import type { CliConfig } from "../args.ts";
import { type CliIo, EXIT_ENV, EXIT_OK } from "../io.ts";
import { CaseResolver } from "../../project/case-resolver.ts";
import { findProjectRoot } from "../../project/detect.ts";
import { NodeDirectoryLister } from "../../project/fs-port.ts";
import { resolveHome } from "../../project/home.ts";
import { toAbsolute } from "../../project/paths.ts";
import { userHomeOf } from "../../setup/environment.ts";
import { installSkill } from "../../setup/skill-install.ts";

export async function runInstallSkill(cfg: CliConfig, io: CliIo): Promise<number> {
  const userHome = userHomeOf(io.env);
  const home = resolveHome({ flag: cfg.home ?? undefined, env: io.env, homedir: userHome, cwd: io.cwd });
  // Project targets need the mod folder; everything else works anywhere.
  let projectDir: string | null = null;
  if (cfg.project) projectDir = toAbsolute(cfg.project, io.cwd);
  else projectDir = findProjectRoot(io.cwd, new CaseResolver(new NodeDirectoryLister()))?.dir ?? null;
  const result = installSkill({
    home,
    userHome,
    targets: cfg.targets,
    env: io.env,
    projectDir,
    cwd: io.cwd,
    uninstall: cfg.uninstall,
    sync: cfg.sync,
  });
  if (cfg.json) {
    io.out(JSON.stringify({ result }, null, 2) + "\n");
  } else {
    for (const r of result.reports) {
      const where = r.dir || r.target;
      let line = `${r.action.padEnd(9)} ${where}`;
      if (r.written.length && r.action !== "installed") {
        line += ` (${r.written.length} file${r.written.length === 1 ? "" : "s"} written)`;
      }
      if (r.keptUserModified.length) line += `; kept your changes to ${r.keptUserModified.join(", ")}`;
      if (r.error) line += `: ${r.error}`;
      else if (r.note) line += `: ${r.note}`;
      io.out(line + "\n");
    }
    if (result.recordsError) io.err(`ra3: ${result.recordsError}\n`);
  }
  const failed = result.reports.some((r) => r.action === "failed") || Boolean(result.recordsError);
  return failed ? EXIT_ENV : EXIT_OK;
}
