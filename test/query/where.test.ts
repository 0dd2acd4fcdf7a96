/**
 * Issue 12's "where" answers: find_define lists every declaration (in effect first, then the others with
 * their state) and the use sites, paged; find_unreferenced marks and (without an SDK) leaves out what
 * overrides a vanilla asset, counting defaults and runtime names as uses; get_definition shows exactly
 * the asset's own element, by the tokenizer's offsets and the index's line model (bare CR line ends,
 * several assets on one line).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { findDefine } from "../../src/query/defines.ts";
import { definitionOf, definitionTarget } from "../../src/query/definition.ts";
import { unreferenced } from "../../src/query/unreferenced.ts";
import { findDefineAnswer, unreferencedAnswer } from "../../src/query/answers.ts";
import { writeManifest } from "../formats/manifest-writer.ts";
import { doc, includes, memIndex } from "../index/fixture.ts";
import { ok } from "./sample.ts";

const schema = new Schema(loadSchema(join(import.meta.dirname, "..", "index", "fixtures", "xsd-refs")).model!);

describe("find_define: every declaration and the use sites", () => {
  const files = {
    "Data/Mod.xml": doc(
      includes(["all", "Defines.xml"]) + "\n" +
        [
          `<Defines><Define name="TANK_RANGE" value="300" /></Defines>`,
          `<GameObject id="Tank" CommandSet="$TANK_RANGE" />`,
          `<GameObject id="Jeep" CommandSet="=$TANK_RANGE * 2" />`,
        ].join("\n"),
    ),
    "Data/Defines.xml": doc(`<Defines><Define name="TANK_RANGE" value="250" /></Defines>`),
    // Not included by anything: a draft with a third declaration and a use.
    "Data/Draft.xml": doc(
      `<Defines><Define name="tank_range" value="999" /></Defines>\n<GameObject id="Draft" CommandSet="$TANK_RANGE" />`,
    ),
  };

  test("the compiled declarations first (two: a duplicate the build sees), then the draft's, with its state", () => {
    const { linked } = memIndex(files, schema);
    const r = ok(findDefine(linked, "tank_range"));
    expect(r.definitions.map((d) => `${d.name}=${d.value} ${d.file}:${d.line} ${d.state}`)).toEqual([
      "TANK_RANGE=300 Data/Mod.xml:6 compiled",
      "TANK_RANGE=250 Data/Defines.xml:3 compiled",
      "tank_range=999 Data/Draft.xml:3 not-included",
    ]);
    expect([r.inEffect, r.uses, r.useSitesTotal]).toEqual([2, 2, 3]);
    expect(r.useSites.map((u) => `${u.file}:${u.line}:${u.column} ${u.element}@${u.attribute} ${u.state}`)).toEqual([
      "Data/Mod.xml:7:35 GameObject@CommandSet compiled",
      "Data/Mod.xml:8:36 GameObject@CommandSet compiled",
      "Data/Draft.xml:4:36 GameObject@CommandSet not-included",
    ]);
  });

  test("the use sites are paged like every list", () => {
    const { linked } = memIndex(files, schema);
    const p1 = ok(findDefine(linked, "TANK_RANGE", { limit: 2 }));
    const p2 = ok(findDefine(linked, "TANK_RANGE", { limit: 2, cursor: p1.nextCursor }));
    expect([p1.useSites.length, p2.useSites.map((u) => u.file), p2.nextCursor]).toEqual([2, ["Data/Draft.xml"], null]);
    expect(findDefineAnswer(p1)).toEqual({
      name: "TANK_RANGE",
      definitions: [
        { value: "300", at: "Data/Mod.xml:6" },
        { value: "250", at: "Data/Defines.xml:3" },
        { name: "tank_range", value: "999", at: "Data/Draft.xml:3", state: "not-included" },
      ],
      inEffect: 2,
      uses: 2,
      useSitesTotal: 3,
      useSites: [
        { at: "Data/Mod.xml:7", via: "GameObject@CommandSet" },
        { at: "Data/Mod.xml:8", via: "GameObject@CommandSet" },
      ],
      nextCursor: p1.nextCursor,
    });
    expect(findDefine(linked, "TANK_RANGE", { cursor: "nonsense" })).toEqual({
      error: {
        code: "bad_argument",
        message: "the cursor is not valid; pass the nextCursor of a previous answer or omit it",
      },
    });
  });

  test("no declaration anywhere is not_found (with similar names)", () => {
    const { linked } = memIndex(files, schema);
    expect(findDefine(linked, "TANK_RANGES")).toEqual({
      error: {
        code: "not_found",
        message: 'no <Define name="TANK_RANGES"> in any indexed file; similar: TANK_RANGE',
        details: { suggestions: ["TANK_RANGE"] },
      },
    });
  });
});

describe("find_unreferenced: what it cannot see", () => {
  test("project-only: overrides of vanilla assets are marked, left out by default, and the caveat says why", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        includes(["reference", "Vanilla.xml"]) + "\n" +
          [
            // Extends its own vanilla copy (the id="X" inheritFrom="X" idiom).
            `<GameObject id="PlayerSpellBook" inheritFrom="PlayerSpellBook" />`,
            // The same id is in the prebuilt vanilla manifest the babproj maps the reference include to.
            `<LogicCommandSet id="VanillaCommands" />`,
            `<LogicCommandSet id="ModCommands" />`,
            `<LogicCommandSet id="DefaultCommandSet" />`,
            `<GameObject id="Tank" />`,
          ].join("\n"),
      ),
      "Data/Vanilla.xml": doc(""),
      "mod.babproj": [
        `<?xml version="1.0"?>`,
        `<BinaryAssetBuilderProject xmlns="urn:xmlns:ea.com:babproject">`,
        `  <Stream Source="G:\\RA3 MOD SDK\\Mods\\Test Mod\\data\\mod.xml">`,
        `    <Configuration Name="" Default="true">`,
        `      <StreamReference ReferenceName="Vanilla.xml" ReferenceManifest="G:\\RA3 MOD SDK\\BuiltMods\\Mods\\Vanilla.manifest" ReferenceConfiguration="" />`,
        `    </Configuration>`,
        `  </Stream>`,
        `</BinaryAssetBuilderProject>`,
      ].join("\n"),
      "BuiltMods/Mods/Vanilla.manifest": writeManifest({
        version: 5,
        assets: [{ name: "LogicCommandSet:VanillaCommands", source: "DATA:commandsets.xml" }],
      }).bytes,
    }, schema);
    const r = ok(unreferenced(linked));
    // Tank is a use of DefaultCommandSet (its XSD default) and is referenced by nothing itself.
    expect(r.items.map((i) => `${i.type}:${i.id}`)).toEqual(["GameObject:Tank", "LogicCommandSet:ModCommands"]);
    expect([r.overridesLeftOut, r.caveat]).toEqual([
      2,
      "project-only mode: vanilla assets are not indexed without --sdk, so what vanilla assets reference is not seen; 2 assets that override a vanilla asset are left out (vanilla assets may reference them; includeOverrides lists them)",
    ]);
    const all = ok(unreferenced(linked, { includeOverrides: true }));
    expect(unreferencedAnswer(all).items).toEqual({
      GameObject: [{ id: "PlayerSpellBook", at: "Data/Mod.xml:6", overridesVanilla: true }, {
        id: "Tank",
        at: "Data/Mod.xml:10",
      }],
      LogicCommandSet: [{ id: "ModCommands", at: "Data/Mod.xml:8" }, {
        id: "VanillaCommands",
        at: "Data/Mod.xml:7",
        overridesVanilla: true,
      }],
    });
  });

  test("runtime names and defaults are uses", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        [
          `<GameObject id="Barracks" CommandSet="BarracksCommands" />`,
          `<LogicCommandSet id="BarracksCommands" />`,
          `<LogicCommandSet id="DefaultCommandSet" />`,
          `<GameObject id="Tank" CommandSet="BarracksCommands" />`,
          `<SkirmishOpeningMove id="Rush"><Order Build="Barracks" /></SkirmishOpeningMove>`,
        ].join("\n"),
      ),
    }, schema);
    // Barracks: named by the build order; DefaultCommandSet: no one writes it, but nobody omits CommandSet either.
    expect(ok(unreferenced(linked)).items.map((i) => `${i.type}:${i.id}`)).toEqual([
      "GameObject:Tank",
      "LogicCommandSet:DefaultCommandSet",
    ]);
  });
});

describe("get_definition shows exactly the asset's own element", () => {
  test("a file with bare-CR line ends: the element's lines counted as the index counts them", () => {
    const text = doc(`<GameObject id="A">\r  <Draws />\r</GameObject>\r<GameObject id="B" />`).replace(/\n/g, "\r");
    const { linked } = memIndex({ "Data/Mod.xml": text }, schema);
    const t = ok(definitionTarget(linked, "A"));
    const r = definitionOf(linked, t, { text });
    expect([r.startLine, r.endLine, r.shown, r.text, r.note]).toEqual([
      3,
      5,
      { from: 3, to: 5 },
      `<GameObject id="A">\n  <Draws />\n</GameObject>`,
      null,
    ]);
    const b = definitionOf(linked, ok(definitionTarget(linked, "B")), { text });
    expect([b.startLine, b.endLine, b.text]).toEqual([6, 6, `<GameObject id="B" />`]);
  });

  test("two assets on one line: each its own element, not the start of the line", () => {
    const text = doc(`  <WeaponTemplate id="First" /><WeaponTemplate id="Second"></WeaponTemplate>`);
    const { linked } = memIndex({ "Data/Mod.xml": text }, schema);
    const show = (id: string) => {
      const r = definitionOf(linked, ok(definitionTarget(linked, id)), { text });
      return [r.startLine, r.endLine, r.text];
    };
    expect([show("First"), show("Second")]).toEqual([
      [3, 3, `  <WeaponTemplate id="First" />`],
      [3, 3, `<WeaponTemplate id="Second"></WeaponTemplate>`],
    ]);
  });

  test("a file changed since it was indexed: the element is looked for by lines, and the answer says so", () => {
    const text = doc(`<WeaponTemplate id="Gun" />`);
    const { linked } = memIndex({ "Data/Mod.xml": text }, schema);
    const edited = text.replace(`<WeaponTemplate id="Gun" />`, `\n\n<WeaponTemplate id="Gun" />`);
    const r = definitionOf(linked, ok(definitionTarget(linked, "Gun")), { text: edited });
    expect([r.shown, r.text, r.note]).toEqual([
      { from: 5, to: 5 },
      `<WeaponTemplate id="Gun" />`,
      'Data/Mod.xml changed since it was indexed, so its element was looked for by lines; retry with consistency "strict" for an exact answer',
    ]);
  });
});
