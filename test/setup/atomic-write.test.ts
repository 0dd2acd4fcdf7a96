import { afterAll, describe, expect, test } from "bun:test";
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { backupStamp, writeFileAtomic } from "../../src/setup/atomic-write.ts";
import { fsError, MemoryFileSystem, nodeFileSystem } from "../../src/setup/platform.ts";

const dir = mkdtempSync(join(tmpdir(), "ra3-atomic-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOW = new Date("2026-11-23T14:15:02.500Z");

describe("on the real file system", () => {
  const fs = nodeFileSystem();

  test("creates a file and its folder, leaving no temporary file", async () => {
    const file = join(dir, "new", "sub", "config.json");
    const result = await writeFileAtomic(fs, file, "{}\n", { backup: true, now: NOW });
    expect(result).toEqual({ path: file, created: true, backup: null });
    expect(readFileSync(file, "utf8")).toBe("{}\n");
    expect(readdirSync(join(dir, "new", "sub"))).toEqual(["config.json"]);
  });

  test("replaces a file, backing it up first and keeping its permissions", async () => {
    const file = join(dir, "replace.json");
    writeFileSync(file, "old\n", { mode: 0o600 });
    const result = await writeFileAtomic(fs, file, "new\n", { backup: true, now: NOW });
    expect(result).toEqual({ path: file, created: false, backup: `${file}.ra3-backup-20261123T141502Z` });
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(readFileSync(result.backup!, "utf8")).toBe("old\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = await writeFileAtomic(fs, file, "newer\n", { backup: true, now: NOW });
    expect(second.backup).toBe(`${file}.ra3-backup-20261123T141502Z-2`);
    expect(readdirSync(dir).filter((n) => n.startsWith("replace.json")).sort()).toEqual([
      "replace.json",
      "replace.json.ra3-backup-20261123T141502Z",
      "replace.json.ra3-backup-20261123T141502Z-2",
    ]);
  });

  test("writes through a symbolic link, which stays a link", async () => {
    const target = join(dir, "real.json");
    const link = join(dir, "link.json");
    writeFileSync(target, "a");
    symlinkSync(target, link);
    const result = await writeFileAtomic(fs, link, "b");
    expect(result.path).toBe(target);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("b");
  });

  test("a folder in the way is an error", async () => {
    await expect(writeFileAtomic(fs, dir, "x")).rejects.toThrow(`EISDIR: not a file: ${dir}`);
  });
});

describe("failures leave the old file", () => {
  const file = "/cfg/mcp.json";

  test("the rename fails: old content, no temporary file, no backup", async () => {
    const fs = new MemoryFileSystem(posix, { [file]: "old" });
    fs.failOn("rename", () => true, fsError("EIO", "disk gone"));
    await expect(writeFileAtomic(fs, file, "new", { backup: true, now: NOW })).rejects.toThrow("EIO: disk gone");
    expect(fs.text(file)).toBe("old");
    expect(fs.listAll()).toEqual([file]);
  });

  test("writing the temporary file fails half-way: old content, nothing left behind", async () => {
    const fs = new MemoryFileSystem(posix, { [file]: "old" });
    fs.failOn("writeFile", (p) => p !== file, fsError("ENOSPC", "full"));
    await expect(writeFileAtomic(fs, file, "new")).rejects.toThrow("ENOSPC: full");
    expect(fs.listAll()).toEqual([file]);
  });

  test("the backup fails: nothing is replaced", async () => {
    const fs = new MemoryFileSystem(posix, { [file]: "old" });
    fs.failOn("copyFile", file, fsError("EACCES", "no"));
    await expect(writeFileAtomic(fs, file, "new", { backup: true, now: NOW })).rejects.toThrow("EACCES: no");
    expect(fs.listAll()).toEqual([file]);
    expect(fs.text(file)).toBe("old");
  });
});

test("backupStamp is compact UTC", () => {
  expect(backupStamp(NOW)).toBe("20261123T141502Z");
});
