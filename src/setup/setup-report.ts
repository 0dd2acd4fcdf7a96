/**
 * The report phase of `ra3 setup`: how a plan and its outcomes read — one line per client, the text
 * of steps 2 and 3, and the dry run's step reports (what each step would do, from the plan alone).
 */
import { baseName } from "../project/paths.ts";
import { snapshotPathFor } from "../project/home.ts";
import { allWriters, printEntry } from "./clients/index.ts";
import type { ClientId, Scope } from "./clients/index.ts";
import type { ServedFolder } from "./mods.ts";
import type { ClientPlan, ProjectDetection, SetupDeps, SetupPlan, SetupRequest } from "./setup-plan.ts";
import { type StepReport, stepReport } from "./steps.ts";

/** What happened to one client's config file (or would, in a dry run). */
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
  /** What the entry serves and what changed for which mod, one sentence (null when the plan failed early). */
  readonly serves: string | null;
  /** The folder-trust change for this client, one sentence, or null when the client has none to make. */
  readonly trust: string | null;
}

/** `1 file`, `3 files`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * What the entry serves, for the report: which mod, or which folder of mods and how that changed.
 * @example servesLine({ kind: "container", dir: "/mods", previous: "/mods/A", mods: ["/mods/A", "/mods/B"] }, false)
 *          // "now serves the mods in /mods (A, B); it served /mods/A before"
 */
function servesLine(
  served: ServedFolder | null,
  dryRun: boolean,
  baseName: (p: string) => string,
): string | null {
  if (served === null) return null;
  const names = (mods: readonly string[]) => mods.map(baseName).join(", ");
  const will = dryRun ? "would serve" : "now serves";
  switch (served.kind) {
    case "new":
    case "same":
      return `serves the mod ${served.dir}`;
    case "inside":
      return `serves the mods in ${served.dir} (${names(served.mods)}), this one included`;
    case "container":
      return `${will} the mods in ${served.dir} (${names(served.mods)}); it served ${served.previous} before`;
    case "separate":
      return null;
  }
}

/** A client's line in the report, from its plan and what happened to it. */
export function clientOutcome(
  client: ClientPlan,
  result: ClientResult,
  extra: { error?: string | null; backup?: string | null; trust?: string | null; dryRun?: boolean } = {},
): ClientOutcome {
  const plan = client.config;
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
    serves: result === "failed" ? null : servesLine(client.served, extra.dryRun ?? false, baseName),
    trust: extra.trust ?? trustLine(client, extra.dryRun ?? false),
  };
}

/** The trust sentence of a planned (dry run) or applied trust change. */
function trustLine(client: ClientPlan, dryRun: boolean): string | null {
  const t = client.trust;
  if (t === null) return null;
  switch (t.change) {
    case "unchanged":
      return `${t.folder} is already trusted in ${t.file}`;
    case "create":
    case "update":
      return `${
        dryRun ? "would trust" : "trusted"
      } ${t.folder} in ${t.file} (${t.displayName} disables MCP servers in folders you have not trusted)`;
    case "distrusted":
      return `note: ${t.message}`;
    case "error":
      return `✗ ${t.message}`;
  }
}

/** One client as report text: `✓ Cursor: <file>: created`, or the error, plus backup, warnings and notes. */
function clientLine(o: ClientOutcome): string {
  const mark = o.result === "failed" ? "✗" : "✓";
  const head = `${mark} ${o.displayName}: ${o.file ?? "(no file)"}: ${o.result}`;
  const lines = [
    o.result === "failed" ? `${mark} ${o.displayName}: ${o.error}` : head + (o.serves ? `; ${o.serves}` : ""),
  ];
  if (o.trust) lines.push(`  ${o.trust}`);
  if (o.backup) lines.push(`  backup of the previous file: ${o.backup}`);
  for (const w of o.warnings) lines.push(`  warning: ${w}`);
  for (const n of o.notes) lines.push(`  note: ${n}`);
  return lines.join("\n");
}

/** The step reports of a dry run: what each step would do, from the plan alone. */
export function dryRunSteps(
  deps: SetupDeps,
  plan: SetupPlan,
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

  const clients = plan.clients.map((c) =>
    clientOutcome(
      c,
      c.config.change === "error"
        ? "failed"
        : c.config.change === "create"
        ? "would create"
        : c.config.change === "update"
        ? "would update"
        : "unchanged",
      { dryRun: true },
    )
  );
  steps.push(clientsStep(plan, request, clients, true));

  const pending = plan.skills.filter((s) => s.action === "install" || s.action === "update");
  const broken = plan.skills.filter((s) => s.action === "failed");
  const skillDetails = plan.skills.map((
    s,
  ) => (s.action === "failed"
    ? `✗ ${s.target}: ${s.error}`
    : `${s.dir}: ${s.action === "unchanged" ? "unchanged" : `would ${s.action}`}${
      s.kept.length ? `; keeps your changes to ${s.kept.join(", ")}` : ""
    }`)
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
  } else {
    steps.push(
      stepReport("skill", "done", `unchanged: ${plan.skills.map((s) => s.dir).join(", ")}`, {
        details: plan.skills.some((s) => s.kept.length) ? skillDetails : [],
      }),
    );
  }

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

/** Why step 1 is skipped when ra3 runs from source. */
export function sourceModeWhy(deps: SetupDeps, plan: SetupPlan): string {
  const b = plan.binary;
  const tail = b.kind === "source" && b.exists
    ? `; client configs point at the binary already installed at ${plan.binaryPath}`
    : "";
  return `running from source: ${
    baseName(deps.execPath)
  } is a JavaScript runtime, not a compiled ra3, so there is nothing to copy; build ra3 (npm run build) and run dist/ra3 setup to install it${tail}`;
}

/** Step 2 from the project detection. */
export function projectStep(project: ProjectDetection): StepReport {
  if (!project.ok) {
    return stepReport("project", "failed", project.error, {
      todo: "run ra3 setup inside the mod folder, or pass --project DIR (and --sdk DIR for the SDK)",
    });
  }
  return stepReport("project", "done", `${project.project.projectDir} (${project.project.description})`);
}

/** Step 3 from the clients' outcomes (applied, or planned when `dryRun`). */
export function clientsStep(
  plan: SetupPlan,
  request: SetupRequest,
  clients: readonly ClientOutcome[],
  dryRun: boolean,
): StepReport {
  const printed = request.print && plan.entry
    ? ["entry for other clients (add it under their servers key):", printEntry(plan.entry).trimEnd()]
    : [];
  if (plan.clientsBlocked !== null) {
    const { cause, reason } = plan.clientsBlocked;
    const todo = {
      project: null,
      entry: "give --entry the mod's entry files (relative to the mod), or leave it out to let ra3 detect them",
      source: "build ra3 with npm run build and run dist/ra3 setup (the compiled binary installs itself first)",
    }[cause];
    return stepReport("clients", cause === "project" ? "skipped" : "failed", reason, { todo });
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
  const failed = clients.filter((c) => c.result === "failed" || c.trust?.startsWith("✗ "));
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
