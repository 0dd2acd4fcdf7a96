// Path syntax, one table for both flavours: what Windows users type (`.\Data\Mod.xml`, `..` segments,
// any case) names the same file on Linux as on Windows, and leaving the root is seen the same way.
import { describe, expect, test } from "bun:test";
import * as nodePath from "node:path";
import {
  isInside,
  joinPath,
  native,
  type PathFlavour,
  pathKey,
  relativePosix,
  toAbsolute,
} from "../../src/project/paths.ts";

const ROOTS: readonly (readonly [string, PathFlavour, string])[] = [
  ["posix", nodePath.posix, "/mods/Sample Mod"],
  ["win32", nodePath.win32, "C:\\Mods\\Sample Mod"],
];

/** What the user typed → the path below the root it names (`/`-separated), or null when it leaves the root. */
const TABLE: readonly (readonly [string, string | null])[] = [
  ["Data\\Mod.xml", "Data/Mod.xml"],
  ["Data/Mod.xml", "Data/Mod.xml"],
  [".\\Data\\Mod.xml", "Data/Mod.xml"],
  ["./Data/Mod.xml", "Data/Mod.xml"],
  ["Data\\X\\..\\Mod.xml", "Data/Mod.xml"],
  ["Data/X/../Mod.xml", "Data/Mod.xml"],
  [".\\Data\\.\\Mod.xml", "Data/Mod.xml"],
  ["Data\\\\Mod.xml", "Data/Mod.xml"],
  ["Data/X\\..\\Mod.xml", "Data/Mod.xml"],
  ["Data\\Includes\\Allied Units\\..\\..\\Mod.xml", "Data/Mod.xml"],
  ["..\\Sample Mod\\Data\\Mod.xml", "Data/Mod.xml"],
  ["Data\\Mod.xml\\", "Data/Mod.xml"],
  [".", ""],
  ["..\\Other Mod\\Data\\Mod.xml", null],
  ["Data\\..\\..\\Mod.xml", null],
  ["../Sample Mod Two/Data/Mod.xml", null],
];

describe("toAbsolute and relativePosix, both flavours, one table", () => {
  for (const [name, flavour, root] of ROOTS) {
    for (const [typed, below] of TABLE) {
      test(`${name}: ${JSON.stringify(typed)} → ${below === null ? "outside the root" : JSON.stringify(below)}`, () => {
        const abs = toAbsolute(typed, root, flavour);
        expect(abs).toBe(
          below === null ? abs : below === "" ? root : flavour.join(root, ...below.split("/")),
        );
        expect(relativePosix(root, abs)).toBe(below);
        expect(isInside(abs, root)).toBe(below !== null);
      });
    }
  }

  test("the running OS's flavour is the very posix or win32 object (the namespace import is neither)", () => {
    expect(native === nodePath.posix || native === nodePath.win32).toBe(true);
    expect(native.sep).toBe(nodePath.sep);
  });

  test("the default flavour is the running OS's: on it the table holds without naming a flavour", () => {
    const root = native === nodePath.win32 ? "C:\\Mods\\Sample Mod" : "/mods/Sample Mod";
    for (const [typed, below] of TABLE) {
      expect(relativePosix(root, toAbsolute(typed, root))).toBe(below);
    }
  });

  test("joinPath takes `\\` as a separator in segments", () => {
    const root = native === nodePath.win32 ? "C:\\m" : "/m";
    expect(pathKey(joinPath(root, "Data\\Sub", "Mod.xml"))).toBe(pathKey(native.join(root, "Data", "Sub", "Mod.xml")));
  });
});
