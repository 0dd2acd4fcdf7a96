/** A pid for stale-lock and leftover tests: one that certainly existed and has exited. */
import { spawnSync } from "node:child_process";

/** Runs a process that prints its pid and exits; returns that pid. */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}
