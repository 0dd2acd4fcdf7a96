// A one-shot command about to build from nothing runs again in a child without the top JIT tier
// (src/cli/relaunch.ts): when it does and when it does not, the child's exit status handed back, and the
// compiled binary doing it for real (one child on a cold build, none on a warm start, the same answer).
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FTL_OPTION, HEAP_OPTION, type RelaunchFacts, relaunchPlan, runRelaunched } from "../../src/cli/relaunch.ts";
import { OPENS_INDEX } from "../../src/cli/cold-start.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();
const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "dist", "ra3");
const SAMPLE = join(ROOT, "examples", "sample-mod");

const COLD: RelaunchFacts = {
  compiled: true,
  argv: ["index", "--project", "C:\\Mods\\My Mod"],
  env: { PATH: "/usr/bin", RA3_HOME: "/h" },
  watch: false,
  snapshotExists: false,
};

describe("relaunchPlan", () => {
  test("a compiled one-shot run with no snapshot runs its command line again with the option off", () => {
    expect(relaunchPlan(COLD)).toEqual({
      args: ["index", "--project", "C:\\Mods\\My Mod"],
      env: { PATH: "/usr/bin", RA3_HOME: "/h", [FTL_OPTION]: "0", [HEAP_OPTION]: "268435456" },
    });
  });

  test("the collector's allowance set by the user is kept in the child", () => {
    const plan = relaunchPlan({ ...COLD, env: { ...COLD.env, [HEAP_OPTION]: "1048576" } })!;
    expect(plan.env[HEAP_OPTION]).toBe("1048576");
    expect(plan.env[FTL_OPTION]).toBe("0");
  });

  test("nothing relaunches with a snapshot, from source, without a typed command line, or with --watch", () => {
    expect(relaunchPlan({ ...COLD, snapshotExists: true })).toBeNull();
    expect(relaunchPlan({ ...COLD, compiled: false })).toBeNull();
    expect(relaunchPlan({ ...COLD, argv: null })).toBeNull();
    expect(relaunchPlan({ ...COLD, watch: true })).toBeNull();
  });

  test("the option already set (by the user, or in the child itself) is left alone: no relaunch, no loop", () => {
    expect(relaunchPlan({ ...COLD, env: { ...COLD.env, [FTL_OPTION]: "1" } })).toBeNull();
    const child = relaunchPlan(COLD)!;
    expect(relaunchPlan({ ...COLD, env: child.env })).toBeNull();
  });
});

describe("OPENS_INDEX: the commands whose cold build is run in a child", () => {
  test("is every command whose module opens the index, except setup (one step of a longer run)", () => {
    const dir = join(ROOT, "src", "cli", "commands");
    const opening = readdirSync(dir)
      .filter((f) => f.endsWith(".ts") && readFileSync(join(dir, f), "utf8").includes("openWorkspace("))
      .map((f) => f.slice(0, -3))
      .filter((name) => name !== "setup")
      .sort();
    expect([...OPENS_INDEX].sort() as string[]).toEqual(opening);
    expect(opening).toContain("find");
    expect(OPENS_INDEX.has("mcp")).toBe(false);
  });
});

describe("runRelaunched", () => {
  const bun = process.execPath;
  test("hands back the child's exit status", () => {
    expect(runRelaunched(bun, { args: ["-e", "process.exit(3)"], env: process.env })).toBe(3);
    expect(runRelaunched(bun, { args: ["-e", `process.exit(process.env.X === "y" ? 0 : 4)`], env: { X: "y" } })).toBe(
      0,
    );
  });

  test.skipIf(process.platform === "win32")("a child ended by a signal: 128 + its number", () => {
    expect(runRelaunched(bun, { args: ["-e", "process.kill(process.pid, 'SIGTERM')"], env: process.env })).toBe(143);
  });

  test("a program that cannot start: null (the caller builds in its own process)", () => {
    expect(runRelaunched(join(TMP.make("ra3-relaunch-"), "missing"), { args: [], env: {} })).toBeNull();
  });
});

const STRACE = ["/usr/bin/strace", "/bin/strace"].find((p) => existsSync(p));

describe.skipIf(!existsSync(BIN) || !STRACE || process.platform !== "linux")("dist/ra3 on a cold build", () => {
  /** The programs the run started (itself first), with the option's value each saw. */
  function traced(args: string[], env: Record<string, string | undefined>) {
    const log = join(TMP.make("ra3-relaunch-trace-"), "execve.txt");
    const r = spawnSync(STRACE!, ["-f", "-v", "-s", "256", "-e", "trace=execve", "-o", log, BIN, ...args], {
      encoding: "utf8",
      env,
    });
    const execs = readFileSync(log, "utf8").split("\n").filter((l) => /execve\(.*\) = 0$/.test(l));
    const options = execs.map((l) => new RegExp(`"${FTL_OPTION}=([^"]*)"`).exec(l)?.[1] ?? null);
    const heaps = execs.map((l) => new RegExp(`"${HEAP_OPTION}=([^"]*)"`).exec(l)?.[1] ?? null);
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, options, heaps };
  }

  test("one child with the option off, then a warm start with none; the answer is the same as without it", () => {
    const home = TMP.make("ra3-relaunch-home-");
    const env = { ...process.env, [FTL_OPTION]: undefined, [HEAP_OPTION]: undefined };
    const cold = traced(["find", "BaseVehicle", "--project", SAMPLE, "--home", home, "--no-progress"], env);
    expect(cold.status).toBe(0);
    expect(cold.options).toEqual([null, "0"]);
    // The engine of the binary knows the second option: it started, and answered.
    expect(cold.heaps).toEqual([null, "268435456"]);
    const warm = traced(["find", "BaseVehicle", "--project", SAMPLE, "--home", home, "--no-progress"], env);
    expect(warm.options).toEqual([null]);
    expect(warm.stdout).toBe(cold.stdout);
    expect(cold.stdout).toContain("BaseVehicle");

    // The option set by the user: built in the first process, the same answer.
    const own = traced(["find", "BaseVehicle", "--project", SAMPLE, "--home", TMP.make("ra3-relaunch-own-")], {
      ...env,
      [FTL_OPTION]: "1",
    });
    expect(own.options).toEqual(["1"]);
    expect(own.stdout).toBe(cold.stdout);
  });

  test("a project that does not resolve starts no child: the command says why, once, and exits 3", () => {
    const missing = join(TMP.make("ra3-relaunch-noproj-"), "no-such-mod");
    const r = traced(["find", "BaseVehicle", "--project", missing, "--home", TMP.make("ra3-relaunch-nohome-")], {
      ...process.env,
      [FTL_OPTION]: undefined,
      [HEAP_OPTION]: undefined,
    });
    expect(r.options).toEqual([null]);
    expect(r.status).toBe(3);
    expect(r.stderr).toBe(`ra3: the project folder ${missing} does not exist; check --project\n`);
  });

  test("the child's exit status is the command's: a missing asset exits 1 from a cold build", () => {
    const r = traced(["find", "NoSuchAsset", "--project", SAMPLE, "--home", TMP.make("ra3-relaunch-miss-")], {
      ...process.env,
      [FTL_OPTION]: undefined,
    });
    expect(r.options).toEqual([null, "0"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`no asset has the id "NoSuchAsset"`);
  });
});
