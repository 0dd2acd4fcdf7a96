// The compiled binary with unusual kinds of standard input. Under Wine, Bun's Windows runtime failed at
// start in Bun.stdin.stream() when stdin was a Linux pipe (EBADF); the Linux binary must not fail like
// that with any kind of stdin: a file, an OS pipe, a FIFO, /dev/null, a closed fd 0, a folder, and no
// controlling terminal. (A socket pair, what Node's spawn gives a child, is covered by mcp.test.ts.)
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDirs } from "../temp-dirs.ts";
import { MCP_SESSION } from "../../scripts/smoke.ts";

const TMP = tempDirs();

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "dist", "ra3");
const SAMPLE = join(ROOT, "examples", "sample-mod");
const TIMEOUT = 60_000;
/** The kinds of stdin are made with a POSIX shell (on Windows the hosted CI smoke covers ra3.exe). */
const POSIX = process.platform !== "win32";

const work = TMP.make("ra3-stdin-");
const INPUT = join(work, "requests.jsonl");
// initialize, initialized, tools/list, get_status: answers with ids 1, 2, 3.
writeFileSync(INPUT, MCP_SESSION);

/** Runs `script` in sh with $BIN, $INPUT and $MCP (the server's arguments) set; stdout lines, stderr, status. */
function sh(script: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BIN,
    INPUT,
    WORK: work,
    MCP: `mcp --project ${SAMPLE} --home ${join(work, "home")}`,
  };
  delete env.RA3_SDK;
  const r = spawnSync("/bin/sh", ["-c", script], {
    env,
    encoding: "utf8",
    timeout: 30_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { ids: r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l).id), err: r.stderr, status: r.status };
}

/** An uncaught exception: Bun prints the failing source lines ("3 | …"), a stack and its version banner. */
const crashed = (err: string) => /Bun v\d|^\s+at \S|^\s*\d+ \| /m.test(err);

describe.skipIf(!POSIX || !existsSync(BIN))("dist/ra3 mcp with unusual stdin", () => {
  const answered = { ids: [1, 2, 3], status: 0 };

  test("a regular file", () => {
    const r = sh('"$BIN" $MCP < "$INPUT"');
    expect({ ids: r.ids, status: r.status }).toEqual(answered);
    expect(crashed(r.err)).toBe(false);
  }, TIMEOUT);

  test("an OS pipe (cat | ra3)", () => {
    const r = sh('cat "$INPUT" | "$BIN" $MCP');
    expect({ ids: r.ids, status: r.status }).toEqual(answered);
  }, TIMEOUT);

  test("a FIFO", () => {
    const r = sh('mkfifo "$WORK/fifo" && (cat "$INPUT" > "$WORK/fifo" &) && "$BIN" $MCP < "$WORK/fifo"');
    expect({ ids: r.ids, status: r.status }).toEqual(answered);
  }, TIMEOUT);

  test("no controlling terminal (setsid), stdin a file", () => {
    const r = sh('setsid -w "$BIN" $MCP < "$INPUT"');
    expect({ ids: r.ids, status: r.status }).toEqual(answered);
  }, TIMEOUT);

  test("/dev/null: no request, clean exit 0", () => {
    const r = sh('"$BIN" $MCP < /dev/null');
    expect({ ids: r.ids, status: r.status, crashed: crashed(r.err) }).toEqual({ ids: [], status: 0, crashed: false });
  }, TIMEOUT);

  test("fd 0 closed: clean exit 0", () => {
    const r = sh('exec 0<&-; "$BIN" $MCP');
    expect({ ids: r.ids, status: r.status, crashed: crashed(r.err) }).toEqual({ ids: [], status: 0, crashed: false });
  }, TIMEOUT);

  test("a folder: exit 3 with a clear error, no crash", () => {
    const r = sh('"$BIN" $MCP < "$WORK"');
    expect({ ids: r.ids, status: r.status, crashed: crashed(r.err) }).toEqual({ ids: [], status: 3, crashed: false });
    expect(r.err).toContain("ra3: cannot read standard input (EISDIR); ra3 mcp reads JSON-RPC from stdin");
  }, TIMEOUT);
});

describe.skipIf(!POSIX || !existsSync(BIN))("other commands do not touch stdin", () => {
  test("--version and index with fd 0 closed, /dev/null or a folder", () => {
    for (const redirect of ["0<&-", "< /dev/null", '< "$WORK"']) {
      const v = spawnSync("/bin/sh", ["-c", `"$BIN" --version ${redirect}`], {
        env: { ...process.env, BIN, WORK: work },
        encoding: "utf8",
      });
      expect([v.status, v.stdout.startsWith("ra3 ")]).toEqual([0, true]);
      const i = spawnSync("/bin/sh", [
        "-c",
        `"$BIN" index --json --no-progress --project "$P" --home "$WORK/h" ${redirect}`,
      ], {
        env: { ...process.env, BIN, WORK: work, P: SAMPLE, RA3_SDK: "" },
        encoding: "utf8",
      });
      expect([i.status, JSON.parse(i.stdout).result.files.total]).toEqual([0, 15]);
    }
  }, TIMEOUT);
});
