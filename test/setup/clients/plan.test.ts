import { describe, expect, test } from "bun:test";
import {
  applyConfigChange,
  planConfigChange,
  planConfigRemoval,
  printEntry,
  ra3ServerEntry,
  removeConfigEntry,
  writerFor,
} from "../../../src/setup/clients/index.ts";
import { fsError } from "../../../src/disk/port.ts";
import { MemoryFileSystem } from "../../disk/memory-fs.ts";
import { emptyReceipt, withConfigRecord } from "../../../src/setup/receipt.ts";
import { ENTRIES, NOW, PLATFORMS } from "./golden-harness.ts";

const linux = PLATFORMS.linux;
const entry = ENTRIES.linux;
const cursorFile = "/home/ann/.cursor/mcp.json";
const cursor = writerFor("cursor")!;
const R0 = emptyReceipt("0.1.0");
const existing = '{\n  "mcpServers": {\n    "a": {\n      "command": "a"\n    }\n  }\n}\n';

describe("plan (the dry run)", () => {
  test("shows a unified diff and writes nothing", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    const plan = await planConfigChange(cursor, linux, "user", entry, fs, R0);
    expect(plan.change).toBe("update");
    expect(plan.diff).toBe(
      [
        `--- ${cursorFile}`,
        `+++ ${cursorFile}`,
        "@@ -2,6 +2,10 @@",
        '   "mcpServers": {',
        '     "a": {',
        '       "command": "a"',
        "+    },",
        '+    "ra3": {',
        '+      "command": "/home/ann/.ra3modxml/bin/ra3",',
        '+      "args": ["mcp", "--project", "/home/ann/mods/corona", "--sdk", "/home/ann/ra3-sdk"]',
        "     }",
        "   }",
        " }",
        "",
      ].join("\n"),
    );
    expect(fs.text(cursorFile)).toBe(existing);
    expect(fs.listAll()).toEqual([cursorFile]);
  });

  test("a scope the client lacks is an error", async () => {
    const plan = await planConfigChange(
      writerFor("windsurf")!,
      linux,
      "project",
      entry,
      new MemoryFileSystem(linux.pathFlavour),
      R0,
      { projectDir: "/p" },
    );
    expect(plan.change).toBe("error");
    expect(plan.error).toBe("Windsurf has no project-level configuration file.");
  });

  test("an unreadable file is an error naming it", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    fs.failOn("readFile", cursorFile, fsError("EACCES", "denied"));
    const plan = await planConfigChange(cursor, linux, "user", entry, fs, R0);
    expect(plan.error).toBe(`could not read ${cursorFile}: permission denied (EACCES).`);
  });
});

describe("apply", () => {
  test("refuses when the file changed after the plan", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    const plan = await planConfigChange(cursor, linux, "user", entry, fs, R0);
    await fs.writeFile(cursorFile, new TextEncoder().encode(existing + " "));
    const result = await applyConfigChange(plan, fs, emptyReceipt("0.1.0"), { now: NOW });
    expect(result).toEqual({
      ok: false,
      receipt: emptyReceipt("0.1.0"),
      error:
        `${cursorFile} changed after ra3 read it (another program may be writing it); nothing was written. Run the command again.`,
    });
    expect(fs.text(cursorFile)).toBe(existing + " ");
  });

  test("a failed write leaves the old file, no temporary file and no backup", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    const plan = await planConfigChange(cursor, linux, "user", entry, fs, R0);
    fs.failOn("rename", (p) => p.endsWith(".ra3tmp"), fsError("ENOSPC", "full"));
    const result = await applyConfigChange(plan, fs, emptyReceipt("0.1.0"), { now: NOW });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe(
        `could not write ${cursorFile}: the disk is full (ENOSPC). The previous file is unchanged.`,
      );
    }
    expect(fs.text(cursorFile)).toBe(existing);
    expect(fs.listAll()).toEqual([cursorFile]);
  });

  test("records the change, the backup and the log in the receipt", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    const result = await applyConfigChange(
      await planConfigChange(cursor, linux, "user", entry, fs, R0),
      fs,
      emptyReceipt("0.1.0"),
      { now: NOW },
    );
    const backup = `${cursorFile}.ra3-backup-20261123T141502Z`;
    expect(result).toEqual({
      ok: true,
      written: true,
      backup,
      receipt: {
        ...emptyReceipt("0.1.0"),
        configs: [{
          client: "cursor",
          scope: "user",
          file: cursorFile,
          entryName: "ra3",
          createdFile: false,
          backup,
          createdContainer: false,
        }],
        log: [{ at: "2026-11-23T14:15:02.000Z", action: "config.update", detail: `cursor ${cursorFile}` }],
      },
    });
    expect(fs.text(backup)).toBe(existing);
  });

  test("an entry that is already right is recorded without writing", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour);
    const first = await applyConfigChange(await planConfigChange(cursor, linux, "user", entry, fs, R0), fs, R0, {
      now: NOW,
    });
    const again = await planConfigChange(cursor, linux, "user", entry, fs, first.receipt);
    expect(again.change).toBe("unchanged");
    const result = await applyConfigChange(again, fs, emptyReceipt("0.1.0"), { now: NOW });
    expect(result).toEqual({
      ok: true,
      written: false,
      backup: null,
      receipt: {
        ...emptyReceipt("0.1.0"),
        configs: [{ client: "cursor", scope: "user", file: cursorFile, entryName: "ra3", createdFile: false }],
      },
    });
  });

  test("an update of a file ra3 created keeps createdFile and the first backup", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour);
    const created = await applyConfigChange(
      await planConfigChange(cursor, linux, "user", entry, fs, R0),
      fs,
      emptyReceipt("0.1.0"),
      { now: NOW },
    );
    const moved = ra3ServerEntry({ binaryPath: entry.command, projectDir: "/home/ann/mods/other" });
    const updated = await applyConfigChange(
      await planConfigChange(cursor, linux, "user", moved, fs, created.receipt),
      fs,
      created.ok ? created.receipt : emptyReceipt("0.1.0"),
      { now: new Date("2026-11-24T00:00:00Z") },
    );
    expect(updated.ok && updated.receipt.configs).toEqual([
      {
        client: "cursor",
        scope: "user",
        file: cursorFile,
        entryName: "ra3",
        createdFile: true,
        backup: `${cursorFile}.ra3-backup-20261124T000000Z`,
        createdContainer: true,
      },
    ]);
    const r = withConfigRecord(updated.ok ? updated.receipt : emptyReceipt(""), {
      client: "cursor",
      scope: "user",
      file: cursorFile.toUpperCase(),
      entryName: "ra3",
      createdFile: false,
      backup: "/later",
    });
    expect(r.configs).toHaveLength(1);
    expect(r.configs[0].createdFile).toBe(true);
    expect(r.configs[0].backup).toBe(`${cursorFile}.ra3-backup-20261124T000000Z`);
  });

  test("writes through a symbolic link to its target", async () => {
    const target = "/home/ann/dotfiles/cursor-mcp.json";
    const fs = new MemoryFileSystem(linux.pathFlavour, { [target]: existing });
    fs.symlink(cursorFile, target);
    const result = await applyConfigChange(
      await planConfigChange(cursor, linux, "user", entry, fs, R0),
      fs,
      emptyReceipt("0.1.0"),
      { now: NOW },
    );
    expect(result.ok).toBe(true);
    expect(cursor.verify(fs.text(target)!, entry)).toBe(true);
    expect(fs.listAll()).toEqual([target, `${target}.ra3-backup-20261123T141502Z`]);
  });

  test("keeps the permissions of the file it replaces", async () => {
    const file = "/home/ann/.claude.json";
    const fs = new MemoryFileSystem(linux.pathFlavour, { [file]: "{}\n" });
    await fs.chmod(file, 0o600);
    await applyConfigChange(
      await planConfigChange(writerFor("claude-code")!, linux, "user", entry, fs, R0),
      fs,
      emptyReceipt("0.1.0"),
      { now: NOW },
    );
    expect(fs.modeOf(file)).toBe(0o600);
  });
});

describe("removal plans", () => {
  test("a missing file or a missing entry is 'absent' and drops the record", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    expect((await planConfigRemoval(cursor, { file: "/nope.json", scope: "user", entryName: "ra3" }, fs)).change).toBe(
      "absent",
    );
    const plan = await planConfigRemoval(cursor, { file: cursorFile, scope: "user", entryName: "ra3" }, fs);
    expect(plan.change).toBe("absent");
    const receipt = withConfigRecord(emptyReceipt("0.1.0"), {
      client: "cursor",
      scope: "user",
      file: cursorFile,
      entryName: "ra3",
      createdFile: false,
    });
    const result = await applyConfigChange(plan, fs, receipt, { now: NOW });
    expect(result.ok && result.receipt.configs).toEqual([]);
  });

  test("an invalid file is reported, not touched", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: "{" });
    const plan = await planConfigRemoval(cursor, { file: cursorFile, scope: "user", entryName: "ra3" }, fs);
    expect(plan.error).toBe(
      `${cursorFile}:1:2: not valid JSON (closing brace '}' expected). ra3 left the file unchanged; fix it (or move it aside) and run setup again.`,
    );
  });
});

describe("the server entry", () => {
  test("passes the project (and SDK) as arguments", () => {
    expect(ra3ServerEntry({ binaryPath: "C:\\ra3\\ra3.exe", projectDir: "D:\\Mods\\X", sdkDir: "C:\\SDK" })).toEqual({
      name: "ra3",
      command: "C:\\ra3\\ra3.exe",
      args: ["mcp", "--project", "D:\\Mods\\X", "--sdk", "C:\\SDK"],
    });
  });
  test("refuses relative paths and npx/cmd wrappers (caller bugs)", () => {
    expect(() => ra3ServerEntry({ binaryPath: "ra3", projectDir: "/p" })).toThrow(
      'server entry paths must be absolute, got "ra3"',
    );
    expect(() => ra3ServerEntry({ binaryPath: "C:\\Windows\\cmd.exe", projectDir: "C:\\p" })).toThrow(
      "the server command must be the ra3 binary itself, got C:\\Windows\\cmd.exe",
    );
  });
  test("printEntry renders the plain mcpServers snippet", () => {
    expect(printEntry(ra3ServerEntry({ binaryPath: "/b/ra3", projectDir: "/p" }))).toBe(
      '{\n  "mcpServers": {\n    "ra3": {\n      "command": "/b/ra3",\n      "args": [\n        "mcp",\n        "--project",\n        "/p"\n      ]\n    }\n  }\n}\n',
    );
  });
});

describe("removeConfigEntry (uninstall from the receipt)", () => {
  test("removes the entry a record names and drops the record", async () => {
    const fs = new MemoryFileSystem(linux.pathFlavour, { [cursorFile]: existing });
    const added = await applyConfigChange(
      await planConfigChange(cursor, linux, "user", entry, fs, R0),
      fs,
      emptyReceipt("0.1.0"),
      { now: NOW },
    );
    const receipt = added.ok ? added.receipt : emptyReceipt("0.1.0");
    const dry = await removeConfigEntry(receipt.configs[0], fs, receipt, { dryRun: true });
    expect(dry.plan?.change).toBe("remove");
    expect(cursor.verify(fs.text(cursorFile)!, entry)).toBe(true);
    const done = await removeConfigEntry(receipt.configs[0], fs, receipt, { now: NOW });
    expect(done.result.ok && done.result.receipt.configs).toEqual([]);
    expect(fs.text(cursorFile)).toBe(existing);
  });

  test("an unknown client in the record is an error sentence", async () => {
    const r = await removeConfigEntry(
      { client: "notepad", scope: "user", file: "/x.json", entryName: "ra3", createdFile: false },
      new MemoryFileSystem(linux.pathFlavour),
      emptyReceipt("0.1.0"),
    );
    expect(r.result).toEqual({
      ok: false,
      receipt: emptyReceipt("0.1.0"),
      error:
        'the install receipt names an unknown client "notepad" for /x.json; remove the "ra3" entry from that file by hand.',
    });
  });
});
