/** `ra3 doctor [--project DIR] [--json]`: check the installation as a client would; exit 0 only when all is well. */
import type { CliConfig } from "../args.ts";
import { type CliIo, EXIT_FINDINGS, EXIT_OK } from "../io.ts";
import { resolveHome } from "../../project/home.ts";
import { toAbsolute } from "../../project/paths.ts";
import { SnapshotStore } from "../../store/snapshot-store.ts";
import { renderDoctor, runDoctor } from "../../setup/doctor.ts";
import { platformFromEnv } from "../../setup/environment.ts";
import { liveCheck } from "../../setup/live-check.ts";
import { nodeFileSystem } from "../../disk/port.ts";
import { TOOL_VERSION } from "../../version.ts";

/** Runs `ra3 doctor`; returns 0 only when every check passed, else 1. */
export async function runDoctorCommand(cfg: CliConfig, io: CliIo): Promise<number> {
  const platform = platformFromEnv(io.env);
  const home = resolveHome({ flag: cfg.home, env: io.env, homedir: platform.home, cwd: io.cwd });
  const report = await runDoctor(
    {
      platform,
      fs: nodeFileSystem(),
      home,
      version: TOOL_VERSION,
      now: () => new Date(),
      liveCheck,
      snapshot: async (projectDir) => {
        const store = new SnapshotStore(home, projectDir);
        await store.waitForWriter(); // a cold run's save may end after that run (`detach.ts`)
        return { path: store.path, meta: store.meta() };
      },
    },
    { project: cfg.project === null ? null : toAbsolute(cfg.project, io.cwd) },
  );
  io.out(cfg.json ? JSON.stringify({ result: report }, null, 2) + "\n" : renderDoctor(report));
  return report.ok ? EXIT_OK : EXIT_FINDINGS;
}
