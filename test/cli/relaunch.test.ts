// A one-shot command about to build from nothing runs again in a child without the top JIT tier
// (src/cli/relaunch.ts): when it does and when it does not, the child's exit status handed back, and the
// compiled binary doing it for real (one child on a cold build, none on a warm start, the same answer).
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  FTL_OPTION,
  HEAP_OPTION,
  type RelaunchFacts,
  relaunchPlan,
  runRelaunched,
  STATUS_FD_OPTION,
  WAIT_FOR_SAVE_OPTION,
} from "../../src/cli/relaunch.ts";
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
  detach: false,
};

describe("relaunchPlan", () => {
  test("a compiled one-shot run with no snapshot runs its command line again with the option off", () => {
    expect(relaunchPlan(COLD)).toEqual({
      args: ["index", "--project", "C:\\Mods\\My Mod"],
      env: { PATH: "/usr/bin", RA3_HOME: "/h", [FTL_OPTION]: "0", [HEAP_OPTION]: "268435456" },
      detach: false,
    });
  });

  test("a child that may save after its answer is told its status pipe; one that may not, never", () => {
    const plan = relaunchPlan({ ...COLD, detach: true })!;
    expect(plan.detach).toBe(true);
    expect(plan.env[STATUS_FD_OPTION]).toBe("3");
    // A value inherited from somewhere else is not passed on to a child that has no pipe.
    const inherited = relaunchPlan({ ...COLD, env: { ...COLD.env, [STATUS_FD_OPTION]: "3" } })!;
    expect(inherited.detach).toBe(false);
    expect(STATUS_FD_OPTION in inherited.env).toBe(false);
  });

  test('RA3_WAIT_FOR_SAVE set: the run waits for its save ("0" or empty: it does not)', () => {
    const waits = (v: string) =>
      relaunchPlan({ ...COLD, detach: true, env: { ...COLD.env, [WAIT_FOR_SAVE_OPTION]: v } })!;
    expect(waits("1").detach).toBe(false);
    expect(STATUS_FD_OPTION in waits("1").env).toBe(false);
    expect(waits("yes").detach).toBe(false);
    expect(waits("0").detach).toBe(true);
    expect(waits("").detach).toBe(true);
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
  const plan = (args: string[], env: Record<string, string | undefined>, detach = false) => ({ args, env, detach });
  test("hands back the child's exit status", async () => {
    expect(await runRelaunched(bun, plan(["-e", "process.exit(3)"], process.env))).toBe(3);
    expect(await runRelaunched(bun, plan(["-e", `process.exit(process.env.X === "y" ? 0 : 4)`], { X: "y" }))).toBe(0);
  });

  test.skipIf(process.platform === "win32")("a child ended by a signal: 128 + its number", async () => {
    const r = await runRelaunched(bun, plan(["-e", "process.kill(process.pid, 'SIGTERM')"], process.env));
    expect(r).toBe(143);
    const detached = await runRelaunched(bun, plan(["-e", "process.kill(process.pid, 'SIGTERM')"], process.env, true));
    expect(detached).toBe(143);
  });

  test.skipIf(process.platform === "win32")("detached: the status from the pipe, before the child's end", async () => {
    const marker = join(TMP.make("ra3-relaunch-late-"), "ended.txt");
    // The child sends 5, then works on (ends 0) and leaves a file once done.
    const script = `require("fs").writeSync(3, "5\\n"); require("fs").closeSync(3);
      setTimeout(() => require("fs").writeFileSync(${JSON.stringify(marker)}, "x"), 400);`;
    const status = await runRelaunched(bun, plan(["-e", script], process.env, true));
    expect(status).toBe(5);
    expect(existsSync(marker)).toBe(false); // the child is still working
    for (let i = 0; i < 200 && !existsSync(marker); i++) await Bun.sleep(10);
    expect(existsSync(marker)).toBe(true);
  });

  test.skipIf(process.platform === "win32")("detached: a child that ends without a status gives its own", async () => {
    expect(await runRelaunched(bun, plan(["-e", "process.exit(6)"], process.env, true))).toBe(6);
    // A half line and then the end: the end decides.
    expect(await runRelaunched(bun, plan(["-e", `require("fs").writeSync(3, "7"); process.exit(2)`], {}, true)))
      .toBe(2);
  });

  test("a program that cannot start: null (the caller builds in its own process)", async () => {
    const missing = join(TMP.make("ra3-relaunch-"), "missing");
    expect(await runRelaunched(missing, plan([], {}))).toBeNull();
    expect(await runRelaunched(missing, plan([], {}, true))).toBeNull();
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
