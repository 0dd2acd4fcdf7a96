import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { Confinement } from "../../src/project/confinement.ts";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { fileKindOf, scanProjectFiles } from "../../src/project/scan.ts";
import { removeDir, tempDir, writeTree } from "./tree.ts";

const root = tempDir();
const outside = tempDir("ra3-outside-");
afterAll(() => {
  removeDir(root);
  removeDir(outside);
});
writeTree(root, {
  "mod.babproj": "<p/>",
  "Data/Mod.xml": "<AssetDeclaration/>",
  "Data/Units/Tank.XML": "12345",
  "Data/notes.txt": "x",
  "Data/Includes/Models/Tank_FP.dat": "<W3DMesh/>",
  "Art/AU/AUTank.W3X": "<W3DContainer/>",
  "Misc/Data/Mod.str": '"KEY"\n',
  "BuiltMods/mod.manifest": "\u0000",
  ".git/objects/a.xml": "",
  ".hidden/a.xml": "",
  "node_modules/pkg/a.xml": "",
  "Bin/a.xml": "",
  "obj/a.xml": "",
  "dist/a.xml": "",
  "out/a.xml": "",
  ".vs/a.xml": "",
  ".vscode/a.xml": "",
});
writeTree(outside, { "Shared/Common.xml": "<a/>" });
// a loop back to the root, a link into the tree, a link to an outside folder, a link to a file
symlinkSync(root, join(root, "Data", "loop"));
symlinkSync(join(root, "Art"), join(root, "ArtLink"));
symlinkSync(join(outside, "Shared"), join(root, "Data", "SharedLink"));
symlinkSync(join(outside, "Shared"), join(root, "Data", "SharedLink2"));
symlinkSync(join(outside, "Shared", "Common.xml"), join(root, "Data", "Linked.xml"));
utimesSync(join(root, "Data/Mod.xml"), 1_700_000_000, 1_700_000_000);

describe("scanProjectFiles", () => {
  test("every wanted file once, sorted, with kinds; skipped and dot folders ignored; no symlink loops", () => {
    const files = scanProjectFiles(root);
    expect(files.map((f) => [f.path.slice(root.length + 1), f.kind])).toEqual([
      ["Art/AU/AUTank.W3X", "w3x"],
      ["BuiltMods/mod.manifest", "manifest"],
      ["Data/Linked.xml", "xml"],
      ["Data/Mod.xml", "xml"],
      ["Data/SharedLink/Common.xml", "xml"],
      ["Data/Units/Tank.XML", "xml"],
      ["Misc/Data/Mod.str", "str"],
      ["mod.babproj", "babproj"],
    ]);
  });

  test("confined: links leading outside the roots are neither stat'ed nor entered, and are named", () => {
    // top/p/q/Mod is the mod (roots: it, top/p/q, top/p); top/secret is outside them all.
    const top = tempDir("ra3-scan-confined-");
    const mod = join(top, "p", "q", "Mod");
    try {
      writeTree(mod, { "Data/Mod.xml": "<a/>", "Data/Units.xml": "<a/>" });
      writeTree(top, { "secret/Common.xml": "<a/>", "p/Shared/Inside.xml": "<a/>" });
      symlinkSync(join(top, "secret"), join(mod, "Data", "SharedLink"));
      symlinkSync(join(top, "secret", "Common.xml"), join(mod, "Data", "Linked.xml"));
      symlinkSync(join(top, "secret", "Gone.xml"), join(mod, "Data", "Dangling.xml"));
      symlinkSync(join(top, "secret"), join(mod, ".hidden-link")); // skipped by name: not named either
      symlinkSync(join(top, "p", "Shared"), join(mod, "Data", "FromParent")); // inside the grandparent: followed
      symlinkSync(join(mod, "Data", "Units.xml"), join(mod, "Data", "Alias.xml"));
      const c = new Confinement({ projectDir: mod, sdkDir: null }, new NodeDirectoryLister());
      const refused: string[] = [];
      const files = scanProjectFiles(mod, {
        admitLink: (p) => c.admits(p),
        onRefusedLink: (p) => refused.push(p.slice(mod.length + 1)),
      });
      expect(files.map((f) => f.path.slice(mod.length + 1))).toEqual([
        "Data/Alias.xml",
        "Data/FromParent/Inside.xml",
        "Data/Mod.xml",
        "Data/Units.xml",
      ]);
      expect(refused.sort()).toEqual(["Data/Dangling.xml", "Data/Linked.xml", "Data/SharedLink"]);
    } finally {
      removeDir(top);
    }
  });

  test("stamps carry size and mtime", () => {
    const files = scanProjectFiles(root);
    const mod = files.find((f) => f.path === join(root, "Data/Mod.xml"))!;
    expect(mod.size).toBe(19);
    expect(mod.mtimeMs).toBe(1_700_000_000_000);
    expect(files.find((f) => f.path.endsWith("Tank.XML"))!.size).toBe(5);
  });

  test("extra skipped folder names", () => {
    const files = scanProjectFiles(root, { skipDirs: ["Misc", "builtmods"] });
    expect(files.some((f) => f.kind === "str" || f.kind === "manifest")).toBe(false);
    expect(files.length).toBe(6);
  });

  test("a root that is not a folder is an error with a clear message", () => {
    expect(() => scanProjectFiles(join(root, "nope"))).toThrow(`cannot scan ${join(root, "nope")}: no such directory`);
    expect(() => scanProjectFiles(join(root, "mod.babproj"))).toThrow(
      `cannot scan ${join(root, "mod.babproj")}: not a directory`,
    );
  });

  // root reads everything, so there is nothing to observe when the tests run as root
  test.skipIf(process.getuid?.() === 0)("an unreadable folder is reported and the walk goes on", () => {
    const locked = join(root, "Locked");
    mkdirSync(locked, { mode: 0o000 });
    const errors: string[] = [];
    let files;
    try {
      files = scanProjectFiles(root, { onError: (p) => errors.push(p) });
    } finally {
      chmodSync(locked, 0o755); // so the temp folder can be removed
    }
    expect(errors).toEqual([locked]);
    expect(files.length).toBe(8);
  });
});

describe("fileKindOf", () => {
  test("by extension, any case; null for what the scan does not list (other extensions, none, a dot-file's name)", () => {
    expect(fileKindOf("a/B.XML")).toBe("xml");
    expect(fileKindOf("a.w3x")).toBe("w3x");
    expect(fileKindOf("Mod.STR")).toBe("str");
    expect(fileKindOf("mod.BabProj")).toBe("babproj");
    expect(fileKindOf("static.manifest")).toBe("manifest");
    expect(fileKindOf("C:\\Mods\\My.Mod\\Data\\Mod.Xml")).toBe("xml");
    expect(fileKindOf("Tank_FP.dat")).toBe(null);
    expect(fileKindOf("noext")).toBe(null);
    expect(fileKindOf("Data.d/noext")).toBe(null);
    expect(fileKindOf(".xml")).toBe(null);
  });
});
