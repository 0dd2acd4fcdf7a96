/**
 * Installs, upgrades, uninstalls and re-syncs copies of the embedded Agent Skill in the folders agents
 * read skills from. Copies, never symlinks (Windows needs admin rights for those).
 *
 * Ownership is tracked per copy by a marker file, `.ra3-managed.json`, holding the SHA-256 of every
 * file as we wrote it. A file whose content no longer matches that hash was changed by the user and is
 * never overwritten or deleted; it is reported in `keptUserModified`. Every installed copy is also
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
import { createHash, randomBytes } from "node:crypto";
import * as fsp from "node:fs/promises";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION, type SkillFile } from "../skill/embedded.ts";
import { baseName, type PathFlavour, pathKey, toAbsolute } from "../project/paths.ts";

export type SkillTargetName = "agents" | "claude" | "codex" | "project-agents" | "project-claude";

export const SKILL_TARGET_NAMES: readonly SkillTargetName[] = [
  "agents",
  "claude",
  "codex",
  "project-agents",
  "project-claude",
];

export const DEFAULT_SKILL_TARGETS: readonly SkillTargetName[] = ["agents", "claude"];

/** The ownership marker inside each installed copy. */
export const SKILL_MARKER_FILE = ".ra3-managed.json";

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

/** The file operations the installer needs; injectable so tests can simulate failures. */
export interface SkillFs {
  /** The file's bytes, or null when it does not exist. */
  readFile(path: string): Promise<Uint8Array | null>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Creates the folder and its parents; no error when it exists. */
  mkdirp(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  /** Removes a folder and everything in it; no error when it does not exist. */
  removeTree(path: string): Promise<void>;
  /** Removes the folder when it is empty; false when it is not empty or does not exist. */
  removeEmptyDir(path: string): Promise<boolean>;
  /** The names in a folder, or null when it does not exist. */
  list(path: string): Promise<string[] | null>;
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** {@link SkillFs} over `node:fs/promises`. */
export const nodeSkillFs: SkillFs = {
  async readFile(path) {
    try {
      return new Uint8Array(await fsp.readFile(path));
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  },
  writeFile: (path, data) => fsp.writeFile(path, data),
  mkdirp: async (path) => void (await fsp.mkdir(path, { recursive: true })),
  rename: (from, to) => fsp.rename(from, to),
  removeFile: (path) => fsp.rm(path, { force: true }),
  removeTree: (path) => fsp.rm(path, { recursive: true, force: true }),
  async removeEmptyDir(path) {
    try {
      await fsp.rmdir(path);
      return true;
    } catch {
      return false;
    }
  },
  async list(path) {
    try {
      return await fsp.readdir(path);
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  },
};

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
  readonly fs?: SkillFs;
  readonly now?: () => Date;
}

interface Marker {
  readonly version: string;
  readonly files: Readonly<Record<string, string>>;
}

interface MarkerRead {
  readonly marker: Marker | null;
  /** Set when a marker file exists but cannot be used. */
  readonly problem: string | null;
}

const encoder = new TextEncoder();

function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Human words for the file-system errors a user can act on. */
function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "read-only file system";
    case "ENOSPC":
      return "no space left on the device";
    case "ENOTDIR":
      return "a part of the path is a file, not a folder";
    case "EBUSY":
      return "the file is in use by another program";
    default:
      return (e as Error).message ?? String(e);
  }
}

function tempSuffix(): string {
  return `${process.pid}-${randomBytes(4).toString("hex")}`;
}

function nativeJoin(f: PathFlavour, dir: string, rel: string): string {
  return f.join(dir, ...rel.split("/"));
}

function markerBytes(version: string, files: Record<string, string>): Uint8Array {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(files).sort()) sorted[k] = files[k];
  return encoder.encode(JSON.stringify({ tool: "ra3", version, files: sorted }, null, 2) + "\n");
}

async function readMarker(fs: SkillFs, f: PathFlavour, dir: string): Promise<MarkerRead> {
  const bytes = await fs.readFile(f.join(dir, SKILL_MARKER_FILE));
  if (bytes === null) return { marker: null, problem: null };
  try {
    const raw = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    if (typeof raw !== "object" || raw === null) throw new Error("not an object");
    const o = raw as Record<string, unknown>;
    if (o.tool !== "ra3") return { marker: null, problem: `${SKILL_MARKER_FILE} does not belong to ra3` };
    const files: Record<string, string> = {};
    if (typeof o.files === "object" && o.files !== null) {
      for (const [k, v] of Object.entries(o.files as Record<string, unknown>)) if (typeof v === "string") files[k] = v;
    }
    return { marker: { version: typeof o.version === "string" ? o.version : "", files }, problem: null };
  } catch (e) {
    return { marker: null, problem: `${SKILL_MARKER_FILE} is not valid JSON (${(e as Error).message})` };
  }
}

/** Atomic single-file write: a temp file beside the target, then a rename over it. */
async function writeAtomic(fs: SkillFs, path: string, data: Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${tempSuffix()}`;
  try {
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, path);
  } catch (e) {
    await fs.removeFile(tmp).catch(() => undefined);
    throw e;
  }
}

interface Ctx {
  readonly fs: SkillFs;
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

/** A fresh copy: everything is written into a temp folder beside the target, which is then renamed. */
async function installFresh(ctx: Ctx, target: string, dir: string): Promise<SkillInstallReport> {
  const { fs, f } = ctx;
  const parent = f.dirname(dir);
  const tmp = f.join(parent, `.${SKILL_NAME}.tmp-${tempSuffix()}`);
  const hashes: Record<string, string> = {};
  try {
    await fs.mkdirp(parent);
    await fs.mkdirp(tmp);
    for (const file of ctx.files) {
      const bytes = encoder.encode(file.text);
      const path = nativeJoin(f, tmp, file.path);
      await fs.mkdirp(f.dirname(path));
      await fs.writeFile(path, bytes);
      hashes[file.path] = sha256(bytes);
    }
    await fs.writeFile(f.join(tmp, SKILL_MARKER_FILE), markerBytes(ctx.version, hashes));
    await fs.rename(tmp, dir);
  } catch (e) {
    await fs.removeTree(tmp).catch(() => undefined);
    return report(target, dir, "failed", { error: `cannot install the skill into ${dir}: ${describeFsError(e)}` });
  }
  return report(target, dir, "installed", { written: ctx.files.map((x) => x.path) });
}

/**
 * Brings an existing folder to the new files. Only files whose content still equals what we wrote
 * (per the marker) are replaced or deleted. New content is staged beside each file first and renamed
 * into place only when every staged write succeeded; a failing rename rolls the earlier ones back.
 */
async function installOver(ctx: Ctx, target: string, dir: string): Promise<SkillInstallReport> {
  const { fs, f } = ctx;
  const { marker, problem } = await readMarker(fs, f, dir);
  const ours = marker?.files ?? {};
  const newHashes: Record<string, string> = {};
  const toWrite: { rel: string; bytes: Uint8Array; old: Uint8Array | null }[] = [];
  const kept: string[] = [];
  const toDelete: string[] = [];
  for (const file of ctx.files) {
    const bytes = encoder.encode(file.text);
    const want = sha256(bytes);
    const current = await fs.readFile(nativeJoin(f, dir, file.path));
    const have = current === null ? null : sha256(current);
    if (have === want) newHashes[file.path] = want;
    else if (have === null || have === ours[file.path]) {
      toWrite.push({ rel: file.path, bytes, old: current });
      newHashes[file.path] = want;
    } else kept.push(file.path);
  }
  const newPaths = new Set(ctx.files.map((x) => x.path));
  for (const [rel, hash] of Object.entries(ours)) {
    if (newPaths.has(rel)) continue;
    const current = await fs.readFile(nativeJoin(f, dir, rel));
    if (current === null) continue;
    if (sha256(current) === hash) toDelete.push(rel);
    else kept.push(rel);
  }
  kept.sort();

  const markerUnchanged = marker !== null &&
    marker.version === ctx.version &&
    JSON.stringify(Object.entries(marker.files).sort()) === JSON.stringify(Object.entries(newHashes).sort());
  const note = problem ? `${problem}; files that differ from ours were treated as the user's and kept` : undefined;
  if (toWrite.length === 0 && toDelete.length === 0 && markerUnchanged) {
    return report(target, dir, "unchanged", { keptUserModified: kept, ...(note ? { note } : {}) });
  }

  const fail = (e: unknown): SkillInstallReport =>
    report(target, dir, "failed", {
      keptUserModified: kept,
      error: `cannot update the skill in ${dir}: ${describeFsError(e)}`,
    });

  const staged: { rel: string; tmp: string; path: string; old: Uint8Array | null }[] = [];
  const suffix = tempSuffix();
  try {
    for (const w of toWrite) {
      const path = nativeJoin(f, dir, w.rel);
      await fs.mkdirp(f.dirname(path));
      const tmp = `${path}.tmp-${suffix}`;
      staged.push({ rel: w.rel, tmp, path, old: w.old });
      await fs.writeFile(tmp, w.bytes);
    }
  } catch (e) {
    for (const s of staged) await fs.removeFile(s.tmp).catch(() => undefined);
    return fail(e);
  }
  const renamed: typeof staged = [];
  try {
    for (const s of staged) {
      await fs.rename(s.tmp, s.path);
      renamed.push(s);
    }
    await writeAtomic(fs, f.join(dir, SKILL_MARKER_FILE), markerBytes(ctx.version, newHashes));
  } catch (e) {
    for (const s of renamed) {
      if (s.old === null) await fs.removeFile(s.path).catch(() => undefined);
      else await fs.writeFile(s.path, s.old).catch(() => undefined);
    }
    for (const s of staged) await fs.removeFile(s.tmp).catch(() => undefined);
    return fail(e);
  }
  // Obsolete files go only after the new version is in place; a failure here leaves a harmless extra file.
  const removed: string[] = [];
  for (const rel of toDelete) {
    try {
      await fs.removeFile(nativeJoin(f, dir, rel));
      removed.push(rel);
    } catch {
      kept.push(rel);
    }
  }
  await pruneEmptyDirs(fs, f, dir, removed);
  return report(target, dir, marker ? "upgraded" : "installed", {
    written: toWrite.map((w) => w.rel),
    removed,
    keptUserModified: kept,
    ...(note ? { note } : {}),
  });
}

/** Removes the now-empty sub-folders that held `rels` (deepest first), never `dir` itself. */
async function pruneEmptyDirs(fs: SkillFs, f: PathFlavour, dir: string, rels: readonly string[]): Promise<void> {
  const subdirs = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split("/");
    for (let n = parts.length - 1; n >= 1; n--) subdirs.add(parts.slice(0, n).join("/"));
  }
  const deepestFirst = [...subdirs].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const sub of deepestFirst) await fs.removeEmptyDir(nativeJoin(f, dir, sub));
}

async function installInto(ctx: Ctx, target: string, dir: string): Promise<SkillInstallReport> {
  let entries: string[] | null;
  try {
    entries = await ctx.fs.list(dir);
  } catch (e) {
    return report(target, dir, "failed", { error: `cannot read ${dir}: ${describeFsError(e)}` });
  }
  return entries === null ? installFresh(ctx, target, dir) : installOver(ctx, target, dir);
}

async function uninstallFrom(ctx: Ctx, target: string, dir: string): Promise<SkillInstallReport> {
  const { fs, f } = ctx;
  let entries: string[] | null;
  try {
    entries = await fs.list(dir);
  } catch (e) {
    return report(target, dir, "failed", { error: `cannot read ${dir}: ${describeFsError(e)}` });
  }
  if (entries === null) return report(target, dir, "skipped", { note: "nothing is installed there" });
  const { marker, problem } = await readMarker(fs, f, dir);
  if (!marker) {
    const why = problem ?? `it has no ${SKILL_MARKER_FILE}`;
    return report(target, dir, "failed", { error: `${dir} was not installed by ra3 (${why}); left it untouched` });
  }
  const removed: string[] = [];
  const kept: string[] = [];
  const remaining: Record<string, string> = {};
  for (const [rel, hash] of Object.entries(marker.files).sort()) {
    const path = nativeJoin(f, dir, rel);
    const current = await fs.readFile(path);
    if (current === null) continue;
    if (sha256(current) !== hash) {
      kept.push(rel);
      continue;
    }
    try {
      await fs.removeFile(path);
      removed.push(rel);
    } catch (e) {
      // Keep the marker truthful (what is still ours) so a later uninstall can finish the job.
      for (const [r, h] of Object.entries(marker.files)) {
        if (!removed.includes(r) && !kept.includes(r)) remaining[r] = h;
      }
      await writeAtomic(fs, f.join(dir, SKILL_MARKER_FILE), markerBytes(marker.version, remaining)).catch(() =>
        undefined
      );
      return report(target, dir, "failed", {
        removed,
        keptUserModified: kept,
        error: `cannot remove ${path}: ${describeFsError(e)}`,
      });
    }
  }
  try {
    await fs.removeFile(f.join(dir, SKILL_MARKER_FILE));
  } catch (e) {
    return report(target, dir, "failed", {
      removed,
      keptUserModified: kept,
      error: `cannot remove ${f.join(dir, SKILL_MARKER_FILE)}: ${describeFsError(e)}`,
    });
  }
  await pruneEmptyDirs(fs, f, dir, removed);
  const gone = await fs.removeEmptyDir(dir);
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

async function readRecords(fs: SkillFs, path: string): Promise<SkillInstallRecords> {
  let bytes: Uint8Array | null;
  try {
    bytes = await fs.readFile(path);
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
export async function listSkillInstalls(home: string, fs: SkillFs = nodeSkillFs): Promise<SkillInstallRecords> {
  return readRecords(fs, nodePath.join(home, SKILL_RECORDS_FILE));
}

/**
 * Installs (or with `uninstall`, removes) the skill in every target, or with `sync` in every copy
 * recorded in `<home>/skills.json`, and updates those records. Never throws for file-system problems:
 * each target's outcome is in its report.
 * @example await installSkill({ home: "/home/u/.ra3modxml", targets: ["claude"] }) // { reports: [{ action: "installed", … }], … }
 */
export async function installSkill(options: SkillInstallOptions): Promise<SkillInstallResult> {
  const fs = options.fs ?? nodeSkillFs;
  const f = flavourOf(options.platform);
  const ctx: Ctx = { fs, f, version: options.version ?? SKILL_VERSION, files: options.files ?? SKILL_FILES };
  const recordsFile = f.join(options.home, SKILL_RECORDS_FILE);
  const now = (options.now ?? (() => new Date()))().toISOString();
  const read = await readRecords(fs, recordsFile);

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
      if (options.uninstall) reports.push(await uninstallFrom(ctx, job.target, job.dir));
      else if (options.sync && (await fs.list(job.dir).catch(() => [])) === null) {
        reports.push(
          report(job.target, job.dir, "skipped", {
            note: "the copy was deleted since it was installed; forgotten, not recreated",
          }),
        );
      } else reports.push(await installInto(ctx, job.target, job.dir));
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
    await fs.mkdirp(options.home);
    await writeAtomic(fs, recordsFile, encoder.encode(body));
  } catch (e) {
    return { reports, recordsFile, recordsError: `cannot write ${recordsFile}: ${describeFsError(e)}` };
  }
  return { reports, recordsFile };
}
