import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import { fsError, nodeFileSystem } from "../../src/disk/port.ts";
import { MemoryFileSystem } from "../disk/memory-fs.ts";
import { cleanupOldBinaries, installedBinaryPath, selfInstall } from "../../src/setup/self-install.ts";

describe("Unix", () => {
  const home = "/home/ann/.ra3modxml";
  const target = "/home/ann/.ra3modxml/bin/ra3";
  const download = "/home/ann/Downloads/ra3";

  test("installs a copy with mode 755, then reports unchanged, then updates", async () => {
    const fs = new MemoryFileSystem(posix, { [download]: "binary v1" });
    const first = await selfInstall({ execPath: download, home, os: "linux", fs });
    const sha1 = await fs.sha256(download);
    expect(first).toEqual({ ok: true, status: "installed", path: target, sha256: sha1!, movedAside: null });
    expect(fs.text(target)).toBe("binary v1");
    expect(fs.modeOf(target)).toBe(0o755);
    expect(await selfInstall({ execPath: download, home, os: "linux", fs })).toEqual({
      ok: true,
      status: "unchanged",
      path: target,
      sha256: sha1!,
      movedAside: null,
    });
    await fs.writeFile(download, new TextEncoder().encode("binary v2"));
    const third = await selfInstall({ execPath: download, home, os: "linux", fs });
    expect(third.ok && third.status).toBe("updated");
    expect(fs.text(target)).toBe("binary v2");
    expect(fs.listAll()).toEqual([target, download]);
  });

  test("running the installed binary itself: unchanged, nothing copied", async () => {
    const fs = new MemoryFileSystem(posix, { [target]: "v1" });
    fs.failOn("copyFile", () => true);
    const r = await selfInstall({ execPath: target, home, os: "macos", fs });
    expect(r.ok && r.status).toBe("unchanged");
  });

  test("a failed copy changes nothing and says so", async () => {
    const fs = new MemoryFileSystem(posix, { [download]: "v2", [target]: "v1" });
    fs.failOn("copyFile", download, fsError("ENOSPC", "full"));
    expect(await selfInstall({ execPath: download, home, os: "linux", fs })).toEqual({
      ok: false,
      error: "could not copy ra3 to /home/ann/.ra3modxml/bin: the disk is full (ENOSPC). Nothing was changed.",
    });
    expect(fs.listAll()).toEqual([target, download]);
    expect(fs.text(target)).toBe("v1");
  });

  test("a missing source binary is an error", async () => {
    expect(await selfInstall({ execPath: "/nope/ra3", home, os: "linux", fs: new MemoryFileSystem(posix) })).toEqual({
      ok: false,
      error: "cannot install ra3: the running binary /nope/ra3 is not a readable file.",
    });
  });

  test("on the real file system the copy is executable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ra3-self-"));
    try {
      const src = join(dir, "download", "ra3");
      const fs = nodeFileSystem();
      await fs.mkdir(join(dir, "download"));
      writeFileSync(src, "#!/bin/sh\necho ra3\n", { mode: 0o644 });
      const r = await selfInstall({ execPath: src, home: join(dir, "home"), os: "linux", fs });
      expect(r.ok && r.status).toBe("installed");
      expect(statSync(join(dir, "home", "bin", "ra3")).mode & 0o777).toBe(0o755);
      expect(readFileSync(join(dir, "home", "bin", "ra3"), "utf8")).toBe("#!/bin/sh\necho ra3\n");
      expect(readdirSync(join(dir, "home", "bin"))).toEqual(["ra3"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Windows: replacing a running ra3.exe", () => {
  const home = "C:\\Users\\Ann\\.ra3modxml";
  const target = "C:\\Users\\Ann\\.ra3modxml\\bin\\ra3.exe";
  const download = "C:\\Users\\Ann\\Downloads\\ra3.exe";

  test("the stable path ends in ra3.exe", () => {
    expect(installedBinaryPath(new MemoryFileSystem(win32), home, "windows")).toBe(target);
  });

  test("the running exe is renamed aside, the new one moved in, and the old one cleaned up once it exits", async () => {
    const fs = new MemoryFileSystem(win32, { [download]: "v2", [target]: "v1" });
    fs.lock(target);
    expect(() => fs.writeFile(target, new Uint8Array([1]))).toThrow("EBUSY");
    const r = await selfInstall({ execPath: download, home, os: "windows", fs });
    expect(r).toEqual({
      ok: true,
      status: "updated",
      path: target,
      sha256: (await fs.sha256(download))!,
      movedAside: `${target}.old-1`,
    });
    expect(fs.text(target)).toBe("v2");
    expect(fs.text(`${target}.old-1`)).toBe("v1");
    expect(await cleanupOldBinaries(fs, home)).toEqual({ removed: [], kept: [`${target}.old-1`] });
    fs.unlock(`${target}.old-1`);
    expect(await cleanupOldBinaries(fs, home)).toEqual({ removed: [`${target}.old-1`], kept: [] });
    expect(fs.listAll()).toEqual([target, download]);
  });

  test("a second update while the first old exe still runs takes the next free name", async () => {
    const fs = new MemoryFileSystem(win32, { [download]: "v3", [target]: "v2", [`${target}.old-1`]: "v1" });
    fs.lock(target);
    fs.lock(`${target}.old-1`);
    const r = await selfInstall({ execPath: download, home, os: "windows", fs });
    expect(r.ok && r.movedAside).toBe(`${target}.old-2`);
    expect(fs.listAll()).toEqual([target, `${target}.old-1`, `${target}.old-2`, download]);
  });

  test("an old exe that is not running is deleted right away", async () => {
    const fs = new MemoryFileSystem(win32, { [download]: "v2", [target]: "v1" });
    const r = await selfInstall({ execPath: download, home, os: "windows", fs });
    expect(r.ok && r.status).toBe("updated");
    expect(fs.listAll()).toEqual([target, download]);
  });

  test("if moving the new exe in fails, the old one is put back", async () => {
    const fs = new MemoryFileSystem(win32, { [download]: "v2", [target]: "v1" });
    fs.lock(target);
    fs.failOn("rename", (p) => p.includes("ra3.exe.new-"), fsError("EACCES", "denied"));
    expect(await selfInstall({ execPath: download, home, os: "windows", fs })).toEqual({
      ok: false,
      error: `could not install ${target}: permission denied (EACCES). The previous binary is unchanged.`,
    });
    expect(fs.text(target)).toBe("v1");
    expect(fs.listAll()).toEqual([target, download]);
  });

  test("same content (sizes equal, hashes equal): skipped", async () => {
    const fs = new MemoryFileSystem(win32, { [download]: "v1", [target]: "v1" });
    fs.lock(target);
    const r = await selfInstall({ execPath: download, home, os: "windows", fs });
    expect(r.ok && r.status).toBe("unchanged");
    expect(fs.listAll()).toEqual([target, download]);
  });

  test("cleanup ignores other files and a missing folder", async () => {
    const fs = new MemoryFileSystem(win32, { [`${home}\\bin\\notes.txt`]: "", [`${home}\\bin\\ra3.exe.old-7`]: "" });
    expect(await cleanupOldBinaries(fs, home)).toEqual({ removed: [`${home}\\bin\\ra3.exe.old-7`], kept: [] });
    expect(await cleanupOldBinaries(new MemoryFileSystem(win32), home)).toEqual({ removed: [], kept: [] });
  });
});
