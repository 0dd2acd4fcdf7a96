import { describe, expect, test } from "bun:test";
import { posix, win32 } from "node:path";
import { MemoryFileSystem } from "../disk/memory-fs.ts";
import {
  emptyReceipt,
  type InstallReceipt,
  readReceipt,
  RECEIPT_LOG_LIMIT,
  renderReceipt,
  withBinary,
  withConfigRecord,
  withLogEntry,
  withoutConfigRecord,
  withoutSkillRecord,
  withSkillRecord,
  writeReceipt,
} from "../../src/setup/receipt.ts";

const home = "/home/ann/.ra3modxml";
const file = "/home/ann/.ra3modxml/install.json";
const NOW = new Date("2026-11-23T14:15:02Z");

function sample(): InstallReceipt {
  let r = withBinary(emptyReceipt("0.1.0"), { path: "/home/ann/.ra3modxml/bin/ra3", sha256: "ab".repeat(32) });
  r = withConfigRecord(r, {
    client: "codex",
    scope: "user",
    file: "/home/ann/.codex/config.toml",
    entryName: "ra3",
    createdFile: true,
  });
  r = withConfigRecord(r, {
    client: "cursor",
    scope: "user",
    file: "/home/ann/.cursor/mcp.json",
    entryName: "ra3",
    createdFile: false,
    backup: "/home/ann/.cursor/mcp.json.ra3-backup-20261123T141502Z",
  });
  r = withSkillRecord(r, { name: "ra3-mod-xml", target: "agents", dir: "/home/ann/.agents/skills/ra3-mod-xml" });
  return withLogEntry(r, "setup", "done", NOW);
}

describe("round trip", () => {
  test("write then read gives the same receipt", async () => {
    const fs = new MemoryFileSystem(posix);
    expect(await writeReceipt(fs, home, sample())).toBe(file);
    expect(await readReceipt(fs, home, "0.2.0")).toEqual({ ok: true, receipt: sample(), existed: true });
  });

  test("the file is stable, readable JSON", () => {
    expect(renderReceipt(withLogEntry(emptyReceipt("0.1.0"), "binary.install", "/b/ra3", NOW))).toBe(
      '{\n  "format": 1,\n  "version": "0.1.0",\n  "binary": null,\n  "configs": [],\n  "skills": [],\n  "log": [\n    {\n      "at": "2026-11-23T14:15:02.000Z",\n      "action": "binary.install",\n      "detail": "/b/ra3"\n    }\n  ]\n}\n',
    );
  });

  test("a missing receipt is an empty one", async () => {
    expect(await readReceipt(new MemoryFileSystem(posix), home, "0.2.0")).toEqual({
      ok: true,
      receipt: emptyReceipt("0.2.0"),
      existed: false,
    });
  });
});

describe("corrupt receipts are reported, never replaced", () => {
  const advice =
    "ra3 left it unchanged; move it aside (setup then starts a new receipt, and uninstall can no longer revert what the old one recorded) and run the command again.";

  test("invalid JSON: position", async () => {
    const fs = new MemoryFileSystem(posix, { [file]: '{\n  "format": 1,\n  "version": \n}' });
    expect(await readReceipt(fs, home, "0.1.0")).toEqual({
      ok: false,
      error: `${file}:4:1: not a valid ra3 install receipt (not valid JSON). ${advice}`,
    });
    expect(fs.text(file)).toBe('{\n  "format": 1,\n  "version": \n}');
  });

  test("wrong shape: which part", async () => {
    const fs = new MemoryFileSystem(posix, {
      [file]:
        '{"format": 1, "version": "0.1.0", "binary": null, "configs": [{"client": "x"}], "skills": [], "log": []}',
    });
    expect(await readReceipt(fs, home, "0.1.0")).toEqual({
      ok: false,
      error: `${file} is not a valid ra3 install receipt (configs[0] is not a config record). ${advice}`,
    });
  });

  test("another format version", async () => {
    const fs = new MemoryFileSystem(posix, { [file]: '{"format": 7}' });
    expect(await readReceipt(fs, home, "0.1.0")).toEqual({
      ok: false,
      error: `${file} is not a valid ra3 install receipt ("format" is 7, expected 1). ${advice}`,
    });
  });

  test("not UTF-8", async () => {
    const fs = new MemoryFileSystem(posix, { [file]: new Uint8Array([0xff, 0x00]) });
    expect(await readReceipt(fs, home, "0.1.0")).toEqual({
      ok: false,
      error: `${file} is not a valid ra3 install receipt (not UTF-8 text). ${advice}`,
    });
  });
});

describe("record helpers", () => {
  test("records are matched case-insensitively by client, scope and file", () => {
    const r = withConfigRecord(emptyReceipt("0.1.0"), {
      client: "vscode",
      scope: "user",
      file: "C:\\Users\\A\\AppData\\Roaming\\Code\\User\\mcp.json",
      entryName: "ra3",
      createdFile: false,
    });
    const same = withConfigRecord(r, {
      client: "vscode",
      scope: "user",
      file: "c:\\users\\a\\appdata\\roaming\\code\\user\\mcp.json",
      entryName: "ra3",
      createdFile: false,
    });
    expect(same.configs).toHaveLength(1);
    expect(withoutConfigRecord(same, "vscode", "user", "C:/Users/A/AppData/Roaming/Code/User/mcp.json", "ra3").configs)
      .toEqual([]);
    expect(
      withoutConfigRecord(same, "vscode", "project", "C:/Users/A/AppData/Roaming/Code/User/mcp.json", "ra3").configs,
    )
      .toHaveLength(1);
  });

  test("skills are keyed by folder", () => {
    const r = withSkillRecord(withSkillRecord(emptyReceipt("0.1.0"), { name: "s", target: "agents", dir: "/a" }), {
      name: "s",
      target: "dir",
      dir: "/a",
    });
    expect(r.skills).toEqual([{ name: "s", target: "dir", dir: "/a" }]);
    expect(withoutSkillRecord(r, "/a").skills).toEqual([]);
  });

  test("the log keeps the last entries only", () => {
    let r = emptyReceipt("0.1.0");
    for (let i = 0; i < RECEIPT_LOG_LIMIT + 5; i++) r = withLogEntry(r, "x", String(i), NOW);
    expect(r.log).toHaveLength(RECEIPT_LOG_LIMIT);
    expect(r.log[0].detail).toBe("5");
  });

  test("Windows homes use Windows paths", async () => {
    const fs = new MemoryFileSystem(win32);
    expect(await writeReceipt(fs, "C:\\Users\\A\\.ra3modxml", emptyReceipt("0.1.0"))).toBe(
      "C:\\Users\\A\\.ra3modxml\\install.json",
    );
  });
});
