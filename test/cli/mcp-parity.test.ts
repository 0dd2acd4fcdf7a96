/**
 * One answer per question: each CLI command run with `--json` and the matching MCP tool, on the same
 * sample mod, give equal `result` objects (or equal `error` objects). The CLI runs in-process through
 * `run()`, the MCP tools through a real SDK client. Fields only one front end has (the CLI's snapshot
 * facts, MCP's build progress, timings) are named per row and compared nowhere else.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryIo } from "../../src/cli/io.ts";
import { run } from "../../src/cli/run.ts";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { connect, type Harness, type Json, SAMPLE } from "../mcp/harness.ts";

interface Row {
  readonly cli: readonly string[];
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Keys of `result` that only one front end has. */
  readonly frontEndOnly?: readonly string[];
}

const ROWS: readonly Row[] = [
  { cli: ["find", "AlliedAthenaCannon"], tool: "find_asset", args: { id: "AlliedAthenaCannon" } },
  {
    cli: ["find", "AthenaCannonBeam", "--type", "WeaponTemplate"],
    tool: "find_asset",
    args: { id: "AthenaCannonBeam", type: "WeaponTemplate" },
  },
  // Not found: the project-only explanation (a vanilla id the project uses → no_sdk).
  { cli: ["find", "Allies"], tool: "find_asset", args: { id: "Allies" } },
  { cli: ["find", "Zeppelin"], tool: "find_asset", args: { id: "Zeppelin" } },
  { cli: ["refs", "AthenaCannonBeam"], tool: "find_references", args: { id: "AthenaCannonBeam" } },
  {
    cli: ["refs", "AthenaCannonBeam", "--limit", "1"],
    tool: "find_references",
    args: { id: "AthenaCannonBeam", limit: 1 },
  },
  { cli: ["refs", "Allies"], tool: "find_references", args: { id: "Allies" } },
  {
    cli: ["refs", "BaseVehicle", "--kind", "inheritFrom", "--kind", "default"],
    tool: "find_references",
    args: { id: "BaseVehicle", kinds: ["inheritFrom", "default"] },
  },
  { cli: ["uses", "AlliedAthenaCannon"], tool: "get_asset_references", args: { id: "AlliedAthenaCannon" } },
  {
    cli: ["uses", "AlliedAthenaCannon", "--depth", "2", "--target-type", "WeaponTemplate"],
    tool: "get_asset_references",
    args: { id: "AlliedAthenaCannon", depth: 2, targetTypes: ["WeaponTemplate"] },
  },
  {
    cli: ["list", "WeaponTemplate", "--limit", "3"],
    tool: "list_assets_by_type",
    args: { type: "WeaponTemplate", limit: 3 },
  },
  { cli: ["define", "ATHENA_DAMAGE"], tool: "find_define", args: { name: "ATHENA_DAMAGE" } },
  { cli: ["define", "NO_SUCH_DEFINE"], tool: "find_define", args: { name: "NO_SUCH_DEFINE" } },
  {
    cli: ["define", "ATHENA_DAMAGE", "--limit", "1"],
    tool: "find_define",
    args: { name: "ATHENA_DAMAGE", limit: 1 },
  },
  { cli: ["include", "ART:AUAthena_SKN.w3x"], tool: "resolve_include", args: { source: "ART:AUAthena_SKN.w3x" } },
  { cli: ["file", "Data/Mod.xml"], tool: "is_file_active", args: { path: "Data/Mod.xml" } },
  { cli: ["file", "Data/Mod.xml", "--limit", "2"], tool: "is_file_active", args: { path: "Data/Mod.xml", limit: 2 } },
  { cli: ["file", "Data/Standalone.xml"], tool: "is_file_active", args: { path: "Data/Standalone.xml" } },
  { cli: ["file", "../elsewhere.xml"], tool: "is_file_active", args: { path: "../elsewhere.xml" } },
  { cli: ["files"], tool: "list_files", args: {} },
  { cli: ["files", "--state", "not-included"], tool: "list_files", args: { state: "not-included" } },
  {
    cli: ["files", "--state", "compiled", "--prefix", "Data/Includes", "--limit", "2"],
    tool: "list_files",
    args: { state: "compiled", prefix: "Data/Includes", limit: 2 },
  },
  { cli: ["unreferenced"], tool: "find_unreferenced", args: {} },
  { cli: ["unreferenced", "--type", "WeaponTemplate"], tool: "find_unreferenced", args: { type: "WeaponTemplate" } },
  {
    cli: ["unreferenced", "--include-overrides"],
    tool: "find_unreferenced",
    args: { includeOverrides: true },
  },
  { cli: ["check", "--limit", "20"], tool: "check_files", args: { limit: 20 } },
  { cli: ["check", "Data/Standalone.xml"], tool: "check_files", args: { paths: ["Data/Standalone.xml"] } },
  { cli: ["check", "../outside.xml"], tool: "check_files", args: { paths: ["../outside.xml"] } },
  { cli: ["strings", "Athena"], tool: "search_strings", args: { text: "Athena" } },
  // The CLI's status reads the stored snapshot (its facts are CLI-only); MCP's reports build progress. The
  // two front ends built the index separately, so each has its own build id and time.
  {
    cli: ["status"],
    tool: "get_status",
    args: {},
    frontEndOnly: ["snapshot", "progress", "lastError", "note", "buildId", "builtAt"],
  },
  // ra3 index builds and saves; reindex rebuilds: their timings and snapshot facts are their own.
  {
    cli: ["index"],
    tool: "reindex",
    args: {},
    frontEndOnly: ["start", "timings", "snapshot", "parsedFiles", "artFiles", "sdkFiles"],
  },
];

const HOME = mkdtempSync(join(tmpdir(), "ra3-parity-home-"));
let mcp: Harness;

beforeAll(async () => {
  mcp = await connect(SAMPLE);
  await mcp.call("get_status", { consistency: "strict" });
});
afterAll(async () => {
  await mcp.close();
  rmSync(HOME, { recursive: true, force: true });
});

async function cliJson(args: readonly string[]): Promise<Json> {
  const io = memoryIo(SAMPLE, { RA3_HOME: HOME });
  // `--sdk ""` is how the MCP harness runs too: project-only mode, said explicitly.
  await run(["--no-progress", "--json", "--sdk", "", ...args], io);
  if (!io.stdout) throw new Error(`ra3 ${args.join(" ")} printed no JSON; stderr: ${io.stderr}`);
  return JSON.parse(io.stdout);
}

function answer(envelope: Json, omit: readonly string[]): Json {
  if (envelope.error) return { error: envelope.error };
  const result = { ...envelope.result };
  for (const k of omit) delete result[k];
  return { result };
}

/** Tools with no CLI command: the XML excerpt, the server's project list and the guide are MCP's own. */
const MCP_ONLY = ["get_definition", "list_projects", "get_usage_guide"];

test("every tool with a CLI command has a row", () => {
  expect([...new Set(ROWS.map((r) => r.tool))].sort()).toEqual(TOOL_NAMES.filter((t) => !MCP_ONLY.includes(t)).sort());
});

describe("ra3 COMMAND --json and the matching MCP tool give the same result", () => {
  // The CLI builds (and saves) the index once; every later run starts warm from it.
  beforeAll(async () => {
    await cliJson(["index"]);
  });

  for (const row of ROWS) {
    test(`ra3 ${row.cli.join(" ")}  ≡  ${row.tool} ${JSON.stringify(row.args)}`, async () => {
      const cli = await cliJson(row.cli);
      const tool = await mcp.call(row.tool, row.args);
      const structured = tool.structuredContent as Json;
      expect(structured).toBeDefined();
      const omit = row.frontEndOnly ?? [];
      expect(answer(cli, omit)).toEqual(answer(structured, omit));
      // Not vacuous: the answer has content.
      expect(JSON.stringify(answer(cli, omit)).length).toBeGreaterThan(40);
    });
  }
});
