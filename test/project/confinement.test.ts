/**
 * The one confinement rule (docs/builder-rules.md, "What ra3 reads"): which roots are allowed, the
 * lexical check (both slash flavours, drive letters, `..`), and links on a real disk — a file or folder
 * inside the mod that links outside is refused by the gated case resolver before its target is looked
 * at, so a link to something that exists and a dangling one get the same answer.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { CaseResolver, OUTSIDE } from "../../src/project/case-resolver.ts";
import { Confinement } from "../../src/project/confinement.ts";
import { NodeDirectoryLister } from "../../src/project/fs-port.ts";
import { allowedRoots, insideRoots, isFileSystemRoot } from "../../src/project/paths.ts";
import { MemoryDirectoryLister } from "./memory-lister.ts";
import { tempDirs } from "../temp-dirs.ts";

const TMP = tempDirs();
const { win32, posix } = nodePath;

describe("allowedRoots: the project, the SDK, the mod's parent and grandparent", () => {
  test("in that order, each once", () => {
    expect(allowedRoots({ projectDir: "/home/ann/Mods/X", sdkDir: "/opt/sdk" }, posix)).toEqual([
      "/home/ann/Mods/X",
      "/opt/sdk",
      "/home/ann/Mods",
      "/home/ann",
    ]);
    // A mod in SDK/Mods: its grandparent is the SDK root, listed once.
    expect(allowedRoots({ projectDir: "/sdk/Mods/X", sdkDir: "/sdk" }, posix)).toEqual([
      "/sdk/Mods/X",
      "/sdk",
      "/sdk/Mods",
    ]);
  });

  test("a parent that is a file-system root is left out (it would admit the whole disk)", () => {
    expect(allowedRoots({ projectDir: "/m/X", sdkDir: null }, posix)).toEqual(["/m/X", "/m"]);
    expect(allowedRoots({ projectDir: "/X", sdkDir: null }, posix)).toEqual(["/X"]);
    expect(allowedRoots({ projectDir: "D:\\Mods\\X", sdkDir: "C:\\SDK" }, win32)).toEqual([
      "D:\\Mods\\X",
      "C:\\SDK",
      "D:\\Mods",
    ]);
    expect(allowedRoots({ projectDir: "\\\\srv\\share\\Mods\\X", sdkDir: null }, win32)).toEqual([
      "\\\\srv\\share\\Mods\\X",
      "\\\\srv\\share\\Mods",
    ]);
  });

  test("isFileSystemRoot", () => {
    expect(["/", "/m"].map((p) => isFileSystemRoot(p, posix))).toEqual([true, false]);
    expect(["C:\\", "C:/", "\\\\srv\\share\\", "C:\\Mods"].map((p) => isFileSystemRoot(p, win32))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe("insideRoots: lexical, after `.` and `..`, both separators", () => {
  const roots = ["/m/mods/X", "/m/mods", "/m"];
  test.each([
    ["/m/mods/X/Data/Mod.xml", true],
    ["/m/mods/X/Data/../../Other/Data/a.xml", true], // the mod's parent: allowed
    ["/m/mods/X/Data/../../../../etc/passwd", false],
    ["/m/mods/X/Data/..\\..\\..\\..\\etc\\passwd", false], // backslashes are separators in mod paths
    ["/m/mods/X/Data/./../../../..", false],
    ["/etc/passwd", false],
    ["/m2/x.xml", false], // a sibling whose name starts like a root
    ["Data/Mod.xml", false], // relative: inside nothing
  ])("%s → %p", (p, inside) => {
    expect(insideRoots(p, roots, posix)).toBe(inside);
  });

  test("Windows paths: drive letters, case, `..` in either slash", () => {
    const w = ["C:\\Mods\\X", "C:\\Mods"];
    expect([
      insideRoots("c:\\mods\\x\\DATA\\Mod.xml", w, win32),
      insideRoots("C:\\Windows\\win.ini", w, win32),
      insideRoots("C:/Mods/X/Data/../../../Windows/win.ini", w, win32),
      insideRoots("C:\\Mods\\X\\Data\\..\\..\\..\\Windows\\win.ini", w, win32),
      insideRoots("D:\\Mods\\X\\Data\\Mod.xml", w, win32),
      insideRoots("\\Windows\\win.ini", w, win32), // rooted on the current drive: not inside
    ]).toEqual([true, false, false, false, false, false]);
  });
});

describe("a confined case resolver (in memory: the lexical rule)", () => {
  const lister = new MemoryDirectoryLister(["/m/mods/X/Data/Mod.xml", "/m/mods/Other/a.xml", "/etc/passwd"]);
  const gate = new Confinement({ projectDir: "/m/mods/X", sdkDir: null }, lister);
  const r = new CaseResolver(lister).confined(gate);
  const calls = () => lister.calls;

  test("inside: found as usual; outside: OUTSIDE before anything is listed", () => {
    expect(r.lookup("/m/mods/X/Data", "../../Other/A.XML", "file")).toBe("/m/mods/Other/a.xml");
    const before = calls();
    expect([
      r.lookup("/m/mods/X/Data", "../../../../etc/passwd", "file"),
      r.lookup("/m/mods/X/Data", "..\\..\\..\\..\\etc\\nothing", "file"),
      r.lookupPath("/etc/passwd", "file"),
      r.lookupPath("/etc/nothing", "file"),
    ]).toEqual([OUTSIDE, OUTSIDE, OUTSIDE, OUTSIDE]);
    expect(calls()).toBe(before);
    // The plain answers say null for both (a refusal is never a hit).
    expect([r.resolvePath("/etc/passwd"), r.resolve("/m/mods/X/Data", "../../../../etc/passwd")]).toEqual([null, null]);
  });
});

describe("links on a real disk", () => {
  /** TMP/a/b/mods/Evil (the mod), TMP/a/secret (outside every root), TMP/a/b/Shared (the grandparent: inside). */
  function hostile() {
    const top = realpathSync(TMP.make("ra3-confine-"));
    const mod = nodePath.join(top, "a", "b", "mods", "Evil");
    const secret = nodePath.join(top, "a", "secret");
    mkdirSync(nodePath.join(mod, "Data"), { recursive: true });
    mkdirSync(secret);
    mkdirSync(nodePath.join(top, "a", "b", "Shared"));
    writeFileSync(nodePath.join(secret, "present.xml"), "<a/>");
    writeFileSync(nodePath.join(top, "a", "b", "Shared", "common.xml"), "<a/>");
    writeFileSync(nodePath.join(mod, "Data", "Units.xml"), "<a/>");
    const data = nodePath.join(mod, "Data");
    symlinkSync(nodePath.join(secret, "present.xml"), nodePath.join(data, "Linked.xml"));
    symlinkSync(nodePath.join(secret, "absent.xml"), nodePath.join(data, "LinkedMissing.xml"));
    symlinkSync(secret, nodePath.join(data, "SharedLink"), "dir");
    symlinkSync(nodePath.join(top, "a", "b", "Shared"), nodePath.join(data, "Inside"), "dir");
    symlinkSync(nodePath.join(data, "Units.xml"), nodePath.join(data, "Alias.xml"));
    return { top, mod, data, secret };
  }

  test("a file or folder linking outside is OUTSIDE whether its target exists, is a file or a folder", () => {
    const { mod, data } = hostile();
    const lister = new NodeDirectoryLister();
    const r = new CaseResolver(lister).confined(new Confinement({ projectDir: mod, sdkDir: null }, lister));
    expect([
      r.lookup(data, "Linked.xml", "file"),
      r.lookup(data, "LinkedMissing.xml", "file"),
      r.lookup(data, "linked.xml", "directory"), // the kind asked does not matter: refused first
      r.lookup(data, "SharedLink/present.xml", "file"),
      r.lookup(data, "SharedLink/absent.xml", "file"),
      r.lookup(data, "SharedLink", "file"),
      r.childNamed(data, "SharedLink", "directory"),
    ]).toEqual([OUTSIDE, OUTSIDE, OUTSIDE, OUTSIDE, OUTSIDE, OUTSIDE, null]);
    // Links that stay inside the roots are followed: to the project, to the grandparent.
    expect([r.lookup(data, "alias.xml", "file"), r.lookup(data, "Inside/COMMON.xml", "file")]).toEqual([
      nodePath.join(data, "Alias.xml"),
      nodePath.join(data, "Inside", "common.xml"),
    ]);
  });

  test("an unconfined resolver (SDK detection, setup) still follows every link", () => {
    const { data } = hostile();
    expect(new CaseResolver(new NodeDirectoryLister()).resolve(data, "SharedLink/present.xml", "file")).toBe(
      nodePath.join(data, "SharedLink", "present.xml"),
    );
  });

  test("Confinement.admits: roots and the folders above them pass (the project may be entered by a link)", () => {
    const { top, mod, data } = hostile();
    // TMP/a/b/links/ModLink → TMP/a/b/mods/Evil: the roots are the link, TMP/a/b/links and TMP/a/b.
    const b = nodePath.join(top, "a", "b");
    mkdirSync(nodePath.join(b, "links"));
    const link = nodePath.join(b, "links", "ModLink");
    symlinkSync(mod, link, "dir");
    const c = new Confinement({ projectDir: link, sdkDir: null }, new NodeDirectoryLister());
    expect(c.roots).toEqual([link, nodePath.join(b, "links"), b]);
    expect([
      c.admits(link),
      c.admits(top),
      c.admits(nodePath.join(link, "Data", "Alias.xml")),
      c.admits(nodePath.join(link, "Data", "Linked.xml")),
      c.admits(nodePath.join(link, "Data", "LinkedMissing.xml")),
      c.admits(nodePath.join(top, "a", "secret")), // outside every root
      c.admitsNow(nodePath.join(link, "Data", "Units.xml")),
      c.admitsNow(nodePath.join(data, "Units.xml")), // the real path of a project file: inside the real root
      c.admitsNow(nodePath.join(link, "Data", "Nothing.xml")),
    ]).toEqual([true, true, true, false, false, false, true, true, false]);
  });
});
