// The writers' lock: exclusive, recovers from dead and stale owners, never removes someone else's lock.
import { afterAll, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import {
  acquireLock,
  createLockFile,
  isLockBusy,
  liveLockHolder,
  type Lock,
  type LockBusy,
  pidIsAlive,
  waitForLiveWriter,
} from "../../src/store/lock.ts";
import { deadPid } from "./dead-pid.ts";
import { fsError } from "../../src/disk/port.ts";
import { MemoryFileSystem } from "../disk/memory-fs.ts";

const root = mkdtempSync(join(tmpdir(), "ra3-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `l${++n}`, "snap.msgpack.lock");
const NOW = Date.parse("2026-03-01T12:00:00.000Z");

function held(r: Lock | LockBusy): Lock {
  if (isLockBusy(r)) throw new Error(`expected the lock, got busy ${JSON.stringify(r.busy)}`);
  return r;
}

function writeLock(path: string, owner: object): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(owner));
}

describe("acquireLock", () => {
  test("creates the lock file (and its folder) with pid, host and time; release removes it", () => {
    const path = fresh();
    const lock = held(acquireLock(path, { now: () => NOW }));
    const content = JSON.parse(readFileSync(path, "utf8"));
    expect({ ...content, token: typeof content.token }).toEqual({
      pid: process.pid,
      hostname: hostname(),
      createdAt: "2026-03-01T12:00:00.000Z",
      token: "string",
    });
    expect(lock.recovered).toBe(false);
    expect(lock.release()).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(lock.release()).toBe(false);
  });

  test("a second acquirer is told who holds it and since when", () => {
    const path = fresh();
    const first = held(acquireLock(path, { now: () => NOW }));
    const second = acquireLock(path, { now: () => NOW + 1000 });
    expect(second).toEqual({ busy: { pid: process.pid, hostname: hostname(), since: "2026-03-01T12:00:00.000Z" } });
    first.release();
    held(acquireLock(path)).release();
  });

  test("a lock whose process died on this host is taken over", () => {
    const path = fresh();
    const pid = deadPid();
    expect(pidIsAlive(pid)).toBe(false);
    writeLock(path, { pid, hostname: hostname(), createdAt: new Date(NOW).toISOString(), token: "dead" });
    const lock = held(acquireLock(path, { now: () => NOW + 10 }));
    expect(lock.recovered).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  test("a live owner on this host keeps its lock until it is older than staleMs", () => {
    const path = fresh();
    writeLock(path, { pid: process.pid, hostname: hostname(), createdAt: new Date(NOW).toISOString(), token: "alive" });
    expect(acquireLock(path, { staleMs: 5000, now: () => NOW + 5000 })).toEqual({
      busy: { pid: process.pid, hostname: hostname(), since: "2026-03-01T12:00:00.000Z" },
    });
    const lock = held(acquireLock(path, { staleMs: 5000, now: () => NOW + 5001 }));
    expect(lock.recovered).toBe(true);
    lock.release();
  });

  test("another host's pid cannot be checked: only age makes its lock stale", () => {
    const path = fresh();
    const isAlive = () => false; // would say dead, but must not be asked about another host
    writeLock(path, { pid: 4242, hostname: "other-machine", createdAt: new Date(NOW).toISOString(), token: "remote" });
    expect(acquireLock(path, { staleMs: 60_000, now: () => NOW + 1000, isAlive })).toEqual({
      busy: { pid: 4242, hostname: "other-machine", since: "2026-03-01T12:00:00.000Z" },
    });
    held(acquireLock(path, { staleMs: 60_000, now: () => NOW + 60_001, isAlive })).release();
  });

  // The hostile states a crash leaves: each is stale at once, whatever its age.
  for (
    const [what, content] of [
      ["an empty lock", ""],
      ["a truncated lock", '{"pid":12'],
      ["a lock of another shape", '{"owner":"someone"}'],
      ["a lock whose time is not a date", JSON.stringify({ pid: 1, hostname: "h", createdAt: "soon", token: "t" })],
      ["a lock holding a JSON array", "[1,2,3]"],
    ] as const
  ) {
    test(`${what} (left by a crash) is taken over at once`, () => {
      const path = fresh();
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, content);
      const mtime = new Date(NOW);
      utimesSync(path, mtime, mtime); // just written: age must not matter
      const lock = held(acquireLock(path, { staleMs: 60_000, now: () => NOW }));
      expect(lock.recovered).toBe(true);
      expect(JSON.parse(readFileSync(path, "utf8")).token).toBe(lock.owner.token);
      expect(lock.release()).toBe(true);
    });
  }

  test("another host's lock dated far in the future is stale at once", () => {
    const path = fresh();
    const inAYear = new Date(NOW + 365 * 24 * 3600_000).toISOString();
    writeLock(path, { pid: 4242, hostname: "skewed-machine", createdAt: inAYear, token: "future" });
    const lock = held(acquireLock(path, { staleMs: 60_000, now: () => NOW }));
    expect(lock.recovered).toBe(true);
    lock.release();
  });

  test("a lock dated slightly in the future (clock skew) expires staleMs after its date: at most 2 × staleMs", () => {
    const path = fresh();
    const soon = new Date(NOW + 30_000).toISOString();
    writeLock(path, { pid: 4242, hostname: "skewed-machine", createdAt: soon, token: "skew" });
    const busy = { busy: { pid: 4242, hostname: "skewed-machine", since: soon } };
    expect(acquireLock(path, { staleMs: 60_000, now: () => NOW })).toEqual(busy);
    expect(acquireLock(path, { staleMs: 60_000, now: () => NOW + 90_000 })).toEqual(busy);
    held(acquireLock(path, { staleMs: 60_000, now: () => NOW + 90_001 })).release();
  });

  test("the lock appears with its content in one step and leaves no temporary file, taken or busy", () => {
    const path = fresh();
    mkdirSync(join(path, ".."), { recursive: true });
    expect(createLockFile(path, "first")).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("first");
    expect(createLockFile(path, "second")).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("first");
    expect(readdirSync(join(path, ".."))).toEqual(["snap.msgpack.lock"]);
  });

  test("release never deletes a lock that another process took over", () => {
    const path = fresh();
    const mine = held(acquireLock(path));
    // Judged stale by someone else, who replaced it with theirs.
    const theirs = JSON.stringify({
      pid: 999_999,
      hostname: "elsewhere",
      createdAt: new Date().toISOString(),
      token: "theirs",
    });
    writeFileSync(path, theirs);
    expect(mine.release()).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(theirs);
  });

  test("a holder that refreshes its lock keeps it past the stale period; one that does not loses it", () => {
    let t = NOW;
    const clock = () => t;
    const path = fresh();
    const mine = held(acquireLock(path, { staleMs: 5000, now: clock }));
    const token = mine.owner.token;
    t = NOW + 4000;
    expect(mine.refresh()).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ ...mine.owner, createdAt: "2026-03-01T12:00:04.000Z" });
    expect(mine.owner).toMatchObject({ token, createdAt: "2026-03-01T12:00:04.000Z" });
    // 8 s after it was taken, 4 s after its refresh: still the holder's (any pid, so age alone decides).
    t = NOW + 8000;
    const other = { staleMs: 5000, now: clock, pid: 999_999, isAlive: () => true };
    expect(acquireLock(path, other)).toEqual({
      busy: { pid: process.pid, hostname: hostname(), since: "2026-03-01T12:00:04.000Z" },
    });
    // No refresh for longer than the stale period: taken over, and then refresh and release are no-ops.
    t = NOW + 9001;
    const theirs = held(acquireLock(path, other));
    expect(mine.refresh()).toBe(false);
    expect(mine.release()).toBe(false);
    expect(JSON.parse(readFileSync(path, "utf8")).token).toBe(theirs.owner.token);
    expect(readdirSync(join(path, "..")).sort()).toEqual(["snap.msgpack.lock"]);
    theirs.release();
  });

  test("a refresh whose rename fails: false, the lock file as it was (still the holder's), no temporary file left", () => {
    let t = NOW;
    const dir = "/home/ann/.ra3modxml/snapshots";
    const path = `${dir}/snap.msgpack.lock`;
    const fs = new MemoryFileSystem(posix);
    const mine = held(acquireLock(path, { staleMs: 5000, now: () => t, fs }));
    const before = new TextDecoder().decode(fs.readFile(path)!);
    expect(JSON.parse(before)).toEqual({ ...mine.owner, createdAt: "2026-03-01T12:00:00.000Z" });
    t = NOW + 4000;
    fs.failOn("rename", () => true, fsError("EIO", "rename failed"));
    expect(mine.refresh()).toBe(false);
    expect(new TextDecoder().decode(fs.readFile(path)!)).toBe(before);
    expect(fs.listDir(dir)).toEqual(["snap.msgpack.lock"]);
    expect(mine.owner.createdAt).toBe("2026-03-01T12:00:00.000Z");
    // The lock still works: the next refresh dates it, the release removes it.
    expect(mine.refresh()).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(fs.readFile(path)!))).toEqual({
      ...mine.owner,
      createdAt: "2026-03-01T12:00:04.000Z",
    });
    expect([mine.release(), fs.listDir(dir)]).toEqual([true, []]);
  });

  test("on Windows a refresh whose rename meets a reader holding the lock open retries, and dates it", () => {
    let t = NOW;
    const path = "C:\\Users\\Ann\\.ra3modxml\\snapshots\\snap.msgpack.lock";
    const fs = new MemoryFileSystem(win32);
    const mine = held(acquireLock(path, { staleMs: 5000, now: () => t, fs }));
    t = NOW + 4000;
    fs.failOn("rename", () => true, fsError("EBUSY", "file is in use"));
    expect(mine.refresh()).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(fs.readFile(path)!)).createdAt).toBe("2026-03-01T12:00:04.000Z");
    expect(fs.listDir("C:\\Users\\Ann\\.ra3modxml\\snapshots")).toEqual(["snap.msgpack.lock"]);
  });

  test("a busy acquirer leaves the holder's file untouched", () => {
    const path = fresh();
    writeLock(path, { pid: process.pid, hostname: hostname(), createdAt: new Date(NOW).toISOString(), token: "keep" });
    const before = readFileSync(path, "utf8");
    expect(isLockBusy(acquireLock(path, { now: () => NOW }))).toBe(true);
    expect(readFileSync(path, "utf8")).toBe(before);
  });
});

describe("pidIsAlive", () => {
  test("this process is alive, an exited one and nonsense pids are not", () => {
    expect(pidIsAlive(process.pid)).toBe(true);
    expect(pidIsAlive(deadPid())).toBe(false);
    expect([pidIsAlive(0), pidIsAlive(-5), pidIsAlive(1.5)]).toEqual([false, false, false]);
  });
});

describe("waitForLiveWriter", () => {
  test("waits while the file is missing and a live writer holds the lock, then returns true", async () => {
    const lockPath = fresh();
    const target = lockPath.replace(/\.lock$/, "");
    const lock = held(acquireLock(lockPath));
    setTimeout(() => {
      writeFileSync(target, "snapshot");
      lock.release();
    }, 60);
    expect(await waitForLiveWriter(target, lockPath)).toBe(true);
    expect(existsSync(lockPath)).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("snapshot");
  });

  test("returns false at once with no lock, a dead writer's lock, or the file already there", async () => {
    const lockPath = fresh();
    const target = lockPath.replace(/\.lock$/, "");
    mkdirSync(join(lockPath, ".."), { recursive: true });
    expect(await waitForLiveWriter(target, lockPath)).toBe(false);
    held(acquireLock(lockPath, { pid: deadPid() }));
    expect(await waitForLiveWriter(target, lockPath)).toBe(false);
    rmSync(lockPath);
    const live = held(acquireLock(lockPath));
    writeFileSync(target, "snapshot");
    expect(await waitForLiveWriter(target, lockPath)).toBe(false);
    live.release();
  });

  test("gives up after maxMs while the writer still holds the lock (true: it waited)", async () => {
    const lockPath = fresh();
    const lock = held(acquireLock(lockPath));
    expect(await waitForLiveWriter(lockPath.replace(/\.lock$/, ""), lockPath, { maxMs: 30 })).toBe(true);
    expect(existsSync(lockPath)).toBe(true);
    lock.release();
  });

  test("liveLockHolder: the owner of a live lock, null for a stale or unparsable one", () => {
    const lockPath = fresh();
    const lock = held(acquireLock(lockPath));
    expect(liveLockHolder(lockPath)?.token).toBe(lock.owner.token);
    expect(liveLockHolder(lockPath, { now: () => Date.now() + 120_000 })).toBeNull();
    lock.release();
    expect(liveLockHolder(lockPath)).toBeNull();
    writeFileSync(lockPath, "{not json");
    expect(liveLockHolder(lockPath)).toBeNull();
  });
});
