/**
 * The not-found lookup tables: `NameSuggester` answers exactly as the plain `suggest` scan (same names,
 * order and spelling) on fixed cases and on many generated queries, the unresolved-site table lists
 * what a scan of every site finds, and the broken-file table what the not-found wording names.
 */
import { describe, expect, test } from "bun:test";
import {
  NameSuggester,
  projectFilesWithXmlErrors,
  similarIds,
  unresolvedSitesOf,
} from "../../src/query/miss-tables.ts";
import { suggest } from "../../src/query/present.ts";
import { findAsset } from "../../src/query/assets.ts";
import { doc, includes, memIndex } from "../index/fixture.ts";
import { sampleIndex } from "./sample.ts";

const NAMES = [
  "AlliedAthenaCannon",
  "alliedathenacannon", // a second spelling of the same id: the first one is kept
  "AlliedAthenaCommandSet",
  "AlliedTank",
  "AlliedTankWeapon",
  "SovietTank",
  "Tank",
  "Tanker",
  "TankerA",
  "Bcdx",
  "Bcdy",
];

describe("NameSuggester", () => {
  test("containing first, then a long common prefix; shorter first; the first spelling", () => {
    const s = NameSuggester.of(NAMES);
    expect(s.suggest("tank")).toEqual(["Tanker", "TankerA", "AlliedTank", "SovietTank", "AlliedTankWeapon"]);
    expect(s.suggest("AlliedAthenaCanon")).toEqual(["AlliedAthenaCannon", "AlliedAthenaCommandSet"]);
    expect(s.suggest("bcdz")).toEqual([]); // a common prefix of 3 is below the minimum of 4
    // The id itself is left out; the other shares 13 of its 18 letters (at least 60 % are needed).
    expect(s.suggest("alliedathenacannon")).toEqual(["AlliedAthenaCommandSet"]);
    expect(s.suggest("Tank", 2)).toEqual(["Tanker", "TankerA"]);
    expect(s.suggest("")).toEqual(suggest("", NAMES));
  });

  test("equals the plain scan on generated names and queries", () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const parts = ["Allied", "Soviet", "Japan", "Tank", "Cannon", "Weapon", "Fx", "Aa", "a", "Mk2", "_", "Locomotor"];
    const names: string[] = [];
    for (let i = 0; i < 600; i++) {
      let n = "";
      const k = 1 + rnd(4);
      for (let j = 0; j < k; j++) n += parts[rnd(parts.length)];
      names.push(rnd(5) === 0 ? n.toUpperCase() : n);
    }
    const s = NameSuggester.of(names);
    for (let i = 0; i < 400; i++) {
      const base = names[rnd(names.length)];
      const cut = base.slice(rnd(3), base.length - rnd(3));
      const q = [cut, `${cut}x`, cut.toLowerCase(), parts[rnd(parts.length)], `${base.slice(0, -1)}#`][i % 5];
      expect(s.suggest(q)).toEqual(suggest(q, names));
    }
  });
});

describe("the tables of a linked index", () => {
  test("similar ids and unresolved sites agree with a scan of the index", async () => {
    const linked = await sampleIndex();
    for (const q of ["AlliedAthenaCanon", "Athena", "SharedThing", "weapon", "NoSuchThingAtAll"]) {
      expect(similarIds(linked, q)).toEqual(suggest(q, linked.assets.map((a) => a.id)));
    }
    const unresolved = linked.sites.filter((s) => s.status !== "resolved");
    expect(unresolved.length).toBeGreaterThan(0);
    for (const site of unresolved) {
      const key = site.id.toLowerCase();
      expect(unresolvedSitesOf(linked, site.id.toUpperCase())).toEqual(
        linked.sites.filter((s) => s.status !== "resolved" && s.id.toLowerCase() === key),
      );
    }
    expect(unresolvedSitesOf(linked, "AlliedAthenaCannon")).toEqual([]);
  });
});

describe("the project files with an XML error", () => {
  test("listed sorted as file:line, the same list the not-found answer names", () => {
    const { linked } = memIndex({
      "Data/Mod.xml": doc(includes(["all", "Zeta.xml"], ["all", "Alpha.xml"], ["all", "Clean.xml"])),
      "Data/Zeta.xml": doc(`<WeaponTemplate id="Z" Damage="1" Damage="2" />`),
      "Data/Alpha.xml": doc(`<!-- unclosed\n<LogicCommandSet id="Lost" />`),
      "Data/Clean.xml": doc(`<WeaponTemplate id="C" />`),
    });
    expect(projectFilesWithXmlErrors(linked)).toEqual(["Data/Alpha.xml:3", "Data/Zeta.xml:3"]);
    expect(findAsset(linked, "Lost")).toMatchObject({
      error: { code: "not_found", details: { filesWithXmlErrors: ["Data/Alpha.xml:3", "Data/Zeta.xml:3"] } },
    });
  });

  test("none in the sample mod: the not-found answer names none", async () => {
    const linked = await sampleIndex();
    expect(projectFilesWithXmlErrors(linked)).toEqual([]);
    const miss = findAsset(linked, "NoSuchThingAtAll") as { error: { details: Record<string, unknown> } };
    expect(Object.keys(miss.error.details)).toEqual(["suggestions"]);
  });
});
