// `ra3 --version` of the compiled binary: the package version, the short commit it was built from and the
// build date, embedded by scripts/build.ts; and the line format for builds (versionLine).
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TOOL_VERSION, versionLine } from "../../src/version.ts";
import { buildInfo } from "../../scripts/build.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "dist", "ra3");

describe("versionLine", () => {
  test("a build names its commit and date; a source run says it is not a build", () => {
    expect(versionLine({ commit: "cf8fc17", date: "2026-12-01" })).toBe(
      `ra3 ${TOOL_VERSION} (cf8fc17, built 2026-12-01)`,
    );
    expect(versionLine({ commit: "cf8fc17-dirty", date: null })).toBe(
      `ra3 ${TOOL_VERSION} (cf8fc17-dirty, built on an unknown date)`,
    );
    expect(versionLine({ commit: null, date: null })).toBe(`ra3 ${TOOL_VERSION} (from source, not a build)`);
  });

  test("buildInfo takes the date from SOURCE_DATE_EPOCH when set (reproducible builds)", () => {
    const info = buildInfo(ROOT, { SOURCE_DATE_EPOCH: "1767225600" });
    expect(info.date).toBe("2026-01-01");
    expect(info.commit).toMatch(/^([0-9a-f]{7}(-dirty)?|unknown)$/);
  });
});

describe.skipIf(!existsSync(BIN))("dist/ra3 --version", () => {
  test("prints version, a commit of this repository and the build date", () => {
    const r = spawnSync(BIN, ["--version"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const m = /^ra3 (\S+) \(([0-9a-f]{7})(-dirty)?, built (\d{4}-\d\d-\d\d)\)\n$/.exec(r.stdout);
    expect(m).not.toBeNull();
    expect(m![1]).toBe(TOOL_VERSION);
    // The hash names a real commit (the binary may be older than HEAD when built before a commit).
    expect(spawnSync("git", ["cat-file", "-e", `${m![2]}^{commit}`], { cwd: ROOT }).status).toBe(0);
    expect(Number.isNaN(Date.parse(m![4]))).toBe(false);
    const json = JSON.parse(spawnSync(BIN, ["--version", "--json"], { encoding: "utf8" }).stdout);
    expect(json).toEqual({ tool: "ra3", version: TOOL_VERSION, commit: m![2] + (m![3] ?? ""), buildDate: m![4] });
  });
});
