import { describe, expect, test } from "bun:test";
import { assetsOf, diagnosticsOf, doc, includes, memIndex, rel } from "./fixture.ts";

describe("entry points and streams", () => {
  test("static from Data/Mod.xml, one global stream per map-metadata file, each walked on its own", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Shared.xml"], ["all", "Units.xml"])),
      "Data/Shared.xml": doc(`\t<LogicCommand id="Cmd_Shared" />`),
      "Data/Units.xml": doc(`\t<GameObject id="Tank" />`),
      "Data/AdditionalMaps/mapmetadata_Global.xml": doc(
        includes(["all", "../Shared.xml"]) + `\n\t<MultiplayerSettings id="MP" />`,
      ),
    });
    expect(linked.streams.map((s) => [s.name, rel(s.entry), s.files])).toEqual([
      ["static", "Data/Mod.xml", 3],
      ["global:mapmetadata_Global", "Data/AdditionalMaps/mapmetadata_Global.xml", 2],
    ]);
    // A file reachable from two streams belongs to both (visited sets are per stream).
    expect(linked.file("/mods/Test Mod/Data/Shared.xml")?.streams).toEqual(["static", "global:mapmetadata_Global"]);
    expect(assetsOf(linked)).toEqual([
      "LogicCommand:Cmd_Shared@Data/Shared.xml:3 project [static,global:mapmetadata_Global]",
      "GameObject:Tank@Data/Units.xml:3 project [static]",
      "MultiplayerSettings:MP@Data/AdditionalMaps/mapmetadata_Global.xml:6 project [global:mapmetadata_Global]",
    ]);
  });

  test("a babproj stream's Windows path is mapped into the project", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(""),
      "mod.babproj":
        `<BinaryAssetBuilderProject xmlns="urn:xmlns:ea.com:babproject">\n  <Stream Source="G:\\RA3 MOD SDK\\Mods\\Test Mod\\data\\mod.xml" />\n  <Stream Source="G:\\RA3 MOD SDK\\Mods\\Test Mod\\data\\aptui\\Page.xml" />\n</BinaryAssetBuilderProject>`,
      "Data/AptUI/Page.xml": doc(`\t<AptAptData id="Page" />`),
    });
    expect(linked.streams.map((s) => s.name)).toEqual(["static", "babproj:Page"]);
    expect(linked.file("/mods/Test Mod/Data/AptUI/Page.xml")?.active).toBe(true);
  });
});

describe("include types", () => {
  const files = {
    "Data/Mod.xml": doc(includes(["all", "A.xml"], ["instance", "Base.xml"], ["reference", "DATA:static.xml"])),
    "Data/A.xml": doc(includes(["all", "B.xml"]) + `\n\t<GameObject id="A" inheritFrom="BaseThing" />`),
    "Data/B.xml": doc(`\t<GameObject id="B" />`),
    "Data/Base.xml": doc(includes(["all", "BaseParts.xml"]) + `\n\t<GameObject id="BaseThing" />`),
    "Data/BaseParts.xml": doc(`\t<GameObject id="BasePart" />`),
  };

  test("instance includes flag their assets (transitively); all includes do not", () => {
    const { linked } = memIndex(files);
    const flags = Object.fromEntries(linked.assets.map((a) => [a.id, a.viaInstance]));
    expect(flags).toEqual({ A: false, B: false, BaseThing: true, BasePart: true });
  });

  test("all-reachability wins over instance-reachability, whatever the order", () => {
    const { linked } = memIndex({
      ...files,
      "Data/B.xml": doc(includes(["all", "BaseParts.xml"]) + `\n\t<GameObject id="B" />`),
    });
    const flags = Object.fromEntries(linked.assets.map((a) => [a.id, a.viaInstance]));
    expect(flags).toEqual({ A: false, B: false, BaseThing: true, BasePart: false });
  });

  test("reference includes without an SDK are summarised once, not reported per include", () => {
    const { linked } = memIndex(files);
    expect(diagnosticsOf(linked)).toEqual([
      "-:0:0 information sdk-not-configured: 1 include of 1 DATA:/ART:/AUDIO: source points into the SDK (e.g. DATA:static.xml)",
    ]);
    expect(linked.includes.filter((e) => e.to === null).map((e) => e.source)).toEqual(["DATA:static.xml"]);
  });

  test("inheritFrom through an instance include resolves", () => {
    const { linked } = memIndex(files);
    const site = linked.sites.find((s) => s.kind === "inheritFrom")!;
    expect([site.value, site.status, linked.assets[site.targets[0]].id]).toEqual([
      "BaseThing",
      "resolved",
      "BaseThing",
    ]);
  });

  test("an Include with a bad type is reported and not followed", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["All", "A.xml"])),
      "Data/A.xml": doc(`\t<GameObject id="A" />`),
    });
    expect(linked.file("/mods/Test Mod/Data/A.xml")?.active).toBe(false);
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:4:18 error include-type: <Include> type "All" is not one of all, instance, reference',
    ]);
  });
});

describe("include resolution", () => {
  test("case-insensitive: the on-disk casing is used and the fix-up recorded", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "includes/UNITS.xml"])),
      "Data/Includes/Units.xml": doc(`\t<GameObject id="Tank" />`),
    });
    const edge = linked.includes[0];
    expect([rel(edge.to!), edge.caseFixed]).toEqual(["Data/Includes/Units.xml", true]);
    expect(linked.assets[0].active).toBe(true);
  });

  test("paths with spaces and backslashes", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Allied Units\\Athena Cannon.xml"])),
      "Data/Allied Units/Athena Cannon.xml": doc(`\t<GameObject id="Athena" />`),
    });
    expect(rel(linked.includes[0].to!)).toBe("Data/Allied Units/Athena Cannon.xml");
    expect(linked.assets.map((a) => [a.id, a.active])).toEqual([["Athena", true]]);
  });

  test("a missing include target is reported at the Include element", () => {
    const { linked } = memIndex({ "Data/Mod.xml": doc(includes(["all", "Missing.xml"])) });
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:4:31 warning include-not-found: include "Missing.xml" was not found',
    ]);
  });

  test("an include cycle is reported with its path, and the walk terminates", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "A.xml"])),
      "Data/A.xml": doc(includes(["all", "B.xml"]) + `\n\t<GameObject id="A" />`),
      "Data/B.xml": doc(includes(["all", "A.xml"]) + `\n\t<GameObject id="B" />`),
    });
    expect(diagnosticsOf(linked)).toEqual([
      'Data/B.xml:4:31 warning include-cycle: include cycle: Data/A.xml → Data/B.xml → Data/A.xml (the include of "A.xml" is skipped)',
    ]);
    expect(linked.assets.map((a) => a.id)).toEqual(["A", "B"]);
  });

  test("a file including itself is a cycle too", () => {
    const { linked } = memIndex({ "Data/Mod.xml": doc(includes(["all", "Mod.xml"])) });
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:4:31 warning include-cycle: include cycle: Data/Mod.xml → Data/Mod.xml (the include of "Mod.xml" is skipped)',
    ]);
  });
});

describe("compiled and not-included files", () => {
  test("every XML under the root is indexed; unreached ones are not included, and their missing includes still reported", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Used.xml"])),
      "Data/Used.xml": doc(`\t<GameObject id="Used" />`),
      "Data/Draft.xml": doc(includes(["all", "NotYet.xml"]) + `\n\t<GameObject id="Draft" />`),
    });
    expect(assetsOf(linked)).toEqual([
      "GameObject:Used@Data/Used.xml:3 project [static]",
      "GameObject:Draft@Data/Draft.xml:6 project not-included []",
    ]);
    expect(linked.stats.projectFiles).toBe(3);
    expect(linked.stats.activeFiles).toBe(2);
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Draft.xml:4:31 warning include-not-found: include "NotYet.xml" was not found',
    ]);
  });
});

describe("assets", () => {
  test("same id with different types are distinct assets; lookups are case-insensitive", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(`\t<GameObject id="Shared" />\n\t<WeaponTemplate id="Shared" />`),
    });
    expect(linked.findAssets("shared").map((a) => a.type)).toEqual(["GameObject", "WeaponTemplate"]);
    expect(linked.findAssets("SHARED", "WeaponTemplate").map((a) => `${a.type}:${a.line}:${a.column}`)).toEqual([
      "WeaponTemplate:4:22",
    ]);
  });

  test("a duplicate id of the same type in one file is an error naming the first line", () => {
    const { linked } = memIndex({ "Data/Mod.xml": doc(`\t<GameObject id="Twice" />\n\t<GameObject id="twice" />`) });
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:4:18 error duplicate-id: GameObject "twice" is defined twice in this file (first on line 3)',
    ]);
  });

  test("the same type and id in two files of one stream is a duplicate; in different streams it is not", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "A.xml"], ["all", "B.xml"])),
      "Data/A.xml": doc(`\t<GameObject id="Dup" />`),
      "Data/B.xml": doc(`\t<GameObject id="Dup" />`),
      "Data/AdditionalMaps/MapMetaData_X.xml": doc(`\t<GameObject id="Dup" />`),
    });
    expect(diagnosticsOf(linked)).toEqual([
      'Data/B.xml:3:18 error duplicate-id: GameObject "Dup" is also defined in Data/A.xml:3 (stream static)',
    ]);
  });

  test("a top-level element without an id is reported, and its content does not become an asset", () => {
    const { linked } = memIndex({ "Data/Mod.xml": doc(`\t<GameObject inheritFrom="X" />`) });
    expect(linked.assets).toEqual([]);
    expect(diagnosticsOf(linked)).toEqual([
      "-:0:0 information external-references: 1 reference points at assets outside the project",
      "Data/Mod.xml:3:2 error missing-id: <GameObject> has no id",
    ]);
  });
});

describe("defines", () => {
  test("declarations are project-global; uses are counted; undefined uses reported only with an SDK", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        includes(["all", "Defines.xml"]) + `\n\t<WeaponTemplate id="W" AttackRange="$RANGE" Damage="=$DAMAGE * 2" />`,
      ),
      "Data/Defines.xml": doc(
        `\t<Defines>\n\t\t<Define name="RANGE" value="350" />\n\t\t<Define name="RANGE" value="400" />\n\t</Defines>`,
      ),
    });
    expect([...linked.defines.get("range")!].map((d) => `${d.value}@${rel(d.file)}:${d.line}`)).toEqual([
      "350@Data/Defines.xml:4",
      "400@Data/Defines.xml:5",
    ]);
    expect(linked.defineUses.get("range")).toBe(1);
    expect(diagnosticsOf(linked)).toEqual([
      "-:0:0 information external-defines: 1 use of 1 define not declared in the project ($DAMAGE); they may be vanilla defines",
    ]);
  });
});
