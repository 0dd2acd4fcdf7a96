/**
 * `unreferenced` (find_unreferenced, `ra3 unreferenced`), domain-spec §9: active project definitions of
 * types designed to be referenced that no active site resolves to. Instance-only, SDK and manifest
 * definitions are never reported, nor are settings-like types nothing is designed to reference.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { unreferenced } from "../../src/query/unreferenced.ts";
import { doc, includes, memIndex } from "../index/fixture.ts";
import { writeManifest } from "../formats/manifest-writer.ts";
import { ok, SAMPLE, sampleIndex } from "./sample.ts";

const sample = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

describe("the sample mod", () => {
  test("exactly these, grouped by type and sorted by id", async () => {
    const linked = await sampleIndex();
    const r = ok(unreferenced(linked));
    expect(r.items).toEqual([
      // Nothing references the top unit itself, nor the GameObject twin of the SharedThing weapon.
      {
        type: "GameObject",
        id: "AlliedAthenaCannon",
        file: "Data/Includes/Allied Units/AthenaCannon.xml",
        line: 11,
        overridesVanilla: false,
      },
      {
        type: "GameObject",
        id: "SharedThing",
        file: "Data/Includes/Allied Units/AthenaCannon.xml",
        line: 61,
        overridesVanilla: false,
      },
      {
        type: "LogicCommand",
        id: "Command_LoopA",
        file: "Data/Includes/Loop/LoopA.xml",
        line: 7,
        overridesVanilla: false,
      },
      {
        type: "LogicCommand",
        id: "Command_LoopB",
        file: "Data/Includes/Loop/LoopB.xml",
        line: 6,
        overridesVanilla: false,
      },
      {
        type: "WeaponTemplate",
        id: "SharedThing",
        file: "Data/Includes/Weapons.xml",
        line: 33,
        overridesVanilla: false,
      },
      {
        type: "WeaponTemplate",
        id: "UnusedTestWeapon",
        file: "Data/Includes/Weapons.xml",
        line: 32,
        overridesVanilla: false,
      },
    ]);
    expect([r.total, r.byType, r.rule, r.nextCursor]).toEqual([
      6,
      [
        { type: "GameObject", count: 2 },
        { type: "LogicCommand", count: 2 },
        { type: "WeaponTemplate", count: 2 },
      ],
      "schema",
      null,
    ]);
  });

  test("not reported: BaseVehicle (instance-only), TheMultiplayerSettings (a settings type), ExperimentalTank and AUUnusedProp (inactive files)", async () => {
    const linked = await sampleIndex();
    const ids = ok(unreferenced(linked, { limit: 500 })).items.map((i) => i.id);
    for (
      const id of ["BaseVehicle", "TheMultiplayerSettings", "ExperimentalTank", "AUUnusedProp", "AUUnusedProp.MESH"]
    ) expect(ids).not.toContain(id);
  });

  test("--type restricts, with paging", async () => {
    const linked = await sampleIndex();
    const p1 = ok(unreferenced(linked, { type: "weapontemplate", limit: 1 }));
    const p2 = ok(unreferenced(linked, { type: "WeaponTemplate", limit: 1, cursor: p1.nextCursor }));
    expect([p1.type, p1.total, p1.items.map((i) => i.id), p2.items.map((i) => i.id), p2.nextCursor]).toEqual([
      "WeaponTemplate",
      2,
      ["SharedThing"],
      ["UnusedTestWeapon"],
      null,
    ]);
  });

  test("an unknown type is an error with suggestions", async () => {
    const linked = await sampleIndex();
    expect(unreferenced(linked, { type: "WeaponTemplat" })).toEqual({
      error: {
        code: "bad_argument",
        message: '"WeaponTemplat" is not an asset type of this index',
        details: { suggestions: ["WeaponTemplate"] },
      },
    });
  });

  // Rule: --type names an asset type (§9.2 "restricted to target types"). Fails: unreferenced.ts accepts any name
  // schema.canonicalType knows, and that includes element names such as <Weapon>, so the answer is silently empty.
  test("an element name that is not an asset type is an error too", async () => {
    const linked = await sampleIndex();
    expect(unreferenced(linked, { type: "Weapon" })).toEqual({
      error: {
        code: "bad_argument",
        message: '"Weapon" is not an asset type of this index',
        details: { suggestions: ["WeaponTemplate"] },
      },
    });
  });
});

describe("what is never reported", () => {
  test("instance-only, SDK XML and manifest definitions; types not designed to be referenced", () => {
    const { linked } = memIndex(
      {
        "Data/Mod.xml": doc(
          includes(["reference", "DATA:static.xml"], ["instance", "Base.xml"]) +
            [
              ``,
              `<WeaponTemplate id="Used" />`,
              `<GameObject id="User" inheritFrom="InstanceBase"><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="Used" /></Behaviors></GameObject>`,
              `<CameraSettings id="Camera" />`,
              `<MultiplayerSettings id="MP" />`,
              `<WeaponTemplate id="Orphan" />`,
            ].join("\n"),
        ),
        "Data/Base.xml": doc(`<GameObject id="InstanceBase" />\n<WeaponTemplate id="InstanceOnly" />`),
        "sdk:Schemas/xsd/CnC3Types.xsd": "",
        "sdk:static.xml": doc(""),
        "sdk:builtmods/static.manifest":
          writeManifest({ version: 5, assets: [{ name: "WeaponTemplate:ManifestUnused", source: "DATA:Weapons.xml" }] })
            .bytes,
        "sdk:SageXml/static.xml": doc(`<WeaponTemplate id="VanillaUnused" />`),
      },
      sample,
    );
    // The fixture does hold all of them.
    expect(linked.assets.map((a) => `${a.type}:${a.id} ${a.origin}${a.viaInstance ? " instance" : ""}`).sort()).toEqual(
      [
        "CameraSettings:Camera project",
        "GameObject:InstanceBase project instance",
        "GameObject:User project",
        "MultiplayerSettings:MP project",
        "WeaponTemplate:InstanceOnly project instance",
        "WeaponTemplate:ManifestUnused manifest",
        "WeaponTemplate:Orphan project",
        "WeaponTemplate:Used project",
        "WeaponTemplate:VanillaUnused sdk",
      ],
    );
    expect(ok(unreferenced(linked)).items.map((i) => `${i.type}:${i.id}`)).toEqual([
      "GameObject:User",
      "WeaponTemplate:Orphan",
    ]);
  });

  test("without a schema, a type counts as designed to be referenced when something in the project references one", () => {
    const { linked } = memIndex(
      mod([
        `<GameObject id="Tank" CommandSet="TankCmds" />`,
        `<LogicCommandSet id="TankCmds" />`,
        `<LogicCommandSet id="JeepCmds" />`,
        `<CameraSettings id="Camera" />`,
      ]),
      null,
    );
    const r = ok(unreferenced(linked));
    expect([r.rule, r.items.map((i) => `${i.type}:${i.id}`)]).toEqual(["heuristic", ["LogicCommandSet:JeepCmds"]]);
  });
});

function mod(lines: string[]) {
  return { "Data/Mod.xml": doc(lines.join("\n")) };
}
