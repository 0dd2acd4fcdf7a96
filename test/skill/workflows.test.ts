/**
 * The skill's command-line examples run on the sample mod: every `ra3 …` line of SKILL.md's "Without
 * MCP" block (placeholders replaced by the sample mod's ids and files) exits as documented with one JSON
 * envelope, and its `# like <tool>` answers what that tool answers. The statements of "What is compiled"
 * are checked against the same index: what the skill says is compiled, referenced or not included is.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { skillSection } from "../../src/skill/embedded.ts";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { connect, type Json, SAMPLE } from "../mcp/harness.ts";

const HOME = mkdtempSync(join(tmpdir(), "ra3-skill-home-"));
afterAll(() => rmSync(HOME, { recursive: true, force: true }));

/** The skill's placeholders and the sample mod's real ids and files standing for them. */
const PLACEHOLDERS: readonly [RegExp, string][] = [
  [/MyTankGun/g, "AthenaCannonBeam"],
  [/MY_TANK_DAMAGE/g, "ATHENA_DAMAGE"],
  [/"Heavy Tank"/g, "Athena"],
  [/--prefix MyTank/g, "--prefix Athena"],
  [/Data\/Units\/MyTank\.xml/g, "Data/Includes/Weapons.xml"],
  [/DATA:Units\/MyTank\.xml/g, "DATA:Includes/Weapons.xml"],
  [/MyTank/g, "AlliedAthenaCannon"],
];

interface Example {
  readonly args: string[];
  readonly tool: string | null;
}

/** The `ra3 …` lines of the command-line block, placeholders replaced, with the tool each is "like". */
function examples(): Example[] {
  const block = /```\n([\s\S]*?)```/.exec(skillSection("Without MCP: the command line") ?? "")?.[1] ?? "";
  return block.split("\n").filter((l) => l.startsWith("ra3 ")).map((line) => {
    let [command, comment = ""] = line.split(/\s+#\s+/);
    for (const [from, to] of PLACEHOLDERS) command = command.replace(from, to);
    const args = command.slice(4).match(/"[^"]*"|\S+/g)!.map((a) => a.replace(/^"|"$/g, ""));
    const tool = /like (\w+)/.exec(comment)?.[1] ?? null;
    return { args, tool };
  });
}

async function cli(args: readonly string[]): Promise<{ code: number; out: string }> {
  const io = memoryIo(SAMPLE, { RA3_HOME: HOME });
  const code = await run(["--no-progress", "--sdk", "", ...args], io);
  return { code, out: io.stdout };
}

describe("SKILL.md's command-line examples on the sample mod", () => {
  const list = examples();

  test("the block holds a line for every tool with a CLI twin, each naming a real tool", () => {
    // Every tool but the MCP-only ones (the XML excerpt, the project list, the guide).
    const mcpOnly = ["get_definition", "list_projects", "get_usage_guide"];
    expect(list.map((e) => e.tool).sort()).toEqual(TOOL_NAMES.filter((t) => !mcpOnly.includes(t)).sort());
  });

  test("each runs, exits 0 and answers what its tool answers", async () => {
    const mcp = await connect(SAMPLE);
    try {
      await mcp.call("get_status", { consistency: "strict" });
      for (const e of list) {
        const r = await cli(e.args);
        expect(`${e.args.join(" ")} → ${r.code}`).toBe(`${e.args.join(" ")} → 0`);
        if (!e.args.includes("--json")) continue;
        const answer = JSON.parse(r.out) as Json;
        expect(answer.result).not.toBeNull();
        // Status and reindex differ by what only one front end has (build ids, snapshot facts): compared in the parity test.
        if (!e.tool || e.tool === "get_status" || e.tool === "reindex") continue;
        const toolArgs = TOOL_ARGS[e.tool](e.args);
        const tool = (await mcp.call(e.tool, toolArgs)).structuredContent as Json;
        expect({ args: e.args, result: tool.result }).toEqual({ args: e.args, result: answer.result });
      }
    } finally {
      await mcp.close();
    }
  }, 30_000);
});

/** The tool arguments a CLI line stands for. */
const TOOL_ARGS: Record<string, (a: string[]) => Record<string, unknown>> = {
  find_asset: (a) => ({ id: a[1], type: flag(a, "--type") }),
  find_references: (a) => ({ id: a[1], type: flag(a, "--type") }),
  get_asset_references: (a) => ({ id: a[1], type: flag(a, "--type"), targetTypes: [flag(a, "--target-type")] }),
  list_assets_by_type: (a) => ({ type: a[1], prefix: flag(a, "--prefix") }),
  is_file_active: (a) => ({ path: a[1] }),
  list_files: (a) => ({ state: flag(a, "--state") }),
  resolve_include: (a) => ({ source: a[1], from: flag(a, "--from") }),
  find_define: (a) => ({ name: a[1] }),
  find_unreferenced: (a) => ({ type: flag(a, "--type") }),
  check_files: (a) => ({ paths: [a[1]] }),
  search_strings: (a) => ({ text: a[1] }),
};

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

describe("what SKILL.md says about states holds on the sample mod", () => {
  test("compiled files take edits; a not-included file is listed by list_files and is never compiled", async () => {
    // "no state means compiled; the others are written state: … (with active: false)"
    const weapons = JSON.parse((await cli(["file", "Data/Includes/Weapons.xml", "--json"])).out).result;
    expect(["state" in weapons, "active" in weapons, weapons.chain.entry]).toEqual([false, false, "Data/Mod.xml"]);
    const lonely = JSON.parse((await cli(["files", "--state", "not-included", "--json"])).out).result;
    expect(lonely.items.map((i: Json) => i.file)).toEqual(["Art/AU/AUUnusedProp.w3x", "Data/Standalone.xml"]);
    const standalone = JSON.parse((await cli(["file", "Data/Standalone.xml", "--json"])).out).result;
    expect([standalone.state, standalone.active, "chain" in standalone]).toEqual(["not-included", false, false]);
  });

  test("get_status names the entry and why (streams[].reason); no entryNotes on a mod with one entry", async () => {
    const s = JSON.parse((await cli(["status", "--json"])).out).result;
    expect(s.streams.map((x: Json) => `${x.name}: ${x.origin}`)).toEqual([
      "static: well-known",
      "global:MapMetaData_Global: map-metadata",
    ]);
    expect("entryNotes" in s).toBe(false); // empty: left out
  });
});
