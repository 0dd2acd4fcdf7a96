/**
 * `ra3 setup`: the ordered, resumable steps of DESIGN.md §Zero-install setup — (1) install the stable
 * binary, (2) detect the project and SDK, (3) write each MCP client's entry, (4) install the Agent
 * Skill, (5) build the index and its snapshot, (6) start the installed server as a client would.
 *
 * Everything is planned first without writing (setup-plan.ts; that plan is `--dry-run`, and what the
 * TTY question shows), then applied step by step (setup-apply.ts) and reported (setup-report.ts). A
 * failed step is reported with what to do and the run goes on; steps that depend on it say they were
 * skipped and why. Every write is recorded in the install
 * receipt, written after each step so an interrupted run can simply be run again (each step is
 * idempotent: a second run reports "unchanged" and writes nothing, not even the receipt).
 *
 * All effects go through injected ports (platform, file system, skill installer, indexer, live check),
 * so the whole sequence runs in tests against an in-memory file system.
 */
import { LOG_PROJECT, LOG_SETUP, loggedPaths, missingAncestors } from "./footprint.ts";
import { samePath } from "../project/paths.ts";
import type { LiveCheckResult } from "./live-check.ts";
import type { ServerEntry } from "./clients/index.ts";
import { readReceipt } from "./receipt.ts";
import { installedBinaryPath } from "./self-install.ts";
import {
  applyBinary,
  applyClients,
  applyIndex,
  applySkill,
  type ApplyState,
  applyVerify,
  logChange,
  noteCreatedDirs,
  saveReceipt,
} from "./setup-apply.ts";
import { diffsOf, plannedWrites, planSetup, type SetupDeps, type SetupRequest } from "./setup-plan.ts";
import { type ClientOutcome, dryRunSteps, plural, projectStep } from "./setup-report.ts";
import { renderStep, renderStepSummary, type StepReport, stepReport } from "./steps.ts";

/** What a setup run did, step by step (also the `--json` result). */
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
  const read = readReceipt(fs, home, deps.version);
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
  const plan = await planSetup(deps, request, read.receipt);
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

  const homeMissing = missingAncestors(fs, home);
  const state: ApplyState = {
    receipt: read.receipt,
    dirty: false,
    receiptFile: null,
    receiptError: null,
    createdDirs: new Set(),
  };
  const steps: StepReport[] = [];
  const finish = (step: StepReport) => {
    noteCreatedDirs(deps, state, homeMissing);
    saveReceipt(deps, state);
    steps.push(step);
    deps.print(renderStep(step));
  };

  const binaryStep = applyBinary(deps, plan, state);
  finish(binaryStep);
  if (
    plan.project.ok &&
    !loggedPaths(state.receipt, LOG_PROJECT).some((p) =>
      samePath(p, plan.project.ok ? plan.project.project.projectDir : "")
    )
  ) {
    logChange(deps, state, LOG_PROJECT, plan.project.project.projectDir);
  }
  finish(projectStep(plan.project));
  const clients = applyClients(deps, plan, request, state, binaryStep.status === "failed");
  finish(clients.step);
  finish(applySkill(deps, plan, state));
  if (plan.project.ok) finish(await applyIndex(deps, plan.project.project, state));
  else finish(stepReport("index", "skipped", "no project (step 2 failed)"));
  const verify = await applyVerify(deps, plan, clients.clients);
  finish(verify.step);

  const ms = Math.round(performance.now() - started);
  // Logged only when this run wrote something, so a repeated run leaves the receipt byte-identical.
  if (state.receiptFile !== null) {
    logChange(deps, state, LOG_SETUP, steps.map((s) => `${s.id}:${s.status}`).join(" "));
    saveReceipt(deps, state);
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
