import { describe, expect, test } from "bun:test";
import {
  appDataDir,
  currentPlatform,
  envVar,
  localAppDataDir,
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
