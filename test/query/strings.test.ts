/**
 * `searchStrings` (search_strings, `ra3 strings`): display texts of the project's string tables, with
 * the assets whose display fields use each key.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSchema } from "../../src/schema/load.ts";
import { Schema } from "../../src/schema/schema.ts";
import { searchStrings } from "../../src/query/strings.ts";
import { doc, memIndex } from "../index/fixture.ts";
import { ok, SAMPLE, sampleIndex } from "./sample.ts";

const sample = new Schema(loadSchema(join(SAMPLE, "Schemas", "xsd")).model!);

describe("search_strings", () => {
  test('"Athena" finds Name:AlliedAthenaCannon and the GameObject whose DisplayName uses it', async () => {
    const linked = await sampleIndex();
    const r = ok(searchStrings(linked, "Athena"));
    expect([r.query, r.noStringTable]).toEqual(["Athena", false]);
    expect(r.matches[0]).toEqual({
      key: "Name:AlliedAthenaCannon",
      text: "Athena Cannon",
      file: "Misc/Data/Mod.str",
      line: 3,
      match: "text-word",
      assets: [{
        type: "GameObject",
        id: "AlliedAthenaCannon",
        file: "Data/Includes/Allied Units/AthenaCannon.xml",
        line: 16,
        field: "DisplayName",
      }],
    });
    // The description's key matches too (its text does not); nothing uses that key.
    expect(r.matches.slice(1).map((m) => `${m.key} ${m.match} ${m.assets.length}`)).toEqual([
      "Desc:AlliedAthenaCannon key-word 0",
    ]);
    expect(r.total).toBe(2);
  });

  test("case-insensitive, and a string key used in an attribute is found too", () => {
    const { linked } = memIndex(
      {
        "Data/Mod.xml": doc(
          `<GameObject id="Tank"><DisplayName>Name:Tank</DisplayName></GameObject>\n<UnitAbilityButtonTemplate id="Btn" />`,
        ),
        "Misc/Data/Mod.str": `Name:Tank\n"Heavy Tank"\nEND\n`,
      },
      sample,
    );
    const r = ok(searchStrings(linked, "heavy"));
    expect(r.matches.map((m) => [m.key, m.text, m.assets.map((a) => `${a.type}:${a.id} ${a.field} line ${a.line}`)]))
      .toEqual([
        ["Name:Tank", "Heavy Tank", ["GameObject:Tank DisplayName line 3"]],
      ]);
  });

  test("a project without a string table says so", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(`<GameObject id="Tank"><DisplayName>Name:Tank</DisplayName></GameObject>`),
    }, sample);
    expect(ok(searchStrings(linked, "Tank"))).toEqual({ query: "Tank", total: 0, noStringTable: true, matches: [] });
  });

  test("empty and over-long queries are errors", async () => {
    const linked = await sampleIndex();
    expect(searchStrings(linked, "  ")).toEqual({
      error: { code: "bad_argument", message: "the search text is empty; pass part of a display name, e.g. Desolator" },
    });
    expect(searchStrings(linked, "x".repeat(201))).toEqual({
      error: { code: "bad_argument", message: "the search text is 201 characters long; pass at most 200" },
    });
  });
});
