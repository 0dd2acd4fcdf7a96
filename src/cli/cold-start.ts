/**
 * A command line that would build the index from nothing runs again in a child (`relaunch.ts`), and the
 * choice is made here, before the command's module loads: the first process then only resolves the
 * configuration and looks for the snapshot, instead of first evaluating the ≈ 85 modules of the indexer it
 * hands the work to (docs/performance.md, "thirteenth submission"). `run.ts` asks for the commands in
 * {@link OPENS_INDEX}.
 */
import { existsSync } from "node:fs";
import type { CliConfig, CommandName } from "./args.ts";
import type { CliIo } from "./io.ts";
import { configRequest } from "./config-request.ts";
import { isEnvError, resolveConfig } from "../workspace/config.ts";
import { snapshotPathFor } from "../project/home.ts";
import { BUILD } from "../version.ts";
import { waitForLiveWriter } from "../store/lock.ts";
import { FAILED_SAVE_SUFFIX, relaunchPlan, runRelaunched, typedCommandLine } from "./relaunch.ts";

/**
 * The commands that open the index (through `context.ts` `openWorkspace`), so may build it from nothing.
 * `setup` opens it as one step of a longer run and is never run again in a child; `mcp` lasts.
 */
export const OPENS_INDEX: ReadonlySet<CommandName> = new Set<CommandName>([
  "index",
  "find",
  "list",
  "define",
  "include",
  "file",
  "files",
  "refs",
  "uses",
  "unreferenced",
  "check",
  "strings",
  "export",
]);

/**
 * The exit status of this command line run again in a child without the JIT's top tier, when it is about
 * to build the index from nothing; null to go on in this process (also when the configuration does not
 * resolve: the command itself says why).
 */
export async function relaunchForColdBuild(cfg: CliConfig, io: CliIo): Promise<number | null> {
  const facts = {
    compiled: BUILD.commit !== null && typeof (globalThis as { Bun?: unknown }).Bun !== "undefined",
    argv: typedCommandLine(),
    env: io.env,
    watch: cfg.watch,
    snapshotExists: false,
    detach: false,
  };
  // Nothing but the snapshot would decide it: only then is the configuration resolved.
  if (relaunchPlan(facts) === null) return null;
  const config = resolveConfig(configRequest(cfg, io));
  if (isEnvError(config)) return null;
  const snapshot = snapshotPathFor(config.home, config.projectDir);
  // The run before may still be writing it after its answer (`detach.ts`): wait, then start warm.
  const lock = snapshot + ".lock";
  await waitForLiveWriter(snapshot, lock);
  const snapshotExists = existsSync(snapshot);
  // A save that failed after its run's end, or was cut short there (its lock is left: the process was
  // killed, say by a harness ending the process group), is not tried that way again: this one is seen.
  // (Asked only when a build from nothing follows.)
  const detach = !snapshotExists && process.platform !== "win32" && !existsSync(snapshot + FAILED_SAVE_SUFFIX) &&
    !existsSync(lock);
  const plan = relaunchPlan({ ...facts, snapshotExists, detach });
  return plan ? await runRelaunched(process.execPath, plan) : null;
}
