/**
 * The samples in `docs/cli.md` are real: every fenced block that starts with `$ ra3 …` is run in-process
 * on a copy of the sample mod (at `<tmp>/mods/sample-mod`, shown as `/home/me/mods/sample-mod`), in the
 * doc's order, and its output must be the block's text. Only what differs per run is normalised: the
 * temporary folder, the tool version, build times and ages, the snapshot's path hash and the timing line.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { TOOL_VERSION } from "../../src/version.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const DOC = readFileSync(join(ROOT, "docs", "cli.md"), "utf8");
const TMP = mkdtempSync(join(tmpdir(), "ra3-cli-doc-"));
const PROJECT = join(TMP, "mods", "sample-mod");
const HOME = join(TMP, "home");
cpSync(join(ROOT, "examples", "sample-mod"), PROJECT, { recursive: true });
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

interface Sample {
  readonly args: string[];
  readonly expected: string;
}

/** Every ```-block whose first line is `$ ra3 ARGS`: the arguments and the rest of the block. */
function samples(markdown: string): Sample[] {
  const out: Sample[] = [];
  for (const m of markdown.matchAll(/^```\n\$ ra3 ([^\n]*)\n([\s\S]*?)^```$/gm)) {
    out.push({ args: m[1].trim().split(/\s+/), expected: m[2] });
  }
  return out;
}

/** What differs from run to run, made equal on both sides. */
function normalise(text: string): string {
  return text
    .replaceAll(TMP, "/home/me")
    .replaceAll(`ra3 ${TOOL_VERSION}`, "ra3 <version>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, "<time>")
    .replace(/\(\d+ s ago\)/g, "(N s ago)")
    .replace(/-[0-9a-f]{12}\.msgpack/g, "-<hash>.msgpack")
    .replace(/^time: .*$/gm, (line) => line.replace(/\d+/g, "N"));
}

const SAMPLES = samples(DOC);

describe("docs/cli.md samples, re-run on the sample mod", () => {
  test("the doc has a sample for each query command", () => {
    expect(SAMPLES.map((s) => s.args[0])).toEqual([
      "index",
      "find",
      "refs",
      "uses",
      "list",
      "define",
      "include",
      "file",
      "file",
      "files",
      "unreferenced",
      "check",
      "strings",
      "status",
    ]);
  });

  for (const s of SAMPLES) {
    test(`$ ra3 ${s.args.join(" ")}`, async () => {
      const io = memoryIo(PROJECT, { RA3_HOME: HOME });
      await run(["--no-progress", ...s.args], io);
      expect(normalise(io.stdout)).toBe(normalise(s.expected));
    });
  }
});
