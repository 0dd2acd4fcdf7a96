import { describe, expect, test } from "bun:test";
import { resolveHome, snapshotPathFor } from "../../src/project/home.ts";

describe("resolveHome", () => {
  test("--home, then RA3_HOME, then ~/.ra3modxml", () => {
    expect(resolveHome({ flag: "/state/a", env: { RA3_HOME: "/state/b" }, homedir: "/home/u" })).toBe("/state/a");
    expect(resolveHome({ env: { RA3_HOME: "/state/b" }, homedir: "/home/u" })).toBe("/state/b");
    expect(resolveHome({ env: {}, homedir: "/home/u" })).toBe("/home/u/.ra3modxml");
  });

  test("blank values count as unset", () => {
    expect(resolveHome({ flag: "  ", env: { RA3_HOME: "" }, homedir: "/home/u" })).toBe("/home/u/.ra3modxml");
    expect(resolveHome({ flag: null, env: { RA3_HOME: " /state/b " }, homedir: "/home/u" })).toBe("/state/b");
  });

  test("relative values resolve against cwd; a leading ~ is the home folder", () => {
    expect(resolveHome({ flag: "state", homedir: "/home/u", cwd: "/work" })).toBe("/work/state");
    expect(resolveHome({ flag: "~/ra3", homedir: "/home/u", cwd: "/work" })).toBe("/home/u/ra3");
    expect(resolveHome({ env: { RA3_HOME: "~" }, homedir: "/home/u", cwd: "/work" })).toBe("/home/u");
  });
});

describe("snapshotPathFor", () => {
  test("<home>/snapshots/<slug>-<sha1-12 of the path key>.msgpack", () => {
    // sha1("/mods/my mod") = 4dd073c3ce1c95a1…
    expect(snapshotPathFor("/home/u/.ra3modxml", "/mods/My Mod")).toBe(
      "/home/u/.ra3modxml/snapshots/mods-my-mod-4dd073c3ce1c.msgpack",
    );
  });

  test("case and separators do not change the name", () => {
    // sha1("c:/mods/x") = 1ea5b677da9d…
    expect(snapshotPathFor("/h", "C:\\Mods\\X")).toBe("/h/snapshots/mods-x-1ea5b677da9d.msgpack");
    expect(snapshotPathFor("/h", "c:/mods/x/")).toBe("/h/snapshots/mods-x-1ea5b677da9d.msgpack");
    expect(snapshotPathFor("/h", "/mods/My Mod")).not.toBe(snapshotPathFor("/h", "/mods/My Mod 2"));
  });
});
