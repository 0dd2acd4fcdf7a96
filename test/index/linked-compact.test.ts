// The link's compact assets and sites (src/index/linked.ts): every field reads back exactly what was
// given, whatever packing it went through (flags in one number, the fields of what it was read from
// through that object, a place shared with the site before), and `plainAsset` / `plainSite` / JSON give the interface's plain object.
import { describe, expect, test } from "bun:test";
import {
  type AssetDef,
  type AssetHost,
  LinkedAsset,
  LinkedSite,
  ManifestAsset,
  plainAsset,
  plainSite,
  rankAssetsSteps,
  rankCompare,
  type ReferenceSite,
  sourceOf,
} from "../../src/index/linked.ts";
import { REFERENCE_KINDS } from "../../src/index/records.ts";
import { runSteps } from "../../src/steps.ts";

/** A plain site with every field set, `changes` applied. */
function site(changes: Partial<ReferenceSite> = {}): ReferenceSite {
  return {
    index: 7,
    from: 3,
    kind: "attribute",
    value: "AlliedAthenaCannon",
    id: "AlliedAthenaCannon",
    refType: "WeaponTemplate",
    selfType: null,
    element: "FireWeaponNugget",
    parent: "Nuggets",
    attribute: "WeaponName",
    file: "C:\\Mods\\My Mod\\Data\\Units.xml",
    line: 120,
    column: 33,
    targets: [4, 9],
    status: "resolved",
    state: "compiled",
    active: true,
    via: null,
    unspliced: false,
    confirmedByManifest: false,
    ...changes,
  };
}

/** `s` made as a {@link LinkedSite} from its fields (its source an object of its own, as a stored site's). */
function linked(s: ReferenceSite): LinkedSite {
  return new LinkedSite(
    s.index,
    s.from,
    sourceOf(s),
    s.id,
    s.file,
    s.targets,
    s.status,
    s.state,
    s.via,
    s.unspliced,
    s.confirmedByManifest,
  );
}

describe("LinkedSite", () => {
  test("every kind, status and state, and both flags, read back as given", () => {
    const made: ReferenceSite[] = [];
    for (const kind of REFERENCE_KINDS) {
      for (const status of ["resolved", "wrong_type", "not_found"] as const) {
        for (const state of ["compiled", "referenced", "not-included"] as const) {
          for (const [unspliced, confirmedByManifest] of [[false, false], [true, false], [false, true], [true, true]]) {
            made.push(site({ kind, status, state, active: state === "compiled", unspliced, confirmedByManifest }));
          }
        }
      }
    }
    expect(made.length).toBe(7 * 3 * 3 * 4);
    for (const s of made) expect(plainSite(linked(s))).toEqual(s);
  });

  test("an id that is not the value, an xi:include, huge lines and columns", () => {
    const cases = [
      site({ value: "WeaponTemplate:AlliedAthenaCannon", id: "AlliedAthenaCannon" }),
      site({ via: "Includes\\Shared.xml#xpointer(/AssetDeclaration/*)" }),
      site({ line: 1, column: 2_097_151 }),
      site({ line: 1, column: 2_097_152 }),
      site({ line: 2_147_483_647, column: 0 }),
      site({ line: 2_147_483_648, column: 5 }),
      site({ line: 0, column: 0, kind: "manifest", state: "referenced", active: false }),
    ];
    for (const s of cases) expect(plainSite(linked(s))).toEqual(s);
    expect([linked(cases[3]).line, linked(cases[3]).column]).toEqual([1, 2_097_152]);
  });

  test("neighbours share their place, and a site after another file's keeps its own file", () => {
    const a = linked(site({ index: 1 }));
    const b = linked(site({ index: 2, line: 121 }));
    const c = linked(site({ index: 3, file: "C:\\Mods\\My Mod\\Data\\Other.xml" }));
    const d = linked(site({ index: 4, via: "x.xml" }));
    const e = linked(site({ index: 5 }));
    expect([a.file, b.file, c.file, d.file, e.file]).toEqual([
      "C:\\Mods\\My Mod\\Data\\Units.xml",
      "C:\\Mods\\My Mod\\Data\\Units.xml",
      "C:\\Mods\\My Mod\\Data\\Other.xml",
      "C:\\Mods\\My Mod\\Data\\Units.xml",
      "C:\\Mods\\My Mod\\Data\\Units.xml",
    ]);
    expect([a.via, d.via, e.via, b.line]).toEqual([null, "x.xml", null, 121]);
  });

  test("JSON writes every field in the interface's order; of() applies changes", () => {
    const s = site({ via: "y.xml" });
    expect(JSON.stringify(linked(s))).toBe(JSON.stringify(s));
    expect(plainSite(LinkedSite.of(linked(s), { index: 40, confirmedByManifest: true }))).toEqual({
      ...s,
      index: 40,
      confirmedByManifest: true,
    });
    // From a plain site (a stored one) and from a linked one, with a new owner and targets.
    const moved = { ...s, from: 8, targets: [1] };
    expect(plainSite(LinkedSite.of(s, { from: 8, targets: [1] }))).toEqual(moved);
    expect(plainSite(LinkedSite.of(linked(s), { from: 8, targets: [1] }))).toEqual(moved);
  });

  test("a site made from a record's reference reads that reference's fields (not copies)", () => {
    const ref = {
      owner: 0,
      kind: "attribute" as const,
      value: "WeaponTemplate:Gun",
      refType: "WeaponTemplate",
      selfType: null,
      element: "FireWeaponNugget",
      parent: "Nuggets",
      attribute: "WeaponName",
      offset: 900,
      line: 12,
      column: 40,
    };
    const a = new LinkedSite(0, 1, ref, "Gun", "C:\\m\\a.xml", [2], "resolved", "compiled", null, false, false);
    const { owner: _o, offset: _f, ...fields } = ref;
    expect(plainSite(a)).toEqual({
      ...fields,
      index: 0,
      from: 1,
      id: "Gun",
      file: "C:\\m\\a.xml",
      targets: [2],
      status: "resolved",
      state: "compiled",
      active: true,
      via: null,
      unspliced: false,
      confirmedByManifest: false,
    });
    expect(Object.keys(a).length).toBe(6);
  });

  test("a kind, status or state it does not know is refused by name; every kind fits the kind's 3 bits", () => {
    expect(() => linked(site({ kind: "bogus" as never }))).toThrow(
      "linked site: bogus is not one of attribute, content, inheritFrom, default, name, manifest, heuristic",
    );
    expect(() => linked(site({ status: "maybe" as never }))).toThrow(
      "linked site: maybe is not one of resolved, wrong_type, not_found",
    );
    expect(REFERENCE_KINDS.length).toBeLessThanOrEqual(8);
  });
});

describe("LinkedAsset", () => {
  const host: AssetHost = {
    file: "C:\\Mods\\My Mod\\Data\\Units.xml",
    origin: "project",
    streams: ["static"],
    state: "referenced",
    viaInstance: true,
    fileHasErrors: true,
    viaXInclude: false,
  };

  test("its own fields and its host's read back; JSON and plainAsset give the plain object", () => {
    const decl = {
      type: "weapontemplate",
      id: "AlliedAthenaCannon",
      line: 10,
      column: 3,
      startLine: 9,
      endLine: 14,
      start: 400,
      end: 812,
      inheritFrom: "BaseCannon",
    };
    // The type is the canonical one (the declaration's as written may differ in case).
    const a = new LinkedAsset(5, "WeaponTemplate", host, decl, 2);
    const plain: AssetDef = {
      index: 5,
      type: "WeaponTemplate",
      id: "AlliedAthenaCannon",
      file: host.file,
      line: 10,
      column: 3,
      startLine: 9,
      endLine: 14,
      origin: "project",
      streams: ["static"],
      state: "referenced",
      active: false,
      viaInstance: true,
      fileHasErrors: true,
      inheritFrom: "BaseCannon",
      manifestSource: null,
      viaXInclude: false,
      recordIndex: 2,
      start: 400,
      end: 812,
    };
    expect(plainAsset(a)).toEqual(plain);
    expect(JSON.stringify(a)).toBe(JSON.stringify(plain));
    // An art file's asset has no end; moved, it keeps every field but its number.
    const art = new LinkedAsset(5, "WeaponTemplate", host, decl, 2, false);
    expect([art.start, art.end]).toEqual([400, -1]);
    expect(plainAsset(art.moved(9))).toEqual({ ...plain, index: 9, end: -1 });
    expect(plainAsset(a.moved(7))).toEqual({ ...plain, index: 7 });
  });

  test("a manifest asset keeps its source file", () => {
    const m = new ManifestAsset(
      0,
      "WeaponTemplate",
      "X",
      { ...host, origin: "manifest" },
      "DATA:globaldata/weapon.xml",
    );
    expect([m.manifestSource, m.origin, m.line, m.start, m.end, m.recordIndex]).toEqual([
      "DATA:globaldata/weapon.xml",
      "manifest",
      0,
      -1,
      -1,
      -1,
    ]);
  });
});

describe("rankAssetsSteps", () => {
  test("the order of rankCompare then index, also when one file's assets are not next to each other", () => {
    const host = (file: string, origin: AssetDef["origin"], state: AssetDef["state"]): AssetHost => ({
      file,
      origin,
      streams: [],
      state,
      viaInstance: false,
      fileHasErrors: false,
      viaXInclude: false,
    });
    const hosts = [
      host("/m/b.xml", "project", "compiled"),
      host("/s/a.xml", "sdk", "compiled"),
      host("/m/a.xml", "project", "not-included"),
      host("/m/a.xml", "project", "compiled"),
      host("/m/b.xml", "project", "compiled"),
      host("/m/c.manifest", "manifest", "referenced"),
      host("/m/a.xml", "project", "compiled"),
    ];
    const lines = [[9, 3, 3], [1], [2, 1], [5, 5], [1, 20], [0, 0], [4]];
    const assets: AssetDef[] = [];
    hosts.forEach((h, k) => {
      for (const line of lines[k]) {
        const id = `a${assets.length}`;
        const decl = {
          type: "T",
          id,
          line,
          column: 1,
          startLine: line,
          endLine: line,
          start: 0,
          end: 0,
          inheritFrom: null,
        };
        assets.push(new LinkedAsset(assets.length, "T", h, decl, 0));
      }
    });
    const expected = assets.map((a) => a.index).sort((x, y) => rankCompare(assets[x], assets[y]) || x - y);
    expect([...runSteps(rankAssetsSteps(assets)).order]).toEqual(expected);
    expect(expected).toEqual([12, 6, 7, 8, 1, 2, 0, 9, 5, 4, 3, 10, 11]);
  });
});
