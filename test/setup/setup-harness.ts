/**
 * In-memory worlds for setup, doctor and uninstall: a user's home on Linux or Windows held in a
 * MemoryFileSystem, the real skill installer over it, and fakes for the ports that touch the real
 * process (indexer, live check), each recording its calls and writing into the same memory file system.
 */
import { posix, win32 } from "node:path";
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION } from "../../src/skill/embedded.ts";
import type { DoctorDeps } from "../../src/setup/doctor.ts";
import type { LiveCheckRequest, LiveCheckResult } from "../../src/setup/live-check.ts";
import { MemoryFileSystem } from "../disk/memory-fs.ts";
import { type OsName, type Platform, platformFor } from "../../src/setup/platform.ts";
import type { IndexOutcome, ProjectDetection, SetupDeps, SetupRequest } from "../../src/setup/setup-plan.ts";
import {
  DEFAULT_SKILL_TARGETS,
  installSkill,
  listSkillInstalls,
  resolveSkillTarget,
  type SkillInstallOptions,
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
    // Traces the installed clients leave in the home (ra3 never creates a client's folder for it).
    [f.join(userHome, ".codex", "version.json")]: '{"latest_version":"0.171.0"}',
    [f.join(userHome, ".cursor", "argv.json")]: "{}",
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

/** The real skill installer, over the world's memory file system. */
function installSkillIn(w: World, extra: Partial<SkillInstallOptions> = {}) {
  w.calls.skills++;
  return installSkill({
    home: w.home,
    userHome: w.platform.home,
    env: {},
    platform: w.os === "windows" ? "win32" : "linux",
    fs: w.fs,
    version: w.skillVersion,
    now: () => NOW,
    ...extra,
  });
}

/** Every folder and file (with its text) of the memory file system, for before/after comparisons. */
export function treeOf(fs: MemoryFileSystem): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const d of fs.listDirs()) out[d] = null;
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
    skills: { targets: () => skillTargets(w), install: () => installSkillIn(w) },
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
      recorded: () => listSkillInstalls(w.home, w.fs).records,
      uninstall: () => installSkillIn(w, { sync: true, uninstall: true }),
    },
    print: (t) => w.out.push(t),
    confirm: async (q) => {
      w.calls.confirm.push(q);
      return w.confirmAnswer;
    },
    ...over,
  };
}

export { SKILL_NAME };
