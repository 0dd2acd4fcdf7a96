// The embedded sample mod, indexed through the real driver (file system, project model, its own XSDs).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { resolveConfig } from "../../src/workspace/config.ts";
import { Workspace } from "../../src/workspace/workspace.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();

const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "sample-mod");

async function build() {
  const cfg = resolveConfig({
    project: SAMPLE,
    sdk: "",
    schema: null,
    home: TMP.make("ra3-sample-home-"),
  });
  if ("envError" in cfg) throw new Error(cfg.envError);
  const ws = new Workspace(cfg);
  await ws.build();
  return ws;
}
const ws = await build();
const linked = ws.linked!;
const rel = (p: string) => p.slice(SAMPLE.length + 1);

describe("sample mod", () => {
  test("is found with its own schema, in project-only mode", () => {
    expect(ws.config.layout.marker).toBe("mod");
    expect(ws.config.schemaSource).toBe("project");
    expect(ws.config.sdk).toBeNull();
    expect(ws.game).toBe("ra3");
  });

  test("streams and their file counts", () => {
    expect(linked.streams.map((s) => `${s.name} ${rel(s.entry)} ${s.files}`)).toEqual([
      "static Data/Mod.xml 12",
      "global:MapMetaData_Global Data/AdditionalMaps/MapMetaData_Global.xml 2",
    ]);
  });

  test("counts", () => {
    expect(linked.stats).toMatchObject({
      projectFiles: 15,
      activeFiles: 13,
      assets: 28,
      sdkAssets: 0,
      references: 23,
      resolvedReferences: 21,
      externalReferences: 2,
      defines: 3,
    });
  });

  test("files: active, inactive, instance-only, shared by two streams, fragment", () => {
    const f = (p: string) => linked.file(join(SAMPLE, p))!;
    expect([f("Data/Standalone.xml").active, f("Art/AU/AUUnusedProp.w3x").active]).toEqual([false, false]);
    expect(f("Data/Includes/BaseObjects.xml").viaInstance).toBe(true);
    expect(f("Data/Includes/Defines.xml").streams).toEqual(["static", "global:MapMetaData_Global"]);
    expect([f("Data/Includes/Fragments/Headlights.xml").fragment, f("Data/Includes/Fragments/Headlights.xml").active])
      .toEqual([true, true]);
    expect(f("Art/AU/AUAthena_SKN.w3x").kind).toBe("art");
  });

  test("the lower-case include of includes/defines.xml resolves to the real casing", () => {
    const e = linked.includes.find((i) => i.source === "includes/defines.xml")!;
    expect([rel(e.to!), e.caseFixed]).toEqual(["Data/Includes/Defines.xml", true]);
  });

  test("ART: without a folder uses the two-letter rule", () => {
    const e = linked.includes.find((i) => i.source === "ART:AUAthena_SKN.w3x")!;
    expect(rel(e.to!)).toBe("Art/AU/AUAthena_SKN.w3x");
    expect(linked.findAssets("AUAthena_SKL").map((a) => `${a.type} ${rel(a.file)}:${a.line}`)).toEqual([
      "W3DHierarchy Art/AU/AUAthena_SKN.w3x:3",
    ]);
  });

  test("the include cycle and the inactive file's missing include are reported", () => {
    expect(linked.diagnostics.filter((d) => d.file).map((d) => `${rel(d.file!)}:${d.line}:${d.column} ${d.code}`))
      .toEqual([
        "Data/Includes/Loop/LoopB.xml:4:31 include-cycle",
        "Data/Standalone.xml:6:31 include-not-found",
      ]);
  });

  test("asset definitions carry type, file, line, column, origin, stream and flags", () => {
    const [a] = linked.findAssets("AlliedAthenaCannon");
    expect({
      type: a.type,
      file: rel(a.file),
      line: a.line,
      column: a.column,
      endLine: a.endLine,
      origin: a.origin,
      streams: a.streams,
      active: a.active,
      viaInstance: a.viaInstance,
      inheritFrom: a.inheritFrom,
    }).toEqual({
      type: "GameObject",
      file: "Data/Includes/Allied Units/AthenaCannon.xml",
      line: 11,
      column: 7,
      endLine: 40,
      origin: "project",
      streams: ["static"],
      active: true,
      viaInstance: false,
      inheritFrom: "BaseVehicle",
    });
    expect(linked.findAssets("SharedThing").map((x) => x.type)).toEqual(["GameObject", "WeaponTemplate"]);
    expect(linked.findAssets("ExperimentalTank")[0].active).toBe(false);
    expect(linked.findAssets("BaseVehicle")[0].viaInstance).toBe(true);
  });

  test("defines", () => {
    expect([...linked.defines.keys()].sort()).toEqual(["athena_damage", "athena_range", "wreck_burn_damage"]);
    expect([linked.defineUses.get("athena_range"), linked.defineUses.get("athena_damage")]).toEqual([1, 2]);
  });
});
