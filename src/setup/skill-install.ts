/**
 * Installs, upgrades, uninstalls and re-syncs copies of the embedded Agent Skill in the folders agents
 * read skills from. Copies, never symlinks (Windows needs admin rights for those).
 *
 * Ownership is tracked per copy by a marker file, `.ra3-managed.json` (skill-marker.ts), holding the
 * SHA-256 of every file as we wrote it. A file whose content no longer matches that hash was changed by
 * the user and is never overwritten or deleted; it is reported in `keptUserModified`, and its marker
 * entry keeps the hash ra3 wrote (so the marker stays a truthful record of what is ra3's). What the
 * installer would do to a folder is computed once, by {@link planSkillCopy}, which setup's dry run shows. Every installed copy is also
 * recorded in `<home>/skills.json`, so a later binary can re-sync all of them (`sync`).
 *
 * Target folders (the skill goes into `<folder>/ra3-mod-xml`):
 * - `agents`         `~/.agents/skills` (read by Codex, Gemini CLI, Copilot, Cursor, opencode, Cline, Zed…)
 * - `claude`         `$CLAUDE_CONFIG_DIR/skills` when set, else `~/.claude/skills` (Claude Code)
 * - `codex`          `$CODEX_HOME/skills` when set, else `~/.codex/skills` (Codex's own folder)
 * - `project-agents` `<project>/.agents/skills`;  `project-claude` `<project>/.claude/skills`
 * - any other value is a folder path: the skill goes into `DIR/ra3-mod-xml`, unless DIR itself is
 *   named `ra3-mod-xml`, in which case it is the skill folder (so both spellings a user may type work).
 * Defaults: `agents` and `claude`.
 */
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { removeQuietly, renameWithRetry, stageFile, writeFileAtomic } from "../disk/atomic.ts";
import { describeFsError, type FileSystemPort, nodeFileSystem } from "../disk/port.ts";
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION, type SkillFile } from "../skill/embedded.ts";
import { baseName, type PathFlavour, pathKey, toAbsolute } from "../project/paths.ts";
import {
  readSkillMarker,
  sameMarker,
  sha256Of,
  SKILL_MARKER_FILE,
  type SkillMarker,
  skillMarkerBytes,
} from "./skill-marker.ts";

export type SkillTargetName = "agents" | "claude" | "codex" | "project-agents" | "project-claude";

export const DEFAULT_SKILL_TARGETS: readonly SkillTargetName[] = ["agents", "claude"];

/** The install records, inside the ra3 home folder. */
export const SKILL_RECORDS_FILE = "skills.json";

/**
 * `skipped`: nothing to do and nothing wrong (uninstalling where nothing is installed; a recorded
 * copy that the user has deleted since, which is then forgotten rather than recreated).
 */
export type SkillAction = "installed" | "upgraded" | "unchanged" | "removed" | "skipped" | "failed";

export interface SkillInstallReport {
  /** The target as given (`agents`, a folder path), or the recorded label when syncing. */
  readonly target: string;
  /** The skill folder (absolute), or "" when the target could not be resolved. */
  readonly dir: string;
  readonly action: SkillAction;
  /** Skill-relative paths (with `/`) written by this run. */
  readonly written: readonly string[];
  /** Skill-relative paths deleted by this run (uninstall, or files a newer version no longer has). */
  readonly removed: readonly string[];
  /** Files the user changed (or that we did not write): left as they are. */
  readonly keptUserModified: readonly string[];
  /** Why the operation failed (`action: "failed"`); nothing was half-written. */
  readonly error?: string;
  /** Extra context for `skipped` and for odd-but-handled states. */
  readonly note?: string;
}

export interface SkillInstallResult {
  readonly reports: readonly SkillInstallReport[];
  /** `<home>/skills.json`. */
  readonly recordsFile: string;
  /** Set when the install records could not be read or written (the copies are reported anyway). */
  readonly recordsError?: string;
}

/** One recorded copy in `skills.json`. */
export interface SkillInstallRecord {
  readonly target: string;
  readonly dir: string;
  readonly version: string;
  readonly updatedAt: string;
}

export interface SkillTargetContext {
  /** The user's home folder (`~`). */
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The mod project, for `project-*` targets. */
  readonly projectDir?: string | null;
  /** Base for relative folder targets (default: the process working directory). */
  readonly cwd?: string;
  /** Path syntax to use (default: the running OS's). */
  readonly platform?: NodeJS.Platform;
}

export type ResolvedSkillTarget =
  | { readonly target: string; readonly dir: string }
  | { readonly target: string; readonly error: string };

function flavourOf(platform: NodeJS.Platform | undefined): PathFlavour {
  if (platform === undefined) return nodePath;
  return platform === "win32" ? nodePath.win32 : nodePath.posix;
}

function nonEmpty(v: string | undefined): string | null {
  return v !== undefined && v.trim() !== "" ? v.trim() : null;
}

/**
 * The skill folder a target names (absolute), or why it cannot be resolved.
 * @example resolveSkillTarget("claude", { userHome: "/home/u", env: {} }) // { target: "claude", dir: "/home/u/.claude/skills/ra3-mod-xml" }
 */
export function resolveSkillTarget(target: string, ctx: SkillTargetContext): ResolvedSkillTarget {
  const f = flavourOf(ctx.platform);
  const inSkills = (base: string): string => f.join(base, "skills", SKILL_NAME);
  switch (target) {
    case "agents":
      return { target, dir: f.join(ctx.userHome, ".agents", "skills", SKILL_NAME) };
    case "claude":
      return { target, dir: inSkills(nonEmpty(ctx.env.CLAUDE_CONFIG_DIR) ?? f.join(ctx.userHome, ".claude")) };
    case "codex":
      return { target, dir: inSkills(nonEmpty(ctx.env.CODEX_HOME) ?? f.join(ctx.userHome, ".codex")) };
    case "project-agents":
    case "project-claude": {
      if (!ctx.projectDir) {
        return {
          target,
          error: `target "${target}" needs a mod project folder (run inside the mod or pass --project DIR)`,
        };
      }
      return {
        target,
        dir: f.join(ctx.projectDir, target === "project-agents" ? ".agents" : ".claude", "skills", SKILL_NAME),
      };
    }
  }
  if (target.trim() === "") {
    return {
      target,
      error: "an empty target; name one of agents, claude, codex, project-agents, project-claude, or a folder",
    };
  }
  let p = target.trim();
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) p = f.join(ctx.userHome, p.slice(1));
  const abs = toAbsolute(p, ctx.cwd ?? process.cwd(), f);
  return { target, dir: baseName(abs).toLowerCase() === SKILL_NAME ? abs : f.join(abs, SKILL_NAME) };
}

export interface SkillInstallOptions {
  /** Target names or folders; empty or absent means {@link DEFAULT_SKILL_TARGETS}. Ignored with `sync`. */
  readonly targets?: readonly string[];
  /** The ra3 home (state) folder; records go to `<home>/skills.json`. */
  readonly home: string;
  /** The user's home folder (default: `os.homedir()`). */
  readonly userHome?: string;
  /** Environment for `CLAUDE_CONFIG_DIR` / `CODEX_HOME` (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
  readonly projectDir?: string | null;
  readonly cwd?: string;
  /** The version recorded in markers and records (default: {@link SKILL_VERSION}). */
  readonly version?: string;
  /** The files to install (default: the embedded skill). */
  readonly files?: readonly SkillFile[];
  /** Remove instead of install. */
  readonly uninstall?: boolean;
  /** Act on every copy recorded in `skills.json` instead of `targets`. */
  readonly sync?: boolean;
  readonly fs?: FileSystemPort;
  readonly now?: () => Date;
}

const encoder = new TextEncoder();

function tempSuffix(): string {
  return `${process.pid}-${randomBytes(4).toString("hex")}`;
}

function nativeJoin(f: PathFlavour, dir: string, rel: string): string {
  return f.join(dir, ...rel.split("/"));
}

interface Ctx {
  readonly fs: FileSystemPort;
  readonly f: PathFlavour;
  readonly version: string;
  readonly files: readonly SkillFile[];
}

function report(
  target: string,
  dir: string,
  action: SkillAction,
  extra: Partial<SkillInstallReport> = {},
): SkillInstallReport {
  return { target, dir, action, written: [], removed: [], keptUserModified: [], ...extra };
}

/** One file the installer would (re)write: its skill-relative path, new bytes and current bytes. */
export interface SkillFileWrite {
  readonly rel: string;
  readonly bytes: Uint8Array;
  /** The content there now, or null when the file is missing. */
  readonly old: Uint8Array | null;
}

/**
 * What installing `files` into the skill folder `dir` would do, read-only. `absent`: the folder does
 * not exist (a fresh copy is written). Otherwise each file is written when it is missing or still as
 * ra3 wrote it, kept when the user changed it (or it was never ra3's), and files of an older version
 * are deleted when unchanged; `unchanged` means nothing at all would be written, the marker included.
 */
export type SkillCopyPlan =
  | { readonly state: "absent" }
  | {
    readonly state: "update" | "unchanged";
    /** The marker read, or null (then `problem` may say why it is unusable). */
    readonly marker: SkillMarker | null;
    readonly problem: string | null;
    readonly toWrite: readonly SkillFileWrite[];
    /** Files of an older version, still as ra3 wrote them: deleted after the new files are in place. */
    readonly toDelete: readonly string[];
    /** Files the user changed (or that ra3 did not write): left alone. Sorted. */
    readonly kept: readonly string[];
    /** The marker the folder will hold afterwards. */
    readonly next: SkillMarker;
  };

/**
 * Plans installing `files` (version `version`) into `dir` without writing anything; the installer
 * carries the plan out, and setup's dry run reports it, so both say the same. Throws only for
 * environment failures while reading.
 * @example planSkillCopy(fs, "/home/u/.agents/skills/ra3-mod-xml", SKILL_FILES, "0.1.0").state // "unchanged"
 */
export function planSkillCopy(
  fs: FileSystemPort,
  dir: string,
  files: readonly SkillFile[],
  version: string,
): SkillCopyPlan {
  const f = fs.path;
  if (fs.listDir(dir) === null) return { state: "absent" };
  const { marker, problem } = readSkillMarker(fs, dir);
  const ours = marker?.files ?? {};
  const nextFiles: Record<string, string> = {};
  const toWrite: SkillFileWrite[] = [];
  const kept: string[] = [];
  const toDelete: string[] = [];
  for (const file of files) {
    const bytes = encoder.encode(file.text);
    const want = sha256Of(bytes);
    const current = fs.readFile(nativeJoin(f, dir, file.path));
    const have = current === null ? null : sha256Of(current);
    if (have === want) nextFiles[file.path] = want;
    else if (have === null || have === ours[file.path]) {
      toWrite.push({ rel: file.path, bytes, old: current });
      nextFiles[file.path] = want;
    } else {
      kept.push(file.path);
      // Still a file ra3 wrote once: the marker keeps that hash, so doctor and uninstall know it.
      if (ours[file.path] !== undefined) nextFiles[file.path] = ours[file.path];
    }
  }
  const newPaths = new Set(files.map((x) => x.path));
  for (const [rel, hash] of Object.entries(ours)) {
    if (newPaths.has(rel)) continue;
    const current = fs.readFile(nativeJoin(f, dir, rel));
    if (current === null) continue;
    if (sha256Of(current) === hash) toDelete.push(rel);
    else kept.push(rel);
  }
  kept.sort();
  const next: SkillMarker = { version, files: nextFiles };
  const unchanged = toWrite.length === 0 && toDelete.length === 0 && sameMarker(marker, next);
  return { state: unchanged ? "unchanged" : "update", marker, problem, toWrite, toDelete, kept, next };
}

/** A fresh copy: everything is written into a temp folder beside the target, which is then renamed. */
function installFresh(ctx: Ctx, target: string, dir: string): SkillInstallReport {
  const { fs, f } = ctx;
  const parent = f.dirname(dir);
  const tmp = f.join(parent, `.${SKILL_NAME}.tmp-${tempSuffix()}`);
  const hashes: Record<string, string> = {};
  try {
    fs.mkdir(parent);
    fs.mkdir(tmp);
    for (const file of ctx.files) {
      const bytes = encoder.encode(file.text);
      const path = nativeJoin(f, tmp, file.path);
      fs.mkdir(f.dirname(path));
      fs.writeFile(path, bytes, { mode: 0o644 });
      hashes[file.path] = sha256Of(bytes);
    }
    fs.writeFile(f.join(tmp, SKILL_MARKER_FILE), skillMarkerBytes(ctx.version, hashes), { mode: 0o644 });
    renameWithRetry(fs, tmp, dir);
  } catch (e) {
    try {
      fs.removeTree(tmp);
    } catch {
      // The original error is the one worth reporting.
    }
    return report(target, dir, "failed", { error: `cannot install the skill into ${dir}: ${describeFsError(e)}` });
  }
  return report(target, dir, "installed", { written: ctx.files.map((x) => x.path) });
}

/**
 * Brings an existing folder to the new files, as {@link planSkillCopy} decided. New content is staged
 * beside each file first and renamed into place only when every staged write succeeded; a failing
 * rename rolls the earlier ones back.
 */
function installOver(ctx: Ctx, target: string, dir: string): SkillInstallReport {
  const { fs, f } = ctx;
  const plan = planSkillCopy(fs, dir, ctx.files, ctx.version);
  if (plan.state === "absent") return installFresh(ctx, target, dir);
  const kept = [...plan.kept];
  const note = plan.problem
    ? `${plan.problem}; files that differ from ours were treated as the user's and kept`
    : undefined;
  if (plan.state === "unchanged") {
    return report(target, dir, "unchanged", { keptUserModified: kept, ...(note ? { note } : {}) });
  }

  const fail = (e: unknown): SkillInstallReport =>
    report(target, dir, "failed", {
      keptUserModified: kept,
      error: `cannot update the skill in ${dir}: ${describeFsError(e)}`,
    });

  const staged: { tmp: string; path: string; old: Uint8Array | null }[] = [];
  try {
    for (const w of plan.toWrite) {
      const path = nativeJoin(f, dir, w.rel);
      fs.mkdir(f.dirname(path));
      staged.push({ tmp: stageFile(fs, path, w.bytes), path, old: w.old });
    }
  } catch (e) {
    for (const s of staged) removeQuietly(fs, s.tmp);
    return fail(e);
  }
  const renamed: typeof staged = [];
  try {
    for (const s of staged) {
      renameWithRetry(fs, s.tmp, s.path);
      renamed.push(s);
    }
    writeFileAtomic(fs, f.join(dir, SKILL_MARKER_FILE), skillMarkerBytes(plan.next.version, plan.next.files));
  } catch (e) {
    for (const s of renamed) {
      try {
        // A plain write: the rename that just failed may fail again, and the old bytes must go back.
        if (s.old === null) fs.remove(s.path);
        else fs.writeFile(s.path, s.old);
      } catch {
        // Best effort: the error below says the update failed.
      }
    }
    for (const s of staged) removeQuietly(fs, s.tmp);
    return fail(e);
  }
  // Obsolete files go only after the new version is in place; a failure here leaves a harmless extra file.
  const removed: string[] = [];
  for (const rel of plan.toDelete) {
    try {
      fs.remove(nativeJoin(f, dir, rel));
      removed.push(rel);
    } catch {
      kept.push(rel);
    }
  }
  pruneEmptyDirs(fs, dir, removed);
  return report(target, dir, plan.marker ? "upgraded" : "installed", {
    written: plan.toWrite.map((w) => w.rel),
    removed,
    keptUserModified: kept,
    ...(note ? { note } : {}),
  });
}

/** Removes the now-empty sub-folders that held `rels` (deepest first), never `dir` itself. */
function pruneEmptyDirs(fs: FileSystemPort, dir: string, rels: readonly string[]): void {
  const subdirs = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split("/");
    for (let n = parts.length - 1; n >= 1; n--) subdirs.add(parts.slice(0, n).join("/"));
  }
  const deepestFirst = [...subdirs].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const sub of deepestFirst) fs.removeEmptyDir(nativeJoin(fs.path, dir, sub));
}

function installInto(ctx: Ctx, target: string, dir: string): SkillInstallReport {
  let entries: string[] | null;
  try {
    entries = ctx.fs.listDir(dir);
  } catch (e) {
    return report(target, dir, "failed", { error: `cannot read ${dir}: ${describeFsError(e)}` });
  }
  return entries === null ? installFresh(ctx, target, dir) : installOver(ctx, target, dir);
}

function uninstallFrom(ctx: Ctx, target: string, dir: string): SkillInstallReport {
  const { fs, f } = ctx;
  let entries: string[] | null;
  try {
    entries = fs.listDir(dir);
  } catch (e) {
    return report(target, dir, "failed", { error: `cannot read ${dir}: ${describeFsError(e)}` });
  }
  if (entries === null) return report(target, dir, "skipped", { note: "nothing is installed there" });
  const { marker, problem } = readSkillMarker(fs, dir);
  if (!marker) {
    const why = problem ?? `it has no ${SKILL_MARKER_FILE}`;
    return report(target, dir, "failed", { error: `${dir} was not installed by ra3 (${why}); left it untouched` });
  }
  const removed: string[] = [];
  const kept: string[] = [];
  const remaining: Record<string, string> = {};
  for (const [rel, hash] of Object.entries(marker.files).sort()) {
    const path = nativeJoin(f, dir, rel);
    const current = fs.readFile(path);
    if (current === null) continue;
    if (sha256Of(current) !== hash) {
      kept.push(rel);
      continue;
    }
    try {
      fs.remove(path);
      removed.push(rel);
    } catch (e) {
      // Keep the marker truthful (what is still ours) so a later uninstall can finish the job.
      for (const [r, h] of Object.entries(marker.files)) {
        if (!removed.includes(r) && !kept.includes(r)) remaining[r] = h;
      }
      try {
        writeFileAtomic(fs, f.join(dir, SKILL_MARKER_FILE), skillMarkerBytes(marker.version, remaining));
      } catch {
        // The old marker still names the removed files; a later uninstall skips what is gone.
      }
      return report(target, dir, "failed", {
        removed,
        keptUserModified: kept,
        error: `cannot remove ${path}: ${describeFsError(e)}`,
      });
    }
  }
  try {
    fs.remove(f.join(dir, SKILL_MARKER_FILE));
  } catch (e) {
    return report(target, dir, "failed", {
      removed,
      keptUserModified: kept,
      error: `cannot remove ${f.join(dir, SKILL_MARKER_FILE)}: ${describeFsError(e)}`,
    });
  }
  pruneEmptyDirs(fs, dir, removed);
  const gone = fs.removeEmptyDir(dir);
  return report(target, dir, "removed", {
    removed,
    keptUserModified: kept,
    ...(gone ? {} : { note: `${dir} still holds files that are not ours; it was left in place` }),
  });
}

/** The copies recorded in `skills.json`, or why the file could not be used (then `records` is empty). */
export interface SkillInstallRecords {
  readonly records: SkillInstallRecord[];
  readonly error: string | null;
}

function readRecords(fs: FileSystemPort, path: string): SkillInstallRecords {
  let bytes: Uint8Array | null;
  try {
    bytes = fs.readFile(path);
  } catch (e) {
    return { records: [], error: `cannot read ${path}: ${describeFsError(e)}` };
  }
  if (bytes === null) return { records: [], error: null };
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes).replace(/^\uFEFF/, "")) as { installs?: unknown };
    if (!Array.isArray(raw.installs)) throw new Error(`no "installs" list`);
    const records = raw.installs.filter(
      (r): r is SkillInstallRecord =>
        typeof r === "object" && r !== null && typeof r.dir === "string" && typeof r.target === "string",
    );
    return { records, error: null };
  } catch (e) {
    return {
      records: [],
      error: `${path} is not a valid install record file (${(e as Error).message}); it was left untouched`,
    };
  }
}

/**
 * The copies recorded in `<home>/skills.json` (empty when there is none), or why it cannot be read.
 */
export function listSkillInstalls(home: string, fs: FileSystemPort = nodeFileSystem()): SkillInstallRecords {
  return readRecords(fs, fs.path.join(home, SKILL_RECORDS_FILE));
}

/** The folder's names, null when it does not exist, and `[]` when it cannot be read (it is there). */
function listOrEmpty(fs: FileSystemPort, dir: string): string[] | null {
  try {
    return fs.listDir(dir);
  } catch {
    return [];
  }
}

/**
 * Installs (or with `uninstall`, removes) the skill in every target, or with `sync` in every copy
 * recorded in `<home>/skills.json`, and updates those records. Never throws for file-system problems:
 * each target's outcome is in its report.
 * @example installSkill({ home: "/home/u/.ra3modxml", targets: ["claude"] }) // { reports: [{ action: "installed", … }], … }
 */
export function installSkill(options: SkillInstallOptions): SkillInstallResult {
  const fs = options.fs ?? nodeFileSystem();
  const f = fs.path;
  const ctx: Ctx = { fs, f, version: options.version ?? SKILL_VERSION, files: options.files ?? SKILL_FILES };
  const recordsFile = f.join(options.home, SKILL_RECORDS_FILE);
  const now = (options.now ?? (() => new Date()))().toISOString();
  const read = readRecords(fs, recordsFile);

  const jobs: ResolvedSkillTarget[] = [];
  if (options.sync) {
    for (const r of read.records) jobs.push({ target: r.target, dir: r.dir });
  } else {
    const tctx: SkillTargetContext = {
      userHome: options.userHome ?? homedir(),
      env: options.env ?? process.env,
      projectDir: options.projectDir ?? null,
      cwd: options.cwd,
      platform: options.platform,
    };
    const targets = options.targets && options.targets.length ? options.targets : DEFAULT_SKILL_TARGETS;
    for (const t of targets) jobs.push(resolveSkillTarget(t, tctx));
  }

  const reports: SkillInstallReport[] = [];
  const done = new Set<string>();
  for (const job of jobs) {
    if ("error" in job) {
      reports.push(report(job.target, "", "failed", { error: job.error }));
      continue;
    }
    const key = pathKey(job.dir);
    if (done.has(key)) continue;
    done.add(key);
    try {
      if (options.uninstall) reports.push(uninstallFrom(ctx, job.target, job.dir));
      else if (options.sync && listOrEmpty(fs, job.dir) === null) {
        reports.push(
          report(job.target, job.dir, "skipped", {
            note: "the copy was deleted since it was installed; forgotten, not recreated",
          }),
        );
      } else reports.push(installInto(ctx, job.target, job.dir));
    } catch (e) {
      // A read failing half-way through planning (before anything was written).
      reports.push(
        report(job.target, job.dir, "failed", {
          error: `cannot ${options.uninstall ? "uninstall from" : "install into"} ${job.dir}: ${describeFsError(e)}`,
        }),
      );
    }
  }

  if (read.error) return { reports, recordsFile, recordsError: read.error };
  const records = new Map(read.records.map((r) => [pathKey(r.dir), r]));
  let changed = false;
  for (const r of reports) {
    if (r.dir === "") continue;
    const key = pathKey(r.dir);
    if (r.action === "installed" || r.action === "upgraded" || r.action === "unchanged") {
      const prev = records.get(key);
      if (!prev || prev.version !== ctx.version || prev.dir !== r.dir) {
        records.set(key, { target: prev?.target ?? r.target, dir: r.dir, version: ctx.version, updatedAt: now });
        changed = true;
      }
    } else if ((r.action === "removed" || r.action === "skipped") && records.has(key)) {
      records.delete(key);
      changed = true;
    }
  }
  if (!changed) return { reports, recordsFile };
  const body = JSON.stringify({ tool: "ra3", installs: [...records.values()] }, null, 2) + "\n";
  try {
    writeFileAtomic(fs, recordsFile, body);
  } catch (e) {
    return { reports, recordsFile, recordsError: `cannot write ${recordsFile}: ${describeFsError(e)}` };
  }
  return { reports, recordsFile };
}
