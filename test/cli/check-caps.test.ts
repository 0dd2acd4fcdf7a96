// The 10^6-unknown-elements case scaled down: one asset holding 5,000 elements the schema does not declare.
// Every output lists 200 of them and says, with the exact count, that 4,800 more are not listed: `ra3
// check` text, `--json`, SARIF (a summary result and a notification) and the MCP tool check_files.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { sarifLog } from "../corpus/sarif-schema.ts";
import { bodyOf, connect, resultOf } from "../mcp/harness.ts";

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");
const N = 5000;
const base = mkdtempSync(join(tmpdir(), "ra3-caps-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const MOD = join(base, "Unknown Elements");
mkdirSync(join(MOD, "Data"), { recursive: true });
cpSync(join(SAMPLE, "Schemas"), join(MOD, "Schemas"), { recursive: true });
// Line 1 declaration, 2 root, 3 the asset: the unknown elements are on lines 4 … 5003.
writeFileSync(
  join(MOD, "Data", "Mod.xml"),
  '<?xml version="1.0" encoding="utf-8"?>\n<AssetDeclaration xmlns="uri:ea.com:eala:asset">\n' +
    '<WeaponTemplate id="Unknowns" AttackRange="1">\n' + "<Zzz/>\n".repeat(N) +
    "</WeaponTemplate>\n</AssetDeclaration>\n",
);
const HOME = join(base, "home");

async function check(...args: string[]) {
  const io = memoryIo(MOD, { RA3_HOME: HOME });
  const code = await run(["check", "--no-progress", ...args], io);
  return { code, out: io.stdout, err: io.stderr };
}

const MESSAGE = "element <Zzz> is not declared in the schema";
const SENTENCE =
  "4800 more unknown-element warnings in this file are not listed (at most 200 of one code and 1000 in one file are)";

describe("diagnostic caps on 5,000 unknown elements in one file", () => {
  test("text: 200 lines, then one line with the count and where the rest starts; the summary counts all", async () => {
    const r = await check();
    expect([r.code, r.err]).toEqual([0, ""]);
    const listed = Array.from(
      { length: 200 },
      (_, i) => `  Data/Mod.xml:${4 + i}:1  warning  unknown-element: ${MESSAGE}`,
    );
    expect(r.out).toBe(
      [
        "Data/Mod.xml",
        ...listed,
        `  … ${SENTENCE}; the first is at line 204`,
        "",
        "0 errors, 5000 warnings in 1 file (4800 of the diagnostics are not listed)",
        "",
      ].join("\n"),
    );
  });

  test("--json: exact totals, 200 listed, the unlisted group with its count and first position", async () => {
    const r = await check("--json");
    const j = JSON.parse(r.out).result;
    expect({ ...j, diagnostics: j.diagnostics.length }).toEqual({
      total: 5000,
      errors: 0,
      warnings: 5000,
      information: 0,
      byCode: { "unknown-element": 5000 },
      listed: 200,
      unlisted: [{ at: "Data/Mod.xml:204:1", severity: "warning", code: "unknown-element", count: 4800 }],
      diagnostics: 200,
    });
    expect(j.diagnostics.at(-1)).toEqual({
      at: "Data/Mod.xml:203:1",
      severity: "warning",
      code: "unknown-element",
      message: MESSAGE,
    });
  });

  test("SARIF: 200 results plus one summary result and a notification, valid SARIF 2.1.0", async () => {
    const r = await check("--format", "sarif");
    const log = sarifLog.parse(JSON.parse(r.out));
    const run0 = log.runs[0];
    expect(run0.tool.driver.rules!.map((x) => x.id)).toEqual(["diagnostics-not-listed", "unknown-element"]);
    expect(run0.results!.length).toBe(201);
    expect(run0.results!.filter((x) => x.ruleId === "unknown-element").length).toBe(200);
    expect(run0.results!.at(-1)).toEqual({
      ruleId: "diagnostics-not-listed",
      ruleIndex: 0,
      level: "note",
      message: { text: SENTENCE },
      locations: [{
        physicalLocation: {
          artifactLocation: { uri: "Data/Mod.xml", uriBaseId: "PROJECTROOT" },
          region: { startLine: 204, startColumn: 1 },
        },
      }],
      properties: { code: "unknown-element", severity: "warning", count: 4800 },
    });
    expect(run0.invocations).toEqual([{
      executionSuccessful: true,
      toolExecutionNotifications: [{
        level: "note",
        message: { text: "4800 diagnostics are not listed as results (see the diagnostics-not-listed results)" },
        associatedRule: { id: "diagnostics-not-listed", index: 0 },
      }],
    }]);
    expect(r.out.length).toBeLessThan(200_000); // 201 results, not 5,000
  });

  test("MCP check_files: the same counts, pages over the 200 listed; the text says what is left out", async () => {
    const h = await connect(MOD);
    try {
      await h.call("get_status", { consistency: "strict" }); // the index is built
      const first = await h.call("check_files", { limit: 50 });
      const j = resultOf(first);
      expect([j.total, j.warnings, j.listed, j.diagnostics.length, j.unlisted]).toEqual([
        5000,
        5000,
        200,
        50,
        [{ at: "Data/Mod.xml:204:1", severity: "warning", code: "unknown-element", count: 4800 }],
      ]);
      // The pages walk the 200 listed diagnostics, no more.
      const lineOf = (d: { at: string }) => Number(d.at.split(":")[1]);
      const lines: number[] = j.diagnostics.map(lineOf);
      for (let cursor = j.nextCursor; cursor;) {
        const page = resultOf(await h.call("check_files", { limit: 50, cursor }));
        lines.push(...page.diagnostics.map(lineOf));
        cursor = page.nextCursor;
      }
      expect(lines).toEqual(Array.from({ length: 200 }, (_, i) => 4 + i));
      const text = bodyOf(first).split("\n");
      expect(text.slice(-2)).toEqual([
        "4800 of the 5000 are not listed (too many of one code in one file):",
        "- Data/Mod.xml unknown-element ×4800, from line 204",
      ]);
    } finally {
      await h.close();
    }
  });

  test("every other count of them counts the 4800 too: ra3 index's summary, MCP is_file_active", async () => {
    const io = memoryIo(MOD, { RA3_HOME: HOME });
    expect(await run(["index", "--no-progress", "--json"], io)).toBe(0);
    expect(JSON.parse(io.stdout).result.diagnostics).toEqual({
      errors: 0,
      warnings: 5000,
      information: 0,
      byCode: { "unknown-element": 5000 },
    });
    const text = memoryIo(MOD, { RA3_HOME: HOME });
    await run(["index", "--no-progress"], text);
    expect(text.stdout).toContain("\ndiagnostics: 0 errors, 5000 warnings, 0 notes (ra3 check lists them)\n");
    const h = await connect(MOD);
    try {
      await h.call("get_status", { consistency: "strict" });
      expect(resultOf(await h.call("is_file_active", { path: "Data/Mod.xml" })).diagnostics).toBe(5000);
    } finally {
      await h.close();
    }
  });
});
