// The benchmarks' and the clients e2e's own error paths: a bad flag is refused with one line, and a
// command the clients e2e kills at its bound (or cannot start) says so instead of printing nothing.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { sh } from "../../scripts/clients-e2e.ts";

const REPO = join(import.meta.dirname, "..", "..");

function script(name: string, args: string[]) {
  const r = spawnSync(process.execPath, [join(REPO, "scripts", name), ...args], { cwd: REPO, encoding: "utf8" });
  return { status: r.status, stderr: r.stderr };
}

describe("benchmark flags", () => {
  test("bench-extract --rounds 1: refused (the first round is left out of the statistics)", () => {
    expect(script("bench-extract.ts", ["--base", REPO, "--rounds", "1"])).toEqual({
      status: 2,
      stderr: "bench-extract: --rounds must be a whole number of at least 2 (got 1)\n",
    });
  });

  test("bench-targets --barrier maybe: refused", () => {
    expect(script("bench-targets.ts", ["--barrier", "maybe"])).toEqual({
      status: 2,
      stderr: "bench-targets: --barrier is on or off (got maybe)\n",
    });
  });
});

describe("clients e2e: sh", () => {
  const env = process.env as Record<string, string>;

  test("a command killed at its bound says so", () => {
    const r = sh("sleep", ["5"], { cwd: REPO, env, timeoutMs: 200 });
    expect([r.status, r.out]).toEqual([null, "\nsleep: killed after 0.2 s"]);
  });

  test("a command that cannot start says why", () => {
    const r = sh("ra3-no-such-command", [], { cwd: REPO, env });
    // The runtime's own reason (Bun's wording; the tests run under the pinned Bun).
    expect([r.status, r.out]).toEqual([
      null,
      '\nra3-no-such-command: Executable not found in $PATH: "ra3-no-such-command"',
    ]);
  });

  test("a command that runs: its output, nothing added", () => {
    expect(sh("echo", ["hi"], { cwd: REPO, env })).toEqual({ status: 0, out: "hi\n", stdout: "hi\n" });
  });
});
