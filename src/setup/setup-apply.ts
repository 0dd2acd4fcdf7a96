/**
 * The apply phase of `ra3 setup`: each step carried out from the plan, in order, with the receipt
 * updated as it goes (saved by the caller after each step, so an interrupted run is simply run again).
 * Every step ends in a {@link StepReport}; a failure says what to do, and the run goes on.
 */
import { SKILL_NAME, SKILL_VERSION } from "../skill/embedded.ts";
import { describeFsError } from "../disk/port.ts";
import { formatBytes } from "../disk/size.ts";
import { samePath } from "../project/paths.ts";
import { applyConfigChange, type ServerEntry } from "./clients/index.ts";
import { listTree, LOG_CACHE_WRITE, LOG_DIR_CREATE, missingAncestors } from "./footprint.ts";
import { commandLine, describeLiveCheck, LIVE_CHECK_TIMEOUT_MS, type LiveCheckResult } from "./live-check.ts";
import {
  type InstallReceipt,
  receiptPath,
  withBinary,
  withLogEntry,
  withSkillRecord,
  writeReceipt,
} from "./receipt.ts";
import { cleanupOldBinaries, selfInstall } from "./self-install.ts";
import { applyTrust } from "./clients/trust.ts";
import type { ClientPlan, ProjectInfo, SetupDeps, SetupPlan, SetupRequest } from "./setup-plan.ts";
import {
  type ClientOutcome,
  clientOutcome,
  type ClientResult,
  clientsStep,
  plural,
  sourceModeWhy,
} from "./setup-report.ts";
import { type StepReport, stepReport } from "./steps.ts";

/** What the apply phase carries from step to step: the receipt as it grows, and whether it needs saving. */
export interface ApplyState {
  receipt: InstallReceipt;
  dirty: boolean;
  receiptFile: string | null;
  receiptError: string | null;
  /** Folders created this run, logged once each. */
  readonly createdDirs: Set<string>;
}

/** Appends a receipt log entry and marks the receipt for saving. */
export function logChange(deps: SetupDeps, state: ApplyState, action: string, detail: string): void {
  state.receipt = withLogEntry(state.receipt, action, detail, deps.now());
  state.dirty = true;
}

/** Logs each of `candidates` that now exists as a folder setup created (once per run). */
export function noteCreatedDirs(deps: SetupDeps, state: ApplyState, candidates: readonly string[]): void {
  for (const d of candidates) {
    if (state.createdDirs.has(d) || !deps.fs.exists(d)) continue;
    state.createdDirs.add(d);
    logChange(deps, state, LOG_DIR_CREATE, d);
  }
}

/** Writes the receipt when something changed since the last save; a failure is kept in `receiptError`. */
export function saveReceipt(deps: SetupDeps, state: ApplyState): void {
  if (!state.dirty) return;
  try {
    state.receiptFile = writeReceipt(deps.fs, deps.home, { ...state.receipt, version: deps.version });
    state.dirty = false;
  } catch (err) {
    state.receiptError = `could not write the install receipt ${receiptPath(deps.fs, deps.home)}: ${
      describeFsError(err)
    }; uninstall will not know about this run's changes`;
  }
}

/** Step 1: installs the stable binary (on Windows, cleans up binaries moved aside earlier). */
export function applyBinary(deps: SetupDeps, plan: SetupPlan, state: ApplyState): StepReport {
  const { fs, platform, home } = deps;
  if (plan.binary.kind === "source") return stepReport("binary", "skipped", sourceModeWhy(deps, plan));
  const missing = missingAncestors(fs, fs.path.dirname(plan.binaryPath));
  if (platform.os === "windows") {
    const old = cleanupOldBinaries(fs, home);
    for (const p of old.removed) logChange(deps, state, "binary.cleanup", p);
  }
  const result = selfInstall({ execPath: deps.execPath, home, os: platform.os, fs });
  noteCreatedDirs(deps, state, missing);
  if (!result.ok) {
    const fallback = fs.stat(plan.binaryPath)?.kind === "file"
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
    logChange(deps, state, `binary.${result.status === "installed" ? "install" : "update"}`, result.path);
  } else if (previous === null || previous.path !== result.path || previous.sha256 !== sha) state.dirty = true;
  const aside = result.movedAside ? ` (the previous one was moved aside to ${result.movedAside})` : "";
  const verb = result.status === "unchanged" ? "unchanged" : result.status;
  return stepReport("binary", "done", `${verb}: ${result.path}${aside}`);
}

/** Step 3: applies each client's config plan, recording it in the receipt. */
export function applyClients(
  deps: SetupDeps,
  plan: SetupPlan,
  request: SetupRequest,
  state: ApplyState,
  binaryFailed: boolean,
): { step: StepReport; clients: ClientOutcome[] } {
  const { fs } = deps;
  if (plan.clientsBlocked === null && binaryFailed && fs.stat(plan.binaryPath)?.kind !== "file") {
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
  for (const c of plan.clients) {
    const p = c.config;
    if (p.change === "error" || p.file === null) {
      clients.push(clientOutcome(c, "failed"));
      continue;
    }
    const missing = missingAncestors(fs, fs.path.dirname(p.file));
    const applied = applyConfigChange(p, fs, state.receipt, { now: deps.now() });
    if (!applied.ok) {
      noteCreatedDirs(deps, state, missing);
      clients.push(clientOutcome(c, "failed", { error: applied.error }));
      continue;
    }
    if (applied.written || !sameRecords(applied.receipt.configs, state.receipt.configs)) state.dirty = true;
    state.receipt = applied.receipt;
    noteCreatedDirs(deps, state, missing);
    const trust = applyClientTrust(deps, c, state);
    const result: ClientResult = p.change === "create" ? "created" : p.change === "update" ? "updated" : "unchanged";
    clients.push(clientOutcome(c, result, { backup: applied.backup, ...(trust !== undefined ? { trust } : {}) }));
  }
  return { step: clientsStep(plan, request, clients, false), clients };
}

/**
 * Writes the client's trust change (after its entry, which it is useless without); returns the line
 * for the report when it differs from the planned one (a failure), else undefined.
 */
function applyClientTrust(deps: SetupDeps, c: ClientPlan, state: ApplyState): string | undefined {
  if (c.trust === null || (c.trust.change !== "create" && c.trust.change !== "update")) return undefined;
  const missing = missingAncestors(deps.fs, deps.fs.path.dirname(c.trust.file));
  const applied = applyTrust(c.trust, deps.fs, state.receipt, deps.now());
  noteCreatedDirs(deps, state, missing);
  if (!applied.ok) return `✗ ${applied.error}`;
  if (applied.written) state.dirty = true;
  state.receipt = applied.receipt;
  return undefined;
}

// Record order may change when a record is re-added; only the set matters.
function sameRecords(a: readonly object[], b: readonly object[]): boolean {
  const key = (list: readonly object[]) => list.map((r) => JSON.stringify(r)).sort().join("\n");
  return key(a) === key(b);
}

/** Step 4: installs the skill into the default targets. */
export function applySkill(deps: SetupDeps, plan: SetupPlan, state: ApplyState): StepReport {
  const { fs } = deps;
  const missing: string[] = [];
  for (const s of plan.skills) if (s.dir) missing.push(...missingAncestors(fs, s.dir));
  const result = deps.skills.install();
  noteCreatedDirs(deps, state, missing);
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
        logChange(deps, state, `skill.${r.action === "installed" ? "install" : "upgrade"}`, r.dir);
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

/** Step 5: builds the index and its snapshot, logging every file and folder the build added to the home. */
export async function applyIndex(deps: SetupDeps, project: ProjectInfo, state: ApplyState): Promise<StepReport> {
  const { fs, home } = deps;
  const roots = [fs.path.join(home, "snapshots"), fs.path.join(home, "cache")];
  const before = new Set<string>();
  const missingRoots: string[] = [];
  for (const r of roots) {
    const t = listTree(fs, r);
    for (const p of [...t.files, ...t.dirs]) before.add(p);
    missingRoots.push(...missingAncestors(fs, r));
  }
  const outcome = await deps.buildIndex(project);
  // Whatever the build added to ra3's home (snapshot, schema cache) is recorded for uninstall.
  const newDirs: string[] = [...missingRoots];
  for (const r of roots) {
    const t = listTree(fs, r);
    for (const d of t.dirs) if (!before.has(d)) newDirs.push(d);
    for (const f of t.files) {
      if (before.has(f)) continue;
      logChange(deps, state, LOG_CACHE_WRITE, f);
    }
  }
  noteCreatedDirs(deps, state, newDirs);
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

/**
 * Step 6: starts the installed server exactly as the entries written say, as a client would (each
 * distinct command line once; the plain entry when no client was configured).
 */
export async function applyVerify(
  deps: SetupDeps,
  plan: SetupPlan,
  clients: readonly ClientOutcome[],
): Promise<{ step: StepReport; live: LiveCheckResult | null }> {
  if (!plan.entry) {
    return {
      step: stepReport("verify", "skipped", "no project (step 2 failed), so there is no server entry to start"),
      live: null,
    };
  }
  if (deps.fs.stat(plan.binaryPath)?.kind !== "file") {
    return {
      step: stepReport("verify", "skipped", `there is no installed binary at ${plan.binaryPath} (step 1)`),
      live: null,
    };
  }
  const written = plan.clients
    .filter((c) => c.entry !== null && clients.some((o) => o.client === c.writer.id && o.result !== "failed"))
    .map((c) => c.entry!);
  const distinct = new Map<string, ServerEntry>();
  for (const e of written.length ? written : [plan.entry]) distinct.set(JSON.stringify([e.command, e.args]), e);
  let first: LiveCheckResult | null = null;
  const lines: string[] = [];
  for (const entry of distinct.values()) {
    const live = await deps.liveCheck({
      command: entry.command,
      args: entry.args,
      cwd: deps.platform.home,
      timeoutMs: deps.liveCheckTimeoutMs ?? LIVE_CHECK_TIMEOUT_MS,
    });
    first ??= live;
    if (!live.ok) {
      return {
        step: stepReport("verify", "failed", describeLiveCheck(live), {
          todo: `run the entry by hand to see what a client sees: ${commandLine(entry.command, entry.args)}`,
        }),
        live,
      };
    }
    if (distinct.size > 1) lines.push(`✓ ${commandLine(entry.command, entry.args)}: ${describeLiveCheck(live)}`);
  }
  const live = first!;
  const version = live.ok && live.serverVersion && live.serverVersion !== deps.version
    ? `; note: the installed server reports version ${live.serverVersion}, this is ${deps.version}`
    : "";
  return {
    step: stepReport(
      "verify",
      "done",
      distinct.size > 1 ? `${distinct.size} entries answer${version}` : `${describeLiveCheck(live)}${version}`,
      { details: lines },
    ),
    live,
  };
}
