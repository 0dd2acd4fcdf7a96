/**
 * The SARIF 2.1.0 zod schema used by the corpus tests: it rejects each rule it encodes, and accepts
 * `toSarif` output (here on the sample mod, whose paths contain a space; the corpus test runs it on
 * Upheaval).
 */
import { describe, expect, test } from "bun:test";
import { toSarif } from "../../src/cli/sarif.ts";
import { collectDiagnostics } from "../../src/query/check.ts";
import { ok, SAMPLE, sampleIndex } from "../query/sample.ts";
import { sarifLog } from "./sarif-schema.ts";

const good = () => ({
  $schema: "https://json.schemastore.org/sarif-2.1.0.json",
  version: "2.1.0",
  runs: [
    {
      tool: {
        driver: {
          name: "ra3",
          version: "0.1.0",
          rules: [{ id: "xml-syntax", shortDescription: { text: "x" }, defaultConfiguration: { level: "error" } }],
        },
      },
      originalUriBaseIds: { PROJECTROOT: { uri: "file:///mods/Test%20Mod/" } },
      results: [
        {
          ruleId: "xml-syntax",
          ruleIndex: 0,
          level: "error",
          message: { text: "bad" },
          locations: [{
            physicalLocation: {
              artifactLocation: { uri: "Data/Allied%20Units/A.xml", uriBaseId: "PROJECTROOT" },
              region: { startLine: 1, startColumn: 1 },
            },
          }],
        },
      ],
      columnKind: "utf16CodeUnits",
    },
  ],
});

// deno-lint-ignore no-explicit-any -- the mutations poke at arbitrary JSON
type Json = any;

/** The messages zod reports for `doc` after `mutate` (empty when valid). */
function problems(mutate: (d: Json) => void): string[] {
  const d = good();
  mutate(d);
  const r = sarifLog.safeParse(d);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("the SARIF schema", () => {
  test("accepts a well-formed log", () => {
    expect(problems(() => {})).toEqual([]);
  });

  test("rejects each broken rule", () => {
    const cases: [string, (d: Json) => void][] = [
      ["version", (d) => (d.version = "2.0.0")],
      ["unknown top-level key", (d) => (d.extra = 1)],
      ["driver name", (d) => (d.runs[0].tool.driver.name = "")],
      ["message text", (d) => delete d.runs[0].results[0].message.text],
      ["level", (d) => (d.runs[0].results[0].level = "info")],
      ["rule level", (d) => (d.runs[0].tool.driver.rules[0].defaultConfiguration.level = "information")],
      ["ruleIndex range", (d) => (d.runs[0].results[0].ruleIndex = 1)],
      ["ruleIndex/ruleId", (d) => (d.runs[0].results[0].ruleId = "other")],
      ["uriBaseId", (d) => (d.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uriBaseId = "SRCROOT")],
      [
        "uri with a raw space",
        (d) => (d.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = "Data/Allied Units/A.xml"),
      ],
      ["base uri without slash", (d) => (d.runs[0].originalUriBaseIds.PROJECTROOT.uri = "file:///mods/Test%20Mod")],
      ["startLine", (d) => (d.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0)],
      ["startColumn", (d) => (d.runs[0].results[0].locations[0].physicalLocation.region.startColumn = 0)],
      ["columnKind", (d) => (d.runs[0].columnKind = "bytes")],
      ["unknown result key", (d) => (d.runs[0].results[0].severity = "error")],
      ["duplicate rule id", (d) => d.runs[0].tool.driver.rules.push({ id: "xml-syntax" })],
    ];
    for (const [name, mutate] of cases) {
      expect({ name, rejected: problems(mutate).length > 0 }).toEqual({ name, rejected: true });
    }
  });

  test("toSarif on the sample mod is valid and has one result per diagnostic", async () => {
    const linked = await sampleIndex();
    const all = ok(collectDiagnostics(linked, null));
    const log = toSarif(SAMPLE, all.diagnostics);
    const parsed = sarifLog.safeParse(log);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const run = (log as Json).runs[0];
    expect(run.results.length).toBe(all.diagnostics.length);
    expect(run.results.map((r: Json) => r.locations?.[0].physicalLocation.artifactLocation.uri ?? null)).toEqual([
      null,
      null,
      "Data/Includes/Loop/LoopB.xml",
      "Data/Standalone.xml",
    ]);
  });
});
