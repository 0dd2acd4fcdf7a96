// The MCP server in process (SDK Client ⇄ InMemoryTransport ⇄ McpServer) on the sample mod: the tool
// list, every tool with good and bad arguments, exact answers, and every structuredContent validated
// against the tool's advertised outputSchema (JSON Schema, ajv) and its declared zod schema.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import type { CallToolResult, Tool } from "@modelcontextprotocol/client";
import { TOOL_NAMES } from "../../src/skill/tool-names.ts";
import { toolDeclarations } from "../../src/mcp/tools.ts";
import { readSourceText } from "../../src/workspace/source-text.ts";
import { bodyOf, connect, type Harness, type Json, resultOf, SAMPLE } from "./harness.ts";
import { outsideMessage } from "../query/sample.ts";

let h: Harness;
let tools: Tool[];
const ajv = new AjvJsonSchemaValidator();

beforeAll(async () => {
  h = await connect();
  tools = (await h.client.listTools()).tools;
  await h.call("get_status", { consistency: "strict" });
});
afterAll(async () => {
  await h.close();
});

/** Calls a tool and checks its structuredContent against both schemas of the tool. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const r = await h.call(name, args);
  if (r.structuredContent !== undefined) {
    const tool = tools.find((t) => t.name === name)!;
    const check = ajv.getValidator(tool.outputSchema as never)(r.structuredContent);
    expect(check.errorMessage).toBeUndefined();
    const declared = toolDeclarations({
      registry: h.registry,
      strictTimeoutMs: 1000,
      readSource: readSourceText,
      log: () => {},
    }).find((d) => d.name === name)!;
    expect(declared.output.safeParse(r.structuredContent).success).toBe(true);
  }
  return r;
}

async function ok(
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ result: Json; text: string; index: Json }> {
  const r = await call(name, args);
  expect(r.isError ?? false).toBe(false);
  return { result: resultOf(r), text: bodyOf(r), index: (r.structuredContent as Json).index };
}

async function fails(
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ message: string; code: string | null }> {
  const r = await call(name, args);
  expect(r.isError).toBe(true);
  const sc = r.structuredContent as Json;
  if (sc) expect(sc.result).toBeUndefined();
  return { message: bodyOf(r), code: sc?.error?.code ?? null };
}

describe("tools/list", () => {
  test("the 15 tools, in the fixed order", () => {
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
  });

  test("annotations: read-only, idempotent, closed world; reindex writes only the index", () => {
    for (const t of tools) {
      if (t.name === "reindex") {
        expect(t.annotations).toEqual({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
      } else {
        expect(t.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      }
      expect(t.title?.length).toBeGreaterThan(5);
      expect(t.description!.length).toBeGreaterThan(150);
    }
  });

  test("input schemas: every field described and bounded, unknown fields refused, project and consistency everywhere", () => {
    for (const t of tools) {
      const s = t.inputSchema as Json;
      expect(s.additionalProperties).toBe(false);
      expect(Object.keys(s.properties).slice(-2)).toEqual(["project", "consistency"]);
      for (const [name, p] of Object.entries<Json>(s.properties)) {
        expect(`${t.name}.${name}: ${typeof p.description}`).toBe(`${t.name}.${name}: string`);
        if (p.type === "string" && !p.enum) expect(p.maxLength).toBeLessThanOrEqual(1024);
        if (p.type === "integer") expect(p.maximum).toBeLessThanOrEqual(10_000);
        if (p.type === "array") {
          expect([p.maxItems <= 100, p.items.maxLength <= 1024 || Array.isArray(p.items.enum)]).toEqual([true, true]);
        }
      }
    }
    const props = (name: string) => (tools.find((t) => t.name === name)!.inputSchema as Json).properties;
    expect(props("get_asset_references").depth).toMatchObject({ type: "integer", minimum: 1, maximum: 3 });
    expect(props("get_asset_references").maxEdges).toMatchObject({ type: "integer", minimum: 1, maximum: 1000 });
    expect(props("get_asset_references").targetTypes).toMatchObject({ type: "array", maxItems: 10 });
    expect(props("find_references").limit).toMatchObject({ type: "integer", minimum: 1, maximum: 10000 });
    expect(props("find_asset").consistency.enum).toEqual(["eventual", "strict"]);
    expect((tools.find((t) => t.name === "find_asset")!.inputSchema as Json).required).toEqual(["id"]);
    expect((tools.find((t) => t.name === "get_status")!.inputSchema as Json).required).toBeUndefined();
  });

  test("output schemas: the envelope {index, result?, error?}; the short envelope, the full one for get_status and reindex", () => {
    for (const t of tools) {
      const s = t.outputSchema as Json;
      expect(Object.keys(s.properties)).toEqual(["index", "result", "error"]);
      expect(s.required).toEqual(["index"]);
      expect(typeof s.properties.result.description).toBe("string");
    }
    const keys = (t: Tool) => {
      const index = (t.outputSchema as Json).properties.index;
      return Object.keys((index.anyOf?.[0] ?? index).properties);
    };
    expect(keys(tools[0])).toEqual([
      "state",
      "complete",
      "reachedOnly",
      "stale",
      "buildId",
      "builtAt",
      "projectDir",
      "sdkDir",
      "game",
      "counts",
    ]);
    expect(keys(tools.at(-1)!)).toEqual(keys(tools[0]));
    for (const t of tools.slice(1, -1)) {
      expect(`${t.name} ${keys(t)}`).toBe(`${t.name} state,complete,reachedOnly,stale,buildId,builtAt,projectDir`);
    }
  });
});

describe("initialize", () => {
  test("server info, capabilities and instructions", () => {
    expect(h.client.getServerVersion()).toMatchObject({ name: "ra3", title: "ra3: Red Alert 3 mod index" });
    const caps = h.client.getServerCapabilities()!;
    expect(Object.keys(caps).sort()).toEqual(["completions", "resources", "tools"]);
    const ins = h.client.getInstructions()!;
    // At most the budget: the rules are cut at a whole item to fit it, so a longer checkout path can reach it exactly.
    expect(ins.length).toBeLessThanOrEqual(2500);
    expect(ins.endsWith("More: get_usage_guide (topics: workflows, a tool name, includes, inheritFrom, …).")).toBe(
      true,
    );
    expect(ins).toContain(`Project: ${SAMPLE}.`);
    expect(ins).toContain("No SDK: project-only mode.");
    expect(ins).toContain("## Rules");
    expect(ins).toContain("Call get_status first");
  });
});

describe("get_status and list_projects", () => {
  test("get_status: the envelope and the project's facts", async () => {
    const { result, index, text } = await ok("get_status");
    expect(index).toEqual({
      state: "ready",
      complete: true,
      stale: false,
      buildId: index.buildId,
      builtAt: index.builtAt,
      projectDir: SAMPLE,
      sdkDir: null,
      game: "ra3",
      counts: { files: 15, assets: 28, sdkAssets: 0, references: 23, defines: 3, diagnostics: 4 },
    });
    expect(result).toEqual({
      marker: "mod",
      mode: "project-only",
      sdkCandidates: [{ source: "flag", path: "", accepted: true, reason: "empty --sdk: project-only mode" }],
      schema: { dir: `${SAMPLE}/Schemas/xsd`, source: "project", files: 11 },
      streams: [
        {
          name: "static",
          entry: "Data/Mod.xml",
          origin: "well-known",
          reason: "Data/Mod.xml: the static stream EA's DefaultScript.cs builds",
          files: 12,
        },
        {
          name: "global:MapMetaData_Global",
          entry: "Data/AdditionalMaps/MapMetaData_Global.xml",
          origin: "map-metadata",
          reason: "a map-metadata file: built as a global stream",
          files: 2,
        },
      ],
      types: result.types,
    });
    expect(result.types).toContain("WeaponTemplate");
    expect(text.split("\n").slice(0, 4)).toEqual([
      `project ${SAMPLE} (ra3), marker mod`,
      "no SDK: project-only mode (vanilla assets are not indexed)",
      "- sdk candidate flag: used, empty --sdk: project-only mode",
      `schema ${SAMPLE}/Schemas/xsd (project, 11 files)`,
    ]);
  });

  test("list_projects: the one project", async () => {
    const { result, index } = await ok("list_projects");
    expect(result).toEqual({
      mode: "single",
      projects: [{ name: "sample-mod", dir: SAMPLE, marker: "mod", state: "ready", game: "ra3" }],
    });
    expect(index.projectDir).toBe(SAMPLE);
  });

  test("project: its own name and path are accepted, another folder is refused", async () => {
    expect((await ok("get_status", { project: "sample-mod" })).index.projectDir).toBe(SAMPLE);
    expect((await ok("find_asset", { id: "AthenaSplash", project: SAMPLE })).result.definitions.length).toBe(1);
    expect(await fails("find_asset", { id: "AthenaSplash", project: "/elsewhere/OtherMod" })).toEqual({
      code: null,
      message:
        `this server answers only for sample-mod (${SAMPLE}); "/elsewhere/OtherMod" is another folder: start a server for it with ra3 mcp --project "/elsewhere/OtherMod"`,
    });
  });
});

describe("asset tools", () => {
  test("find_asset: definitions with file, line, origin, streams", async () => {
    const { result, text } = await ok("find_asset", { id: "alliedathenacannon" });
    expect(result).toEqual({
      id: "AlliedAthenaCannon",
      definitions: [
        {
          type: "GameObject",
          at: "Data/Includes/Allied Units/AthenaCannon.xml:11",
          endLine: 40,
          streams: ["static"],
          inheritFrom: "BaseVehicle",
        },
      ],
    });
    expect(text).toBe(
      '1 definition of "alliedathenacannon":\n- GameObject AlliedAthenaCannon  Data/Includes/Allied Units/AthenaCannon.xml:11-40  [project, compiled in static]  inheritFrom BaseVehicle',
    );
  });

  test("find_asset: an id of two types lists both and says to pass type", async () => {
    const { result, text } = await ok("find_asset", { id: "SharedThing" });
    expect(result.types).toEqual(["GameObject", "WeaponTemplate"]);
    expect(text.split("\n").at(-1)).toBe("several types: pass type (GameObject, WeaponTemplate) to the next call");
    expect(
      (await ok("find_asset", { id: "SharedThing", type: "WeaponTemplate" })).result.definitions.map((d: Json) => d.at),
    ).toEqual(["Data/Includes/Weapons.xml:33"]);
  });

  test("find_asset errors: unknown id with suggestions, wrong type, unknown type", async () => {
    expect(await fails("find_asset", { id: "AthenaCanon" })).toEqual({
      code: "not_found",
      message:
        'no asset has the id "AthenaCanon"; similar ids: AthenaCannonBeam (project-only mode: vanilla assets are not indexed)',
    });
    expect(await fails("find_asset", { id: "SharedThing", type: "AudioEvent" })).toEqual({
      code: "not_found",
      message:
        '"SharedThing" exists only as GameObject, WeaponTemplate, not as AudioEvent; retry with one of those types',
    });
    expect((await fails("find_asset", { id: "SharedThing", type: "Tank" })).code).toBe("bad_argument");
    expect((await fails("find_asset", { id: "   " })).message).toBe(
      "the asset id is empty; pass the id attribute value of the asset",
    );
  });

  test("project-only mode: an id the project references but does not define is probably vanilla", async () => {
    const message =
      'no asset has the id "Allies"; similar ids: AlliedAthenaCannon, AlliedAthenaCommandSet; the project references it 2 times (Data/Includes/Allied Units/AthenaCannon.xml:14, Data/Includes/BaseObjects.xml:6), so it is probably a vanilla asset: no SDK is configured (project-only mode), start ra3 with --sdk <SDK folder> or set RA3_SDK to index vanilla assets';
    expect(await fails("find_asset", { id: "Allies" })).toEqual({ code: "no_sdk", message });
    expect(await fails("find_references", { id: "Allies" })).toEqual({ code: "no_sdk", message });
  });

  test("get_definition: the XML with its line range", async () => {
    const { result, text } = await ok("get_definition", { id: "AthenaCannonBeam" });
    expect({ ...result, text: undefined }).toEqual({
      type: "WeaponTemplate",
      id: "AthenaCannonBeam",
      at: "Data/Includes/Weapons.xml:3",
      endLine: 11,
      streams: ["static"],
    });
    expect(result.text.split("\n")).toEqual([
      "\t<WeaponTemplate",
      '\t\tid="AthenaCannonBeam"',
      '\t\tAttackRange="$ATHENA_RANGE"',
      '\t\tFireSound="AudioEvent:AthenaFire">',
      "\t\t<Nuggets>",
      '\t\t\t<DamageNugget Damage="=$ATHENA_DAMAGE * 2" DamageType="SNIPER" />',
      '\t\t\t<FireWeaponNugget WeaponName="AthenaSplash" />',
      "\t\t</Nuggets>",
      "\t</WeaponTemplate>",
    ]);
    expect(text.split("\n").slice(0, 3)).toEqual([
      "WeaponTemplate AthenaCannonBeam  Data/Includes/Weapons.xml lines 3-11  [project, compiled in static]",
      "```xml",
      "\t<WeaponTemplate",
    ]);
  });

  test("get_definition: an art asset inside a .w3x file (the end tag is found)", async () => {
    const { result } = await ok("get_definition", { id: "AUAthena_SKL" });
    expect([result.at, result.endLine, result.text.split("\n").at(-1)]).toEqual([
      "Art/AU/AUAthena_SKN.w3x:3",
      6,
      "\t</W3DHierarchy>",
    ]);
  });

  test("get_definition errors: ambiguous id names the types", async () => {
    expect(await fails("get_definition", { id: "SharedThing" })).toEqual({
      code: "ambiguous",
      message: '"SharedThing" names assets of 2 types (GameObject, WeaponTemplate); pass type to choose one',
    });
  });

  test("find_references: sites with element, attribute, kind", async () => {
    const { result, text } = await ok("find_references", { id: "BaseVehicle", type: "GameObject" });
    expect(result).toEqual({
      asset: "GameObject:BaseVehicle",
      total: 2,
      references: [
        {
          from: "GameObject:AlliedAthenaCannon",
          at: "Data/Includes/Allied Units/AthenaCannon.xml:12",
          via: "inheritFrom",
        },
        {
          from: "GameObject:ExperimentalTank",
          at: "Data/Standalone.xml:8",
          via: "inheritFrom",
          state: "not-included",
          active: false,
        },
      ],
    });
    expect(text).toBe(
      "GameObject BaseVehicle: 2 references\n- Data/Includes/Allied Units/AthenaCannon.xml:12  GameObject AlliedAthenaCannon  inheritFrom\n- Data/Standalone.xml:8  GameObject ExperimentalTank  inheritFrom  (file not included)",
    );
    const weapon = (await ok("find_references", { id: "AthenaFire" })).result;
    expect(weapon.references).toEqual([{
      from: "WeaponTemplate:AthenaCannonBeam",
      at: "Data/Includes/Weapons.xml:6",
      via: "WeaponTemplate@FireSound",
      value: "AudioEvent:AthenaFire",
    }]);
  });

  test("find_references pages with cursor; a bad cursor is an error", async () => {
    const first = (await ok("find_references", { id: "BaseVehicle", limit: 1 })).result;
    expect([first.references.length, typeof first.nextCursor]).toEqual([1, "string"]);
    const second = (await ok("find_references", { id: "BaseVehicle", limit: 1, cursor: first.nextCursor })).result;
    expect([second.references[0].from, second.nextCursor]).toEqual(["GameObject:ExperimentalTank", undefined]);
    expect(await fails("find_references", { id: "BaseVehicle", cursor: "garbage" })).toEqual({
      code: "bad_argument",
      message: "the cursor is not valid; pass the nextCursor of a previous answer or omit it",
    });
  });

  test("get_asset_references: a unit's weapons with provenance", async () => {
    const { result } = await ok("get_asset_references", {
      id: "AlliedAthenaCannon",
      depth: 3,
      targetTypes: ["WeaponTemplate"],
    });
    expect({ ...result, edges: result.edges.slice(0, 3) }).toEqual({
      asset: "GameObject:AlliedAthenaCannon",
      at: "Data/Includes/Allied Units/AthenaCannon.xml:11",
      depth: 3,
      targetTypes: ["WeaponTemplate"],
      inherits: ["GameObject:BaseVehicle"],
      edges: [
        {
          to: "GameObject:BaseVehicle",
          target: "Data/Includes/BaseObjects.xml:5",
          via: "inheritFrom",
          at: "Data/Includes/Allied Units/AthenaCannon.xml:12",
        },
        {
          to: "WeaponTemplate:AthenaCannonBeam",
          target: "Data/Includes/Weapons.xml:4",
          via: "Weapon@Template",
          at: "Data/Includes/Allied Units/AthenaCannon.xml:30",
        },
        {
          to: "WeaponTemplate:VehicleDeathExplosion",
          target: "Data/Includes/Weapons.xml:25",
          via: "FireWeaponWhenDead@DeathWeapon",
          at: "Data/Includes/BaseObjects.xml:11",
          inheritedFrom: "GameObject:BaseVehicle",
        },
      ],
      omittedByTargetType: 16,
    });
    expect(result.edges.slice(3).map((e: Json) => `${e.depth} ${e.from} → ${e.to} via ${e.via}`)).toEqual([
      "2 WeaponTemplate:AthenaCannonBeam → WeaponTemplate:AthenaSplash via FireWeaponNugget@WeaponName",
      "3 GameObject:AthenaWreckHelper → WeaponTemplate:AthenaWreckBurn via Weapon@Template",
    ]);
  });

  test("get_asset_references: maxEdges truncates; a bad target type is an error", async () => {
    const { result, text } = await ok("get_asset_references", { id: "AlliedAthenaCannon", maxEdges: 2 });
    expect([result.edges.length, result.truncated]).toEqual([2, true]);
    expect(text.split("\n").at(-1)).toBe("truncated at 2 edges: raise maxEdges or narrow targetTypes");
    expect(await fails("get_asset_references", { id: "AlliedAthenaCannon", targetTypes: ["Tank"] })).toEqual({
      code: "bad_argument",
      message: '"Tank" is not a known asset type; use a type name such as WeaponTemplate or GameObject',
    });
  });

  test("list_assets_by_type: sorted ids, paged", async () => {
    const first = (await ok("list_assets_by_type", { type: "weapontemplate", limit: 4 })).result;
    expect([first.type, first.total, first.items.map((i: Json) => i.id)]).toEqual(["WeaponTemplate", 6, [
      "AthenaCannonBeam",
      "AthenaSplash",
      "AthenaWreckBurn",
      "SharedThing",
    ]]);
    const second = await ok("list_assets_by_type", { type: "WeaponTemplate", limit: 4, cursor: first.nextCursor });
    expect(second.result.items.map((i: Json) => i.id)).toEqual(["UnusedTestWeapon", "VehicleDeathExplosion"]);
    expect(second.result).toEqual({
      type: "WeaponTemplate",
      total: 6,
      items: [
        { id: "UnusedTestWeapon", at: "Data/Includes/Weapons.xml:32" },
        { id: "VehicleDeathExplosion", at: "Data/Includes/Weapons.xml:25" },
      ],
    });
    expect(second.text).toBe(
      "2 of 6 WeaponTemplate:\n- UnusedTestWeapon  Data/Includes/Weapons.xml:32\n- VehicleDeathExplosion  Data/Includes/Weapons.xml:25",
    );
    expect(
      (await ok("list_assets_by_type", { type: "WeaponTemplate", prefix: "athena" })).result.items.map((i: Json) =>
        i.id
      ),
    ).toEqual([
      "AthenaCannonBeam",
      "AthenaSplash",
      "AthenaWreckBurn",
    ]);
    expect(await fails("list_assets_by_type", { type: "Weapons" })).toEqual({
      code: "bad_argument",
      message: 'no asset of type "Weapons" is indexed; check the type name (e.g. GameObject, WeaponTemplate)',
    });
  });
});

describe("file, include and define tools", () => {
  test("resolve_include: case fix-up and the candidates tried", async () => {
    const { result, text } = await ok("resolve_include", { source: "includes/defines.xml" });
    expect(result).toEqual({
      source: "includes/defines.xml",
      from: "Data/Mod.xml",
      resolved: "Data/Includes/Defines.xml",
      caseFixed: true,
      streams: ["static", "global:MapMetaData_Global"],
      tried: ["Data/includes/defines.xml"],
    });
    expect(text).toBe(
      "includes/defines.xml → Data/Includes/Defines.xml (letter case fixed); compiled in static+global:MapMetaData_Global\nfrom Data/Mod.xml\n- hit  Data/includes/defines.xml",
    );
    const art = (await ok("resolve_include", { source: "ART:AUAthena_SKN.w3x" })).result;
    expect([art.resolved, art.twoLetterRule, art.tried.at(-1)]).toEqual([
      "Art/AU/AUAthena_SKN.w3x",
      true,
      "Art/au/AUAthena_SKN.w3x",
    ]);
  });

  test("resolve_include: from outside the project is refused", async () => {
    expect(await fails("resolve_include", { source: "x.xml", from: "/etc/passwd" })).toEqual({
      code: "outside_project",
      message: outsideMessage("--from /etc/passwd", SAMPLE, "a file"),
    });
  });

  test("is_file_active: compiled in two streams, its chain, included by two files", async () => {
    const { result, text } = await ok("is_file_active", { path: "Data\\includes\\DEFINES.xml" });
    expect(result).toEqual({
      file: "Data/Includes/Defines.xml",
      kind: "xml",
      streams: ["static", "global:MapMetaData_Global"],
      assets: 0,
      diagnostics: 0,
      chain: {
        entry: "Data/Mod.xml",
        stream: "static",
        reason: "Data/Mod.xml: the static stream EA's DefaultScript.cs builds",
        hops: [{ at: "Data/Mod.xml:12", source: "includes/defines.xml" }],
      },
      includedBy: [
        { at: "Data/Mod.xml:12", source: "includes/defines.xml" },
        { at: "Data/AdditionalMaps/MapMetaData_Global.xml:5", source: "../Includes/Defines.xml" },
      ],
      includedByTotal: 2,
      includesTotal: 0,
    });
    expect(text.split("\n").slice(0, 4)).toEqual([
      "Data/Includes/Defines.xml is compiled in static, global:MapMetaData_Global (through Data/Mod.xml:12 (all))",
      "kind xml, 0 assets, 0 diagnostics",
      "entry point Data/Mod.xml (static: Data/Mod.xml: the static stream EA's DefaultScript.cs builds)",
      "- chain: Data/Mod.xml:12 includes includes/defines.xml (all)",
    ]);
  });

  test("is_file_active: a file not included; a path outside the project; an unknown file", async () => {
    const { text } = await ok("is_file_active", { path: "Data/Standalone.xml" });
    expect(text.split("\n")[0]).toBe("Data/Standalone.xml is not included: no entry point reaches it");
    expect(await fails("is_file_active", { path: "/etc/passwd" })).toEqual({
      code: "outside_project",
      message: outsideMessage("/etc/passwd", SAMPLE, "a path"),
    });
    expect(await fails("is_file_active", { path: "../../../README.md" })).toMatchObject({ code: "outside_project" });
    expect(await fails("is_file_active", { path: "Data/Nope.xml" })).toEqual({
      code: "not_found",
      message: "Data/Nope.xml is not an indexed file (not XML/.w3x/.str under the project, and no include reaches it)",
    });
  });

  test("find_define: value, location, uses; unknown define", async () => {
    const { result, text } = await ok("find_define", { name: "$athena_damage" });
    expect(result).toEqual({
      name: "ATHENA_DAMAGE",
      definitions: [{ value: "120", at: "Data/Includes/Defines.xml:5" }],
      uses: 2,
      useSites: [
        { at: "Data/Includes/Weapons.xml:8", via: "DamageNugget@Damage" },
        { at: "Data/Includes/Weapons.xml:15", via: "DamageNugget@Damage" },
      ],
    });
    expect(text).toBe(
      [
        '$ATHENA_DAMAGE = "120"  Data/Includes/Defines.xml:5',
        "2 uses in compiled or referenced files; 2 use sites in all:",
        "- Data/Includes/Weapons.xml:8  DamageNugget@Damage",
        "- Data/Includes/Weapons.xml:15  DamageNugget@Damage",
      ].join("\n"),
    );
    expect(await fails("find_define", { name: "ATHENA_DAMAGES" })).toEqual({
      code: "not_found",
      message: 'no <Define name="ATHENA_DAMAGES"> in any indexed file; similar: ATHENA_DAMAGE',
    });
    expect(await fails("find_define", { name: "not a name" })).toEqual({
      code: "bad_argument",
      message: '"not a name" is not a define name; names look like ATHENA_RANGE (letters, digits, _)',
    });
  });
});

describe("project-wide tools", () => {
  test("find_unreferenced by type", async () => {
    const { result } = await ok("find_unreferenced", { type: "WeaponTemplate" });
    expect(result).toEqual({
      type: "WeaponTemplate",
      total: 2,
      items: {
        WeaponTemplate: [
          { id: "SharedThing", at: "Data/Includes/Weapons.xml:33" },
          { id: "UnusedTestWeapon", at: "Data/Includes/Weapons.xml:32" },
        ],
      },
      rule: "schema",
      caveat:
        "project-only mode: vanilla assets are not indexed without --sdk, so what vanilla assets reference is not seen",
    });
  });

  test("check_files: the whole project, one file, a file outside", async () => {
    const all = (await ok("check_files")).result;
    expect([all.errors, all.warnings, all.information, all.files, all.byCode]).toEqual([0, 2, 2, undefined, {
      "external-references": 1,
      "include-cycle": 1,
      "include-not-found": 1,
      "sdk-not-configured": 1,
    }]);
    expect(all.diagnostics.at(-1)).toEqual({
      at: "Data/Standalone.xml:6:31",
      severity: "warning",
      code: "include-not-found",
      message: 'include "Includes/NotWrittenYet.xml" was not found',
    });
    const one = await ok("check_files", { paths: ["Data/Standalone.xml"] });
    expect(one.text).toBe(
      '0 errors, 1 warning, 0 notes in Data/Standalone.xml\n- Data/Standalone.xml:6:31 warning include-not-found: include "Includes/NotWrittenYet.xml" was not found',
    );
    expect(await fails("check_files", { paths: ["/etc/passwd"] })).toEqual({
      code: "outside_project",
      message: outsideMessage("/etc/passwd", SAMPLE, "paths"),
    });
  });

  test("search_strings: display text to key to asset", async () => {
    const { result, text } = await ok("search_strings", { text: "athena cannon" });
    expect(result.matches).toEqual([
      {
        key: "Name:AlliedAthenaCannon",
        text: "Athena Cannon",
        at: "Misc/Data/Mod.str:3",
        assets: [{
          asset: "GameObject:AlliedAthenaCannon",
          field: "DisplayName",
          at: "Data/Includes/Allied Units/AthenaCannon.xml:16",
        }],
      },
    ]);
    expect(text).toBe(
      '1 of 1 match for "athena cannon":\n- Name:AlliedAthenaCannon "Athena Cannon"  Misc/Data/Mod.str:3\n    used by GameObject AlliedAthenaCannon (DisplayName) Data/Includes/Allied Units/AthenaCannon.xml:16',
    );
  });

  test("get_usage_guide: topics, a tool's section, no match", async () => {
    const index = (await ok("get_usage_guide")).result;
    expect(index.topic).toBeUndefined();
    expect(index.topics).toContain("find_asset");
    const one = await ok("get_usage_guide", { topic: "find_asset" });
    expect([one.result.topic, one.result.sections, one.result.topics]).toEqual([
      "find_asset",
      ["find_asset"],
      undefined,
    ]);
    expect(one.text.split("\n").slice(0, 2)).toEqual(["<!-- references/query-guide.md -->", "### `find_asset`"]);
    const none = (await ok("get_usage_guide", { topic: "zeppelins" })).result;
    expect([none.sections, none.text.split("\n")[0]]).toEqual([undefined, 'No guide section matches "zeppelins".']);
  });

  test("reindex: a new build id and the summary; progress notifications with a token", async () => {
    const before = (await ok("get_status")).index.buildId;
    const seen: number[] = [];
    const r = (await h.client.callTool({ name: "reindex", arguments: {} }, {
      onprogress: (p: { progress: number }) => seen.push(p.progress),
    })) as CallToolResult;
    expect(r.isError ?? false).toBe(false);
    const sc = r.structuredContent as Json;
    expect(sc.index.buildId).toBe(before + 1);
    expect([sc.result.files.total, sc.result.references.total, sc.result.mode]).toEqual([15, 23, "project-only"]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(6000); // six phases (scan, reach, xml, sdk, link, art) of 1000 each
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });
});

describe("argument validation (the handlers' isError results: one sentence per problem)", () => {
  test.each([
    ["find_asset", {}, 'id is required: the asset id, e.g. "AlliedAthenaCannon"'],
    ["find_asset", { id: 3 }, 'id must be the asset id, e.g. "AlliedAthenaCannon", got 3'],
    ["find_asset", { id: "" }, 'id is empty: the asset id, e.g. "AlliedAthenaCannon"'],
    ["find_asset", { id: "x".repeat(300) }, "id is longer than 256 characters"],
    ["find_asset", { id: "X", bogus: 1 }, 'unknown argument "bogus"; find_asset takes id, type, project, consistency'],
    [
      "find_asset",
      { id: "X", consistency: "fast" },
      'consistency must be "eventual" or "strict", got "fast"',
    ],
    [
      "list_assets_by_type",
      { type: "WeaponTemplate", limit: 0 },
      "limit must be a whole number from 1 to 10000, got 0",
    ],
    [
      "list_assets_by_type",
      { type: "WeaponTemplate", limit: 2.5 },
      "limit must be a whole number from 1 to 10000, got 2.5",
    ],
    ["get_asset_references", { id: "X", depth: 4 }, "depth must be a whole number from 1 to 3, got 4"],
    [
      "get_asset_references",
      { id: "X", maxEdges: 5000 },
      "maxEdges must be a whole number from 1 to 1000, got 5000",
    ],
    [
      "get_asset_references",
      { id: "X", targetTypes: Array(11).fill("A") },
      "targetTypes has more than 10 items",
    ],
    [
      "get_asset_references",
      { id: "X", targetTypes: "WeaponTemplate" },
      'targetTypes must be a list of asset type names, got "WeaponTemplate"',
    ],
    [
      "find_references",
      { id: "X", kinds: ["children"] },
      'each item of kinds must be one of attribute, content, inheritFrom, default, name, manifest, heuristic, got "children" (item 1)',
    ],
    [
      "find_references",
      { id: "X", kinds: "inheritFrom" },
      'kinds must be a list of attribute, content, inheritFrom, default, name, manifest, heuristic, got "inheritFrom"',
    ],
    ["find_unreferenced", { includeOverrides: "yes" }, 'includeOverrides must be true or false, got "yes"'],
    [
      "check_files",
      { paths: [""] },
      "each item of paths is empty: file paths relative to the project root (item 1)",
    ],
    ["search_strings", { text: "x".repeat(201) }, "text is longer than 200 characters"],
    ["get_status", { verbose: true }, 'unknown argument "verbose"; get_status takes project, consistency'],
  ])("%s %j", async (tool, args, message) => {
    expect(await fails(tool as string, args as Record<string, unknown>)).toEqual({
      code: null,
      message,
    });
  });

  test("an unknown tool is a protocol-level refusal (-32602, as the 2025-11-25 spec says)", async () => {
    const e = await h.client.callTool({ name: "find_assets", arguments: {} }).then(() => null, (x: Json) => x);
    expect([e?.code, e?.message]).toEqual([-32602, "Tool find_assets not found"]);
  });
});

describe("resources", () => {
  test("templates and completions", async () => {
    const t = await h.client.listResourceTemplates();
    expect(t.resourceTemplates.map((r) => r.uriTemplate)).toEqual(["ra3://asset/{type}/{id}", "ra3://file/{+path}"]);
    const ids = await h.client.complete({
      ref: { type: "ref/resource", uri: "ra3://asset/{type}/{id}" },
      argument: { name: "id", value: "athena" },
    });
    expect(ids.completion.values).toEqual([
      "AthenaFire",
      "AthenaSplash",
      "AthenaFireFile",
      "AthenaWreckBurn",
      "AthenaCannonBeam",
      "AthenaWreckHelper",
    ]);
    const typed = await h.client.complete({
      ref: { type: "ref/resource", uri: "ra3://asset/{type}/{id}" },
      argument: { name: "id", value: "athena" },
      context: { arguments: { type: "WeaponTemplate" } },
    });
    expect(typed.completion.values).toEqual(["AthenaSplash", "AthenaWreckBurn", "AthenaCannonBeam"]);
    const types = await h.client.complete({
      ref: { type: "ref/resource", uri: "ra3://asset/{type}/{id}" },
      argument: { name: "type", value: "w3d" },
    });
    expect(types.completion.values).toEqual(["W3DMesh", "W3DContainer", "W3DHierarchy"]);
    const paths = await h.client.complete({
      ref: { type: "ref/resource", uri: "ra3://file/{+path}" },
      argument: { name: "path", value: "data/includes/w" },
    });
    expect(paths.completion.values).toEqual(["Data/Includes/Weapons.xml"]);
  });

  test("read an asset and a file", async () => {
    const a = await h.client.readResource({ uri: "ra3://asset/WeaponTemplate/AthenaSplash" });
    const text = (a.contents[0] as Json).text as string;
    expect(text.split("\n").slice(0, 3)).toEqual([
      "WeaponTemplate AthenaSplash  Data/Includes/Weapons.xml lines 13-17  [project, compiled in static]",
      "```xml",
      '\t<WeaponTemplate id="AthenaSplash" AttackRange="40">',
    ]);
    const f = await h.client.readResource({ uri: "ra3://file/Data/Includes/Allied%20Units/AthenaCannon.xml" });
    const ftext = (f.contents[0] as Json).text as string;
    expect(ftext.split("\n")[0]).toBe(
      "Data/Includes/Allied Units/AthenaCannon.xml is compiled in static (through Data/Mod.xml:16 (all))",
    );
    expect(ftext).toContain('<?xml version="1.0" encoding="utf-8"?>');
  });

  test("reading something that does not exist is a JSON-RPC error: -32602 with data.uri (resource not found, both eras)", async () => {
    const missing = await h.client.readResource({ uri: "ra3://asset/WeaponTemplate/Nope" }).then(
      () => null,
      (x: Json) => x,
    );
    expect([missing?.code, missing?.message, missing?.data]).toEqual([
      -32602,
      'no asset has the id "Nope"; check the spelling or search display names with search_strings (project-only mode: vanilla assets are not indexed)',
      { uri: "ra3://asset/WeaponTemplate/Nope" },
    ]);
    const outside = await h.client.readResource({ uri: "ra3://file/%2Fetc%2Fpasswd" }).then(() => null, (x: Json) => x);
    expect([outside?.code, outside?.message, outside?.data]).toEqual([
      -32602,
      outsideMessage("/etc/passwd", SAMPLE, "a path"),
      undefined,
    ]);
  });
});
