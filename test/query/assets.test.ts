/** `findAsset` (find_asset, `ra3 find`): answers and every error, each one sentence with what to do. */
import { describe, expect, test } from "bun:test";
import { findAsset } from "../../src/query/assets.ts";
import { ok, sampleIndex } from "./sample.ts";

describe("find_asset", () => {
  test("an id of two types: both definitions; with a type, one", async () => {
    const linked = await sampleIndex();
    expect(
      ok(findAsset(linked, "sharedthing")).definitions.map((d) => `${d.type}:${d.id} ${d.file}:${d.line}:${d.column}`),
    ).toEqual([
      "GameObject:SharedThing Data/Includes/Allied Units/AthenaCannon.xml:61:18",
      "WeaponTemplate:SharedThing Data/Includes/Weapons.xml:33:22",
    ]);
    expect(ok(findAsset(linked, "SharedThing", "weapontemplate")).types).toEqual(["WeaponTemplate"]);
  });

  test("a base type finds its subtypes (assignability)", async () => {
    const linked = await sampleIndex();
    expect(ok(findAsset(linked, "AthenaFire", "BaseAudioEventInfo")).definitions.map((d) => `${d.type}:${d.id}`))
      .toEqual(["AudioEvent:AthenaFire"]);
  });

  test("empty id", async () => {
    const linked = await sampleIndex();
    expect(findAsset(linked, " ")).toEqual({
      error: { code: "bad_argument", message: "the asset id is empty; pass the id attribute value of the asset" },
    });
  });

  test("unknown id: similar ids are suggested", async () => {
    const linked = await sampleIndex();
    expect(findAsset(linked, "AlliedAthenaCanon")).toEqual({
      error: {
        code: "not_found",
        message:
          'no asset has the id "AlliedAthenaCanon"; similar ids: AlliedAthenaCannon, AlliedAthenaCommandSet (project-only mode: vanilla assets are not indexed)',
        details: { suggestions: ["AlliedAthenaCannon", "AlliedAthenaCommandSet"] },
      },
    });
  });

  test("unknown id with nothing similar: points at search_strings", async () => {
    const linked = await sampleIndex();
    expect(findAsset(linked, "Zq")).toEqual({
      error: {
        code: "not_found",
        message:
          'no asset has the id "Zq"; check the spelling or search display names with search_strings (project-only mode: vanilla assets are not indexed)',
        details: { suggestions: [] },
      },
    });
  });

  test("the id exists only with other types", async () => {
    const linked = await sampleIndex();
    expect(findAsset(linked, "AthenaSplash", "GameObject")).toEqual({
      error: {
        code: "not_found",
        message: '"AthenaSplash" exists only as WeaponTemplate, not as GameObject; retry with one of those types',
        details: { types: ["WeaponTemplate"] },
      },
    });
  });

  test("an unknown type", async () => {
    const linked = await sampleIndex();
    expect(findAsset(linked, "AthenaSplash", "WeaponTemplat")).toEqual({
      error: {
        code: "bad_argument",
        message: '"WeaponTemplat" is not an asset type of this index; list the types with get_status or drop the type',
        details: { suggestions: ["WeaponTemplate"] },
      },
    });
  });
});
