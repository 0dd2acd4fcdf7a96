// Runs the whole test suite with `bun test` and ends with the plain line `N passed, N failed`
// (the line this workplace's CI reads). Exit status is bun's.
// Usage: bun scripts/test.ts [bun test args...]
import { spawn } from "node:child_process";

// A test's own time limit, unless one is given: many tests build real mods or run a server over stdio,
// which takes seconds on a busy 2-core machine (bun's default of 5 s timed such tests out at load 8-12).
// A hung test still fails, after 30 s. No test asserts a time.
const given = process.argv.slice(2);
const timeout = given.some((a) => a.startsWith("--timeout")) ? [] : ["--timeout", "30000"];
const child = spawn(process.execPath, ["test", ...timeout, ...given], {
  stdio: ["ignore", "pipe", "pipe"],
  env: { ...process.env, MSGPACKR_NATIVE_ACCELERATION_DISABLED: "true" },
});
let tail = "";
function relay(chunk: Buffer, to: NodeJS.WriteStream): void {
  to.write(chunk);
  tail = (tail + chunk.toString("utf8")).slice(-4000);
}
child.stdout.on("data", (c: Buffer) => relay(c, process.stdout));
child.stderr.on("data", (c: Buffer) => relay(c, process.stderr));
child.on("close", (code) => {
  const count = (word: string): number => {
    const m = [...tail.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\s*$`, "gm"))];
    return m.length ? Number(m[m.length - 1][1]) : 0;
  };
  const skipped = count("skip");
  const line = `${count("pass")} passed, ${count("fail")} failed` + (skipped ? `, ${skipped} skipped` : "");
  process.stdout.write(line + "\n");
  process.exit(code ?? 1);
});
