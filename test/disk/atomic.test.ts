// The one atomic write: the target always holds one complete version, no temporary file is left behind,
// backups and permissions are kept, links are written through, and Windows rename refusals are retried.
import { afterAll, describe, expect, test } from "bun:test";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import { backupStamp, TEMP_SUFFIX, tempPathFor, writeFileAtomic } from "../../src/disk/atomic.ts";
import { fsError, nodeFileSystem } from "../../src/disk/port.ts";
import { MemoryFileSystem } from "./memory-fs.ts";

const root = mkdtempSync(join(tmpdir(), "ra3-atomic-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bytes = (s: string) => new TextEncoder().encode(s);
const fs = nodeFileSystem();
const NOW = new Date("2026-11-23T14:15:02.500Z");

describe("writeFileAtomic on the real file system", () => {
  test("creates missing parent folders and leaves only the target", () => {
    const target = join(root, "a", "b c", "snap.msgpack");
    expect(writeFileAtomic(fs, target, bytes("first"))).toEqual({ path: target, created: true, backup: null });
    expect(readFileSync(target, "utf8")).toBe("first");
    expect(readdirSync(join(root, "a", "b c"))).toEqual(["snap.msgpack"]);
  });

  test("replaces an existing file; a reader at the moment before the rename still sees the old, complete content", () => {
    const target = join(root, "replace.bin");
    writeFileAtomic(fs, target, bytes("old content"));
    let seen: string | null = null;
    let tempSeen = "";
    writeFileAtomic(fs, target, bytes("new content, longer than before"), {
      beforeRename: (temp) => {
        seen = readFileSync(target, "utf8");
        tempSeen = readFileSync(temp, "utf8");
      },
    });
    expect(seen!).toBe("old content");
    expect(tempSeen).toBe("new content, longer than before");
    expect(readFileSync(target, "utf8")).toBe("new content, longer than before");
    expect(readdirSync(root).filter((n) => n.endsWith(TEMP_SUFFIX))).toEqual([]);
  });

  test("a failure before the rename keeps the old file, removes the temporary file and rethrows", () => {
    const dir = join(root, "fail");
    const target = join(dir, "x.bin");
    writeFileAtomic(fs, target, bytes("keep me"));
    expect(() =>
      writeFileAtomic(fs, target, bytes("never visible"), {
        beforeRename: () => {
          throw new Error("disk pulled out");
        },
      })
    ).toThrow("disk pulled out");
    expect(readFileSync(target, "utf8")).toBe("keep me");
    expect(readdirSync(dir)).toEqual(["x.bin"]);
  });

  test("a target that is a folder fails cleanly, leaving no temporary file", () => {
    const dir = join(root, "isdir");
    mkdirSync(join(dir, "target"), { recursive: true });
    writeFileSync(join(dir, "target", "inner"), "x");
    expect(() => writeFileAtomic(fs, join(dir, "target"), bytes("data"))).toThrow(
      `EISDIR: not a file: ${join(dir, "target")}`,
    );
    expect(readdirSync(dir)).toEqual(["target"]);
  });

  test("a parent that is a file cannot be created: the error says so", () => {
    const blocker = join(root, "blocker");
    writeFileSync(blocker, "i am a file");
    let code = "";
    try {
      writeFileAtomic(fs, join(blocker, "sub", "x.bin"), bytes("data"));
    } catch (e) {
      code = (e as NodeJS.ErrnoException).code ?? "";
    }
    expect(["ENOTDIR", "EEXIST"]).toContain(code);
    expect(readFileSync(blocker, "utf8")).toBe("i am a file");
  });

  test("temporary names are hidden, unique, in the target's folder, and carry the pid", () => {
    const target = join(root, "dir", "snap.msgpack");
    const a = tempPathFor(fs, target);
    const b = tempPathFor(fs, target);
    expect(a).not.toBe(b);
    expect(a.startsWith(join(root, "dir", `.snap.msgpack.${process.pid}-`))).toBe(true);
    expect(a.endsWith(TEMP_SUFFIX)).toBe(true);
  });

  test("zero bytes and a large buffer are written whole", () => {
    const empty = join(root, "empty.bin");
    writeFileAtomic(fs, empty, new Uint8Array(0));
    expect(readFileSync(empty).length).toBe(0);
    const big = Uint8Array.from({ length: 5_000_000 }, (_, i) => (i * 31) & 0xff);
    const bigPath = join(root, "big.bin");
    writeFileAtomic(fs, bigPath, big);
    expect(Buffer.compare(readFileSync(bigPath), Buffer.from(big))).toBe(0);
  });

  test("replaces a file, backing it up first and keeping its permissions", () => {
    const file = join(root, "replace.json");
    writeFileSync(file, "old\n", { mode: 0o600 });
    const result = writeFileAtomic(fs, file, "new\n", { backup: true, now: NOW });
    expect(result).toEqual({ path: file, created: false, backup: `${file}.ra3-backup-20261123T141502Z` });
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(readFileSync(result.backup!, "utf8")).toBe("old\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = writeFileAtomic(fs, file, "newer\n", { backup: true, now: NOW });
    expect(second.backup).toBe(`${file}.ra3-backup-20261123T141502Z-2`);
    expect(readdirSync(root).filter((n) => n.startsWith("replace.json")).sort()).toEqual([
      "replace.json",
      "replace.json.ra3-backup-20261123T141502Z",
      "replace.json.ra3-backup-20261123T141502Z-2",
    ]);
  });

  test("writes through a symbolic link, which stays a link", () => {
    const target = join(root, "real.json");
    const link = join(root, "link.json");
    writeFileSync(target, "a");
    symlinkSync(target, link);
    const result = writeFileAtomic(fs, link, "b");
    expect(result.path).toBe(target);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("b");
  });

  test("a link loop is an ELOOP error and nothing is written", () => {
    const a = join(root, "loop-a.json");
    const b = join(root, "loop-b.json");
    symlinkSync(b, a);
    symlinkSync(a, b);
    let code = "";
    try {
      writeFileAtomic(fs, a, "x");
    } catch (e) {
      code = (e as NodeJS.ErrnoException).code ?? "";
    }
    expect(code).toBe("ELOOP");
    expect(readdirSync(root).filter((n) => n.includes("loop-")).sort()).toEqual(["loop-a.json", "loop-b.json"]);
  });
});

describe("failures leave the old file (in memory)", () => {
  const file = "/cfg/mcp.json";

  test("the rename fails: old content, no temporary file, no backup", () => {
    const mem = new MemoryFileSystem(posix, { [file]: "old" });
    mem.failOn("rename", () => true, fsError("EIO", "disk gone"));
    expect(() => writeFileAtomic(mem, file, "new", { backup: true, now: NOW })).toThrow("EIO: disk gone");
    expect(mem.text(file)).toBe("old");
    expect(mem.listAll()).toEqual([file]);
  });

  test("writing the temporary file fails half-way: old content, nothing left behind", () => {
    const mem = new MemoryFileSystem(posix, { [file]: "old" });
    mem.failOn("writeFile", (p) => p !== file, fsError("ENOSPC", "full"));
    expect(() => writeFileAtomic(mem, file, "new")).toThrow("ENOSPC: full");
    expect(mem.listAll()).toEqual([file]);
  });

  test("the backup fails: nothing is replaced", () => {
    const mem = new MemoryFileSystem(posix, { [file]: "old" });
    mem.failOn("copyFile", file, fsError("EACCES", "no"));
    expect(() => writeFileAtomic(mem, file, "new", { backup: true, now: NOW })).toThrow("EACCES: no");
    expect(mem.listAll()).toEqual([file]);
    expect(mem.text(file)).toBe("old");
  });

  test("the folder is synced after the rename", () => {
    const mem = new MemoryFileSystem(posix, { [file]: "old" });
    writeFileAtomic(mem, file, "new");
    expect(mem.syncs).toBe(1);
  });
});

describe("Windows: a rename refused while another program holds the file is retried", () => {
  const file = "C:\\Users\\Ann\\.ra3modxml\\install.json";

  test("EPERM then EBUSY, then success: the new content is in place", () => {
    const mem = new MemoryFileSystem(win32, { [file]: "old" });
    mem.failOn("rename", () => true, fsError("EPERM", "operation not permitted"));
    mem.failOn("rename", () => true, fsError("EBUSY", "resource busy"));
    writeFileAtomic(mem, file, "new", { retryDelayMs: 0 });
    expect(mem.text(file)).toBe("new");
    expect(mem.listAll()).toEqual([file]);
  });

  test("a file that stays locked: the error comes back after the retries and the old file is intact", () => {
    const mem = new MemoryFileSystem(win32, { [file]: "old" });
    mem.lock(file);
    expect(() => writeFileAtomic(mem, file, "new", { retryDelayMs: 0 })).toThrow("EPERM");
    mem.unlock(file);
    expect(mem.text(file)).toBe("old");
    expect(mem.listAll()).toEqual([file]);
  });

  test("other errors, and any error on POSIX, are not retried", () => {
    const win = new MemoryFileSystem(win32, { [file]: "old" });
    win.failOn("rename", () => true, fsError("ENOSPC", "full"));
    expect(() => writeFileAtomic(win, file, "new", { retryDelayMs: 0 })).toThrow("ENOSPC");
    const posixFs = new MemoryFileSystem(posix, { "/h/install.json": "old" });
    posixFs.failOn("rename", () => true, fsError("EPERM", "operation not permitted"));
    expect(() => writeFileAtomic(posixFs, "/h/install.json", "new", { retryDelayMs: 0 })).toThrow("EPERM");
    expect(posixFs.text("/h/install.json")).toBe("old");
  });
});

test("backupStamp is compact UTC", () => {
  expect(backupStamp(NOW)).toBe("20261123T141502Z");
});
