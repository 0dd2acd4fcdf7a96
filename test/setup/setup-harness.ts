/**
 * In-memory worlds for setup, doctor and uninstall: a user's home on Linux or Windows held in a
 * MemoryFileSystem, and fakes for the ports that touch the real process (skill installer, indexer,
 * live check), each recording its calls and writing into the same memory file system.
 */
import { createHash } from "node:crypto";
import { posix, win32 } from "node:path";
import { pathKey } from "../../src/project/paths.ts";
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION } from "../../src/skill/embedded.ts";
import type { DoctorDeps } from "../../src/setup/doctor.ts";
import type { EmptyDirRemover } from "../../src/setup/footprint.ts";
import type { LiveCheckRequest, LiveCheckResult } from "../../src/setup/live-check.ts";
import { MemoryFileSystem, type OsName, type Platform, platformFor } from "../../src/setup/platform.ts";
import type { IndexOutcome, ProjectDetection, SetupDeps, SetupRequest } from "../../src/setup/setup.ts";
import {
  DEFAULT_SKILL_TARGETS,
  resolveSkillTarget,
  SKILL_MARKER_FILE,
  SKILL_RECORDS_FILE,
  type SkillInstallReport,
} from "../../src/setup/skill-install.ts";
import type { UninstallDeps } from "../../src/setup/uninstall.ts";

export const NOW = new Date("2026-11-23T14:15:02Z");

export interface World {
  readonly os: OsName;
  readonly fs: MemoryFileSystem;
  readonly platform: Platform;
  /** ra3's home. */
  readonly home: string;
  /** The downloaded binary setup runs as. */
  readonly download: string;
  readonly binary: string;
  readonly project: string;
  readonly out: string[];
  readonly calls: { skills: number; index: number; live: LiveCheckRequest[]; confirm: string[] };
  /** Answer for the next live checks (default: a healthy server). */
  live: (r: LiveCheckRequest) => LiveCheckResult;
  project_: ProjectDetection;
  confirmAnswer: boolean;
  /** Files in the skill that the fake installer writes. */
  readonly skillVersion: string;
}

const enc = new TextEncoder();
const sha = (s: string | Uint8Array) => createHash("sha256").update(s).digest("hex");

export const HEALTHY: LiveCheckResult = {
  ok: true,
  ms: 42,
  tools: 15,
  serverName: "ra3",
  serverVersion: "0.1.0",
  indexState: "ready",
};

/** A user Ann on `os` with a downloaded ra3 and a mod folder; `files` adds more. */
export function world(os: OsName = "linux", files: Record<string, string> = {}): World {
  const windows = os === "windows";
  const userHome = windows ? "C:\\Users\\Ann Lee" : "/home/ann";
  const platform = windows
    ? platformFor("windows", userHome, {
      APPDATA: "C:\\Users\\Ann Lee\\AppData\\Roaming",
      LOCALAPPDATA: "C:\\Users\\Ann Lee\\AppData\\Local",
    })
    : platformFor(os, userHome);
  const f = windows ? win32 : posix;
  const home = f.join(userHome, ".ra3modxml");
  const download = windows ? "C:\\Users\\Ann Lee\\Downloads\\ra3.exe" : "/home/ann/Downloads/ra3";
  const project = windows ? "D:\\Mods\\Corona Mod" : "/home/ann/mods/corona";
  const fs = new MemoryFileSystem(f, {
    [download]: "RA3 BINARY v1",
    [f.join(project, "Data", "Mod.xml")]: "<AssetDeclaration/>",
    ...files,
  });
  const w: World = {
    os,
    fs,
    platform,
    home,
    download,
    binary: f.join(home, "bin", windows ? "ra3.exe" : "ra3"),
    project,
    out: [],
    calls: { skills: 0, index: 0, live: [], confirm: [] },
    live: () => HEALTHY,
    project_: { ok: true, project: { projectDir: project, sdkDir: null, description: "no SDK: project-only mode" } },
    confirmAnswer: true,
    skillVersion: SKILL_VERSION,
  };
  return w;
}

function skillTargets(w: World) {
  return DEFAULT_SKILL_TARGETS.map((t) =>
    resolveSkillTarget(t, { userHome: w.platform.home, env: {}, platform: w.os === "windows" ? "win32" : "linux" })
  );
}

async function writeText(fs: MemoryFileSystem, p: string, text: string): Promise<void> {
  await fs.mkdir(fs.path.dirname(p));
  await fs.writeFile(p, enc.encode(text));
}

/** A fake of installSkill over the memory file system: writes the embedded files and the marker, idempotently. */
async function fakeInstallSkill(w: World) {
  w.calls.skills++;
  const { fs } = w;
  const reports: SkillInstallReport[] = [];
  const ledger: { target: string; dir: string; version: string; updatedAt: string }[] = [];
  for (const t of skillTargets(w)) {
    if ("error" in t) continue;
    let same = true;
    for (const file of SKILL_FILES) {
      if (fs.text(fs.path.join(t.dir, ...file.path.split("/"))) !== file.text) same = false;
    }
    const hashes: Record<string, string> = {};
    for (const file of SKILL_FILES) hashes[file.path] = sha(file.text);
    if (!same) {
      for (const file of SKILL_FILES) await writeText(fs, fs.path.join(t.dir, ...file.path.split("/")), file.text);
      await writeText(
        fs,
        fs.path.join(t.dir, SKILL_MARKER_FILE),
        JSON.stringify({ tool: "ra3", version: w.skillVersion, files: hashes }, null, 2) + "\n",
      );
    }
    reports.push({
      target: t.target,
      dir: t.dir,
      action: same ? "unchanged" : "installed",
      written: same ? [] : SKILL_FILES.map((x) => x.path),
      removed: [],
      keptUserModified: [],
    });
    ledger.push({ target: t.target, dir: t.dir, version: w.skillVersion, updatedAt: NOW.toISOString() });
  }
  const recordsFile = fs.path.join(w.home, SKILL_RECORDS_FILE);
  const body = JSON.stringify({ tool: "ra3", installs: ledger }, null, 2) + "\n";
  if (fs.text(recordsFile) !== body) await writeText(fs, recordsFile, body);
  return { reports, recordsFile };
}

/** A fake of `installSkill({ sync: true, uninstall: true })`: removes our unmodified files and empties the ledger. */
async function fakeUninstallSkill(w: World) {
  const { fs } = w;
  const recordsFile = fs.path.join(w.home, SKILL_RECORDS_FILE);
  const ledger = JSON.parse(fs.text(recordsFile) ?? '{"installs":[]}') as {
    installs: { target: string; dir: string }[];
  };
  const reports: SkillInstallReport[] = [];
  for (const r of ledger.installs) {
    const marker = fs.text(fs.path.join(r.dir, SKILL_MARKER_FILE));
    if (marker === null) {
      reports.push({
        target: r.target,
        dir: r.dir,
        action: "skipped",
        written: [],
        removed: [],
        keptUserModified: [],
        note: "nothing is installed there",
      });
      continue;
    }
    const files = (JSON.parse(marker) as { files: Record<string, string> }).files;
    const removed: string[] = [];
    const kept: string[] = [];
    for (const [rel, hash] of Object.entries(files)) {
      const p = fs.path.join(r.dir, ...rel.split("/"));
      const text = fs.text(p);
      if (text === null) continue;
      if (sha(text) === hash) {
        await fs.remove(p);
        removed.push(rel);
      } else kept.push(rel);
    }
    await fs.remove(fs.path.join(r.dir, SKILL_MARKER_FILE));
    const rm = removeEmptyDirIn(fs);
    await rm(fs.path.join(r.dir, "references"));
    await rm(r.dir);
    reports.push({ target: r.target, dir: r.dir, action: "removed", written: [], removed, keptUserModified: kept });
  }
  await writeText(fs, recordsFile, JSON.stringify({ tool: "ra3", installs: [] }, null, 2) + "\n");
  return { reports, recordsFile };
}

/** Folder removal for the memory file system (which has no rmdir of its own). */
export function removeEmptyDirIn(fs: MemoryFileSystem): EmptyDirRemover {
  return async (p) => {
    const kids = await fs.listDir(p);
    if (kids === null || kids.length > 0) return false;
    const dirs = (fs as unknown as { dirs: Map<string, string> }).dirs;
    const n = fs.path.normalize(p);
    return dirs.delete(fs.path === win32 ? pathKey(n) : n);
  };
}

/** Every folder and file (with its text) of the memory file system, for before/after comparisons. */
export function treeOf(fs: MemoryFileSystem): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const d of (fs as unknown as { dirs: Map<string, string> }).dirs.values()) out[d] = null;
  for (const f of fs.listAll()) out[f] = fs.text(f);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The setup ports over the world. */
export function setupDeps(w: World, over: Partial<SetupDeps> = {}): SetupDeps {
  const { fs } = w;
  return {
    platform: w.platform,
    fs,
    home: w.home,
    execPath: w.download,
    version: "0.1.0",
    now: () => NOW,
    detectProject: async () => w.project_,
    skills: { targets: () => skillTargets(w), install: () => fakeInstallSkill(w) },
    buildIndex: async (_p): Promise<IndexOutcome> => {
      w.calls.index++;
      const snap = fs.path.join(w.home, "snapshots", "corona-0123456789ab.msgpack");
      const saved = fs.text(snap) === null;
      if (saved) {
        await writeText(fs, snap, "SNAPSHOT");
        await writeText(fs, snap.replace(/\.msgpack$/, ".meta.json"), "{}");
        await writeText(fs, fs.path.join(w.home, "cache", "schema", "schema-1.msgpack"), "SCHEMA");
      }
      return {
        ok: true,
        mode: saved ? "cold" : "warm",
        files: 15,
        assets: 28,
        ms: 16,
        snapshotPath: snap,
        saved,
        size: saved ? 8 : null,
        warning: null,
      };
    },
    liveCheck: async (r) => {
      w.calls.live.push(r);
      return w.live(r);
    },
    print: (t) => w.out.push(t),
    confirm: async (q) => {
      w.calls.confirm.push(q);
      return w.confirmAnswer;
    },
    skillFiles: SKILL_FILES,
    ...over,
  };
}

/** A setup request: the three e2e clients, `--yes`. */
export function request(w: World, over: Partial<SetupRequest> = {}): SetupRequest {
  return {
    clients: ["claude-code", "codex", "cursor"],
    project: w.project,
    sdk: null,
    yes: true,
    dryRun: false,
    print: false,
    interactive: false,
    ...over,
  };
}

/** Doctor's ports over the world; `snapshots` lists projects that have a snapshot. */
export function doctorDeps(w: World, over: Partial<DoctorDeps> = {}): DoctorDeps {
  return {
    platform: w.platform,
    fs: w.fs,
    home: w.home,
    version: "0.1.0",
    now: () => new Date(NOW.getTime() + 90_000),
    liveCheck: async (r) => {
      w.calls.live.push(r);
      return w.live(r);
    },
    isProject: (dir) => w.fs.text(w.fs.path.join(dir, "Data", "Mod.xml")) !== null,
    snapshot: (dir) => {
      const path = w.fs.path.join(w.home, "snapshots", "corona-0123456789ab.msgpack");
      const exists = dir === w.project && w.fs.text(path) !== null;
      return {
        path,
        meta: exists
          ? { generatedAt: NOW.toISOString(), size: 5120, toolVersion: "0.1.0", files: 16, complete: true }
          : null,
      };
    },
    skillFiles: SKILL_FILES,
    skillVersion: w.skillVersion,
    ...over,
  };
}

/** Uninstall's ports over the world. */
export function uninstallDeps(w: World, over: Partial<UninstallDeps> = {}): UninstallDeps {
  return {
    platform: w.platform,
    fs: w.fs,
    home: w.home,
    version: "0.1.0",
    now: () => NOW,
    skills: {
      recorded: async () => {
        const text = w.fs.text(w.fs.path.join(w.home, SKILL_RECORDS_FILE));
        return text ? (JSON.parse(text) as { installs: { target: string; dir: string }[] }).installs : [];
      },
      uninstall: () => fakeUninstallSkill(w),
    },
    removeEmptyDir: removeEmptyDirIn(w.fs),
    print: (t) => w.out.push(t),
    confirm: async (q) => {
      w.calls.confirm.push(q);
      return w.confirmAnswer;
    },
    ...over,
  };
}

export { SKILL_NAME };
