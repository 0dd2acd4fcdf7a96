// A run whose parent waits for its status on a pipe (src/cli/detach.ts) hands the status over once its
// answer is out and the writer's lock is held, then saves on its own: the answer and the status as
// without it, the snapshot complete afterwards, a failure of that save noted beside the snapshot for the
// next run, and nothing of it when no such pipe is there.
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { tempDirs } from "../temp-dirs.ts";
import { FAILED_SAVE_SUFFIX, STATUS_FD_OPTION } from "../../src/cli/relaunch.ts";
import { snapshotPathFor } from "../../src/project/home.ts";
import { deadPid } from "../store/dead-pid.ts";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { acquireLock, isLockBusy } from "../../src/store/lock.ts";

const TMP = tempDirs();
const ROOT = join(import.meta.dirname, "..", "..");
const MAIN = join(ROOT, "src", "main.ts");
const BIN = join(ROOT, "dist", "ra3");
const SAMPLE = join(ROOT, "examples", "sample-mod");
const SCRIPT = ["/usr/bin/script", "/bin/script"].find((p) => existsSync(p));

/** Runs ra3 from source with a status pipe on fd 3; resolves once the process has ended. */
function withStatusPipe(args: string[], pipe = true) {
  const child = spawn(process.execPath, [MAIN, ...args, "--no-progress"], {
    stdio: ["ignore", "pipe", "pipe", pipe ? "pipe" : "ignore"],
    env: { ...process.env, [STATUS_FD_OPTION]: "3" },
  });
  let stdout = "";
  let stderr = "";
  let status = "";
  child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  child.stdio[3]?.on("data", (c: Buffer) => (status += c.toString("latin1")));
  return new Promise<{ code: number | null; stdout: string; stderr: string; status: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr, status }))
  );
}

describe.skipIf(process.platform === "win32")("a run with a status pipe", () => {
  test("ra3 index: the summary, the snapshot 'being written', status 0, then the whole snapshot on disk", async () => {
    const home = TMP.make("ra3-detach-index-");
    const snapshot = snapshotPathFor(home, SAMPLE);
    const r = await withStatusPipe(["index", "--project", SAMPLE, "--home", home]);
    expect(r.code).toBe(0);
    expect(r.status).toBe("0\n");
    expect(r.stdout).toContain("ra3 0.1.0: indexed");
    expect(r.stdout.endsWith(`snapshot: ${snapshot} (being written)\n`)).toBe(true);
    expect(existsSync(snapshot)).toBe(true);
    expect(readdirSync(join(home, "snapshots")).sort()).toEqual([
      snapshot.split("/").pop()!.replace(/\.msgpack$/, ".meta.json"),
      snapshot.split("/").pop()!,
    ]);
    // The next run starts from it.
    const warm = spawnSync(process.execPath, [MAIN, "index", "--project", SAMPLE, "--home", home, "--json"], {
      encoding: "utf8",
    });
    expect(JSON.parse(warm.stdout).result.start.mode).toBe("warm");
  });

  test("a query's status is its own: a missing asset sends 1", async () => {
    const home = TMP.make("ra3-detach-miss-");
    const r = await withStatusPipe(["find", "NoSuchAsset", "--project", SAMPLE, "--home", home]);
    expect(r.code).toBe(1);
    expect(r.status).toBe("1\n");
    expect(r.stderr).toContain(`no asset has the id "NoSuchAsset"`);
    expect(existsSync(snapshotPathFor(home, SAMPLE))).toBe(true);
  });

  test("a save that fails after the parent went leaves its message beside the snapshot; the next run says it once", async () => {
    const home = TMP.make("ra3-detach-fail-");
    const snapshot = snapshotPathFor(home, SAMPLE);
    const meta = snapshot.replace(/\.msgpack$/, ".meta.json");
    // The meta file cannot be written (a folder has its name): the save fails after taking the lock.
    mkdirSync(join(meta, "blocker"), { recursive: true });
    const r = await withStatusPipe(["index", "--project", SAMPLE, "--home", home]);
    expect(r.code).toBe(0);
    expect(r.status).toBe("0\n");
    expect(r.stdout.endsWith("(being written)\n")).toBe(true);
    expect(r.stderr).toBe(""); // the warning went to the null device: the note is what is left
    const note = readFileSync(snapshot + FAILED_SAVE_SUFFIX, "utf8");
    expect(note).toStartWith(`could not write the snapshot ${snapshot}`);
    rmSync(meta, { recursive: true });
    const again = spawnSync(process.execPath, [MAIN, "index", "--project", SAMPLE, "--home", home], {
      encoding: "utf8",
    });
    expect(again.status).toBe(0);
    // Said once by the next run, which then saves.
    expect(again.stderr).toContain(
      `ra3: warning: the snapshot was not saved after an earlier run had answered: could not write the snapshot ${snapshot}`,
    );
    expect(existsSync(snapshot + FAILED_SAVE_SUFFIX)).toBe(false);
    expect(existsSync(meta)).toBe(true);
  });

  test("the variable without a pipe on fd 3: the save is the run's own, its line says the size", async () => {
    const home = TMP.make("ra3-detach-nopipe-");
    const r = await withStatusPipe(["index", "--project", SAMPLE, "--home", home], false);
    expect(r.code).toBe(0);
    expect(r.status).toBe("");
    expect(r.stdout).toMatch(/\nsnapshot: .*\.msgpack \(\d+(\.\d)? KB\)\n$/);
  });
});

describe.skipIf(process.platform === "win32")("releaseParent", () => {
  test("the status goes through the pipe; stdout and stderr then write nowhere; a hang-up does not end the save", async () => {
    const marker = join(TMP.make("ra3-detach-hup-"), "saved.txt");
    const detach = JSON.stringify(join(ROOT, "src", "cli", "detach.ts"));
    // Stands in for a command: answers, lets the parent go, is hung up on (a pty closed), finishes.
    const script = `const d = await import(${detach});
      process.stdout.write("answer\\n");
      const ok = d.releaseParent(4);
      console.log("after release");
      process.kill(process.pid, "SIGHUP");
      await Bun.sleep(50);
      require("fs").writeFileSync(${JSON.stringify(marker)}, String(ok));`;
    const child = spawn(process.execPath, ["-e", script], {
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      env: { ...process.env, [STATUS_FD_OPTION]: "3" },
    });
    let stdout = "";
    let status = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stdio[3]!.on("data", (c: Buffer) => (status += c.toString("latin1")));
    const code = await new Promise((resolve) => child.on("close", (c, sig) => resolve(c ?? sig)));
    expect([code, status, stdout]).toEqual([0, "4\n", "answer\n"]);
    expect(readFileSync(marker, "utf8")).toBe("true");
  });
});

describe.skipIf(!existsSync(BIN) || process.platform === "win32")("dist/ra3: a cold build saves after its exit", () => {
  test("cold index says 'being written'; the next run, at once, starts warm from the whole snapshot", () => {
    const home = TMP.make("ra3-detach-bin-");
    const env = { ...process.env, RA3_WAIT_FOR_SAVE: undefined, BUN_JSC_useFTLJIT: undefined };
    const cold = spawnSync(BIN, ["index", "--project", SAMPLE, "--home", home, "--no-progress"], {
      encoding: "utf8",
      env,
    });
    expect(cold.status).toBe(0);
    expect(cold.stdout).toContain(`snapshot: ${snapshotPathFor(home, SAMPLE)} (being written)\n`);
    const warm = spawnSync(BIN, ["index", "--project", SAMPLE, "--home", home, "--json"], { encoding: "utf8", env });
    const result = JSON.parse(warm.stdout).result;
    expect([result.start.mode, result.snapshot.unchanged]).toEqual(["warm", true]);
  });

  test("after a save cut short (a dead writer's lock, no snapshot) or failed (its note): the run saves in sight", () => {
    for (const left of ["lock", "note"] as const) {
      const home = TMP.make("ra3-detach-left-");
      const snapshot = snapshotPathFor(home, SAMPLE);
      mkdirSync(join(home, "snapshots"), { recursive: true });
      if (left === "lock") {
        const owner = { pid: deadPid(), hostname: hostname(), createdAt: new Date().toISOString(), token: "ab" };
        writeFileSync(snapshot + ".lock", JSON.stringify(owner));
      } else writeFileSync(snapshot + FAILED_SAVE_SUFFIX, "could not write the snapshot (ENOSPC)\n");
      const r = spawnSync(BIN, ["index", "--project", SAMPLE, "--home", home, "--no-progress"], {
        encoding: "utf8",
        env: { ...process.env, RA3_WAIT_FOR_SAVE: undefined, BUN_JSC_useFTLJIT: undefined },
      });
      expect([left, r.status]).toEqual([left, 0]);
      if (left === "note") {
        expect(r.stderr).toContain(
          "ra3: warning: the snapshot was not saved after an earlier run had answered: could not write the snapshot (ENOSPC)\n",
        );
      }
      expect(r.stdout).toMatch(/\nsnapshot: .*\.msgpack \(\d+(\.\d)? KB\)\n$/);
      expect(readdirSync(join(home, "snapshots")).sort()).toEqual([
        snapshot.split("/").pop()!.replace(/\.msgpack$/, ".meta.json"),
        snapshot.split("/").pop()!,
      ]);
    }
  });

  test.skipIf(!SCRIPT)("output to a terminal (whose stream may buffer): the run saves before it ends", () => {
    const home = TMP.make("ra3-detach-tty-");
    // util-linux script(1) runs the command on a pseudo-terminal and copies what it shows.
    const r = spawnSync(
      SCRIPT!,
      ["-qc", `${BIN} index --project ${SAMPLE} --home ${home} --no-progress`, "/dev/null"],
      {
        encoding: "utf8",
        env: { ...process.env, RA3_WAIT_FOR_SAVE: undefined, BUN_JSC_useFTLJIT: undefined },
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nsnapshot: .*\.msgpack \(\d+(\.\d)? KB\)\r?\n$/);
  });

  test("RA3_WAIT_FOR_SAVE=1: the run ends with its snapshot on disk and says its size", () => {
    const home = TMP.make("ra3-detach-wait-");
    const r = spawnSync(BIN, ["index", "--project", SAMPLE, "--home", home, "--no-progress"], {
      encoding: "utf8",
      env: { ...process.env, RA3_WAIT_FOR_SAVE: "1", BUN_JSC_useFTLJIT: undefined },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nsnapshot: .*\.msgpack \(\d+(\.\d)? KB\)\n$/);
    expect(readdirSync(join(home, "snapshots")).filter((n) => n.endsWith(".lock"))).toEqual([]);
  });
});

describe("readers of a snapshot being written", () => {
  test("ra3 status and ra3 doctor wait for a live writer of a missing snapshot, then read it", async () => {
    const made = TMP.make("ra3-detach-made-");
    expect(await run(["index", "--project", SAMPLE, "--home", made, "--no-progress", "--quiet"], memoryIo(ROOT))).toBe(
      0,
    );
    for (const command of ["status", "doctor"]) {
      const home = TMP.make("ra3-detach-reader-");
      const snapshot = snapshotPathFor(home, SAMPLE);
      const lock = acquireLock(snapshot + ".lock");
      if (isLockBusy(lock)) throw new Error("lock busy");
      // The writer finishes later: the snapshot appears, then its lock goes.
      setTimeout(() => {
        for (const suffix of [".msgpack", ".meta.json"]) {
          const name = snapshot.replace(/\.msgpack$/, suffix);
          copyFileSync(snapshotPathFor(made, SAMPLE).replace(/\.msgpack$/, suffix), name);
        }
        lock.release();
      }, 50);
      const io = memoryIo(ROOT);
      await run([command, "--project", SAMPLE, "--home", home, "--json"], io);
      const result = JSON.parse(io.stdout).result;
      if (command === "status") expect(result.snapshot.exists).toBe(true);
      else {
        const checks = result.checks.filter((c: { group: string }) => c.group === "snapshot");
        expect(checks.map((c: { ok: boolean }) => c.ok)).toEqual([true]);
      }
    }
  });
});
