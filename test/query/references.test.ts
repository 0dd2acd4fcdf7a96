/**
 * `findReferences` (find_references, `ra3 refs`): keyed by type, paged with an opaque cursor, sorted
 * project before SDK, compiled before referenced before not included, then by file, line and column; clear errors for an
 * ambiguous or unknown id and a bad cursor.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { findReferences } from "../../src/query/references.ts";
import { doc, includes, memIndex } from "../index/fixture.ts";
import { ok, SAMPLE, sampleIndex } from "./sample.ts";

const sample = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

describe("findReferences on an in-memory project with an SDK layer", () => {
  const deathWeapon = (id: string) =>
    `<GameObject id="${id}"><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="Gun" /></Behaviors></GameObject>`;
  const { linked } = memIndex(
    {
      "Data/Mod.xml": doc(
        includes(["reference", "DATA:static.xml"], ["all", "Units.xml"]) + `\n<WeaponTemplate id="Gun" />`,
      ),
      "Data/Units.xml": doc(
        `${
          deathWeapon("Tank")
        }\n<GameObject id="Jeep"><Behaviors><FireWeaponWhenDead id="M" DeathWeapon="Gun" /><SlowDeathBehavior id="S"><Weapon>Gun</Weapon></SlowDeathBehavior></Behaviors></GameObject>`,
      ),
      // Not reached from any entry point: a file not included.
      "Data/Draft.xml": doc(deathWeapon("Draft")),
      "sdk:Schemas/xsd/CnC3Types.xsd": "",
      "sdk:SageXml/static.xml": doc(includes(["all", "Vanilla.xml"])),
      "sdk:SageXml/Vanilla.xml": doc(`<WeaponTemplate id="Gun" />\n${deathWeapon("VanillaTank")}`),
    },
    sample,
  );
  const line = (r: { from: { id: string } | null; file: string; line: number; column: number; state: string }) =>
    `${r.from?.id} ${r.file}:${r.line}:${r.column}${r.state === "compiled" ? "" : ` ${r.state}`}`;

  test("every site resolving to any definition of the type (the override and the vanilla copy), sorted, with totals by layer", () => {
    const r = ok(findReferences(linked, "gun"));
    expect([r.id, r.type, r.total, r.byOrigin]).toEqual(["Gun", "WeaponTemplate", 5, {
      project: 4,
      sdk: 1,
      manifest: 0,
    }]);
    expect(r.references.map(line)).toEqual([
      "Tank Data/Units.xml:3:74",
      "Jeep Data/Units.xml:4:74",
      "Jeep Data/Units.xml:4:115",
      "Draft Data/Draft.xml:3:75 not-included",
      // The SDK's vanilla stream is referenced by the mod (its prebuilt manifest), not compiled by it.
      "VanillaTank SageXml/Vanilla.xml:4:81 referenced",
    ]);
    expect(r.nextCursor).toBeNull();
  });

  test("pages follow the cursor to the end", () => {
    const p1 = ok(findReferences(linked, "Gun", { limit: 2 }));
    const p2 = ok(findReferences(linked, "Gun", { limit: 2, cursor: p1.nextCursor }));
    const p3 = ok(findReferences(linked, "Gun", { limit: 2, cursor: p2.nextCursor }));
    expect([p1, p2, p3].map((p) => [p.total, p.references.map((x) => x.from?.id)])).toEqual([
      [5, ["Tank", "Jeep"]],
      [5, ["Jeep", "Draft"]],
      [5, ["VanillaTank"]],
    ]);
    expect([typeof p1.nextCursor, typeof p2.nextCursor, p3.nextCursor]).toEqual(["string", "string", null]);
  });

  test("a cursor that is not ours is an error", () => {
    expect(findReferences(linked, "Gun", { cursor: "not-a-cursor" })).toEqual({
      error: {
        code: "bad_argument",
        message: "the cursor is not valid; pass the nextCursor of a previous answer or omit it",
      },
    });
  });
});

describe("findReferences on the sample mod", () => {
  test("a weapon used by a weapon slot: the site with its element, parent, attribute and asset", async () => {
    const linked = await sampleIndex();
    expect(ok(findReferences(linked, "AthenaCannonBeam"))).toEqual({
      kinds: [],
      assets: 1,
      byKind: { attribute: 1 },
      id: "AthenaCannonBeam",
      type: "WeaponTemplate",
      total: 1,
      byOrigin: { project: 1, sdk: 0, manifest: 0 },
      references: [
        {
          from: { type: "GameObject", id: "AlliedAthenaCannon" },
          file: "Data/Includes/Allied Units/AthenaCannon.xml",
          line: 30,
          column: 50,
          kind: "attribute",
          element: "Weapon",
          parent: "WeaponSlotTurret",
          attribute: "Template",
          value: "AthenaCannonBeam",
          state: "compiled",
          active: true,
        },
      ],
      nextCursor: null,
    });
  });

  test("a site in a spliced fragment names the splicing object and the xi:include", async () => {
    const linked = await sampleIndex();
    const r = ok(findReferences(linked, "AUAthena_Headlight"));
    expect(
      r.references.map((x) =>
        `${x.from?.type}:${x.from?.id} ${x.file}:${x.line}:${x.column} ${x.element}@${x.attribute} via ${x.via}`
      ),
    ).toEqual([
      "GameObject:AlliedAthenaCannon Data/Includes/Fragments/Headlights.xml:6:17 Model@Name via ../Fragments/Headlights.xml",
    ]);
  });

  test("an id naming two types: an error listing them; with the type, only that type's sites", async () => {
    const linked = await sampleIndex();
    expect(findReferences(linked, "SharedThing")).toEqual({
      error: {
        code: "ambiguous",
        message: '"SharedThing" names assets of 2 types (GameObject, WeaponTemplate); pass type to choose one',
        details: { types: ["GameObject", "WeaponTemplate"] },
      },
    });
    expect([
      ok(findReferences(linked, "SharedThing", { type: "GameObject" })).total,
      ok(findReferences(linked, "SharedThing", { type: "WeaponTemplate" })).total,
    ]).toEqual([0, 0]);
  });

  test("an unknown id: not found, with similar ids", async () => {
    const linked = await sampleIndex();
    expect(findReferences(linked, "AthenaCanonBeam")).toEqual({
      error: {
        code: "not_found",
        message:
          'no asset has the id "AthenaCanonBeam"; similar ids: AthenaCannonBeam (project-only mode: vanilla assets are not indexed)',
        details: { suggestions: ["AthenaCannonBeam"] },
      },
    });
  });
});
