import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { scanProjectFiles } from "../../src/project/scan.ts";
import { MemoryDirectoryLister } from "./memory-lister.ts";
import { removeDir, tempDir, writeTree } from "./tree.ts";

const root = tempDir();
afterAll(() => removeDir(root));
writeTree(root, { "Data/Mod.xml": "<a/>", "Data/b.xml": "", "Art/": "", "mod.babproj": "" });

describe("NodeDirectoryLister", () => {
  test("lists a folder sorted by name with directory flags", () => {
    const l = new NodeDirectoryLister();
    expect(l.list(root)).toEqual([
      { name: "Art", isDirectory: true },
      { name: "Data", isDirectory: true },
      { name: "mod.babproj", isDirectory: false },
    ]);
  });

  test("null for a missing path and for a file", () => {
    const l = new NodeDirectoryLister();
    expect(l.list(join(root, "nope"))).toBeNull();
    expect(l.list(join(root, "mod.babproj"))).toBeNull();
  });

  test("one real listing per folder; repeats are cache hits (trailing separator is the same folder)", () => {
    const l = new NodeDirectoryLister();
    l.list(join(root, "Data"));
    l.list(join(root, "Data"));
    l.list(join(root, "Data") + "/");
    l.list(join(root, "missing"));
    l.list(join(root, "missing"));
    expect(l.stats()).toEqual({ listings: 2, hits: 3, cached: 2 });
    l.resetStats();
    expect(l.stats()).toEqual({ listings: 0, hits: 0, cached: 2 });
  });

  test("a listing primed from elsewhere (the scan) is served without reading; a cached one is kept", () => {
    const l = new NodeDirectoryLister();
    const before = l.list(join(root, "Data"));
    l.prime(root, readdirSync(root, { withFileTypes: true }));
    l.prime(join(root, "Data"), []); // already cached: left as it is
    expect(l.list(root)).toEqual([
      { name: "Art", isDirectory: true },
      { name: "Data", isDirectory: true },
      { name: "mod.babproj", isDirectory: false },
    ]);
    expect(l.list(join(root, "Data"))).toEqual(before);
    expect(l.stats()).toEqual({ listings: 1, hits: 2, cached: 2 });
  });

  test("scanProjectFiles hands each folder's listing to onListing", () => {
    const seen: string[] = [];
    scanProjectFiles(root, { onListing: (dir, dirents) => seen.push(`${dir.slice(root.length)}:${dirents.length}`) });
    expect(seen.sort()).toEqual(["/Art:0", "/Data:2", ":3"]);
  });

  test("invalidate forgets the path, its parent and everything below", () => {
    const dir = join(root, "inv");
    mkdirSync(join(dir, "sub"), { recursive: true });
    const l = new NodeDirectoryLister();
    expect(l.list(dir)).toEqual([{ name: "sub", isDirectory: true }]);
    expect(l.list(join(dir, "sub"))).toEqual([]);
    expect(l.list(join(dir, "sub", "new"))).toBeNull();
    writeFileSync(join(dir, "sub", "x.xml"), "");
    mkdirSync(join(dir, "sub", "new"));
    expect(l.list(join(dir, "sub"))).toEqual([]); // stale until invalidated
    l.invalidate(join(dir, "sub"));
    expect(l.list(join(dir, "sub"))).toEqual([
      { name: "new", isDirectory: true },
      { name: "x.xml", isDirectory: false },
    ]);
    expect(l.list(join(dir, "sub", "new"))).toEqual([]);
    l.clear();
    expect(l.stats().cached).toBe(0);
  });

  test("invalidating a file created in a new folder forgets every folder above it (the new folder is a new entry there)", () => {
    const dir = join(root, "inv-deep");
    mkdirSync(join(dir, "Data"), { recursive: true });
    const l = new NodeDirectoryLister();
    expect(l.list(dir)).toEqual([{ name: "Data", isDirectory: true }]);
    expect(l.list(join(dir, "Data"))).toEqual([]);
    mkdirSync(join(dir, "Data", "Copies", "Deep"), { recursive: true });
    writeFileSync(join(dir, "Data", "Copies", "Deep", "Copy.xml"), "");
    l.invalidate(join(dir, "Data", "Copies", "Deep", "Copy.xml"));
    // Without the grandparent forgotten, Data's listing would still lack Copies and the file stay unreachable.
    expect(l.list(join(dir, "Data"))).toEqual([{ name: "Copies", isDirectory: true }]);
    expect(l.list(join(dir, "Data", "Copies", "Deep"))).toEqual([{ name: "Copy.xml", isDirectory: false }]);
  });

  test("a symlink to a folder is listed as a folder, a dangling one as a file; both as links", () => {
    const dir = join(root, "links");
    mkdirSync(dir);
    symlinkSync(join(root, "Data"), join(dir, "toData"));
    symlinkSync(join(root, "gone"), join(dir, "dangling"));
    writeFileSync(join(dir, "plain.xml"), "<a/>");
    const l = new NodeDirectoryLister();
    expect(l.list(dir)).toEqual([
      { name: "dangling", isDirectory: false, isLink: true },
      { name: "plain.xml", isDirectory: false },
      { name: "toData", isDirectory: true, isLink: true },
    ]);
    // realPath: where a link really leads; null for a dangling one or nothing at all.
    expect([
      l.realPath(join(dir, "toData")),
      l.realPath(join(dir, "dangling")),
      l.realPath(join(dir, "nothing")),
      l.realPath(join(dir, "plain.xml")),
    ]).toEqual([join(root, "Data"), null, null, join(dir, "plain.xml")]);
  });
});

describe("MemoryDirectoryLister", () => {
  test("folders are implied by file paths", () => {
    const l = new MemoryDirectoryLister(["/m/X/Data/Mod.xml", "/m/X/Data/Includes/U.xml", "/m/X/a.babproj"]);
    expect(l.list("/m")).toEqual([{ name: "X", isDirectory: true }]);
    expect(l.list("/m/X")).toEqual([
      { name: "Data", isDirectory: true },
      { name: "a.babproj", isDirectory: false },
    ]);
    expect(l.list("/m/X/Data/")).toEqual([
      { name: "Includes", isDirectory: true },
      { name: "Mod.xml", isDirectory: false },
    ]);
    expect(l.list("/")).toEqual([{ name: "m", isDirectory: true }]);
    expect(l.list("/m/X/Data/Mod.xml")).toBeNull();
    expect(l.list("/m/x")).toBeNull(); // the tree itself is case-sensitive, like Linux
  });

  test("empty folders, adding and removing", () => {
    const l = new MemoryDirectoryLister([], ["/e/Empty"]);
    expect(l.list("/e/Empty")).toEqual([]);
    l.addFile("/e/Empty/f.xml");
    expect(l.list("/e/Empty")).toEqual([{ name: "f.xml", isDirectory: false }]);
    l.remove("/e/Empty");
    expect(l.list("/e")).toEqual([]);
    expect(l.list("/e/Empty")).toBeNull();
    expect(l.calls).toBe(4);
  });
});
