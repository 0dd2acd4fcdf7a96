import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import {
  describeProject,
  findProjectRoot,
  findProjectsBelow,
  isMapMetadataName,
  projectMarkerOf,
} from "../../src/project/detect.ts";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { MemoryDirectoryLister } from "./memory-lister.ts";
import { removeDir, tempDir, writeTree } from "./tree.ts";

const lister = (...files: string[]) => new MemoryDirectoryLister(files);

describe("findProjectRoot (upward)", () => {
  const l = lister(
    "/w/Mod1/Data/Mod.xml",
    "/w/Mod1/Data/Includes/Units/Tank.xml",
    "/w/Mod1/Data/additionalmaps/MapMetaData_Test.xml",
    "/w/Mod1/Art/AU/AUTank.w3x",
  );

  test("from the Data folder", () => {
    expect(findProjectRoot("/w/Mod1/Data", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
  });
  test("from a deep sub-folder", () => {
    expect(findProjectRoot("/w/Mod1/Data/Includes/Units", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
  });
  test("from additionalmaps", () => {
    expect(findProjectRoot("/w/Mod1/Data/additionalmaps", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
  });
  test("from the root itself and from an art folder", () => {
    expect(findProjectRoot("/w/Mod1", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
    expect(findProjectRoot("/w/Mod1/Art/AU", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
  });
  test("from a single file: starts at its folder", () => {
    expect(findProjectRoot("/w/Mod1/Data/Includes/Units/Tank.xml", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
  });
  test("a path that does not exist finds nothing", () => {
    expect(findProjectRoot("/w/Mod1/Data/Nope.xml", l)).toBeNull();
  });
  test("a path typed in the wrong case finds the real-cased root", () => {
    expect(findProjectRoot("/w/mod1/data/INCLUDES", l)).toEqual({ dir: "/w/Mod1", marker: "mod" });
  });

  test("a Kane's Wrath-style mod (Data/Static.xml and map metadata, no Mod.xml)", () => {
    const m = lister("/w/KW/Data/AdditionalMaps/MapMetaData_Global.xml", "/w/KW/Data/Static.xml");
    expect(findProjectRoot("/w/KW/Data", m)).toEqual({ dir: "/w/KW", marker: "static" });
    expect(findProjectRoot("/w/KW2/Data", lister("/w/KW2/Data/AdditionalMaps/MapMetaData_Global.xml"))).toEqual({
      dir: "/w/KW2",
      marker: "mapmetadata",
    });
  });

  test("lower-case data/mod.xml", () => {
    const m = lister("/w/lc/data/mod.xml");
    expect(findProjectRoot("/w/lc/data", m)).toEqual({ dir: "/w/lc", marker: "mod" });
  });

  test("mod.babproj and SomeProject.babproj", () => {
    const m = lister("/w/B1/mod.babproj", "/w/B1/Stuff/x.xml", "/w/B2/SomeProject.BabProj");
    expect(findProjectRoot("/w/B1/Stuff", m)).toEqual({ dir: "/w/B1", marker: "babproj" });
    expect(findProjectRoot("/w/B2", m)).toEqual({ dir: "/w/B2", marker: "babproj" });
  });

  test("no marker", () => {
    const m = lister("/w/Plain/Data/Units.xml", "/w/Plain/Data/mapmetadata.xml", "/w/Plain/x.babproj.bak");
    expect(findProjectRoot("/w/Plain/Data", m)).toBeNull();
  });

  test("depth limit: 12 folders examined, the start folder counting as the first", () => {
    const deep = (n: number) => "/w/Deep/" + Array.from({ length: n }, (_, i) => `l${i + 1}`).join("/");
    const m = lister("/w/Deep/Data/Mod.xml", deep(13) + "/f.xml");
    // 11 folders below the root: the root is the 12th folder examined
    expect(findProjectRoot(deep(11), m)).toEqual({ dir: "/w/Deep", marker: "mod" });
    expect(findProjectRoot(deep(1), m)).toEqual({ dir: "/w/Deep", marker: "mod" });
    // 12 below: the root would be the 13th
    expect(findProjectRoot(deep(12), m)).toBeNull();
    // 13 below = 14 levels from the start to the root inclusive
    expect(findProjectRoot(deep(13), m)).toBeNull();
  });

  test("nearest ancestor wins (nested mods)", () => {
    const m = lister(
      "/w/Outer/Data/Mod.xml",
      "/w/Outer/Nested/Inner/Data/Mod.xml",
      "/w/Outer/Nested/Inner/Data/a/b.xml",
    );
    expect(findProjectRoot("/w/Outer/Nested/Inner/Data/a", m)).toEqual({ dir: "/w/Outer/Nested/Inner", marker: "mod" });
    expect(findProjectRoot("/w/Outer/Nested", m)).toEqual({ dir: "/w/Outer", marker: "mod" });
  });
});

describe("projectMarkerOf", () => {
  test("markers are checked in order mod → static → babproj → mapmetadata", () => {
    const m = lister(
      "/s/Data/static.XML",
      "/s/x.babproj",
      "/a/Data/Mod.xml",
      "/a/Data/Static.xml",
      "/a/x.babproj",
      "/a/Data/additionalmaps/mapmetadata_a.xml",
      "/b/x.babproj",
      "/b/Data/additionalmaps/mapmetadata_a.xml",
      "/c/DATA/ADDITIONALMAPS/MAPMETADATA_X.XML",
    );
    expect(projectMarkerOf("/a", m)).toBe("mod");
    expect(projectMarkerOf("/s", m)).toBe("static");
    expect(projectMarkerOf("/b", m)).toBe("babproj");
    expect(projectMarkerOf("/c", m)).toBe("mapmetadata");
    expect(projectMarkerOf("/nope", m)).toBeNull();
  });

  test("a folder named Mod.xml or x.babproj is not a marker", () => {
    const m = new MemoryDirectoryLister([], ["/d/Data/Mod.xml", "/d/x.babproj"]);
    expect(projectMarkerOf("/d", m)).toBeNull();
  });

  test("isMapMetadataName", () => {
    expect(isMapMetadataName("MapMetaData_Global.xml")).toBe(true);
    expect(isMapMetadataName("mapmetadata_.XML")).toBe(true);
    expect(isMapMetadataName("MapMetaData.xml")).toBe(false);
    expect(isMapMetadataName("MapMetaData_Global.xml.bak")).toBe(false);
  });
});

describe("findProjectsBelow (container folders)", () => {
  test("a container with two mods", () => {
    const m = lister("/sdk/Mods/Alpha/Data/Mod.xml", "/sdk/Mods/Beta/beta.babproj", "/sdk/Mods/readme.txt");
    expect(findProjectsBelow("/sdk/Mods", m)).toEqual([
      { dir: "/sdk/Mods/Alpha", marker: "mod" },
      { dir: "/sdk/Mods/Beta", marker: "babproj" },
    ]);
  });

  test("the container itself is depth 0", () => {
    const m = lister("/one/Data/Mod.xml");
    expect(findProjectsBelow("/one", m)).toEqual([{ dir: "/one", marker: "mod" }]);
  });

  test("mods/mods/corona is found at depth 3, not beyond the depth limit", () => {
    const m = lister("/g/mods/mods/corona/Data/Mod.xml", "/h/x/mods/mods/corona/Data/Mod.xml");
    expect(findProjectsBelow("/g", m)).toEqual([{ dir: "/g/mods/mods/corona", marker: "mod" }]);
    expect(findProjectsBelow("/h", m)).toEqual([]);
    expect(findProjectsBelow("/h", m, 4)).toEqual([{ dir: "/h/x/mods/mods/corona", marker: "mod" }]);
  });

  test("node_modules, .git, SageXml and other skip-list folders are not entered", () => {
    const m = lister(
      "/c/node_modules/M/Data/Mod.xml",
      "/c/.git/M/Data/Mod.xml",
      "/c/SageXml/M/Data/Mod.xml",
      "/c/CnC3Xml/M/Data/Mod.xml",
      "/c/BuiltMods/M/Data/Mod.xml",
      "/c/Real/Data/Mod.xml",
    );
    expect(findProjectsBelow("/c", m)).toEqual([{ dir: "/c/Real", marker: "mod" }]);
  });

  test("no descent into a found root", () => {
    const m = lister("/n/Outer/Data/Mod.xml", "/n/Outer/Mods/Inner/Data/Mod.xml");
    expect(findProjectsBelow("/n", m)).toEqual([{ dir: "/n/Outer", marker: "mod" }]);
  });
});

describe("describeProject", () => {
  test("a full RA3 mod layout", () => {
    const m = lister(
      "/p/Up/Data/Mod.xml",
      "/p/Up/Data/AdditionalMaps/MapMetaData_Global.xml",
      "/p/Up/Data/AdditionalMaps/mapmetadata_Alpha.xml",
      "/p/Up/Data/AdditionalMaps/MapMetaData.xml",
      "/p/Up/mod.babproj",
      "/p/Up/Art/AU/x.w3x",
      "/p/Up/Art1/x.w3x",
      "/p/Up/Audio/a.wav",
    );
    expect(describeProject("/p/Up", m)).toEqual({
      dir: "/p/Up",
      marker: "mod",
      dataDir: "/p/Up/Data",
      modXml: "/p/Up/Data/Mod.xml",
      staticXml: null,
      additionalMapsDir: "/p/Up/Data/AdditionalMaps",
      mapMetadata: [
        "/p/Up/Data/AdditionalMaps/mapmetadata_Alpha.xml",
        "/p/Up/Data/AdditionalMaps/MapMetaData_Global.xml",
      ],
      babprojFiles: ["/p/Up/mod.babproj"],
      artDirs: ["/p/Up/Art1", "/p/Up/Art"],
      audioDirs: ["/p/Up/Audio"],
    });
  });

  test("mapmetadata-only: no phantom static stream", () => {
    const m = lister("/p/G/Data/additionalmaps/MapMetaData_Test.xml");
    const d = describeProject("/p/G", m);
    expect(d.marker).toBe("mapmetadata");
    expect(d.modXml).toBeNull();
    expect(d.dataDir).toBe("/p/G/Data");
    expect(d.mapMetadata).toEqual(["/p/G/Data/additionalmaps/MapMetaData_Test.xml"]);
  });

  test("babproj-only folder: no streams, no Data", () => {
    const d = describeProject("/p/B", lister("/p/B/x.babproj"));
    expect(d).toEqual({
      dir: "/p/B",
      marker: "babproj",
      dataDir: null,
      modXml: null,
      staticXml: null,
      additionalMapsDir: null,
      mapMetadata: [],
      babprojFiles: ["/p/B/x.babproj"],
      artDirs: [],
      audioDirs: [],
    });
  });

  test("with Data and data side by side, the one holding Mod.xml is used", () => {
    const m = lister("/p/Two/Data/other.xml", "/p/Two/data/Mod.xml");
    const d = describeProject("/p/Two", m);
    expect(d.dataDir).toBe("/p/Two/data");
    expect(d.modXml).toBe("/p/Two/data/Mod.xml");
  });
});

describe("on a real case-sensitive file system", () => {
  const root = tempDir();
  afterAll(() => removeDir(root));
  writeTree(root, {
    "lower/data/mod.xml": "<AssetDeclaration/>",
    "lower/data/additionalmaps/mapmetadata_x.xml": "",
    "lower/data/units/a.xml": "",
  });

  test("lower-case data/mod.xml: detected, and the static stream uses the real file", () => {
    const l = new NodeDirectoryLister();
    expect(findProjectRoot(join(root, "lower/data/units/a.xml"), l)).toEqual({
      dir: join(root, "lower"),
      marker: "mod",
    });
    const d = describeProject(join(root, "lower"), l);
    expect(d.modXml).toBe(join(root, "lower/data/mod.xml"));
    expect(d.mapMetadata).toEqual([join(root, "lower/data/additionalmaps/mapmetadata_x.xml")]);
  });
});

describe("describeProject with same-named folders (case-sensitive FS)", () => {
  test("without Mod.xml, the Data folder holding map metadata is used", () => {
    const m = lister("/q/Data/additionalmaps/readme.txt", "/q/data/AdditionalMaps/MapMetaData_G.xml");
    const d = describeProject("/q", m);
    expect(d.dataDir).toBe("/q/data");
    expect(d.additionalMapsDir).toBe("/q/data/AdditionalMaps");
    expect(d.mapMetadata).toEqual(["/q/data/AdditionalMaps/MapMetaData_G.xml"]);
    expect(d.marker).toBe("mapmetadata");
  });
});
