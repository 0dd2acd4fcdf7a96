/**
 * `ra3 setup`: the ordered, resumable steps of DESIGN.md §Zero-install setup — (1) install the stable
 * binary, (2) detect the project and SDK, (3) write each MCP client's entry, (4) install the Agent
 * Skill, (5) build the index and its snapshot, (6) start the installed server as a client would.
 *
 * Everything is planned first without writing (that plan is `--dry-run`, and what the TTY question
 * shows), then applied step by step. A failed step is reported with what to do and the run goes on;
 * steps that depend on it say they were skipped and why. Every write is recorded in the install
 * receipt, written after each step so an interrupted run can simply be run again (each step is
 * idempotent: a second run reports "unchanged" and writes nothing, not even the receipt).
 *
 * All effects go through injected ports (platform, file system, skill installer, indexer, live check),
 * so the whole sequence runs in tests against an in-memory file system.
 */
import { SKILL_FILES, SKILL_NAME, SKILL_VERSION, type SkillFile } from "../skill/embedded.ts";
import { baseName, samePath } from "../project/paths.ts";
import { DEFAULT_HOME_NAME, snapshotPathFor } from "../project/home.ts";
import {
  allWriters,
  applyConfigChange,
  planConfigChange,
  printEntry,
  ra3ServerEntry,
  writerFor,
} from "./clients/index.ts";
import type { ClientConfigWriter, ClientId, ConfigPlan, Scope, ServerEntry } from "./clients/index.ts";
import { listTree, LOG_CACHE_WRITE, LOG_DIR_CREATE, LOG_SETUP, missingAncestors } from "./footprint.ts";
import {
  commandLine,
  describeLiveCheck,
  LIVE_CHECK_TIMEOUT_MS,
  type LiveChecker,
  type LiveCheckResult,
} from "./live-check.ts";
import { describeFsError, type FileSystemPort, type Platform } from "./platform.ts";
import {
  type InstallReceipt,
  readReceipt,
  receiptPath,
  withBinary,
  withLogEntry,
  withSkillRecord,
  writeReceipt,
} from "./receipt.ts";
import { cleanupOldBinaries, installedBinaryPath, selfInstall } from "./self-install.ts";
import { type ResolvedSkillTarget, SKILL_MARKER_FILE, type SkillInstallResult } from "./skill-install.ts";
import { renderStep, renderStepSummary, type StepReport, stepReport } from "./steps.ts";

export interface SetupRequest {
  /** Client ids named with `--client` (validated by the caller); empty means "the detected ones". */
  readonly clients: readonly ClientId[];
  readonly project: string | null;
  readonly sdk: string | null;
  readonly yes: boolean;
  readonly dryRun: boolean;
  /** Print the generic JSON entry for clients ra3 does not know. */
  readonly print: boolean;
  /** A question can be asked (stdin and stdout are terminals, and no `--json`). */
  readonly interactive: boolean;
}

export interface ProjectInfo {
  readonly projectDir: string;
  readonly sdkDir: string | null;
  /** One phrase for the report, e.g. "ra3 mod, SDK /opt/sdk" or "no SDK (project-only mode)". */
  readonly description: string;
}

export type ProjectDetection = { readonly ok: true; readonly project: ProjectInfo } | {
  readonly ok: false;
  readonly error: string;
};

export type IndexOutcome =
  | {
    readonly ok: true;
    readonly mode: "cold" | "warm";
    readonly files: number;
    readonly assets: number;
    readonly ms: number;
    readonly snapshotPath: string;
    /** False after a warm start that found nothing changed (the snapshot was already current). */
    readonly saved: boolean;
    readonly size: number | null;
    readonly warning: string | null;
  }
  | { readonly ok: false; readonly error: string };

/** The skill installer as setup uses it: the default targets, and installing into them. */
export interface SkillPort {
  /** The folders the default targets resolve to (or why one cannot be resolved). */
  targets(): readonly ResolvedSkillTarget[];
  install(): Promise<SkillInstallResult>;
}

export interface SetupDeps {
  readonly platform: Platform;
  readonly fs: FileSystemPort;
  /** ra3's state folder (`--home`, `$RA3_HOME`, `~/.ra3modxml`). */
  readonly home: string;
  /** The running program (`process.execPath`). */
  readonly execPath: string;
  readonly version: string;
  readonly now: () => Date;
  detectProject(project: string | null, sdk: string | null): Promise<ProjectDetection>;
  readonly skills: SkillPort;
  buildIndex(project: ProjectInfo): Promise<IndexOutcome>;
  readonly liveCheck: LiveChecker;
  /** Human output, as the run goes (a no-op for `--json`). */
  print(text: string): void;
  /** Asks a yes/no question on the terminal. */
  confirm(question: string): Promise<boolean>;
  readonly liveCheckTimeoutMs?: number;
  /** The skill files to compare against when planning (default: the embedded skill). */
  readonly skillFiles?: readonly SkillFile[];
}

export type ClientResult = "created" | "updated" | "unchanged" | "failed" | "would create" | "would update";

export interface ClientOutcome {
  readonly client: ClientId;
  readonly displayName: string;
  readonly scope: Scope;
  readonly file: string | null;
  readonly result: ClientResult;
  /** The planner's or writer's exact error sentence when `result` is `failed`. */
  readonly error: string | null;
  readonly backup: string | null;
  /** Unified diff of the planned change ("" when nothing changes). */
  readonly diff: string;
  readonly warnings: readonly string[];
  readonly notes: readonly string[];
}

export interface SetupReport {
  readonly ok: boolean;
  /** `applied`: the steps ran; `dry-run`: nothing was written; `cancelled`: the user answered no; `refused`: the receipt is unreadable. */
  readonly mode: "applied" | "dry-run" | "cancelled" | "refused";
  /** Why nothing was written in dry-run mode: the flag, or no terminal to ask and no `--yes`. */
  readonly dryRunReason: "flag" | "no-terminal" | null;
  /** Set when setup refused to start (mode `refused`). */
  readonly error: string | null;
  readonly home: string;
  /** The stable binary path every entry points at. */
  readonly binary: string;
  readonly entry: ServerEntry | null;
  readonly steps: readonly StepReport[];
  readonly clients: readonly ClientOutcome[];
  readonly liveCheck: LiveCheckResult | null;
  /** The receipt file when this run wrote it. */
  readonly receiptFile: string | null;
  readonly ms: number;
}

/** Executables that run ra3 from source rather than being ra3 (`bun src/main.ts setup`). */
const RUNTIMES = new Set(["bun", "node", "nodejs", "deno"]);

/**
 * True when `execPath` is a compiled ra3, false when it is a JavaScript runtime running the sources.
 * @example isCompiledRa3("/usr/local/bin/bun") // false;  isCompiledRa3("C:\\Tools\\ra3.exe") // true
 */
export function isCompiledRa3(execPath: string): boolean {
  return !RUNTIMES.has(baseName(execPath).toLowerCase().replace(/\.exe$/, ""));
}

/**
 * The `--home` arguments an entry needs: none when `home` is the default `<user home>/.ra3modxml`
 * (clients such as Codex pass servers no `RA3_HOME`), else `["--home", home]`.
 */
export function homeArgs(platform: Platform, home: string): string[] {
  return samePath(home, platform.pathFlavour.join(platform.home, DEFAULT_HOME_NAME)) ? [] : ["--home", home];
}

/**
 * The entry setup writes: the stable binary, `mcp --project <dir> [--sdk <dir>] [--home <dir>]`.
 * @example serverEntryFor(platform, "/home/u/.ra3modxml", "/home/u/.ra3modxml/bin/ra3", { projectDir: "/mods/x", sdkDir: null, description: "" }).args
 *          // ["mcp", "--project", "/mods/x"]
 */
export function serverEntryFor(
  platform: Platform,
  home: string,
  binaryPath: string,
  project: ProjectInfo,
): ServerEntry {
  const base = ra3ServerEntry({ binaryPath, projectDir: project.projectDir, sdkDir: project.sdkDir });
  return { ...base, args: [...base.args, ...homeArgs(platform, home)] };
}

interface SkillPlanItem {
  readonly target: string;
  readonly dir: string;
  readonly action: "install" | "update" | "unchanged" | "failed";
  readonly error: string | null;
}

/** What installing the skill into each target would do, read-only. */
async function planSkills(
  fs: FileSystemPort,
  targets: readonly ResolvedSkillTarget[],
  files: readonly SkillFile[],
): Promise<SkillPlanItem[]> {
  const out: SkillPlanItem[] = [];
  for (const t of targets) {
    if ("error" in t) {
      out.push({ target: t.target, dir: "", action: "failed", error: t.error });
      continue;
    }
    if ((await fs.stat(t.dir))?.kind !== "directory") {
      out.push({ target: t.target, dir: t.dir, action: "install", error: null });
      continue;
    }
    let same = true;
    for (const f of files) {
      const bytes = await fs.readFile(fs.path.join(t.dir, ...f.path.split("/")));
      if (bytes === null || new TextDecoder().decode(bytes) !== f.text) same = false;
    }
    const marker = await fs.readFile(fs.path.join(t.dir, SKILL_MARKER_FILE));
    let version: unknown = null;
    try {
      version = marker ? (JSON.parse(new TextDecoder().decode(marker)) as { version?: unknown }).version : null;
    } catch {
      version = null;
    }
    out.push({
      target: t.target,
      dir: t.dir,
      action: same && version === SKILL_VERSION ? "unchanged" : "update",
      error: null,
    });
  }
  return out;
}

interface Plan {
  readonly binaryPath: string;
  readonly binary: { readonly kind: "source"; readonly exists: boolean } | {
    readonly kind: "unchanged" | "install" | "update";
  };
  readonly project: ProjectDetection;
  readonly entry: ServerEntry | null;
  /** Why clients cannot be configured at all, or null. */
  readonly clientsBlocked: string | null;
  readonly writers: readonly ClientConfigWriter[];
  readonly detected: boolean;
  readonly configPlans: readonly ConfigPlan[];
  readonly skills: readonly SkillPlanItem[];
}

async function sameFile(fs: FileSystemPort, a: string, b: string): Promise<boolean> {
  const [sa, sb] = [await fs.stat(a), await fs.stat(b)];
  if (!sa || !sb || sa.size !== sb.size) return false;
  return (await fs.sha256(a)) === (await fs.sha256(b));
}

async function selectWriters(
  deps: SetupDeps,
  request: SetupRequest,
): Promise<{ writers: ClientConfigWriter[]; detected: boolean }> {
  if (request.clients.length > 0) {
    const seen = new Set<string>();
    const writers: ClientConfigWriter[] = [];
    for (const id of request.clients) {
      const w = writerFor(id);
      if (w && !seen.has(w.id)) {
        seen.add(w.id);
        writers.push(w);
      }
    }
    return { writers, detected: false };
  }
  if (request.print) return { writers: [], detected: false };
  const writers: ClientConfigWriter[] = [];
  for (const w of allWriters) if ((await w.presence(deps.platform, deps.fs)) !== null) writers.push(w);
  return { writers, detected: true };
}

async function makePlan(deps: SetupDeps, request: SetupRequest): Promise<Plan> {
  const { fs, platform, home } = deps;
  const binaryPath = installedBinaryPath(fs, home, platform.os);
  let binary: Plan["binary"];
  if (!isCompiledRa3(deps.execPath)) binary = { kind: "source", exists: (await fs.stat(binaryPath))?.kind === "file" };
  else if (samePath(deps.execPath, binaryPath) || (await sameFile(fs, deps.execPath, binaryPath))) {
    binary = { kind: "unchanged" };
  } else binary = { kind: (await fs.exists(binaryPath)) ? "update" : "install" };

  const project = await deps.detectProject(request.project, request.sdk);
  const entry = project.ok ? serverEntryFor(platform, home, binaryPath, project.project) : null;
  let clientsBlocked: string | null = null;
  if (!project.ok) clientsBlocked = "no project was found (step 2), and every entry passes the project to the server";
  else if (binary.kind === "source" && !binary.exists) {
    clientsBlocked =
      `ra3 is running from source (${deps.execPath}), not as a compiled binary, and there is no installed binary at ${binaryPath} for the configs to point at`;
  }
  const { writers, detected } = await selectWriters(deps, request);
  const configPlans: ConfigPlan[] = [];
  if (entry && clientsBlocked === null) {
    for (const w of writers) configPlans.push(await planConfigChange(w, platform, "user", entry, fs));
  }
  const skills = await planSkills(fs, deps.skills.targets(), deps.skillFiles ?? SKILL_FILES);
  return { binaryPath, binary, project, entry, clientsBlocked, writers, detected, configPlans, skills };
}

function clientOutcome(
  plan: ConfigPlan,
  result: ClientResult,
  extra: { error?: string | null; backup?: string | null } = {},
): ClientOutcome {
  return {
    client: plan.client,
    displayName: plan.displayName,
    scope: plan.scope,
    file: plan.file,
    result,
    error: extra.error ?? (result === "failed" ? plan.error : null),
    backup: extra.backup ?? null,
    diff: plan.diff,
    warnings: plan.warnings,
    notes: plan.notes,
  };
}

function clientLine(o: ClientOutcome): string {
  const mark = o.result === "failed" ? "✗" : "✓";
  const head = `${mark} ${o.displayName}: ${o.file ?? "(no file)"}: ${o.result}`;
  const lines = [o.result === "failed" ? `${mark} ${o.displayName}: ${o.error}` : head];
  if (o.backup) lines.push(`  backup of the previous file: ${o.backup}`);
  for (const w of o.warnings) lines.push(`  warning: ${w}`);
  for (const n of o.notes) lines.push(`  note: ${n}`);
  return lines.join("\n");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The files a plan would write, one line each, for the dry run and the confirmation question. */
function plannedWrites(deps: SetupDeps, plan: Plan): string[] {
  const items: string[] = [];
  if (plan.binary.kind === "install" || plan.binary.kind === "update") {
    items.push(`${plan.binaryPath}  (${plan.binary.kind} the stable binary)`);
  }
  for (const p of plan.configPlans) {
    if (p.change === "create" || p.change === "update") {
      items.push(`${p.file}  (${p.change}: the ra3 server for ${p.displayName})`);
    }
  }
  for (const s of plan.skills) {
    if (s.action === "install" || s.action === "update") {
      items.push(`${s.dir}${deps.fs.path.sep}  (${s.action} the ${SKILL_NAME} skill)`);
    }
  }
  if (plan.project.ok) {
    items.push(
      `${snapshotPathFor(deps.home, plan.project.project.projectDir)}  (the index snapshot, if the index changed)`,
    );
  }
  items.push(`${receiptPath(deps.fs, deps.home)}  (the install receipt, when anything above changes)`);
  return items;
}

function diffsOf(plan: Plan): string {
  return plan.configPlans
    .filter((p) => p.diff !== "")
    .map((p) => p.diff)
    .join("");
}

// ---------------------------------------------------------------------------------------------------
// Dry run

function dryRunSteps(
  deps: SetupDeps,
  plan: Plan,
  request: SetupRequest,
): { steps: StepReport[]; clients: ClientOutcome[] } {
  const steps: StepReport[] = [];
  const b = plan.binary;
  if (b.kind === "source") steps.push(stepReport("binary", "skipped", sourceModeWhy(deps, plan)));
  else if (b.kind === "unchanged") {
    steps.push(stepReport("binary", "done", `unchanged: ${plan.binaryPath} is this binary`));
  } else {steps.push(
      stepReport("binary", "skipped", `dry run: would ${b.kind} ${plan.binaryPath} from ${deps.execPath}`),
    );}

  steps.push(projectStep(plan.project));

  const clients = plan.configPlans.map((p) =>
    clientOutcome(
      p,
      p.change === "error"
        ? "failed"
        : p.change === "create"
        ? "would create"
        : p.change === "update"
        ? "would update"
        : "unchanged",
    )
  );
  steps.push(clientsStep(plan, request, clients, true));

  const pending = plan.skills.filter((s) => s.action === "install" || s.action === "update");
  const broken = plan.skills.filter((s) => s.action === "failed");
  const skillDetails = plan.skills.map((
    s,
  ) => (s.action === "failed"
    ? `✗ ${s.target}: ${s.error}`
    : `${s.dir}: ${s.action === "unchanged" ? "unchanged" : `would ${s.action}`}`)
  );
  if (broken.length) {
    steps.push(
      stepReport("skill", "failed", broken.map((s) => s.error).join("; "), {
        todo: "pass a mod project with --project, or use ra3 install-skill --target",
        details: skillDetails,
      }),
    );
  } else if (pending.length) {
    steps.push(
      stepReport("skill", "skipped", `dry run: would ${pending.map((s) => `${s.action} ${s.dir}`).join(", ")}`, {
        details: skillDetails,
      }),
    );
  } else steps.push(stepReport("skill", "done", `unchanged: ${plan.skills.map((s) => s.dir).join(", ")}`));

  if (!plan.project.ok) steps.push(stepReport("index", "skipped", "no project (step 2 failed)"));
  else {steps.push(
      stepReport(
        "index",
        "skipped",
        `dry run: would build the index of ${plan.project.project.projectDir} and save ${
          snapshotPathFor(deps.home, plan.project.project.projectDir)
        }`,
      ),
    );}
  steps.push(stepReport("verify", "skipped", "dry run: nothing was installed to start"));
  return { steps, clients };
}

function sourceModeWhy(deps: SetupDeps, plan: Plan): string {
  const b = plan.binary;
  const tail = b.kind === "source" && b.exists
    ? `; client configs point at the binary already installed at ${plan.binaryPath}`
    : "";
  return `running from source: ${
    baseName(deps.execPath)
  } is a JavaScript runtime, not a compiled ra3, so there is nothing to copy; build ra3 (npm run build) and run dist/ra3 setup to install it${tail}`;
}

function projectStep(project: ProjectDetection): StepReport {
  if (!project.ok) {
    return stepReport("project", "failed", project.error, {
      todo: "run ra3 setup inside the mod folder, or pass --project DIR (and --sdk DIR for the SDK)",
    });
  }
  return stepReport("project", "done", `${project.project.projectDir} (${project.project.description})`);
}

function clientsStep(
  plan: Plan,
  request: SetupRequest,
  clients: readonly ClientOutcome[],
  dryRun: boolean,
): StepReport {
  const printed = request.print && plan.entry
    ? ["entry for other clients (add it under their servers key):", printEntry(plan.entry).trimEnd()]
    : [];
  if (plan.clientsBlocked !== null) {
    const source = plan.binary.kind === "source";
    return stepReport("clients", source ? "failed" : "skipped", plan.clientsBlocked, {
      todo: source
        ? "build ra3 with npm run build and run dist/ra3 setup (the compiled binary installs itself first)"
        : null,
    });
  }
  if (plan.writers.length === 0) {
    if (request.print) {
      return stepReport("clients", "done", "printed the generic entry (no client was named with --client)", {
        details: printed,
      });
    }
    return stepReport(
      "clients",
      "skipped",
      `no MCP client was found on this machine; name one with --client (${
        allWriters.map((w) => w.id).join(", ")
      }), or use --print for the generic entry`,
    );
  }
  const details = [...clients.map(clientLine), ...printed];
  if (dryRun) {
    for (const c of clients) if (c.diff) details.push(c.diff.trimEnd());
  }
  const failed = clients.filter((c) => c.result === "failed");
  const pending = clients.filter((c) => c.result === "would create" || c.result === "would update");
  const how = plan.detected ? "detected" : "named";
  if (failed.length) {
    return stepReport(
      "clients",
      "failed",
      `${failed.map((c) => c.displayName).join(", ")}: see below; ${
        plural(clients.length - failed.length, "other client")
      } ${dryRun ? "would be" : "were"} handled`,
      {
        todo: `fix the file${failed.length === 1 ? "" : "s"} named above as the message says, then run ra3 setup again`,
        details,
      },
    );
  }
  if (pending.length) {
    return stepReport("clients", "skipped", `dry run: would write ${plural(pending.length, "file")} (diffs below)`, {
      details,
    });
  }
  const changed = clients.filter((c) => c.result === "created" || c.result === "updated").length;
  const summary = changed === 0
    ? `unchanged: ${plural(clients.length, how + " client")} already point at ${plan.binaryPath}`
    : `${plural(changed, "file")} written for ${plural(clients.length, how + " client")}`;
  return stepReport("clients", "done", summary, { details });
}

// ---------------------------------------------------------------------------------------------------
// Apply

interface ApplyState {
  receipt: InstallReceipt;
  dirty: boolean;
  receiptFile: string | null;
  receiptError: string | null;
  /** Folders created this run, logged once each. */
  readonly createdDirs: Set<string>;
}

async function noteCreatedDirs(deps: SetupDeps, state: ApplyState, candidates: readonly string[]): Promise<void> {
  for (const d of candidates) {
    if (state.createdDirs.has(d) || !(await deps.fs.exists(d))) continue;
    state.createdDirs.add(d);
    state.receipt = withLogEntry(state.receipt, LOG_DIR_CREATE, d, deps.now());
    state.dirty = true;
  }
}

async function saveReceipt(deps: SetupDeps, state: ApplyState): Promise<void> {
  if (!state.dirty) return;
  try {
    state.receiptFile = await writeReceipt(deps.fs, deps.home, { ...state.receipt, version: deps.version });
    state.dirty = false;
  } catch (err) {
    state.receiptError = `could not write the install receipt ${receiptPath(deps.fs, deps.home)}: ${
      describeFsError(err)
    }; uninstall will not know about this run's changes`;
  }
}

async function applyBinary(deps: SetupDeps, plan: Plan, state: ApplyState): Promise<StepReport> {
  const { fs, platform, home } = deps;
  if (plan.binary.kind === "source") return stepReport("binary", "skipped", sourceModeWhy(deps, plan));
  const missing = await missingAncestors(fs, fs.path.dirname(plan.binaryPath));
  if (platform.os === "windows") {
    const old = await cleanupOldBinaries(fs, home);
    for (const p of old.removed) state.receipt = withLogEntry(state.receipt, "binary.cleanup", p, deps.now());
    if (old.removed.length) state.dirty = true;
  }
  const result = await selfInstall({ execPath: deps.execPath, home, os: platform.os, fs });
  await noteCreatedDirs(deps, state, missing);
  if (!result.ok) {
    const fallback = (await fs.stat(plan.binaryPath))?.kind === "file"
      ? `client configs keep pointing at the binary already at ${plan.binaryPath}`
      : "the client configs cannot be written without it";
    return stepReport("binary", "failed", result.error, {
      todo: `make ${
        fs.path.dirname(plan.binaryPath)
      } writable (or free disk space) and run ra3 setup again; ${fallback}`,
    });
  }
  const previous = state.receipt.binary;
  const sha = result.sha256 || previous?.sha256;
  state.receipt = withBinary(state.receipt, { path: result.path, ...(sha ? { sha256: sha } : {}) });
  if (result.status !== "unchanged") {
    state.receipt = withLogEntry(
      state.receipt,
      `binary.${result.status === "installed" ? "install" : "update"}`,
      result.path,
      deps.now(),
    );
    state.dirty = true;
  } else if (previous === null || previous.path !== result.path || previous.sha256 !== sha) state.dirty = true;
  const aside = result.movedAside ? ` (the previous one was moved aside to ${result.movedAside})` : "";
  const verb = result.status === "unchanged" ? "unchanged" : result.status;
  return stepReport("binary", "done", `${verb}: ${result.path}${aside}`);
}

async function applyClients(
  deps: SetupDeps,
  plan: Plan,
  request: SetupRequest,
  state: ApplyState,
  binaryFailed: boolean,
): Promise<{ step: StepReport; clients: ClientOutcome[] }> {
  const { fs } = deps;
  if (plan.clientsBlocked === null && binaryFailed && (await fs.stat(plan.binaryPath))?.kind !== "file") {
    return {
      step: stepReport(
        "clients",
        "skipped",
        `step 1 failed, so there is no binary at ${plan.binaryPath} for the configs to point at`,
      ),
      clients: [],
    };
  }
  const clients: ClientOutcome[] = [];
  for (const p of plan.configPlans) {
    if (p.change === "error" || p.file === null) {
      clients.push(clientOutcome(p, "failed"));
      continue;
    }
    const missing = await missingAncestors(fs, fs.path.dirname(p.file));
    const applied = await applyConfigChange(p, fs, state.receipt, { now: deps.now() });
    if (!applied.ok) {
      await noteCreatedDirs(deps, state, missing);
      clients.push(clientOutcome(p, "failed", { error: applied.error }));
      continue;
    }
    if (applied.written || !sameRecords(applied.receipt.configs, state.receipt.configs)) state.dirty = true;
    state.receipt = applied.receipt;
    await noteCreatedDirs(deps, state, missing);
    const result: ClientResult = p.change === "create" ? "created" : p.change === "update" ? "updated" : "unchanged";
    clients.push(clientOutcome(p, result, { backup: applied.backup }));
  }
  return { step: clientsStep(plan, request, clients, false), clients };
}

// Record order may change when a record is re-added; only the set matters.
function sameRecords(a: readonly object[], b: readonly object[]): boolean {
  const key = (list: readonly object[]) => list.map((r) => JSON.stringify(r)).sort().join("\n");
  return key(a) === key(b);
}

async function applySkill(deps: SetupDeps, plan: Plan, state: ApplyState): Promise<StepReport> {
  const { fs } = deps;
  const missing: string[] = [];
  for (const s of plan.skills) if (s.dir) missing.push(...(await missingAncestors(fs, s.dir)));
  const result = await deps.skills.install();
  await noteCreatedDirs(deps, state, missing);
  const details: string[] = [];
  const failures: string[] = [];
  for (const r of result.reports) {
    if (r.action === "failed") {
      failures.push(r.error ?? `${r.target}: failed`);
      details.push(`✗ ${r.dir || r.target}: ${r.error ?? "failed"}`);
      continue;
    }
    const kept = r.keptUserModified.length ? `; kept your changes to ${r.keptUserModified.join(", ")}` : "";
    details.push(`✓ ${r.dir}: ${r.action}${kept}`);
    if (r.action === "installed" || r.action === "upgraded" || r.action === "unchanged") {
      const before = state.receipt.skills.find((s) => samePath(s.dir, r.dir));
      state.receipt = withSkillRecord(state.receipt, { name: SKILL_NAME, target: r.target, dir: r.dir });
      if (!before) state.dirty = true;
      if (r.action !== "unchanged") {
        state.receipt = withLogEntry(
          state.receipt,
          `skill.${r.action === "installed" ? "install" : "upgrade"}`,
          r.dir,
          deps.now(),
        );
        state.dirty = true;
      }
    }
  }
  if (result.recordsError) failures.push(result.recordsError);
  if (failures.length) {
    return stepReport("skill", "failed", failures.join("; "), {
      todo:
        "fix the folder named above (permissions, a file in the way) and run ra3 setup again (or ra3 install-skill)",
      details,
    });
  }
  const changed = result.reports.filter((r) => r.action !== "unchanged").length;
  return stepReport(
    "skill",
    "done",
    changed
      ? `${SKILL_NAME} ${SKILL_VERSION} in ${plural(result.reports.length, "folder")} (ledger ${result.recordsFile})`
      : `unchanged: ${SKILL_NAME} ${SKILL_VERSION} in ${plural(result.reports.length, "folder")}`,
    { details },
  );
}

async function applyIndex(deps: SetupDeps, project: ProjectInfo, state: ApplyState): Promise<StepReport> {
  const { fs, home } = deps;
  const roots = [fs.path.join(home, "snapshots"), fs.path.join(home, "cache")];
  const before = new Set<string>();
  const missingRoots: string[] = [];
  for (const r of roots) {
    const t = await listTree(fs, r);
    for (const p of [...t.files, ...t.dirs]) before.add(p);
    missingRoots.push(...(await missingAncestors(fs, r)));
  }
  const outcome = await deps.buildIndex(project);
  // Whatever the build added to ra3's home (snapshot, schema cache) is recorded for uninstall.
  const newDirs: string[] = [...missingRoots];
  for (const r of roots) {
    const t = await listTree(fs, r);
    for (const d of t.dirs) if (!before.has(d)) newDirs.push(d);
    for (const f of t.files) {
      if (before.has(f)) continue;
      state.receipt = withLogEntry(state.receipt, LOG_CACHE_WRITE, f, deps.now());
      state.dirty = true;
    }
  }
  await noteCreatedDirs(deps, state, newDirs);
  if (!outcome.ok) {
    return stepReport("index", "failed", outcome.error, {
      todo:
        `run ra3 index --project "${project.projectDir}" to see the details; the server builds the index on its first start anyway`,
    });
  }
  const how = outcome.mode === "warm" ? `warm start in ${outcome.ms} ms` : `built in ${outcome.ms} ms`;
  const snap = outcome.saved
    ? `snapshot ${outcome.snapshotPath}${outcome.size !== null ? ` (${formatBytes(outcome.size)})` : ""}`
    : `snapshot ${outcome.snapshotPath} unchanged`;
  const details = outcome.warning ? [`warning: ${outcome.warning}`] : [];
  return stepReport(
    "index",
    "done",
    `${plural(outcome.files, "file")}, ${plural(outcome.assets, "asset")}, ${how}; ${snap}`,
    { details },
  );
}

/** `1.2 MB`, `340 KB`, `12 B`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

async function applyVerify(deps: SetupDeps, plan: Plan): Promise<{ step: StepReport; live: LiveCheckResult | null }> {
  if (!plan.entry) {
    return {
      step: stepReport("verify", "skipped", "no project (step 2 failed), so there is no server entry to start"),
      live: null,
    };
  }
  if ((await deps.fs.stat(plan.binaryPath))?.kind !== "file") {
    return {
      step: stepReport("verify", "skipped", `there is no installed binary at ${plan.binaryPath} (step 1)`),
      live: null,
    };
  }
  const live = await deps.liveCheck({
    command: plan.entry.command,
    args: plan.entry.args,
    cwd: deps.platform.home,
    timeoutMs: deps.liveCheckTimeoutMs ?? LIVE_CHECK_TIMEOUT_MS,
  });
  if (!live.ok) {
    return {
      step: stepReport("verify", "failed", describeLiveCheck(live), {
        todo: `run the entry by hand to see what a client sees: ${commandLine(plan.entry.command, plan.entry.args)}`,
      }),
      live,
    };
  }
  const version = live.serverVersion && live.serverVersion !== deps.version
    ? `; note: the installed server reports version ${live.serverVersion}, this is ${deps.version}`
    : "";
  return { step: stepReport("verify", "done", `${describeLiveCheck(live)}${version}`), live };
}

/**
 * Runs `ra3 setup`: plans, asks (or not), applies, and returns the report; progress lines go to
 * `deps.print` as each step finishes. Never throws for environment problems; they are step failures.
 * @example const report = await runSetup(deps, { clients: ["cursor"], project: "/mods/x", sdk: null, yes: true, dryRun: false, print: false, interactive: false });
 */
export async function runSetup(deps: SetupDeps, request: SetupRequest): Promise<SetupReport> {
  const started = performance.now();
  const { fs, home } = deps;
  const binaryPath = installedBinaryPath(fs, home, deps.platform.os);
  const base = { home, binary: binaryPath, receiptFile: null, liveCheck: null };
  const read = await readReceipt(fs, home, deps.version);
  if (!read.ok) {
    return {
      ...base,
      ok: false,
      mode: "refused",
      dryRunReason: null,
      error: read.error,
      entry: null,
      steps: [],
      clients: [],
      ms: Math.round(performance.now() - started),
    };
  }
  const plan = await makePlan(deps, request);
  const dryRunReason = request.dryRun ? "flag" : !request.yes && !request.interactive ? "no-terminal" : null;
  deps.print(`ra3 setup ${deps.version}: home ${home}, stable binary ${binaryPath}\n`);

  if (dryRunReason) {
    deps.print(
      dryRunReason === "flag"
        ? "dry run: nothing will be written\n"
        : "not a terminal and no --yes: showing what setup would do without writing anything (run again with --yes to apply)\n",
    );
    const { steps, clients } = dryRunSteps(deps, plan, request);
    for (const s of steps) deps.print(renderStep(s));
    const writes = plannedWrites(deps, plan);
    deps.print(`would write ${plural(writes.length, "file")}:\n${writes.map((w) => `  ${w}\n`).join("")}`);
    const ok = !steps.some((s) => s.status === "failed");
    return {
      ...base,
      ok,
      mode: "dry-run",
      dryRunReason,
      error: null,
      entry: plan.entry,
      steps,
      clients,
      ms: Math.round(performance.now() - started),
    };
  }

  if (!request.yes) {
    const writes = plannedWrites(deps, plan);
    deps.print(`setup will write:\n${writes.map((w) => `  ${w}\n`).join("")}`);
    const diffs = diffsOf(plan);
    if (diffs) deps.print(`\n${diffs}\n`);
    for (const p of plan.configPlans) if (p.change === "error") deps.print(`✗ ${p.displayName}: ${p.error}\n`);
    if (!(await deps.confirm(`write these ${writes.length} files? [y/N] `))) {
      deps.print("nothing was written\n");
      return {
        ...base,
        ok: false,
        mode: "cancelled",
        dryRunReason: null,
        error: null,
        entry: plan.entry,
        steps: [],
        clients: [],
        ms: Math.round(performance.now() - started),
      };
    }
  }

  const homeMissing = await missingAncestors(fs, home);
  const state: ApplyState = {
    receipt: read.receipt,
    dirty: false,
    receiptFile: null,
    receiptError: null,
    createdDirs: new Set(),
  };
  const steps: StepReport[] = [];
  const finish = async (step: StepReport) => {
    await noteCreatedDirs(deps, state, homeMissing);
    await saveReceipt(deps, state);
    steps.push(step);
    deps.print(renderStep(step));
  };

  const binaryStep = await applyBinary(deps, plan, state);
  await finish(binaryStep);
  await finish(projectStep(plan.project));
  const clients = await applyClients(deps, plan, request, state, binaryStep.status === "failed");
  await finish(clients.step);
  await finish(await applySkill(deps, plan, state));
  if (plan.project.ok) await finish(await applyIndex(deps, plan.project.project, state));
  else await finish(stepReport("index", "skipped", "no project (step 2 failed)"));
  const verify = await applyVerify(deps, plan);
  await finish(verify.step);

  const ms = Math.round(performance.now() - started);
  // Logged only when this run wrote something, so a repeated run leaves the receipt byte-identical.
  if (state.receiptFile !== null) {
    state.receipt = withLogEntry(
      state.receipt,
      LOG_SETUP,
      steps.map((s) => `${s.id}:${s.status}`).join(" "),
      deps.now(),
    );
    state.dirty = true;
    await saveReceipt(deps, state);
  }
  if (state.receiptError) deps.print(`✗ ${state.receiptError}\n`);
  deps.print(renderStepSummary(steps, ms));
  const ok = !steps.some((s) => s.status === "failed") && state.receiptError === null;
  return {
    ...base,
    ok,
    mode: "applied",
    dryRunReason: null,
    error: state.receiptError,
    entry: plan.entry,
    steps,
    clients: clients.clients,
    liveCheck: verify.live,
    receiptFile: state.receiptFile,
    ms,
  };
}
