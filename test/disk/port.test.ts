// The file-system port: the real one over node:fs and the in-memory one the setup tests run on agree on
// what is a value (missing) and what is an error (a link loop, a denied folder, a file in use).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import { describeFsError, fsError, nodeFileSystem } from "../../src/disk/port.ts";
import { MemoryFileSystem } from "./memory-fs.ts";

describe("nodeFileSystem", () => {
  const dir = mkdtempSync(join(tmpdir(), "ra3-port-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fs = nodeFileSystem();

  test("missing things are values, not errors", () => {
    expect(fs.readFile(join(dir, "missing"))).toBeNull();
    expect(fs.stat(join(dir, "missing"))).toBeNull();
    expect(fs.exists(join(dir, "missing"))).toBe(false);
    expect(fs.listDir(join(dir, "missing"))).toBeNull();
    expect(fs.sha256(join(dir, "missing"))).toBeNull();
    expect(fs.realPath(join(dir, "missing"))).toBe(join(dir, "missing"));
    expect(fs.removeEmptyDir(join(dir, "missing"))).toBe(false);
    fs.remove(join(dir, "missing"));
    fs.removeTree(join(dir, "missing"));
  });

  test("sha256 reads the file in chunks", () => {
    writeFileSync(join(dir, "abc"), "abc");
    expect(fs.sha256(join(dir, "abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(fs.stat(join(dir, "abc"))).toEqual({ kind: "file", size: 3, mode: expect.any(Number) });
    expect(fs.listDir(dir)).toContain("abc");
  });

  test("an exclusive write refuses an existing file", () => {
    writeFileSync(join(dir, "taken"), "x");
    expect(() => fs.writeFile(join(dir, "taken"), new Uint8Array([1]), { exclusive: true })).toThrow("EEXIST");
  });

  test("a symbolic link loop is an ELOOP error, not a missing file", () => {
    symlinkSync(join(dir, "loop2"), join(dir, "loop1"));
    symlinkSync(join(dir, "loop1"), join(dir, "loop2"));
    expect(() => fs.exists(join(dir, "loop1"))).toThrow("ELOOP");
    expect(() => fs.readFile(join(dir, "loop1"))).toThrow("ELOOP");
  });

  test("folders: removeEmptyDir only when empty, removeTree always", () => {
    mkdirSync(join(dir, "t", "sub"), { recursive: true });
    writeFileSync(join(dir, "t", "sub", "f"), "x");
    expect(fs.removeEmptyDir(join(dir, "t"))).toBe(false);
    fs.removeTree(join(dir, "t"));
    expect(fs.exists(join(dir, "t"))).toBe(false);
  });
});

describe("MemoryFileSystem", () => {
  test("Windows paths are case-insensitive and keep their first spelling", () => {
    const fs = new MemoryFileSystem(win32, { "C:\\Users\\A\\Config.json": "x" });
    expect(fs.text("c:/users/a/config.JSON")).toBe("x");
    fs.writeFile("C:\\USERS\\A\\CONFIG.JSON", new TextEncoder().encode("y"));
    expect(fs.listAll()).toEqual(["C:\\Users\\A\\Config.json"]);
    expect(fs.listDir("c:\\users\\a")).toEqual(["Config.json"]);
  });

  test("POSIX paths are case-sensitive", () => {
    const fs = new MemoryFileSystem(posix, { "/a/B": "x" });
    expect(fs.readFile("/a/b")).toBeNull();
    expect(fs.listDir("/a")).toEqual(["B"]);
    expect(fs.listDir("/a/B")).toBeNull();
  });

  test("writing into a missing folder fails like the real thing", () => {
    expect(() => new MemoryFileSystem(posix).writeFile("/no/such/f", new Uint8Array())).toThrow(
      "ENOENT: no such folder: /no/such",
    );
  });

  test("a locked file can be renamed but not replaced or removed", () => {
    const fs = new MemoryFileSystem(win32, { "C:\\b\\ra3.exe": "v1", "C:\\b\\new.exe": "v2" });
    fs.lock("C:\\b\\ra3.exe");
    expect(() => fs.remove("C:\\b\\ra3.exe")).toThrow("EBUSY");
    expect(() => fs.rename("C:\\b\\new.exe", "C:\\b\\ra3.exe")).toThrow("EPERM");
    fs.rename("C:\\b\\ra3.exe", "C:\\b\\old.exe");
    expect(() => fs.remove("C:\\b\\old.exe")).toThrow("EBUSY");
    fs.rename("C:\\b\\new.exe", "C:\\b\\ra3.exe");
    expect(fs.text("C:\\b\\ra3.exe")).toBe("v2");
  });

  test("a folder is renamed with everything in it", () => {
    const fs = new MemoryFileSystem(win32, { "C:\\s\\.tmp-1\\SKILL.md": "a", "C:\\s\\.tmp-1\\refs\\r.md": "b" });
    fs.rename("C:\\s\\.tmp-1", "C:\\s\\ra3-mod-xml");
    expect(fs.listAll()).toEqual(["C:\\s\\ra3-mod-xml\\SKILL.md", "C:\\s\\ra3-mod-xml\\refs\\r.md"]);
    expect(fs.listDir("C:\\s")).toEqual(["ra3-mod-xml"]);
  });

  test("links resolve, loops fail with ELOOP, denied folders with EACCES", () => {
    const fs = new MemoryFileSystem(posix, { "/h/real.json": "{}" });
    fs.symlink("/h/link.json", "/h/real.json");
    expect(fs.text("/h/link.json")).toBe("{}");
    fs.symlink("/h/a", "/h/b");
    fs.symlink("/h/b", "/h/a");
    expect(() => fs.stat("/h/a")).toThrow("ELOOP");
    fs.deny("/h/locked");
    expect(() => fs.exists("/h/locked/x.json")).toThrow("EACCES");
    expect(fs.exists("/h/real.json")).toBe(true);
  });

  test("failOn injects one failure", () => {
    const fs = new MemoryFileSystem(posix, { "/x": "1" });
    fs.failOn("readFile", "/x", fsError("EIO", "bad sector"));
    expect(() => fs.readFile("/x")).toThrow("EIO: bad sector");
    expect(fs.text("/x")).toBe("1");
  });
});

test("describeFsError names the failures a user can act on", () => {
  expect(describeFsError(fsError("ELOOP", "x"))).toBe("a symbolic link points back at itself (a link loop) (ELOOP)");
  expect(describeFsError(fsError("EACCES", "x"))).toBe("permission denied (EACCES)");
  expect(describeFsError(new Error("plain"))).toBe("plain");
});
