// Atomic replacement: the target always holds one complete version, and no temporary file is left behind.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEMP_SUFFIX, tempPathFor, writeFileAtomic } from "../../src/store/atomic.ts";

const root = mkdtempSync(join(tmpdir(), "ra3-atomic-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bytes = (s: string) => new TextEncoder().encode(s);

describe("writeFileAtomic", () => {
  test("creates missing parent folders and leaves only the target", () => {
    const target = join(root, "a", "b c", "snap.msgpack");
    writeFileAtomic(target, bytes("first"));
    expect(readFileSync(target, "utf8")).toBe("first");
    expect(readdirSync(join(root, "a", "b c"))).toEqual(["snap.msgpack"]);
  });

  test("replaces an existing file; a reader at the moment before the rename still sees the old, complete content", () => {
    const target = join(root, "replace.bin");
    writeFileAtomic(target, bytes("old content"));
    let seen: string | null = null;
    let tempSeen = "";
    writeFileAtomic(target, bytes("new content, longer than before"), {
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
    writeFileAtomic(target, bytes("keep me"));
    expect(() =>
      writeFileAtomic(target, bytes("never visible"), {
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
    let code = "";
    try {
      writeFileAtomic(join(dir, "target"), bytes("data"));
    } catch (e) {
      code = (e as NodeJS.ErrnoException).code ?? "";
    }
    expect(["EISDIR", "ENOTEMPTY", "EEXIST", "EPERM"]).toContain(code);
    expect(readdirSync(dir)).toEqual(["target"]);
  });

  test("a parent that is a file cannot be created: the error says so", () => {
    const blocker = join(root, "blocker");
    writeFileSync(blocker, "i am a file");
    let code = "";
    try {
      writeFileAtomic(join(blocker, "sub", "x.bin"), bytes("data"));
    } catch (e) {
      code = (e as NodeJS.ErrnoException).code ?? "";
    }
    expect(["ENOTDIR", "EEXIST"]).toContain(code);
    expect(readFileSync(blocker, "utf8")).toBe("i am a file");
  });

  test("temporary names are hidden, unique, in the target's folder, and carry the pid", () => {
    const target = join(root, "dir", "snap.msgpack");
    const a = tempPathFor(target);
    const b = tempPathFor(target);
    expect(a).not.toBe(b);
    expect(a.startsWith(join(root, "dir", `.snap.msgpack.${process.pid}-`))).toBe(true);
    expect(a.endsWith(TEMP_SUFFIX)).toBe(true);
  });

  test("zero bytes and a large buffer are written whole", () => {
    const empty = join(root, "empty.bin");
    writeFileAtomic(empty, new Uint8Array(0));
    expect(readFileSync(empty).length).toBe(0);
    const big = Uint8Array.from({ length: 5_000_000 }, (_, i) => (i * 31) & 0xff);
    const bigPath = join(root, "big.bin");
    writeFileAtomic(bigPath, big);
    expect(Buffer.compare(readFileSync(bigPath), Buffer.from(big))).toBe(0);
  });
});
