import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import {
  appDataDir,
  currentPlatform,
  envVar,
  localAppDataDir,
  MemoryFileSystem,
  nodeFileSystem,
  osFromNodePlatform,
  platformFor,
  userSettingsDir,
  xdgConfigHome,
} from "../../src/setup/platform.ts";

describe("platform", () => {
  test("Node platform names map to ours", () => {
    expect(["win32", "darwin", "linux", "freebsd"].map(osFromNodePlatform)).toEqual([
      "windows",
      "macos",
      "linux",
      "linux",
    ]);
    expect(currentPlatform().os).toBe(osFromNodePlatform(process.platform));
  });

  test("environment variables: case-insensitive on Windows only; empty means unset", () => {
    expect(envVar(platformFor("windows", "C:\\u", { Path: "x" }), "PATH")).toBe("x");
    expect(envVar(platformFor("linux", "/u", { Path: "x" }), "PATH")).toBeUndefined();
    expect(envVar(platformFor("linux", "/u", { XDG_CONFIG_HOME: "" }), "XDG_CONFIG_HOME")).toBeUndefined();
  });

  test("per-user folders per OS", () => {
    const win = platformFor("windows", "C:\\Users\\A", { LOCALAPPDATA: "D:\\Local" });
    expect([appDataDir(win), localAppDataDir(win), userSettingsDir(win)]).toEqual([
      "C:\\Users\\A\\AppData\\Roaming",
      "D:\\Local",
      "C:\\Users\\A\\AppData\\Roaming",
    ]);
    expect(userSettingsDir(platformFor("macos", "/Users/a"))).toBe("/Users/a/Library/Application Support");
    expect(userSettingsDir(platformFor("linux", "/home/a", { XDG_CONFIG_HOME: "relative/cfg" }))).toBe(
      "/home/a/.config",
    );
    expect(xdgConfigHome(platformFor("linux", "/home/a", { XDG_CONFIG_HOME: "/cfg" }))).toBe("/cfg");
  });
});

describe("MemoryFileSystem", () => {
  test("Windows paths are case-insensitive and keep their first spelling", async () => {
    const fs = new MemoryFileSystem(win32, { "C:\\Users\\A\\Config.json": "x" });
    expect(fs.text("c:/users/a/config.JSON")).toBe("x");
    await fs.writeFile("C:\\USERS\\A\\CONFIG.JSON", new TextEncoder().encode("y"));
    expect(fs.listAll()).toEqual(["C:\\Users\\A\\Config.json"]);
    expect(await fs.listDir("c:\\users\\a")).toEqual(["Config.json"]);
  });

  test("POSIX paths are case-sensitive", async () => {
    const fs = new MemoryFileSystem(posix, { "/a/B": "x" });
    expect(await fs.readFile("/a/b")).toBeNull();
    expect(await fs.listDir("/a")).toEqual(["B"]);
    expect(await fs.listDir("/a/B")).toBeNull();
  });

  test("writing into a missing folder fails like the real thing", async () => {
    await expect(new MemoryFileSystem(posix).writeFile("/no/such/f", new Uint8Array())).rejects.toThrow(
      "ENOENT: no such folder: /no/such",
    );
  });

  test("a locked file can be renamed but not replaced or removed", async () => {
    const fs = new MemoryFileSystem(win32, { "C:\\b\\ra3.exe": "v1", "C:\\b\\new.exe": "v2" });
    fs.lock("C:\\b\\ra3.exe");
    await expect(fs.remove("C:\\b\\ra3.exe")).rejects.toThrow("EBUSY");
    await expect(fs.rename("C:\\b\\new.exe", "C:\\b\\ra3.exe")).rejects.toThrow("EPERM");
    await fs.rename("C:\\b\\ra3.exe", "C:\\b\\old.exe");
    await expect(fs.remove("C:\\b\\old.exe")).rejects.toThrow("EBUSY");
    await fs.rename("C:\\b\\new.exe", "C:\\b\\ra3.exe");
    expect(fs.text("C:\\b\\ra3.exe")).toBe("v2");
  });
});

describe("nodeFileSystem", () => {
  const dir = mkdtempSync(join(tmpdir(), "ra3-port-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const fs = nodeFileSystem();

  test("missing things are values, not errors", async () => {
    expect(await fs.readFile(join(dir, "missing"))).toBeNull();
    expect(await fs.stat(join(dir, "missing"))).toBeNull();
    expect(await fs.exists(join(dir, "missing"))).toBe(false);
    expect(await fs.listDir(join(dir, "missing"))).toBeNull();
    expect(await fs.sha256(join(dir, "missing"))).toBeNull();
    expect(await fs.realPath(join(dir, "missing"))).toBe(join(dir, "missing"));
    await fs.remove(join(dir, "missing"));
  });

  test("sha256 streams the file", async () => {
    writeFileSync(join(dir, "abc"), "abc");
    expect(await fs.sha256(join(dir, "abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await fs.stat(join(dir, "abc"))).toEqual({ kind: "file", size: 3, mode: expect.any(Number) });
    expect(await fs.listDir(dir)).toContain("abc");
  });
});
