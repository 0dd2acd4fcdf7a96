/**
 * The golden scenarios every client dialect must pass, on Windows, macOS and Linux path layouts:
 * no file, empty file, a file with other servers and comments, an invalid file, a repeated run, removal.
 * Expected outputs live in `test/setup/golden/<client>/`, stored with LF; on Windows the fixture and the
 * expectation are both turned into CRLF, because that is what files there use and what must survive.
 * To regenerate after an intended change: `RA3_UPDATE_GOLDEN=1 bun test test/setup/clients`, then review
 * the diff of the golden folder.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyConfigChange,
  type ClientId,
  planConfigChange,
  planConfigRemoval,
  ra3ServerEntry,
  type Scope,
  type ServerEntry,
  writerFor,
} from "../../../src/setup/clients/index.ts";
import { MemoryFileSystem } from "../../disk/memory-fs.ts";
import { type OsName, type Platform, platformFor } from "../../../src/setup/platform.ts";
import { emptyReceipt, type InstallReceipt } from "../../../src/setup/receipt.ts";

export const OSES: readonly OsName[] = ["windows", "macos", "linux"];

/** The same user on each OS. */
export const PLATFORMS: Record<OsName, Platform> = {
  windows: platformFor("windows", "C:\\Users\\Ann Lee", {
    APPDATA: "C:\\Users\\Ann Lee\\AppData\\Roaming",
    LOCALAPPDATA: "C:\\Users\\Ann Lee\\AppData\\Local",
  }),
  macos: platformFor("macos", "/Users/ann"),
  linux: platformFor("linux", "/home/ann"),
};

export const PROJECTS: Record<OsName, string> = {
  windows: "D:\\Mods\\Corona Mod",
  macos: "/Users/ann/Mods/Corona Mod",
  linux: "/home/ann/mods/corona",
};

export const ENTRIES: Record<OsName, ServerEntry> = {
  windows: ra3ServerEntry({ binaryPath: "C:\\Users\\Ann Lee\\.ra3modxml\\bin\\ra3.exe", projectDir: PROJECTS.windows }),
  macos: ra3ServerEntry({ binaryPath: "/Users/ann/.ra3modxml/bin/ra3", projectDir: PROJECTS.macos }),
  linux: ra3ServerEntry({
    binaryPath: "/home/ann/.ra3modxml/bin/ra3",
    projectDir: PROJECTS.linux,
    sdkDir: "/home/ann/ra3-sdk",
  }),
};

export const NOW = new Date("2026-11-23T14:15:02Z");

const UPDATE = process.env.RA3_UPDATE_GOLDEN === "1";
const GOLDEN_ROOT = join(import.meta.dirname, "..", "golden");

/** The golden file's content (LF), writing `actual` instead when regenerating. */
export function golden(client: string, name: string, actual: string): string {
  const file = join(GOLDEN_ROOT, client, name);
  const lf = actual.replace(/\r\n/g, "\n");
  if (UPDATE) {
    mkdirSync(join(GOLDEN_ROOT, client), { recursive: true });
    writeFileSync(file, lf);
    return lf;
  }
  if (!existsSync(file)) throw new Error(`missing golden file ${file}; run with RA3_UPDATE_GOLDEN=1 and review it`);
  return readFileSync(file, "utf8");
}

export function crlf(s: string): string {
  return s.replace(/\r?\n/g, "\r\n");
}

export interface DialectCase {
  readonly client: ClientId;
  readonly scope: Scope;
  readonly ext: "json" | "toml";
  /** The file the client reads for `scope`, per OS. */
  readonly files: Record<OsName, string>;
  /** A realistic existing file with other servers and comments (LF; converted to CRLF on Windows). */
  readonly existing: string;
  /** Warnings expected when reading `existing` (strict-JSON clients warn about comments). */
  readonly existingWarnings?: readonly string[];
  /** An invalid file and the exact error, per OS. */
  readonly invalid: string;
  readonly invalidErrors: Record<OsName, string>;
}

/** Registers the golden scenarios for one dialect and scope. */
export function defineGoldenSuite(c: DialectCase): void {
  const writer = writerFor(c.client)!;
  for (const os of OSES) {
    const platform = PLATFORMS[os];
    const entry = ENTRIES[os];
    const file = c.files[os];
    const eolFix = (s: string): string => (os === "windows" ? crlf(s) : s);
    const plan = (fs: MemoryFileSystem, receipt: InstallReceipt = emptyReceipt("0.1.0")) =>
      planConfigChange(writer, platform, c.scope, entry, fs, receipt, { projectDir: PROJECTS[os] });
    const emptyFs = () =>
      new MemoryFileSystem(platform.pathFlavour, { [platform.pathFlavour.join(platform.home, ".keep")]: "" });

    describe(`${c.client} ${c.scope} on ${os}`, () => {
      test("from no file: creates the file with our entry", async () => {
        const fs = emptyFs();
        const p = await plan(fs);
        expect(p.error).toBeNull();
        expect(p.change).toBe("create");
        expect(p.file).toBe(file);
        expect(p.after).toBe(golden(c.client, `${c.scope}-new-${os}.${c.ext}`, p.after!));
        expect(p.diff.startsWith(`--- /dev/null\n+++ ${file}\n@@ -0,0 +1,`)).toBe(true);
        const applied = await applyConfigChange(p, fs, emptyReceipt("0.1.0"), { now: NOW });
        expect(applied.ok).toBe(true);
        expect(fs.text(file)).toBe(p.after);
        if (applied.ok) {
          expect(applied.receipt.configs).toEqual([{
            client: c.client,
            scope: c.scope,
            file,
            entryName: "ra3",
            createdFile: true,
            createdContainer: true,
          }]);
        }
      });

      test("from an empty file: same content as a new file, and the user's file is backed up", async () => {
        const fs = emptyFs();
        await fs.mkdir(platform.pathFlavour.dirname(file));
        await fs.writeFile(file, new Uint8Array());
        const p = await plan(fs);
        expect(p.change).toBe("update");
        expect(p.after).toBe(golden(c.client, `${c.scope}-new-${os}.${c.ext}`, p.after!));
        const applied = await applyConfigChange(p, fs, emptyReceipt("0.1.0"), { now: NOW });
        expect(applied.ok && applied.backup).toBe(`${file}.ra3-backup-20261123T141502Z`);
        expect(fs.text(`${file}.ra3-backup-20261123T141502Z`)).toBe("");
      });

      test("from a file with other servers and comments: adds ours, keeps the rest byte for byte", async () => {
        const existing = eolFix(c.existing);
        const fs = new MemoryFileSystem(platform.pathFlavour, { [file]: existing });
        const p = await plan(fs);
        expect(p.error).toBeNull();
        expect(p.change).toBe("update");
        expect(p.warnings).toEqual(c.existingWarnings ?? []);
        expect(p.after).toBe(eolFix(golden(c.client, `${c.scope}-merged-${os}.${c.ext}`, p.after!)));
        if (os === "windows") expect(p.after!.replace(/\r\n/g, "")).not.toContain("\n");
        expect(writer.verify(p.after!, entry)).toBe(true);
      });

      test("repeated run: byte-identical output and nothing to write", async () => {
        const fs = new MemoryFileSystem(platform.pathFlavour, { [file]: eolFix(c.existing) });
        const first = await plan(fs);
        const applied = await applyConfigChange(first, fs, emptyReceipt("0.1.0"), { now: NOW });
        const second = await plan(fs, applied.receipt);
        expect(second.change).toBe("unchanged");
        expect(second.diff).toBe("");
        const read = writer.read(new TextEncoder().encode(first.after!));
        expect(read.ok).toBe(true);
        if (read.ok) {
          const again = writer.merge(read.doc, entry);
          expect(again.ok && again.text).toBe(first.after!);
        }
      });

      test("from an invalid file: left untouched, exact error", async () => {
        const fs = new MemoryFileSystem(platform.pathFlavour, { [file]: c.invalid });
        const p = await plan(fs);
        expect(p.change).toBe("error");
        expect(p.error).toBe(c.invalidErrors[os]);
        const applied = await applyConfigChange(p, fs, emptyReceipt("0.1.0"), { now: NOW });
        expect(applied.ok).toBe(false);
        expect(fs.text(file)).toBe(c.invalid);
        expect(fs.listAll()).toEqual([file]);
      });

      test("remove: other servers and comments intact (the original file comes back)", async () => {
        const existing = eolFix(c.existing);
        const fs = new MemoryFileSystem(platform.pathFlavour, { [file]: existing });
        const added = await applyConfigChange(await plan(fs), fs, emptyReceipt("0.1.0"), { now: NOW });
        expect(added.ok).toBe(true);
        const record = added.ok ? added.receipt.configs[0] : undefined;
        const removal = await planConfigRemoval(writer, {
          file,
          scope: c.scope,
          entryName: "ra3",
          createdFile: record?.createdFile,
          createdContainer: record?.createdContainer,
        }, fs);
        expect(removal.change).toBe("remove");
        expect(removal.after).toBe(existing);
        const removed = await applyConfigChange(removal, fs, added.ok ? added.receipt : emptyReceipt("0.1.0"), {
          now: NOW,
        });
        expect(removed.ok && removed.receipt.configs).toEqual([]);
        expect(fs.text(file)).toBe(existing);
      });

      test("remove from a file ra3 created: the file is deleted", async () => {
        const fs = emptyFs();
        const added = await applyConfigChange(await plan(fs), fs, emptyReceipt("0.1.0"), { now: NOW });
        const removal = await planConfigRemoval(
          writer,
          { file, scope: c.scope, entryName: "ra3", createdFile: true },
          fs,
        );
        expect(removal.change).toBe("delete");
        expect(removal.diff.startsWith(`--- ${file}\n+++ /dev/null\n`)).toBe(true);
        const removed = await applyConfigChange(removal, fs, added.ok ? added.receipt : emptyReceipt("0.1.0"), {
          now: NOW,
        });
        expect(removed.ok).toBe(true);
        expect(fs.text(file)).toBeNull();
      });
    });
  }
}

/** The exact error for an invalid file on each OS: `<file>:<position and reason>. ra3 left the file unchanged; …`. */
export function invalidFileErrors(files: Record<OsName, string>, positionAndReason: string): Record<OsName, string> {
  const out = {} as Record<OsName, string>;
  for (const os of OSES) {
    out[os] = `${
      files[os]
    }:${positionAndReason}. ra3 left the file unchanged; fix it (or move it aside) and run setup again.`;
  }
  return out;
}
