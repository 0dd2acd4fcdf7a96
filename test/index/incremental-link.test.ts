// The patched link at the core: after each change of file contents, the core's link (patched from the
// one before when it can) equals a full `link()` of the same records, and the core says which links were
// patched and why the others were full. The random sequences on disk are in test/workspace/incremental-link.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { link } from "../../src/index/link.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { instanceHash, symbolHash } from "../../src/formats/fasthash.ts";
import { writeManifest } from "../formats/manifest-writer.ts";
import { doc, includes, memIndex, ROOT } from "./fixture.ts";
import { linkedDifference } from "./linked-equality.ts";

const REPO = join(import.meta.dirname, "..", "..");
const sample = new Schema(loadSchema(join(REPO, "examples", "sample-mod", "Schemas", "xsd")).model!);
const xp = (name: string) => `xmlns(n=uri:ea.com:eala:asset) xpointer(/n:${name}/child::*)`;
const XI = ` xmlns:xi="http://www.w3.org/2001/XInclude"`;

const FILES: Record<string, string> = {
  "Data/Mod.xml": doc(
    includes(["all", "Empty.xml"], ["all", "Units.xml"], ["all", "Weapons.xml"], ["all", "Zoo.xml"]),
  ),
  "Data/Empty.xml": doc(""),
  "Data/Units.xml": doc(
    [
      `<GameObject id="Tank" CommandSet="TankCommandSet" inheritFrom="Jeep2">`,
      `<Draws><xi:include href="Lights.xml" xpointer="${xp("Lights")}" /></Draws>`,
      `<Behaviors><FireWeaponUpdate id="ModuleTag_Fire" Weapon="Cannon" />`,
      `<SpecialAbilityUpdate id="ModuleTag_Toggle" UpdateModuleId="ModuleTag_Fire" /></Behaviors>`,
      `</GameObject>`,
      `<GameObject id="Jeep" inheritFrom="Tank" />`,
    ].join("\n"),
    XI,
  ),
  "Data/Weapons.xml": doc(
    [
      `<WeaponTemplate id="Cannon"><Nuggets><FireWeaponNugget WeaponName="Splash" /></Nuggets></WeaponTemplate>`,
      `<WeaponTemplate id="Splash" />`,
      `<W3DContainer id="Light_SKN" />`,
      `<LogicCommandSet id="TankCommandSet" />`,
      `<GameObject id="Truck"><Behaviors><FireWeaponUpdate id="ModuleTag_Gun" Weapon="Cannon" />`,
      `<SpecialAbilityUpdate id="ModuleTag_Aim" UpdateModuleId="ModuleTag_Gun" /></Behaviors></GameObject>`,
    ].join("\n"),
  ),
  // The last file: one asset, which splices and inherits (its indexes move when earlier files gain assets).
  "Data/Zoo.xml": doc(
    [
      `<GameObject id="Zoo" inheritFrom="Tank" CommandSet="TankCommandSet">`,
      `<Draws><xi:include href="Lights.xml" xpointer="${xp("Lights")}" /></Draws></GameObject>`,
    ].join("\n"),
    XI,
  ),
  "Data/Lights.xml": [
    `<Lights xmlns="uri:ea.com:eala:asset">`,
    `<ScriptedModelDraw id="ModuleTag_Light"><ModelConditionState><Model Name="Light_SKN" /></ModelConditionState></ScriptedModelDraw>`,
    `</Lights>`,
  ].join("\n"),
};

describe("a patched link equals a full link of the same records", () => {
  test("value edits, renames to a new and to an existing id, a shift, a fragment edit, and the cases that link in full", () => {
    const { core, ports, linked: first } = memIndex(FILES, sample);
    expect(core.lastLinkFullBecause).toBe("no earlier link");
    expect(linkedDifference(first, link(core, ports.inputs))).toBeNull();
    const files = { ...FILES };
    const steps: [string, string, (text: string) => string, string | null][] = [
      ["a value", "Data/Weapons.xml", (t) => t.replace('WeaponName="Splash"', 'WeaponName="Nothing"'), null],
      // TankCommandSet vanishes: the site naming it in Units.xml, which did not change, is resolved again.
      ["a rename to a new id", "Data/Weapons.xml", (t) => t.replace('id="TankCommandSet"', 'id="Other"'), null],
      ["the rename undone", "Data/Weapons.xml", (t) => t.replace('id="Other"', 'id="TankCommandSet"'), null],
      ["another rename to a new id", "Data/Weapons.xml", (t) => t.replace('id="Splash"', 'id="Splish"'), null],
      // Two WeaponTemplates named Cannon: a duplicate appears (a diagnostic, and Tank's site has two targets).
      ["a rename to an existing id", "Data/Weapons.xml", (t) => t.replace('id="Splish"', 'id="Cannon"'), null],
      ["the duplicate gone again", "Data/Weapons.xml", (t) => t.replace(/id="Cannon" \/>/, 'id="Splash" />'), null],
      [
        "lines shifted above every asset",
        "Data/Weapons.xml",
        (t) => t.replace("<WeaponTemplate", "\n\n<WeaponTemplate"),
        null,
      ],
      ["a spliced fragment's reference", "Data/Lights.xml", (t) => t.replace('Name="Light_SKN"', 'Name="Nope"'), null],
      // A Poid naming the module the fragment splices in instead of the object's own one.
      [
        "a Poid value",
        "Data/Units.xml",
        (t) => t.replace('UpdateModuleId="ModuleTag_Fire"', 'UpdateModuleId="ModuleTag_Light"'),
        null,
      ],
      // A Poid in a file that splices nothing (the splice tables are the earlier link's).
      [
        "a Poid value in a file without splices",
        "Data/Weapons.xml",
        (t) => t.replace('UpdateModuleId="ModuleTag_Gun"', 'UpdateModuleId="ModuleTag_Nope"'),
        null,
      ],
      // The same inheritFrom sites at the same places, resolved otherwise: Tank → Jeep2 → Tank.
      [
        "a rename that closes an inheritFrom cycle",
        "Data/Units.xml",
        (t) => t.replace('id="Jeep"', 'id="Jeep2"'),
        null,
      ],
      ["the cycle broken again", "Data/Units.xml", (t) => t.replace('id="Jeep2"', 'id="Jeep"'), null],
      [
        "an include added",
        "Data/Mod.xml",
        (t) => t.replace("</Includes>", '<Include type="all" source="Lights.xml" /></Includes>'),
        "the include graph or the set of files changed",
      ],
      // Assets gained and lost: the numbering after the file moves, the sites naming its ids are resolved again.
      [
        "an asset added in the middle of the ranking",
        "Data/Weapons.xml",
        (t) => t.replace("<W3DContainer", '<WeaponTemplate id="Extra" /><W3DContainer'),
        null,
      ],
      [
        "an asset added to the first file",
        "Data/Units.xml",
        (t) => t.replace('<GameObject id="Jeep"', '<GameObject id="A0" /><GameObject id="Jeep"'),
        null,
      ],
      // Tank's inheritFrom named Jeep2, which nothing defined: it resolves now.
      [
        "an asset added that others already named",
        "Data/Weapons.xml",
        (t) => t.replace("<W3DContainer", '<GameObject id="Jeep2" /><W3DContainer'),
        null,
      ],
      [
        "an asset added to the last file",
        "Data/Zoo.xml",
        (t) => t.replace("</GameObject>", '</GameObject><GameObject id="Zoo2" inheritFrom="Zoo" />'),
        null,
      ],
      // TankCommandSet goes: Units.xml's and Zoo.xml's sites naming it (unchanged files) become not_found.
      [
        "an asset removed that others still name",
        "Data/Weapons.xml",
        (t) => t.replace('<LogicCommandSet id="TankCommandSet" />', ""),
        null,
      ],
      ["an asset removed from the first file", "Data/Units.xml", (t) => t.replace('<GameObject id="A0" />', ""), null],
      [
        "an asset added to a file with none",
        "Data/Empty.xml",
        () => doc('<GameObject id="Lone" inheritFrom="Zoo" />'),
        null,
      ],
      // Units.xml's assets moved: its Poid names a module Lights.xml splices in, found through the splice
      // tables this link takes over with their owners renumbered.
      [
        "a Poid value in a file without splices, after a renumbering",
        "Data/Weapons.xml",
        (t) => t.replace('UpdateModuleId="ModuleTag_Nope"', 'UpdateModuleId="ModuleTag_Gun"'),
        null,
      ],
      ["a file losing its last asset", "Data/Empty.xml", () => doc(""), null],
      [
        "an asset removed from the last file",
        "Data/Zoo.xml",
        (t) => t.replace('<GameObject id="Zoo2" inheritFrom="Zoo" />', ""),
        null,
      ],
      [
        "the removed asset back",
        "Data/Weapons.xml",
        (t) => t.replace('<GameObject id="Truck">', '<LogicCommandSet id="TankCommandSet" /><GameObject id="Truck">'),
        null,
      ],
      // Above the asset holding an xi:include: the include moves (its line, its owner), the walk is the earlier
      // one with its edge shifted, and the link renumbers.
      [
        "an asset added above an xi:include",
        "Data/Units.xml",
        (t) => t.replace('<GameObject id="Tank"', '<GameObject id="Top" />\n\n<GameObject id="Tank"'),
        null,
      ],
      ["lines added above an xi:include", "Data/Units.xml", (t) => t.replace('<GameObject id="Top" />', "\n\n"), null],
      // Above the includes of the entry point: every include edge out of Mod.xml moves.
      [
        "an asset added above the includes",
        "Data/Mod.xml",
        (t) => t.replace("<Includes>", '<GameObject id="Head" />\n<Includes>'),
        null,
      ],
      ["that asset removed", "Data/Mod.xml", (t) => t.replace('<GameObject id="Head" />\n', ""), null],
    ];
    for (const [what, file, edit, full] of steps) {
      files[file] = edit(files[file]);
      core.applyChanges([{ path: `${ROOT}/${file}`, bytes: new TextEncoder().encode(files[file]) }]);
      const patched = core.link(ports.inputs);
      expect([what, core.lastLinkFullBecause]).toEqual([what, full]);
      expect([what, linkedDifference(patched, link(core, ports.inputs))]).toEqual([what, null]);
      if (what === "a rename to a new id") {
        expect(patched.sites.find((s) => s.value === "TankCommandSet")?.status).toBe("not_found");
      }
      if (what === "a Poid value") {
        expect(patched.poidSites.map((p) => p.target?.element ?? null)).toEqual([
          "ScriptedModelDraw",
          "FireWeaponUpdate",
        ]);
      }
      if (what === "a Poid value in a file without splices, after a renumbering") {
        expect(patched.poidSites.map((p) => p.target?.element ?? null)).toEqual([
          "ScriptedModelDraw",
          "FireWeaponUpdate",
        ]);
      }
      if (what === "a Poid value in a file without splices") {
        expect(patched.poidSites.map((p) => p.target?.element ?? null)).toEqual(["ScriptedModelDraw", null]);
      }
      if (what === "an asset added that others already named") {
        expect(patched.sites.find((s) => s.value === "Jeep2")?.status).toBe("resolved");
      }
      if (what === "an asset removed that others still name") {
        expect(patched.sites.filter((s) => s.value === "TankCommandSet").map((s) => s.status)).toEqual([
          "not_found",
          "not_found",
        ]);
      }
      if (what === "a rename that closes an inheritFrom cycle") {
        expect(patched.inheritCycles.map((c) => c.assets.map((a) => patched.assets[a].id))).toEqual([[
          "Tank",
          "Jeep2",
        ]]);
      }
    }
    // Several files at once: one gains an asset, another loses one, a third changes a value.
    files["Data/Units.xml"] = files["Data/Units.xml"].replace(
      '<GameObject id="Jeep"',
      '<GameObject id="B0" /><GameObject id="Jeep"',
    );
    files["Data/Weapons.xml"] = files["Data/Weapons.xml"].replace('<WeaponTemplate id="Extra" />', "");
    files["Data/Empty.xml"] = doc('<GameObject id="Lone" CommandSet="TankCommandSet" />');
    core.applyChanges(
      ["Data/Units.xml", "Data/Weapons.xml", "Data/Empty.xml"].map((f) => ({
        path: `${ROOT}/${f}`,
        bytes: new TextEncoder().encode(files[f]),
      })),
    );
    const several = core.link(ports.inputs);
    expect(core.lastLinkFullBecause).toBeNull();
    expect(linkedDifference(several, link(core, ports.inputs))).toBeNull();
    expect(several.assets.map((a) => a.id)).toContain("B0");
    expect(several.assets.map((a) => a.id)).not.toContain("Extra");
  });
});

describe("a renumbering link (assets gained or lost) equals a full link", () => {
  // The assets after every record's move too: the children of a root-level xi:include container (Frags/Weapons.xml)
  // and a prebuilt manifest's entries (SDK mode, a reference include answered by the SDK's manifest).
  const gun = [symbolHash("WeaponTemplate"), instanceHash("VanillaGun")] as const;
  const manifest = writeManifest({
    version: 5,
    assets: [
      { name: "WeaponTemplate:VanillaGun", source: "DATA:weapons.xml" },
      { name: "GameObject:VanillaTank", source: "DATA:tank.xml", refs: [gun] },
    ],
  }).bytes;
  const FILES2: Record<string, string | Uint8Array> = {
    "Data/Mod.xml": doc(
      includes(["reference", "DATA:static.xml"], ["all", "Units.xml"], ["all", "Defs.xml"], ["all", "Late.xml"]) +
        `\n<xi:include href="Frags/Weapons.xml" xpointer="${xp("WeaponList")}" />`,
      XI,
    ),
    "Data/Units.xml": doc(
      `<GameObject id="Tank" CommandSet="Cmds" BuildCost="$COST"><Behaviors><FireWeaponUpdate id="M1" Weapon="Cannon" /></Behaviors></GameObject>`,
    ),
    "Data/Defs.xml": doc(`<Defines><Define name="OTHER" value="1" /></Defines>`),
    "Data/Late.xml": doc(
      [
        includes(["all", "Missing.xml"]),
        `<GameObject id="Late" inheritFrom="Tank" CommandSet="Cmds">`,
        `<Behaviors><FireWeaponUpdate id="M2" Weapon="VanillaGun" /></Behaviors></GameObject>`,
        `<LogicCommandSet id="Cmds" />`,
      ].join("\n"),
    ),
    "Data/Frags/Weapons.xml": [
      `<WeaponList xmlns="uri:ea.com:eala:asset">`,
      `<WeaponTemplate id="Cannon"><Nuggets><FireWeaponNugget WeaponName="Splash" /><FireWeaponNugget WeaponName="Extra" /></Nuggets></WeaponTemplate>`,
      `<WeaponTemplate id="Splash" />`,
      `</WeaponList>`,
    ].join("\n"),
    "sdk:Schemas/xsd/CnC3Types.xsd": "",
    "sdk:static.xml": doc(""),
    "sdk:SageXml/static.xml": doc(""),
    "sdk:builtmods/static.manifest": manifest,
  };

  test("xi:include container children, manifest entries, defines declared in the same edit", () => {
    const { core, ports, linked: first } = memIndex(FILES2, sample);
    // The fixture has what the test is about: xi:include container children and manifest entries, after Late.xml's.
    expect(first.assets.filter((a) => a.viaXInclude).map((a) => a.id)).toEqual(["Cannon", "Splash"]);
    expect(first.assets.filter((a) => a.origin === "manifest").map((a) => a.id)).toEqual(["VanillaGun", "VanillaTank"]);
    // …an include-not-found warning at an include's place, and an SDK stream pulled in by a reference include.
    expect(first.diagnostics.filter((d) => d.code === "include-not-found").map((d) => d.line)).toEqual([4]);
    expect(first.streams.filter((s) => s.referencedFrom).map((s) => s.reason)).toEqual([
      "the SDK's vanilla stream, referenced by Data/Mod.xml:4",
    ]);
    const files: Record<string, string> = {};
    for (const [k, v] of Object.entries(FILES2)) if (typeof v === "string") files[k] = v;
    const steps: [string, string, (text: string) => string][] = [
      [
        "an asset added before the container children and the manifest's",
        "Data/Units.xml",
        (t) => t.replace("</AssetDeclaration>", `<GameObject id="Jeep" Weapon="Splash" />\n</AssetDeclaration>`),
      ],
      [
        "two added",
        "Data/Units.xml",
        (t) =>
          t.replace("</AssetDeclaration>", `<GameObject id="J2" /><WeaponTemplate id="Extra" />\n</AssetDeclaration>`),
      ],
      // $COST is declared now, by the file that gains an asset: Units.xml's use is no longer undeclared.
      [
        "an asset and the define another file uses",
        "Data/Defs.xml",
        (t) => t.replace("</Defines>", `<Define name="COST" value="5" /></Defines><GameObject id="D1" />`),
      ],
      ["one removed", "Data/Units.xml", (t) => t.replace(`<GameObject id="J2" />`, "")],
      [
        "the define and its asset gone",
        "Data/Defs.xml",
        (t) => t.replace(`<Define name="COST" value="5" /></Defines><GameObject id="D1" />`, "</Defines>"),
      ],
      ["the last one removed", "Data/Units.xml", (t) => t.replace(/<GameObject id="Jeep"[^>]*\/>/, "")],
      // Above an include of a missing file: its edge and its include-not-found warning move.
      [
        "an asset added above an include",
        "Data/Late.xml",
        (t) => t.replace("<Includes>", '<GameObject id="L0" />\n<Includes>'),
      ],
      // Above the reference include that pulls the SDK's stream in: the stream's reason names the new line.
      [
        "an asset added above the reference include",
        "Data/Mod.xml",
        (t) => t.replace("<Includes>", '<GameObject id="M0" />\n\n<Includes>'),
      ],
      ["the first removed again", "Data/Late.xml", (t) => t.replace('<GameObject id="L0" />\n', "")],
    ];
    let before = first;
    for (const [what, file, edit] of steps) {
      files[file] = edit(files[file]);
      core.applyChanges([{ path: `${ROOT}/${file}`, bytes: new TextEncoder().encode(files[file]) }]);
      const patched = core.link(ports.inputs);
      expect([what, core.lastLinkFullBecause, patched.assets.length === before.assets.length]).toEqual([
        what,
        null,
        false,
      ]);
      expect([what, linkedDifference(patched, link(core, ports.inputs))]).toEqual([what, null]);
      before = patched;
    }
    // The root-level xi:include moved into an asset: not a move of its place (its children are no longer assets).
    const wrapped = files["Data/Mod.xml"].replace(
      /(<xi:include href="Frags\/Weapons.xml"[^>]*\/>)/,
      '<GameObject id="Wrap"><Draws>$1</Draws></GameObject>',
    );
    expect(wrapped).not.toBe(files["Data/Mod.xml"]);
    core.applyChanges([{ path: `${ROOT}/Data/Mod.xml`, bytes: new TextEncoder().encode(wrapped) }]);
    const relinked = core.link(ports.inputs);
    expect(core.lastLinkFullBecause).toBe("the include graph or the set of files changed");
    expect(relinked.assets.filter((a) => a.viaXInclude)).toEqual([]);
  });
});
