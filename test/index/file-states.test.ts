/**
 * File states as the builder sees them, on in-memory mods through the real core, linker and queries:
 * `compiled` / `referenced` / `not-included` per file and per definition, reference includes with and
 * without the prebuilt manifest a `.babproj` names, the shortest include chain, `list_files` paging, a
 * file with an XML error that still says what it defines, foreign XML, a folder that cannot be listed,
 * and a mod cloned under another folder name.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { findAsset } from "../../src/query/assets.ts";
import { checkFiles } from "../../src/query/check.ts";
import { listFiles } from "../../src/query/file-list.ts";
import { fileQuery } from "../../src/query/files.ts";
import { findReferences } from "../../src/query/references.ts";
import { statusOf } from "../../src/query/status.ts";
import { unreferenced } from "../../src/query/unreferenced.ts";
import type { LinkedIndex } from "../../src/index/linked.ts";
import { ok, SAMPLE } from "../query/sample.ts";
import {
  assetsOf,
  diagnosticsOf,
  doc,
  includes,
  memIndex,
  referenceIncludeMod,
  rel,
  resolveSharedInclude,
} from "./fixture.ts";

const sample = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

/** `path state` for every project file the index lists (sorted). */
function states(linked: LinkedIndex): string[] {
  return listFilesAll(linked).map((i) => `${i.file} ${i.state}${i.viaInstance ? " instance" : ""}`);
}

function listFilesAll(linked: LinkedIndex) {
  return ok(listFiles(linked, { limit: 500 })).items;
}

/** `file:line type → to` per hop of a file's chain, entry first. */
function chain(linked: LinkedIndex, path: string): string[] | null {
  const c = ok(fileQuery(linked, path)).chain;
  return c
    ? [`entry ${c.entry.file} (${c.entry.stream})`, ...c.hops.map((h) => `${h.file}:${h.line} ${h.type} → ${h.to}`)]
    : null;
}

describe("three states: compiled, referenced, not included", () => {
  const { linked } = memIndex({
    "Data/Mod.xml": doc(includes(["all", "Units.xml"], ["reference", "Shared.xml"], ["instance", "Base.xml"])),
    "Data/Units.xml": doc(`<GameObject id="Tank" inheritFrom="SharedBase" />`),
    // Reached only through the reference include, and what it includes with it.
    "Data/Shared.xml": doc(includes(["all", "SharedMore.xml"]) + `\n<GameObject id="SharedBase" />`),
    "Data/SharedMore.xml": doc(`<WeaponTemplate id="SharedGun" />`),
    "Data/Base.xml": doc(`<GameObject id="InstanceBase" />`),
    // Both: a reference include and an all include reach it; all wins.
    "Data/Both.xml": doc(`<WeaponTemplate id="BothGun" />`),
    "Data/Draft.xml": doc(`<GameObject id="Draft" />`),
  }, sample);
  // Both.xml gets an all include from Units.xml's sibling: rebuild with it.
  const both = memIndex({
    "Data/Mod.xml": doc(includes(["reference", "Both.xml"], ["all", "Units.xml"])),
    "Data/Units.xml": doc(includes(["all", "Both.xml"]) + `\n<GameObject id="Tank" />`),
    "Data/Both.xml": doc(`<WeaponTemplate id="BothGun" />`),
  }, sample);

  test("per file", () => {
    expect(states(linked)).toEqual([
      "Data/Base.xml compiled instance",
      "Data/Both.xml not-included",
      "Data/Draft.xml not-included",
      "Data/Mod.xml compiled",
      "Data/Shared.xml referenced",
      "Data/SharedMore.xml referenced",
      "Data/Units.xml compiled",
    ]);
    expect(states(both.linked)).toEqual(["Data/Both.xml compiled", "Data/Mod.xml compiled", "Data/Units.xml compiled"]);
  });

  test("per definition (active stays `compiled`); a reference to a referenced asset still resolves", () => {
    expect(assetsOf(linked)).toEqual([
      "GameObject:Tank@Data/Units.xml:3 project [static]",
      "GameObject:SharedBase@Data/Shared.xml:6 project referenced [static]",
      "WeaponTemplate:SharedGun@Data/SharedMore.xml:3 project referenced [static]",
      "GameObject:InstanceBase@Data/Base.xml:3 project instance [static]",
      "WeaponTemplate:BothGun@Data/Both.xml:3 project not-included []",
      "GameObject:Draft@Data/Draft.xml:3 project not-included []",
    ]);
    const d = ok(findAsset(linked, "SharedBase")).definitions[0];
    expect([d.state, d.active, d.viaInstance]).toEqual(["referenced", false, false]);
    expect(ok(findReferences(linked, "SharedBase")).references.map((s) => `${s.file}:${s.line} ${s.state}`)).toEqual([
      "Data/Units.xml:3 compiled",
    ]);
  });

  test("is_file_active says which, with the chain that proves it", () => {
    const shared = ok(fileQuery(linked, "Data/SharedMore.xml"));
    expect([shared.state, shared.active, shared.summary]).toEqual([
      "referenced",
      false,
      "Data/SharedMore.xml is referenced, not compiled: only reference includes reach it (through Data/Mod.xml:5 (reference) → Data/Shared.xml:4 (all)), so its assets can be referenced but the builder does not compile it into the mod (it uses the prebuilt manifest)",
    ]);
    expect(chain(linked, "Data/SharedMore.xml")).toEqual([
      "entry Data/Mod.xml (static)",
      "Data/Mod.xml:5 reference → Data/Shared.xml",
      "Data/Shared.xml:4 all → Data/SharedMore.xml",
    ]);
    expect(ok(fileQuery(linked, "Data/Base.xml")).summary).toBe(
      "Data/Base.xml is compiled in static (through Data/Mod.xml:6 (instance)); only through instance includes, so its assets are emitted only when compiled assets reference them",
    );
    expect(chain(linked, "Data/Draft.xml")).toBeNull();
    expect(ok(fileQuery(linked, "Data/Draft.xml")).summary).toBe(
      "Data/Draft.xml is not included: no entry point reaches it",
    );
  });

  test("unreferenced counts references from referenced files; only compiled assets are candidates", () => {
    const r = memIndex({
      "Data/Mod.xml": doc(
        includes(["reference", "Shared.xml"]) +
          `\n<WeaponTemplate id="UsedByShared" />\n<WeaponTemplate id="Orphan" />`,
      ),
      "Data/Shared.xml": doc(
        `<GameObject id="S"><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="UsedByShared" /></Behaviors></GameObject>\n<WeaponTemplate id="SharedOrphan" />`,
      ),
    }, sample);
    expect(ok(unreferenced(r.linked, { type: "WeaponTemplate" })).items.map((i) => i.id)).toEqual(["Orphan"]);
  });
});

describe("a reference include and the prebuilt manifest a .babproj maps it to", () => {
  const files = referenceIncludeMod;
  const resolve = resolveSharedInclude;

  test("with the manifest: its assets answer the include (referenced), the XML is not read", () => {
    const f = memIndex(files(true), sample);
    expect(f.linked.assets.filter((a) => a.id === "SharedGun").map((a) => `${a.origin} ${rel(a.file)} ${a.state}`))
      .toEqual([
        "project Data/Shared.xml not-included",
        "manifest sdk:BuiltMods/Mods/Shared.manifest referenced",
      ]);
    expect(f.linked.streams.map((s) => [s.name, s.manifests.map(rel)])).toEqual([["static", [
      "sdk:BuiltMods/Mods/Shared.manifest",
    ]]]);
    const r = resolve(f);
    expect([r.state, r.asReference]).toEqual(["not-included", {
      answeredBy: "manifest",
      manifest: "BuiltMods/Mods/Shared.manifest",
      manifestFrom: "babproj",
      sdkStream: null,
    }]);
    expect(ok(fileQuery(f.linked, "Data/Mod.xml")).includes.map((e) => `${e.source} ${e.type} ${e.resolution}`))
      .toEqual([
        "Shared.xml reference manifest",
      ]);
  });

  test("without it: the XML in the mod is indexed as referenced", () => {
    const f = memIndex(files(false), sample);
    expect(f.linked.assets.filter((a) => a.id === "SharedGun").map((a) => `${a.origin} ${rel(a.file)} ${a.state}`))
      .toEqual([
        "project Data/Shared.xml referenced",
      ]);
    const r = resolve(f);
    expect([r.state, r.asReference]).toEqual(["referenced", {
      answeredBy: "xml",
      manifest: null,
      manifestFrom: null,
      sdkStream: null,
    }]);
  });
});

describe("the include chain: shortest, each hop's file, line and type", () => {
  const { linked } = memIndex({
    "Data/Mod.xml": doc(includes(["all", "A.xml"], ["all", "Long1.xml"])),
    "Data/A.xml": doc(includes(["instance", "B.xml"])),
    "Data/B.xml": doc(includes(["all", "C.xml"])),
    "Data/C.xml": doc(
      `<GameObject id="C"><Behaviors><xi:include href="Frag.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) xpointer(/n:Behaviors/child::*)" /></Behaviors></GameObject>`,
      ` xmlns:xi="http://www.w3.org/2001/XInclude"`,
    ),
    "Data/Frag.xml":
      `<?xml version="1.0"?>\n<Behaviors xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">\n<xi:include href="Deep.xml" />\n</Behaviors>\n`,
    "Data/Deep.xml":
      `<?xml version="1.0"?>\n<Behaviors xmlns="uri:ea.com:eala:asset"><FireWeaponWhenDead id="X" /></Behaviors>\n`,
    // A longer way to C: the chain must not take it.
    "Data/Long1.xml": doc(includes(["all", "Long2.xml"])),
    "Data/Long2.xml": doc(includes(["all", "Long3.xml"])),
    "Data/Long3.xml": doc(includes(["all", "Long4.xml"])),
    "Data/Long4.xml": doc(includes(["all", "C.xml"])),
  }, sample);

  test("depth 5 (all → instance → all → xi → xi), instance-only all the way down", () => {
    expect(chain(linked, "Data/Deep.xml")).toEqual([
      "entry Data/Mod.xml (static)",
      "Data/Mod.xml:4 all → Data/A.xml",
      "Data/A.xml:4 instance → Data/B.xml",
      "Data/B.xml:4 all → Data/C.xml",
      "Data/C.xml:3 xi → Data/Frag.xml",
      "Data/Frag.xml:3 xi → Data/Deep.xml",
    ]);
  });

  test("the shortest of two ways", () => {
    // C is reached through A/B (3 hops) and through Long1..4 (5 hops); the long way is all includes.
    expect(chain(linked, "Data/C.xml")).toEqual([
      "entry Data/Mod.xml (static)",
      "Data/Mod.xml:4 all → Data/A.xml",
      "Data/A.xml:4 instance → Data/B.xml",
      "Data/B.xml:4 all → Data/C.xml",
    ]);
    expect(ok(fileQuery(linked, "Data/C.xml")).viaInstance).toBe(false);
    expect(chain(linked, "Data/Mod.xml")).toEqual(["entry Data/Mod.xml (static)"]);
  });
});

describe("list_files: by state, paged, with a prefix", () => {
  const files: Record<string, string> = {
    "Data/Mod.xml": doc(includes(["all", "Used/U1.xml"], ["all", "Used/U2.xml"])),
  };
  for (const n of ["U1", "U2"]) files[`Data/Used/${n}.xml`] = doc(`<GameObject id="${n}" />`);
  for (const n of ["D1", "D2", "D3", "D4", "D5"]) files[`Data/Drafts/${n}.xml`] = doc(`<GameObject id="${n}" />`);
  files["Misc/Mod.str"] = `Name:X\n"X"\nEND\n`;
  const { linked } = memIndex(files, sample);

  test("pages of two through the files nothing includes, with the counts of each state", () => {
    const p1 = ok(listFiles(linked, { state: "not-included", limit: 2 }));
    expect([p1.total, p1.byState, p1.items.map((i) => i.file)]).toEqual([
      5,
      { compiled: 3, referenced: 0, "not-included": 5 },
      ["Data/Drafts/D1.xml", "Data/Drafts/D2.xml"],
    ]);
    const p2 = ok(listFiles(linked, { state: "not-included", limit: 2, cursor: p1.nextCursor }));
    const p3 = ok(listFiles(linked, { state: "not-included", limit: 2, cursor: p2.nextCursor }));
    expect([p2.items.map((i) => i.file), p3.items.map((i) => i.file), p3.nextCursor]).toEqual([
      ["Data/Drafts/D3.xml", "Data/Drafts/D4.xml"],
      ["Data/Drafts/D5.xml"],
      null,
    ]);
  });

  test("prefix (either separator, any case); the string table is not listed; a bad state or cursor is an error", () => {
    const r = ok(listFiles(linked, { prefix: "data\\USED" }));
    expect([r.items.map((i) => `${i.file} ${i.state} ${i.assets}`), r.byState]).toEqual([
      ["Data/Used/U1.xml compiled 1", "Data/Used/U2.xml compiled 1"],
      { compiled: 2, referenced: 0, "not-included": 0 },
    ]);
    expect(listFilesAll(linked).some((i) => i.file.endsWith(".str"))).toBe(false);
    expect(listFiles(linked, { state: "inactive" })).toEqual({
      error: {
        code: "bad_argument",
        message: 'state must be one of compiled, referenced, not-included, got "inactive"',
        details: { states: ["compiled", "referenced", "not-included"] },
      },
    });
    expect(listFiles(linked, { cursor: "x" })).toMatchObject({ error: { code: "bad_argument" } });
  });
});

describe("a file with an XML error still says what it defines", () => {
  // A duplicated attribute on Tank (line 5): the builder rejects the file; ra3 reads it whole.
  const BROKEN = doc(
    [
      `<WeaponTemplate id="Before" />`,
      `<GameObject id="Tank" Side="Allies" Side="Soviet">`,
      `  <Behaviors><FireWeaponWhenDead id="M" DeathWeapon="Before" /></Behaviors>`,
      `</GameObject>`,
      `<WeaponTemplate id="After" />`,
    ].join("\n"),
  );
  const { linked } = memIndex(
    { "Data/Mod.xml": doc(includes(["all", "Units.xml"])), "Data/Units.xml": BROKEN },
    sample,
  );

  test("every definition is found, marked fileHasErrors, and the reference inside the broken element resolves", () => {
    expect(assetsOf(linked)).toEqual([
      "WeaponTemplate:Before@Data/Units.xml:3 project fileHasErrors [static]",
      "GameObject:Tank@Data/Units.xml:4 project fileHasErrors [static]",
      "WeaponTemplate:After@Data/Units.xml:7 project fileHasErrors [static]",
    ]);
    expect(diagnosticsOf(linked)).toEqual([
      // Side="Allies" (kept: the first value) names a vanilla PlayerTemplate.
      "-:0:0 information external-references: 1 reference points at assets outside the project",
      "Data/Units.xml:4:37 error xml-syntax: duplicate attribute 'Side' in start tag <GameObject>",
    ]);
    expect(ok(findReferences(linked, "Before")).references.map((s) => `${s.from?.id} ${s.line}`)).toEqual(["Tank 5"]);
  });

  test("find_asset: defined at F:L, but F has an XML error at F:L2", () => {
    const r = ok(findAsset(linked, "After"));
    expect([r.definitions[0].fileHasErrors, r.notes]).toEqual([true, [
      "WeaponTemplate After is defined at Data/Units.xml:7, but Data/Units.xml has an XML error at Data/Units.xml:4 (duplicate attribute 'Side' in start tag <GameObject>): the builder will reject this file until it is fixed",
    ]]);
    const file = ok(fileQuery(linked, "Data/Units.xml"));
    expect([file.xmlError, file.summary]).toEqual([
      { line: 4, column: 37, message: "duplicate attribute 'Side' in start tag <GameObject>" },
      "Data/Units.xml is compiled in static (through Data/Mod.xml:4 (all)); it has an XML error at Data/Units.xml:4: the builder rejects it until it is fixed",
    ]);
    expect(listFilesAll(linked).find((i) => i.file === "Data/Units.xml")?.hasXmlError).toBe(true);
  });

  test("a not-found id names the broken files before anything like 'probably vanilla'", () => {
    // What an unclosed comment swallows cannot be read: the id is used, not found, and not vanilla.
    const swallowed = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Units.xml"]) + `\n<GameObject id="User" CommandSet="LostCmds" />`),
      "Data/Units.xml": doc(`<!-- unclosed\n<LogicCommandSet id="LostCmds" />`),
    }, sample);
    expect(findAsset(swallowed.linked, "LostCmds")).toEqual({
      error: {
        code: "not_found",
        message:
          'no asset has the id "LostCmds"; check the spelling or search display names with search_strings; 1 project file has an XML error (Data/Units.xml:3): what an error swallowed could not be read, so fix it (check_files) before concluding the id is not defined',
        details: { suggestions: [], filesWithXmlErrors: ["Data/Units.xml:3"] },
      },
    });
    // Without broken files, the project-only explanation stands.
    const clean = memIndex({ "Data/Mod.xml": doc(`<GameObject id="User" CommandSet="VanillaCmds" />`) }, sample);
    expect(findAsset(clean.linked, "VanillaCmds")).toMatchObject({ error: { code: "no_sdk" } });
  });
});

describe("XML that is not asset XML is not validated as asset XML", () => {
  const LUA = `<?xml version="1.0"?>
<SageLuaScriptSection xmlns="http://tempuri.org/ScriptEvents.xsd">
    <Events>
        <InternalEvent Name="OnDamaged" />
        <ScriptedEvent Name="ExampleGuardMe" />
    </Events>
</SageLuaScriptSection>
`;
  test("a Lua script-events file: one foreign-xml note, no schema warnings, no references", () => {
    const withSchema = memIndex({ "Data/Mod.xml": doc(""), "Misc/Data/Scripts/ScriptEvents.xml": LUA }, sample);
    expect(ok(checkFiles(withSchema.linked, ["Misc/Data/Scripts/ScriptEvents.xml"])).diagnostics).toEqual([{
      file: "Misc/Data/Scripts/ScriptEvents.xml",
      line: 2,
      column: 1,
      severity: "information",
      code: "foreign-xml",
      message:
        "the root <SageLuaScriptSection> is in the namespace http://tempuri.org/ScriptEvents.xsd, not uri:ea.com:eala:asset: not asset XML, so it is not checked against the asset schema",
    }]);
    const file = ok(fileQuery(withSchema.linked, "Misc/Data/Scripts/ScriptEvents.xml"));
    expect([file.foreign, file.state]).toEqual([true, "not-included"]);
    // Heuristic mode (no schema) would guess `Name="OnDamaged"` is a reference: not in foreign XML.
    const heuristic = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Scripts.xml"]) + `\n<GameObject id="OnDamaged" />`),
      "Data/Scripts.xml": LUA,
    });
    expect(heuristic.linked.sites.filter((s) => rel(s.file) === "Data/Scripts.xml")).toEqual([]);
  });

  test("a fragment in the asset namespace is still asset XML", () => {
    const f = memIndex({
      "Data/Mod.xml": doc(""),
      "Data/Frag.xml":
        `<?xml version="1.0"?>\n<Behaviors xmlns="uri:ea.com:eala:asset"><NoSuchModule id="X" /></Behaviors>\n`,
    }, sample);
    expect(diagnosticsOf(f.linked)).toEqual([
      "Data/Frag.xml:2:1 information fragment-not-spliced: no xi:include splices this fragment in, so no context types its elements: they are read by a guess from the root element's name, and its references belong to no asset",
      "Data/Frag.xml:2:42 warning unknown-element: element <NoSuchModule> is not declared in the schema",
    ]);
  });
});

describe("a folder that cannot be listed (mode 711), through the injected lister", () => {
  const f = memIndex(
    {
      "Data/Mod.xml": doc(includes(["all", "Secret/Units.xml"], ["all", "secret/UNITS2.xml"])),
      "Data/Secret/Units.xml": doc(`<GameObject id="Hidden" />`),
      "Data/Secret/Units2.xml": doc(`<GameObject id="Hidden2" />`),
    },
    sample,
    { lock: ["Data/Secret"] },
  );

  test("an include naming the file in its exact case resolves by a direct stat; another case cannot", () => {
    expect(states(f.linked)).toEqual([
      "Data/Mod.xml compiled",
      "Data/Secret/Units.xml compiled",
      // Loaded here (the in-memory fixture loads every file); no include reaches it.
      "Data/Secret/Units2.xml not-included",
    ]);
    expect(diagnosticsOf(f.linked)).toEqual([
      "-:0:0 warning unlistable-folder: the folder Data/Secret cannot be listed (permission denied): its files are found only when an include names them in their exact letter case, and files nothing includes there are not indexed; give the folder read permission",
      'Data/Mod.xml:5:31 warning include-not-found: include "secret/UNITS2.xml" was not found',
    ]);
  });
});

describe("a mod cloned under another folder name resolves DATA:<its name>/… against its root", () => {
  const babproj = (name: string) =>
    `<?xml version="1.0"?>\n<BinaryAssetBuilderProject xmlns="urn:xmlns:ea.com:babproject">\n  <Stream Source="G:\\RA3 MOD SDK\\Mods\\${name}\\data\\mod.xml" />\n</BinaryAssetBuilderProject>\n`;

  test("named by its .babproj: one note, the self-includes compiled", () => {
    const f = memIndex({
      "mod.babproj": babproj("Upheaval"),
      "Data/Mod.xml": doc(includes(["all", "DATA:Upheaval/Data/Units.xml"])),
      "Data/Units.xml": doc(`<GameObject id="Tank" />`),
    }, sample);
    expect(diagnosticsOf(f.linked)).toEqual([
      '-:0:0 information mod-name-alias: the mod calls itself "Upheaval" (its .babproj builds Mods\\Upheaval\\…) but its folder is "Test Mod": DATA:Upheaval/… is resolved against the project root, as the builder would in a folder named Upheaval',
    ]);
    expect(states(f.linked)).toEqual(["Data/Mod.xml compiled", "Data/Units.xml compiled"]);
  });

  test("named by two self-includes and no .babproj; one unmatched include is not enough", () => {
    const two = memIndex({
      "Data/Mod.xml": doc(includes(["all", "DATA:Upheaval/Data/Units.xml"], ["all", "DATA:upheaval/data/Weapons.xml"])),
      "Data/Units.xml": doc(`<GameObject id="Tank" />`),
      "Data/Weapons.xml": doc(`<WeaponTemplate id="Gun" />`),
    }, sample);
    expect(states(two.linked)).toEqual([
      "Data/Mod.xml compiled",
      "Data/Units.xml compiled",
      "Data/Weapons.xml compiled",
    ]);
    expect(two.linked.diagnostics.map((d) => d.code)).toEqual(["mod-name-alias"]);
    const one = memIndex({
      "Data/Mod.xml": doc(includes(["all", "DATA:Upheaval/Data/Units.xml"])),
      "Data/Units.xml": doc(`<GameObject id="Tank" />`),
    }, sample);
    expect(states(one.linked)).toEqual(["Data/Mod.xml compiled", "Data/Units.xml not-included"]);
  });

  test("a folder already carrying the name needs no alias (and says nothing)", () => {
    const f = memIndex({
      "mod.babproj": babproj("Test Mod"),
      "Data/Mod.xml": doc(includes(["all", "Units.xml"])),
      "Data/Units.xml": doc(`<GameObject id="Tank" />`),
    }, sample);
    expect(f.linked.diagnostics).toEqual([]);
    expect(
      statusOf({
        config: {
          projectDir: f.linked.projectDir,
          layout: { marker: "mod" },
          sdk: null,
          sdkResolution: { source: null, candidates: [] },
        },
        game: null,
        schema: { dir: null, source: null, fileCount: 0, queries: sample },
        linked: f.linked,
        view: () => ({
          projectDir: f.linked.projectDir,
          sdkDir: null,
          game: null,
          lifecycle: { state: "ready", complete: true, stale: false },
          linked: f.linked,
          buildId: 1,
          builtAt: null,
        }),
      } as never).streams.map((s) => `${s.name} ${s.entry} ${s.origin}: ${s.reason}`),
    ).toEqual([
      "static Data/Mod.xml well-known: Data/Mod.xml: the static stream EA's DefaultScript.cs builds; a <Stream> of mod.babproj",
    ]);
  });
});
