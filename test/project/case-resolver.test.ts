import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CaseResolver, matchingEntries } from "../../src/project/case-resolver.ts";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { MemoryDirectoryLister } from "./memory-lister.ts";
import { removeDir, tempDir, writeTree } from "./tree.ts";

const mem = () =>
  new MemoryDirectoryLister([
    "/r/Data/Mod.xml",
    "/r/Data/Includes/Units.xml",
    "/r/Data/x.xml",
    "/r/data/y.xml",
    "/r/Art/JU/JUTank.w3x",
    "/r/Sub Folder/A File.xml",
  ]);

describe("CaseResolver.resolve", () => {
  test("returns the real on-disk casing", () => {
    const r = new CaseResolver(mem());
    expect(r.resolve("/r", "DATA/includes/UNITS.XML")).toBe("/r/Data/Includes/Units.xml");
    expect(r.resolve("/r", "art\\ju\\jutank.W3X")).toBe("/r/Art/JU/JUTank.w3x");
    expect(r.resolve("/r", "sub folder/a file.xml")).toBe("/r/Sub Folder/A File.xml");
  });

  test("names differing only by case: every spelling picks the first in sorted order", () => {
    const r = new CaseResolver(mem());
    // "Data" sorts before "data": whatever the include writes, the same folder (the one the scan keeps).
    expect(r.resolve("/r", "Data")).toBe("/r/Data");
    expect(r.resolve("/r", "data")).toBe("/r/Data");
    expect(r.resolve("/r", "DATA")).toBe("/r/Data");
  });

  test("tries the other same-named folders when the preferred one lacks the rest of the path", () => {
    const r = new CaseResolver(mem());
    expect(r.resolve("/r", "Data/y.xml")).toBe("/r/data/y.xml");
    expect(r.resolve("/r", "data/x.xml")).toBe("/r/Data/x.xml");
  });

  test("handles . and .. segments", () => {
    const r = new CaseResolver(mem());
    expect(r.resolve("/r/Data/Includes", "../mod.xml")).toBe("/r/Data/Mod.xml");
    expect(r.resolve("/r/Data", "./includes/./units.xml")).toBe("/r/Data/Includes/Units.xml");
    expect(r.resolve("/r/Data", "includes/../MOD.xml")).toBe("/r/Data/Mod.xml");
    expect(r.resolve("/r/Data", "nothere/../Mod.xml")).toBeNull();
    expect(r.resolve("/r", "")).toBe("/r");
  });

  test("kind filters the last segment", () => {
    const r = new CaseResolver(mem());
    expect(r.resolve("/r", "Data", "file")).toBeNull();
    expect(r.resolve("/r", "Data", "directory")).toBe("/r/Data");
    expect(r.resolve("/r", "Data/Mod.xml", "directory")).toBeNull();
    expect(r.resolve("/r", "Data/Mod.xml", "file")).toBe("/r/Data/Mod.xml");
    expect(r.resolve("/r", "Data/Mod.xml/x")).toBeNull();
  });

  test("missing paths and bases give null", () => {
    const r = new CaseResolver(mem());
    expect(r.resolve("/r", "Data/Missing.xml")).toBeNull();
    expect(r.resolve("/nowhere", "Mod.xml")).toBeNull();
  });

  test("results are cached: a repeated lookup lists nothing", () => {
    const l = mem();
    const r = new CaseResolver(l);
    r.resolve("/r", "data/includes/units.xml");
    const after = l.calls;
    r.resolve("/r", "data/includes/units.xml");
    expect(l.calls).toBe(after);
  });

  test("invalidate drops cached answers and forwards the path to a caching lister", () => {
    const l = mem();
    const r = new CaseResolver(l);
    expect(r.resolve("/r", "Data/New.xml")).toBeNull();
    l.addFile("/r/Data/new.xml");
    expect(r.resolve("/r", "Data/New.xml")).toBeNull();
    r.invalidate();
    expect(r.resolve("/r", "Data/New.xml")).toBe("/r/Data/new.xml");
  });
});

describe("CaseResolver helpers", () => {
  test("resolvePath, exists, isDirectory, isFile", () => {
    const r = new CaseResolver(mem());
    expect(r.resolvePath("/R/data/MOD.XML")).toBe("/r/Data/Mod.xml");
    expect(r.resolvePath("relative/path")).toBeNull();
    expect(r.exists("/r/art/ju")).toBe(true);
    expect(r.exists("/r/art/jv")).toBe(false);
    expect(r.isDirectory("/r/ART/ju")).toBe(true);
    expect(r.isDirectory("/r/Data/Mod.xml")).toBe(false);
    expect(r.isFile("/r/Data/mod.xml")).toBe(true);
    expect(r.isFile("/r/Data")).toBe(false);
    expect(r.isFile("/")).toBe(false);
    expect(r.isDirectory("/")).toBe(true);
  });

  test("childNamed", () => {
    const r = new CaseResolver(mem());
    expect(r.childNamed("/r", "ART")).toBe("/r/Art");
    expect(r.childNamed("/r", "data")).toBe("/r/Data");
    expect(r.childNamed("/r/Data", "mod.xml", "directory")).toBeNull();
    expect(r.childNamed("/r/Data", "mod.xml", "file")).toBe("/r/Data/Mod.xml");
    expect(r.childNamed("/none", "x")).toBeNull();
  });

  test("matchingEntries: every case-insensitive match, in sorted order", () => {
    const entries = [
      { name: "DATA", isDirectory: true },
      { name: "Data", isDirectory: true },
      { name: "data", isDirectory: false },
      { name: "Datum", isDirectory: true },
    ];
    expect(matchingEntries(entries, "data").map((e) => e.name)).toEqual(["DATA", "Data", "data"]);
    expect(matchingEntries(entries, "data", "directory").map((e) => e.name)).toEqual(["DATA", "Data"]);
    expect(matchingEntries(entries, "Datu")).toEqual([]);
  });
});

describe("CaseResolver on a real case-sensitive file system", () => {
  const root = tempDir();
  afterAll(() => removeDir(root));
  writeTree(root, {
    "Data/Includes/Units.xml": "",
    "Data/Includes/Weapons.xml": "",
    "Data/Includes/Art.xml": "",
    "Data/Mod.xml": "",
  });

  test("one directory listing per folder, never a stat per guess", () => {
    const l = new NodeDirectoryLister();
    const r = new CaseResolver(l);
    expect(r.resolve(root, "data/includes/units.xml")).toBe(join(root, "Data/Includes/Units.xml"));
    expect(r.resolve(root, "DATA/INCLUDES/weapons.xml")).toBe(join(root, "Data/Includes/Weapons.xml"));
    expect(r.resolve(root, "Data/Includes/art.XML")).toBe(join(root, "Data/Includes/Art.xml"));
    expect(r.resolve(root, "Data/Includes/missing.xml")).toBeNull();
    expect(r.resolve(root, "data/mod.xml")).toBe(join(root, "Data/Mod.xml"));
    // root, Data, Includes
    expect(l.stats().listings).toBe(3);
  });
});
