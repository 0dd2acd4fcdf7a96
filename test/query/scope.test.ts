/**
 * What an answer covers, for the four rules a mutation run found untested: a reference written in a
 * file the game does not compile is not a use; a `<Define>` in such a file is not project-wide; a broken
 * include inside the SDK is not the modder's problem; an include list is paged with its totals, never
 * cut silently. In-memory fixtures, exact expected values.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { findDefine } from "../../src/query/defines.ts";
import { fileQuery } from "../../src/query/files.ts";
import { unreferenced } from "../../src/query/unreferenced.ts";
import { diagnosticsOf, doc, includes, memIndex } from "../index/fixture.ts";
import { ok, SAMPLE } from "./sample.ts";

const sample = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

describe("files that are not compiled", () => {
  const files = {
    "Data/Mod.xml": doc(
      includes(["all", "Weapons.xml"]) + "\n" +
        `<GameObject id="Tank"><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="UsedWeapon" /></Behaviors></GameObject>`,
    ),
    "Data/Weapons.xml": doc(
      [
        `<Defines><Define name="ACTIVE_RANGE" value="100" /></Defines>`,
        `<WeaponTemplate id="UsedWeapon" AttackRange="$ACTIVE_RANGE" />`,
        `<WeaponTemplate id="DraftOnlyWeapon" AttackRange="$DRAFT_RANGE" />`,
      ].join("\n"),
    ),
    // Nothing includes the draft: its reference to DraftOnlyWeapon and its define do not exist for the game.
    "Data/Draft.xml": doc(
      [
        `<Defines><Define name="DRAFT_RANGE" value="50" /></Defines>`,
        `<GameObject id="DraftTank"><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="DraftOnlyWeapon" /></Behaviors></GameObject>`,
      ].join("\n"),
    ),
    "sdk:Schemas/xsd/CnC3Types.xsd": "",
  };

  test("a reference from a file that is not compiled is not a use: the asset it names is unreferenced", () => {
    const { linked } = memIndex(files, sample);
    // The site exists (find_references shows it, marked inactive) …
    const draftSite = linked.sites.find((s) => s.value === "DraftOnlyWeapon")!;
    expect([draftSite.active, draftSite.status]).toEqual([false, "resolved"]);
    // … but does not count as a use.
    expect(ok(unreferenced(linked, { type: "WeaponTemplate" })).items.map((i) => i.id)).toEqual(["DraftOnlyWeapon"]);
  });

  test("a define declared only in a file that is not compiled is listed with its state, but is not in effect", () => {
    const { linked } = memIndex(files, sample);
    expect(ok(findDefine(linked, "ACTIVE_RANGE")).definitions.map((d) => `${d.file}:${d.line}`)).toEqual([
      "Data/Weapons.xml:3",
    ]);
    expect(findDefine(linked, "DRAFT_RANGE")).toEqual({
      name: "DRAFT_RANGE",
      definitions: [
        {
          name: "DRAFT_RANGE",
          value: "50",
          file: "Data/Draft.xml",
          line: 3,
          column: 24,
          origin: "project",
          state: "not-included",
        },
      ],
      inEffect: 0,
      uses: 1,
      useSitesTotal: 1,
      useSites: [
        {
          file: "Data/Weapons.xml",
          line: 5,
          column: 51,
          element: "WeaponTemplate",
          attribute: "AttackRange",
          state: "compiled",
        },
      ],
      nextCursor: null,
    });
    // So the compiled file's use of it is undefined (with an SDK, reported one by one).
    expect(diagnosticsOf(linked).filter((d) => d.includes("undefined-define"))).toEqual([
      "Data/Weapons.xml:5:51 warning undefined-define: $DRAFT_RANGE is not defined by any <Define>",
    ]);
  });
});

describe("broken includes inside the SDK", () => {
  test("are not reported as the modder's problems; the project's own are", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["reference", "DATA:static.xml"], ["all", "Missing/Own.xml"])),
      "sdk:Schemas/xsd/CnC3Types.xsd": "",
      "sdk:static.xml": doc(""),
      // Vanilla's own stream root includes a file the SDK does not ship.
      "sdk:SageXml/static.xml": doc(
        includes(["all", "Vanilla/NotShipped.xml"]) + `\n<WeaponTemplate id="VanillaGun" />`,
      ),
    });
    expect(linked.streams.map((s) => s.name)).toEqual(["static", "sdk:static"]);
    // The SDK's broken include is an edge of the graph (resolve_include and is_file_active show it) …
    expect(linked.includes.filter((e) => e.to === null).map((e) => e.source)).toEqual([
      "Missing/Own.xml",
      "Vanilla/NotShipped.xml",
    ]);
    // … but only the project's is a diagnostic.
    expect(diagnosticsOf(linked)).toEqual([
      'Data/Mod.xml:5:31 warning include-not-found: include "Missing/Own.xml" was not found',
    ]);
  });
});

describe("the include-list cap", () => {
  const N = 223;
  const files: Record<string, string> = {
    "Data/Mod.xml": doc(
      includes(...Array.from({ length: N }, (_, i) => ["all", `Parts/P${i}.xml`] as [string, string])),
    ),
  };
  for (let i = 0; i < N; i++) files[`Data/Parts/P${i}.xml`] = doc(`<WeaponTemplate id="W${i}" />`);

  test("a page of 100 with both totals, truncated, and a cursor that reaches every include exactly once", () => {
    const { linked } = memIndex(files);
    const first = ok(fileQuery(linked, "Data/Mod.xml"));
    expect([first.includes.length, first.includesTotal, first.includedBy.length, first.includedByTotal]).toEqual([
      100,
      223,
      0,
      0,
    ]);
    expect([first.truncated, first.nextCursor !== null]).toEqual([true, true]);
    const seen = first.includes.map((e) => e.source);
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor) {
      const page = ok(fileQuery(linked, "Data/Mod.xml", { cursor }));
      seen.push(...page.includes.map((e) => e.source));
      cursor = page.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: N }, (_, i) => `Parts/P${i}.xml`));
  });

  test("a smaller limit pages the same; the last page is not truncated beyond itself; a bad cursor is an error", () => {
    const { linked } = memIndex(files);
    const last = ok(
      fileQuery(linked, "Data/Mod.xml", {
        limit: 50,
        cursor: ok(fileQuery(linked, "Data/Mod.xml", { limit: 200 })).nextCursor,
      }),
    );
    expect([last.includes.length, last.includes[0].source, last.nextCursor]).toEqual([23, "Parts/P200.xml", null]);
    // An included file: one edge in, none out, nothing truncated.
    const part = ok(fileQuery(linked, "Data/Parts/P7.xml"));
    expect([part.includedBy, part.includedByTotal, part.includesTotal, part.truncated, part.nextCursor]).toEqual([
      [{ file: "Data/Mod.xml", source: "Parts/P7.xml", type: "all", line: 11, resolved: true, resolution: "file" }],
      1,
      0,
      false,
      null,
    ]);
    expect(fileQuery(linked, "Data/Mod.xml", { cursor: "nonsense" })).toEqual({
      error: {
        code: "bad_argument",
        message: "the cursor is not valid; pass the nextCursor of a previous answer or omit it",
      },
    });
  });
});
