/**
 * Issue 12: every reference the game resolves. Fragments typed by where they are spliced (one fragment
 * spliced into two contexts typed twice; a fragment nothing splices marked as such), XSD defaults of
 * reference attributes (`default`), names the engine looks up at run time (`name`), one site per asset
 * in SDK mode (manifest pairs confirming XML sites), `inheritFrom` cycles, and xi:include with only an
 * xpointer (the same document, XInclude 1.0) with its loop protection. Each test states the exact sites,
 * kinds, totals and diagnostics.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { LinkedIndex, ReferenceSite } from "../../src/index/linked.ts";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { findReferences } from "../../src/query/references.ts";
import { uses } from "../../src/query/uses.ts";
import { unresolvedSitesOf } from "../../src/query/miss-tables.ts";
import { instanceHash, symbolHash } from "../../src/formats/fasthash.ts";
import { writeManifest } from "../formats/manifest-writer.ts";
import { ok } from "../query/sample.ts";
import { doc, includes, memIndex, rel } from "./fixture.ts";

const schema = new Schema(loadSchema(join(import.meta.dirname, "fixtures", "xsd-refs")).model!);
const XI = ` xmlns:xi="http://www.w3.org/2001/XInclude"`;
const xp = (name: string) => `xmlns(n=uri:ea.com:eala:asset) xpointer(/n:${name}/child::*)`;

/** A site as one line: where, whose, how, what it resolves to. */
function line(linked: LinkedIndex, s: ReferenceSite): string {
  const from = s.from >= 0 ? `${linked.assets[s.from].type}:${linked.assets[s.from].id}` : "-";
  const to = s.targets.map((t) => `${linked.assets[t].type}:${linked.assets[t].id}`).join(",") || s.status;
  const flags = [s.confirmedByManifest ? "confirmed" : "", s.unspliced ? "unspliced" : "", s.via ? `via ${s.via}` : ""]
    .filter(Boolean);
  return `${rel(s.file)}:${s.line}:${s.column} ${from} ${s.kind} ${s.element}@${s.attribute ?? ""}=${s.value} → ${to}${
    flags.length ? ` (${flags.join(", ")})` : ""
  }`;
}

const sitesOf = (linked: LinkedIndex, pick: (s: ReferenceSite) => boolean = () => true) =>
  linked.sites.filter(pick).map((s) => line(linked, s));

const diagnosticsOf = (linked: LinkedIndex, codes?: readonly string[]) =>
  linked.diagnostics.filter((d) => !codes || codes.includes(d.code)).map((d) =>
    `${d.file ? rel(d.file) : "-"}:${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`
  );

describe("a fragment is typed by the element it is spliced into", () => {
  // GenericPackPower.xml in the TW SDK: a <SpecialPower> module spliced into <Behaviors>. The schema also has a
  // top-level asset named SpecialPower (a command-button template) that has no SpecialPowerTemplate attribute.
  const files = {
    "Data/Mod.xml": doc(
      [
        `<GameObject id="Yard"><Behaviors><xi:include href="Includes/PackPower.xml" /></Behaviors></GameObject>`,
        `<GameObject id="Crane"><Behaviors><xi:include href="Includes/PackPower.xml" /></Behaviors></GameObject>`,
        `<SpecialPowerTemplate id="SpecialPower_Pack" />`,
        `<LogicCommandSet id="DefaultCommandSet" />`,
      ].join("\n"),
      XI,
    ),
    "Data/Includes/PackPower.xml":
      `<?xml version="1.0"?>\n<SpecialPower xmlns="uri:ea.com:eala:asset" id="ModuleTag_Pack" SpecialPowerTemplate="SpecialPower_Pack" />\n`,
  };

  test("its reference belongs to each splicing GameObject, typed as the Behaviors module", () => {
    const { linked } = memIndex(files, schema);
    expect(sitesOf(linked, (s) => s.kind !== "default")).toEqual([
      "Data/Includes/PackPower.xml:2:87 GameObject:Yard attribute SpecialPower@SpecialPowerTemplate=SpecialPower_Pack → SpecialPowerTemplate:SpecialPower_Pack (via Includes/PackPower.xml)",
      "Data/Includes/PackPower.xml:2:87 GameObject:Crane attribute SpecialPower@SpecialPowerTemplate=SpecialPower_Pack → SpecialPowerTemplate:SpecialPower_Pack (via Includes/PackPower.xml)",
    ]);
    const refs = ok(findReferences(linked, "SpecialPower_Pack"));
    expect([refs.total, refs.assets, refs.references.map((r) => `${r.from?.id} ${r.parent}`)]).toEqual([
      2,
      2,
      ["Yard Behaviors", "Crane Behaviors"],
    ]);
  });

  test("no false unknown-attribute warning: the global guess (the button template) is not used", () => {
    const { linked } = memIndex(files, schema);
    expect(diagnosticsOf(linked, ["unknown-attribute", "unknown-element", "fragment-not-spliced"])).toEqual([]);
  });

  test("spliced nowhere, the same fragment keeps the global guess, marked: its sites unspliced and a note", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(`<SpecialPowerTemplate id="SpecialPower_Pack" /><Texture id="Icon" />`),
      "Data/Includes/Orphan.xml":
        `<?xml version="1.0"?>\n<SpecialPower xmlns="uri:ea.com:eala:asset" id="Button" ButtonImage="Icon" SpecialPowerTemplate="SpecialPower_Pack" />\n`,
    }, schema);
    expect(sitesOf(linked)).toEqual([
      "Data/Includes/Orphan.xml:2:70 - attribute SpecialPower@ButtonImage=Icon → Texture:Icon (unspliced)",
    ]);
    expect(diagnosticsOf(linked, ["unknown-attribute", "fragment-not-spliced"])).toEqual([
      "Data/Includes/Orphan.xml:2:1 information fragment-not-spliced: no xi:include splices this fragment in, so no context types its elements: they are read by a guess from the root element's name, and its references belong to no asset",
      "Data/Includes/Orphan.xml:2:76 warning unknown-attribute: attribute SpecialPowerTemplate is not declared for <SpecialPower> (type SpecialPowerButton)",
    ]);
  });
});

describe("one fragment spliced into two contexts is typed twice", () => {
  const files = {
    "Data/Mod.xml": doc(
      [
        `<GameObject id="Tank">`,
        `  <Behaviors><xi:include href="Shared.xml" xpointer="${xp("Modules")}" /></Behaviors>`,
        `  <Draws><xi:include href="Shared.xml" xpointer="${xp("Modules")}" /></Draws>`,
        `</GameObject>`,
        `<WeaponTemplate id="Gun" />`,
        `<W3DContainer id="Gun" />`,
        `<LogicCommandSet id="DefaultCommandSet" />`,
      ].join("\n"),
      XI,
    ),
    "Data/Shared.xml": `<Modules xmlns="uri:ea.com:eala:asset">\n  <Module id="M" Target="Gun" />\n</Modules>\n`,
  };

  test("under Behaviors the Module names a WeaponTemplate, under Draws a W3DContainer: two sites, both Tank's", () => {
    const { linked } = memIndex(files, schema);
    expect(sitesOf(linked, (s) => rel(s.file) === "Data/Shared.xml")).toEqual([
      "Data/Shared.xml:2:26 GameObject:Tank attribute Module@Target=Gun → WeaponTemplate:Gun (via Shared.xml)",
      "Data/Shared.xml:2:26 GameObject:Tank attribute Module@Target=Gun → W3DContainer:Gun (via Shared.xml)",
    ]);
    expect(ok(findReferences(linked, "Gun", { type: "W3DContainer" })).references.map((r) => r.parent)).toEqual([
      "Draws",
    ]);
  });
});

describe("schema defaults are references (kind default)", () => {
  const files = {
    "Data/Mod.xml": doc(
      [
        `<TargetingCompareList id="DefaultTargetingCompareList" />`,
        `<TargetingCompareList id="SniperList" />`,
        `<LogicCommandSet id="DefaultCommandSet" />`,
        `<LogicCommandSet id="TankCommands" />`,
        // Omits both: the module's default and the asset's own.
        `<GameObject id="Rifleman"><Behaviors><AIUpdate id="AI"><UnitAITargetChooserData /></AIUpdate></Behaviors></GameObject>`,
        // Writes both.
        `<GameObject id="Sniper" CommandSet="TankCommands"><Behaviors><AIUpdate id="AI"><UnitAITargetChooserData TargetingCompareList="SniperList" /></AIUpdate></Behaviors></GameObject>`,
        // Inherits: the asset's own default comes from its parent, the module it writes still has its default.
        `<GameObject id="Elite" inheritFrom="Rifleman"><Behaviors><AIUpdate id="AI2"><UnitAITargetChooserData /></AIUpdate></Behaviors></GameObject>`,
        // No AI module: no default for it.
        `<GameObject id="Rock" />`,
      ].join("\n"),
    ),
  };

  test("one site per omission, at the element's start tag; written values and empty defaults are not defaults", () => {
    const { linked } = memIndex(files, schema);
    expect(sitesOf(linked, (s) => s.kind === "default")).toEqual([
      "Data/Mod.xml:7:1 GameObject:Rifleman default GameObject@CommandSet=DefaultCommandSet → LogicCommandSet:DefaultCommandSet",
      "Data/Mod.xml:7:56 GameObject:Rifleman default UnitAITargetChooserData@TargetingCompareList=DefaultTargetingCompareList → TargetingCompareList:DefaultTargetingCompareList",
      "Data/Mod.xml:9:77 GameObject:Elite default UnitAITargetChooserData@TargetingCompareList=DefaultTargetingCompareList → TargetingCompareList:DefaultTargetingCompareList",
      "Data/Mod.xml:10:1 GameObject:Rock default GameObject@CommandSet=DefaultCommandSet → LogicCommandSet:DefaultCommandSet",
    ]);
  });

  test("find_references shows and counts them by kind; they are uses; a written reference is kind attribute", () => {
    const { linked } = memIndex(files, schema);
    const r = ok(findReferences(linked, "DefaultTargetingCompareList"));
    expect([r.total, r.byKind, r.references.map((s) => `${s.from?.id} ${s.kind} ${s.element}@${s.attribute}`)])
      .toEqual([2, { default: 2 }, [
        "Rifleman default UnitAITargetChooserData@TargetingCompareList",
        "Elite default UnitAITargetChooserData@TargetingCompareList",
      ]]);
    expect(ok(findReferences(linked, "SniperList")).byKind).toEqual({ attribute: 1 });
  });

  test("a default naming no asset is no reference and no error", () => {
    const { linked } = memIndex({ "Data/Mod.xml": doc(`<GameObject id="Lonely" />`) }, schema);
    expect([sitesOf(linked), diagnosticsOf(linked, ["unresolved-reference", "wrong-type-reference"])]).toEqual([
      [],
      [],
    ]);
    // Nor an unresolved site for the not-found answer ("the project references it …").
    expect(unresolvedSitesOf(linked, "DefaultCommandSet")).toEqual([]);
  });
});

describe("names the engine looks up at run time (kind name)", () => {
  const files = {
    "Data/Mod.xml": doc(
      [
        `<GameObject id="SovietNavalYard" CommandSet="DefaultCommandSet" />`,
        `<LogicCommandSet id="DefaultCommandSet" />`,
        `<SkirmishOpeningMove id="SovietRush">`,
        `  <Order Build="SovietNavalYard" />`,
        `  <Order Build="VanillaBarracks" />`,
        `  <Order Build="DefaultCommandSet" />`,
        `  <Order />`,
        `</SkirmishOpeningMove>`,
      ].join("\n"),
    ),
  };

  test("an AI build order naming a GameObject is a reference of kind name; others are not kept, never errors", () => {
    const { linked } = memIndex(files, schema);
    expect(sitesOf(linked, (s) => s.kind === "name")).toEqual([
      "Data/Mod.xml:6:17 SkirmishOpeningMove:SovietRush name Order@Build=SovietNavalYard → GameObject:SovietNavalYard",
    ]);
    expect(diagnosticsOf(linked, ["unresolved-reference", "wrong-type-reference", "external-references"])).toEqual([]);
    // The not-found answer's table of unresolved sites holds no name value either.
    expect([unresolvedSitesOf(linked, "VanillaBarracks"), unresolvedSitesOf(linked, "DefaultCommandSet")]).toEqual([
      [],
      [],
    ]);
    const r = ok(findReferences(linked, "SovietNavalYard"));
    expect([r.total, r.byKind, r.references[0].kind]).toEqual([1, { name: 1 }, "name"]);
    expect(ok(uses(linked, "SovietRush")).edges.map((e) => `${e.to.type}:${e.to.id} ${e.via.kind}`)).toEqual([
      "GameObject:SovietNavalYard name",
    ]);
  });
});

describe("SDK mode: one site per referencing asset", () => {
  // Vanilla XML (the SDK's SageXml) and the compiled manifest both say VanillaTank → VanillaGun; the manifest also
  // holds a pair whose source XML is not in the SDK (ManifestOnlyTank → VanillaGun).
  const gun = [symbolHash("WeaponTemplate"), instanceHash("VanillaGun")] as const;
  const manifest = writeManifest({
    version: 5,
    assets: [
      { name: "WeaponTemplate:VanillaGun", source: "DATA:weapons.xml" },
      { name: "GameObject:VanillaTank", source: "DATA:tank.xml", refs: [gun] },
      { name: "GameObject:ManifestOnlyTank", source: "DATA:gone.xml", refs: [gun] },
    ],
  });
  const files = (m: Uint8Array) => ({
    "Data/Mod.xml": doc(includes(["reference", "DATA:static.xml"])),
    "sdk:Schemas/xsd/CnC3Types.xsd": "",
    "sdk:static.xml": doc(""),
    "sdk:builtmods/static.manifest": m,
    "sdk:SageXml/static.xml": doc(
      [
        `<WeaponTemplate id="VanillaGun" />`,
        `<GameObject id="VanillaTank"><Behaviors><Module id="M" Target="VanillaGun" /></Behaviors></GameObject>`,
        `<LogicCommandSet id="DefaultCommandSet" />`,
      ].join("\n"),
    ),
  });

  test("the XML site is the answer, confirmed by the manifest; a pair without an XML site stays, kind manifest", () => {
    const { linked } = memIndex(files(manifest.bytes), schema);
    const r = ok(findReferences(linked, "VanillaGun", { type: "WeaponTemplate" }));
    expect(
      r.references.map((s) =>
        `${s.file}:${s.line} ${s.from?.id} ${s.kind}${s.confirmedByManifest ? " confirmed" : ""}`
      ),
    )
      .toEqual([
        "SageXml/static.xml:4 VanillaTank attribute confirmed",
        "builtmods/static.manifest:0 ManifestOnlyTank manifest",
      ]);
    expect([r.total, r.assets, r.byKind, r.byOrigin]).toEqual([2, 2, { attribute: 1, manifest: 1 }, {
      project: 0,
      sdk: 1,
      manifest: 1,
    }]);
  });
});

describe("find_references filters and totals by kind", () => {
  const files = {
    "Data/Mod.xml": doc(
      [
        `<LogicCommandSet id="DefaultCommandSet" />`,
        `<GameObject id="Base" CommandSet="DefaultCommandSet" />`,
        `<GameObject id="ChildA" inheritFrom="Base" />`,
        `<GameObject id="ChildB" inheritFrom="Base"><Behaviors><Module id="M" Target="Base" /></Behaviors></GameObject>`,
        `<SkirmishOpeningMove id="Rush"><Order Build="Base" /></SkirmishOpeningMove>`,
        `<GameObject id="Plain" />`,
      ].join("\n"),
    ),
  };

  test('"children of X" is one call: kinds ["inheritFrom"]; byKind counts every kind whatever the filter', () => {
    const { linked } = memIndex(files, schema);
    const children = ok(findReferences(linked, "Base", { kinds: ["inheritFrom"] }));
    expect([children.kinds, children.total, children.references.map((r) => r.from?.id), children.byKind]).toEqual([
      ["inheritFrom"],
      2,
      ["ChildA", "ChildB"],
      { inheritFrom: 2, name: 1 },
    ]);
    const all = ok(findReferences(linked, "Base", { type: "GameObject" }));
    // The Module's Target wants a WeaponTemplate: Base is not one, so that site is not Base's.
    expect([all.total, all.assets, all.byKind]).toEqual([3, 3, { inheritFrom: 2, name: 1 }]);
    expect(ok(findReferences(linked, "DefaultCommandSet", { kinds: ["default", "attribute"] })).byKind).toEqual({
      attribute: 1,
      default: 1,
    });
  });

  test("an unknown kind is an argument error naming the kinds", () => {
    const { linked } = memIndex(files, schema);
    expect(findReferences(linked, "Base", { kinds: ["children"] })).toEqual({
      error: {
        code: "bad_argument",
        message:
          '"children" is not a reference kind; use one of attribute, content, inheritFrom, default, name, manifest, heuristic',
      },
    });
  });
});

describe("inheritFrom cycles", () => {
  const body = [
    `<LogicCommandSet id="DefaultCommandSet" />`,
    `<GameObject id="A" inheritFrom="B" />`,
    `<GameObject id="B" inheritFrom="A" />`,
    `<GameObject id="Self" inheritFrom="Self" />`,
    `<GameObject id="Fine" inheritFrom="A" />`,
  ].join("\n");
  const withSdk = { "Data/Mod.xml": doc(body), "sdk:Schemas/xsd/CnC3Types.xsd": "" };

  test("A → B → A and A → A are errors with the chain, at each member's inheritFrom", () => {
    const { linked } = memIndex(withSdk, schema);
    expect(diagnosticsOf(linked, ["inherit-cycle"])).toEqual([
      "Data/Mod.xml:4:33 error inherit-cycle: inheritFrom cycle: GameObject A → GameObject B → GameObject A (the other inheritFrom: Data/Mod.xml:5); the builder cannot resolve this inheritance",
      "Data/Mod.xml:5:33 error inherit-cycle: inheritFrom cycle: GameObject B → GameObject A → GameObject B (the other inheritFrom: Data/Mod.xml:4); the builder cannot resolve this inheritance",
      "Data/Mod.xml:6:36 error inherit-cycle: inheritFrom cycle: GameObject Self → GameObject Self (it names itself); the builder cannot resolve this inheritance",
    ]);
    expect(linked.inheritCycles.map((c) => c.assets.map((a) => linked.assets[a].id))).toEqual([["A", "B"], ["Self"]]);
  });

  test("get_asset_references labels the self edge and the loop as a cycle, not a wrong type", () => {
    const { linked } = memIndex(withSdk, schema);
    const self = ok(uses(linked, "Self")).edges.filter((e) => e.via.kind === "inheritFrom");
    expect(self.map((e) => [e.to.id, e.to.status, e.cycle])).toEqual([
      ["Self", "resolved", ["GameObject:Self", "GameObject:Self"]],
    ]);
    const a = ok(uses(linked, "A")).edges.filter((e) => e.via.kind === "inheritFrom");
    expect(a.map((e) => [`${e.from.id}→${e.to.id}`, e.definedIn?.id ?? null, e.cycle])).toEqual([
      ["A→B", null, ["GameObject:A", "GameObject:B", "GameObject:A"]],
      ["A→A", "B", ["GameObject:B", "GameObject:A", "GameObject:B"]],
    ]);
    expect(ok(findReferences(linked, "A", { kinds: ["inheritFrom"] })).references.map((r) => [r.from?.id, r.cycle]))
      .toEqual([["B", ["GameObject:B", "GameObject:A", "GameObject:B"]], ["Fine", undefined]]);
  });

  test("a cycle of 50,000 members: each message shortened to 7 names of the chain and 4 other places, 200 held, the rest counted", () => {
    // Each member's message once named the whole chain and every other member: n messages of n names
    // (a 4,000-member cycle took 10 s and 1.2 GB; this one would not finish).
    const n = 50_000;
    const lines = [`<LogicCommandSet id="DefaultCommandSet" />`];
    for (let i = 0; i < n; i++) lines.push(`<GameObject id="C${i}" inheritFrom="C${(i + 1) % n}" />`);
    const { linked } = memIndex({ "Data/Mod.xml": doc(lines.join("\n")), "sdk:Schemas/xsd/CnC3Types.xsd": "" }, schema);
    expect(linked.inheritCycles.map((c) => c.assets.length)).toEqual([n]);
    const held = diagnosticsOf(linked, ["inherit-cycle"]);
    expect(held.length).toBe(200);
    expect(held[1]).toBe(
      "Data/Mod.xml:5:34 error inherit-cycle: inheritFrom cycle: GameObject C1 → GameObject C2 → GameObject C3 → " +
        "GameObject C4 → GameObject C5 → GameObject C6 → … (49994 more) → GameObject C1 (the other inheritFrom: " +
        "Data/Mod.xml:4, Data/Mod.xml:6, Data/Mod.xml:7, Data/Mod.xml:8, and 49995 more); the builder cannot resolve this inheritance",
    );
    expect(linked.omittedDiagnostics.map((o) => [o.code, o.severity, o.count, o.line])).toEqual([
      ["inherit-cycle", "error", n - 200, 204],
    ]);
    // The answers shorten the chain the same way: a member's one referencing site, and its own edge.
    const shortened = (from: number) => [
      ...[0, 1, 2, 3, 4, 5].map((j) => `GameObject:C${(from + j) % n}`),
      "… (49994 more)",
      `GameObject:C${from}`,
    ];
    expect(ok(findReferences(linked, "C7", { kinds: ["inheritFrom"] })).references.map((r) => [r.from?.id, r.cycle]))
      .toEqual([["C6", shortened(6)]]);
    const edges = ok(uses(linked, "C7")).edges.filter((e) => e.via.kind === "inheritFrom" && !e.definedIn);
    expect(edges.map((e) => [e.to.id, e.cycle])).toEqual([["C8", shortened(7)]]);
  });

  test("without an SDK, an asset naming its own id inherits from its vanilla copy (not indexed): no cycle", () => {
    const { linked } = memIndex({ "Data/Mod.xml": doc(body) }, schema);
    expect(diagnosticsOf(linked, ["inherit-cycle"]).map((d) => d.split(": ")[0])).toEqual([
      "Data/Mod.xml:4:33 error inherit-cycle",
      "Data/Mod.xml:5:33 error inherit-cycle",
    ]);
    const self = ok(uses(linked, "Self")).edges.filter((e) => e.via.kind === "inheritFrom");
    expect(self.map((e) => [e.to.id, e.to.status, e.cycle ?? null])).toEqual([["Self", "not_found", null]]);
  });
});

describe("xi:include with an xpointer and no href: the same document (XInclude 1.0)", () => {
  test("a fragment splicing part of itself: the selected children are typed and owned as everywhere else", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        [
          `<GameObject id="Tank"><Behaviors><xi:include href="Parts.xml" xpointer="${
            xp("Set")
          }" /></Behaviors></GameObject>`,
          `<WeaponTemplate id="Gun" />`,
          `<WeaponTemplate id="Spare" />`,
          `<LogicCommandSet id="DefaultCommandSet" />`,
        ].join("\n"),
        XI,
      ),
      "Data/Parts.xml": [
        `<Parts xmlns="uri:ea.com:eala:asset"${XI}>`,
        `  <Set><Module id="A" Target="Gun" /><xi:include xpointer="${xp("Extra")}" /></Set>`,
        `  <Extra><Module id="B" Target="Spare" /></Extra>`,
        `</Parts>`,
      ].join("\n"),
    }, schema);
    expect(sitesOf(linked, (s) => rel(s.file) === "Data/Parts.xml")).toEqual([
      "Data/Parts.xml:2:31 GameObject:Tank attribute Module@Target=Gun → WeaponTemplate:Gun (via Parts.xml)",
      `Data/Parts.xml:3:33 GameObject:Tank attribute Module@Target=Spare → WeaponTemplate:Spare (via ${xp("Extra")})`,
    ]);
    expect(diagnosticsOf(linked, ["xinclude-loop", "xinclude-href", "include-not-found"])).toEqual([]);
    // No include edge of a file to itself.
    expect(linked.includes.filter((e) => rel(e.from) === "Data/Parts.xml")).toEqual([]);
  });

  test("inside an AssetDeclaration document: an asset splices an element of its own file", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        [
          `<GameObject id="Tank"><Behaviors><xi:include xpointer="${xp("Kit")}" /></Behaviors></GameObject>`,
          `<GameObject id="Holder"><Draws><Kit><Module id="K" Target="Gun" /></Kit></Draws></GameObject>`,
          `<WeaponTemplate id="Gun" />`,
          `<W3DContainer id="Gun" />`,
          `<LogicCommandSet id="DefaultCommandSet" />`,
        ].join("\n"),
        XI,
      ),
    }, schema);
    // Tank's splice types Kit's Module as a behavior module. (In Holder, Kit is not declared under Draws: its Module
    // falls back to the first declaration of that name, a behavior module too.)
    expect(sitesOf(linked, (s) => s.element === "Module")).toEqual([
      "Data/Mod.xml:4:60 GameObject:Holder attribute Module@Target=Gun → WeaponTemplate:Gun",
      `Data/Mod.xml:4:60 GameObject:Tank attribute Module@Target=Gun → WeaponTemplate:Gun (via ${xp("Kit")})`,
    ]);
  });

  test("a same-document xpointer that selects its own xi:include is a loop: an error naming it, then skipped", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        `<GameObject id="Tank"><Behaviors><xi:include href="Loop.xml" /></Behaviors></GameObject>`,
        XI,
      ),
      "Data/Loop.xml": [
        `<Root xmlns="uri:ea.com:eala:asset"${XI}>`,
        `  <Module id="A" />`,
        `  <xi:include xpointer="${xp("Root")}" />`,
        `</Root>`,
      ].join("\n"),
    }, schema);
    expect(diagnosticsOf(linked, ["xinclude-loop"])).toEqual([
      `Data/Loop.xml:3:3 error xinclude-loop: xi:include loop: Data/Loop.xml:3 → Data/Loop.xml:3 selects ${
        xp("Root")
      } of this document again, while it is being included (XInclude 1.0 forbids it); this include is skipped`,
    ]);
  });

  test("an AssetDeclaration's own loop through an asset's element is reported once, however many splice it", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        `<GameObject id="Tank"><Behaviors><Box><xi:include xpointer="${xp("Box")}" /></Box></Behaviors></GameObject>`,
        XI,
      ),
    }, schema);
    expect(diagnosticsOf(linked, ["xinclude-loop"]).map((d) => d.split(": xi:include loop: ")[1])).toEqual([
      `Data/Mod.xml:3 → Data/Mod.xml:3 selects ${
        xp("Box")
      } of this document again, while it is being included (XInclude 1.0 forbids it); this include is skipped`,
    ]);
  });

  test("neither href nor xpointer is an error; an unsupported xpointer and a missing container are warnings", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(
        [
          `<GameObject id="Tank"><Behaviors>`,
          `<xi:include />`,
          `<xi:include href="Frag.xml" xpointer="element(/1/2)" />`,
          `<xi:include href="Frag.xml" xpointer="${xp("Nothing")}" />`,
          `</Behaviors></GameObject>`,
        ].join("\n"),
        XI,
      ),
      "Data/Frag.xml": `<Frag xmlns="uri:ea.com:eala:asset"><Module id="M" /></Frag>`,
    }, schema);
    expect(diagnosticsOf(linked, ["xinclude-href", "xpointer-unsupported", "xpointer-not-found"])).toEqual([
      "Data/Mod.xml:4:1 error xinclude-href: xi:include has neither an href nor an xpointer (one of them names what it includes)",
      'Data/Mod.xml:5:1 warning xpointer-unsupported: the xpointer "element(/1/2)" is not of the form xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Name/child::*); ra3 does not follow it',
      "Data/Mod.xml:6:1 warning xpointer-not-found: xi:include selects the children of <Nothing>, which Data/Frag.xml does not have",
    ]);
  });
});
