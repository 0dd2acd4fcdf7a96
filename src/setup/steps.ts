/**
 * The vocabulary of `ra3 setup`'s ordered steps: each ends `done`, `skipped (why)` or
 * `failed (why, what to do)`, and the run always goes on to the next step, naming it. This module
 * holds the report records and their text rendering; setup.ts runs the steps.
 */

export type StepId = "binary" | "project" | "clients" | "skill" | "index" | "verify";

export type StepStatus = "done" | "skipped" | "failed";

/** The steps in the order they run, with the title each is announced by. */
const SETUP_STEPS: readonly { readonly id: StepId; readonly title: string }[] = [
  { id: "binary", title: "install the stable binary" },
  { id: "project", title: "detect the project and the SDK" },
  { id: "clients", title: "configure the MCP clients" },
  { id: "skill", title: "install the Agent Skill" },
  { id: "index", title: "build the index and the snapshot" },
  { id: "verify", title: "verify: start the installed server as a client would" },
];

export interface StepReport {
  readonly id: StepId;
  /** 1-based position in {@link SETUP_STEPS}. */
  readonly number: number;
  readonly title: string;
  readonly status: StepStatus;
  /** done: what happened; skipped: why; failed: why. One sentence. */
  readonly summary: string;
  /** failed: what the user should do; null otherwise. */
  readonly todo: string | null;
  /** Extra lines shown under the step (one per client, skill copy, …). */
  readonly details: readonly string[];
}

/** A step report for step `id`. */
export function stepReport(
  id: StepId,
  status: StepStatus,
  summary: string,
  extra: { todo?: string | null; details?: readonly string[] } = {},
): StepReport {
  const index = SETUP_STEPS.findIndex((s) => s.id === id);
  return {
    id,
    number: index + 1,
    title: SETUP_STEPS[index].title,
    status,
    summary,
    todo: extra.todo ?? null,
    details: extra.details ?? [],
  };
}

/**
 * The text of one finished step, e.g.
 * `[3/6] configure the MCP clients: failed: Cursor: … \n      what to do: …\n      continuing with step 4: install the Agent Skill`.
 */
export function renderStep(report: StepReport): string {
  const lines = [
    `[${report.number}/${SETUP_STEPS.length}] ${report.title}: ${
      report.status === "skipped" ? `skipped (${report.summary})` : `${report.status}: ${report.summary}`
    }`,
  ];
  for (const d of report.details) lines.push(...d.split("\n").map((l) => (l === "" ? "" : `      ${l}`)));
  if (report.todo) lines.push(`      what to do: ${report.todo}`);
  const next = SETUP_STEPS[report.number];
  if (report.status === "failed" && next) lines.push(`      continuing with step ${report.number + 1}: ${next.title}`);
  return lines.join("\n") + "\n";
}

/** The closing line of a run, e.g. "setup finished in 3.2 s: 5 done, 1 failed (clients)". */
export function renderStepSummary(reports: readonly StepReport[], ms: number): string {
  const count = (s: StepStatus) => reports.filter((r) => r.status === s);
  const parts: string[] = [];
  for (const s of ["done", "skipped", "failed"] as const) {
    const list = count(s);
    if (list.length) parts.push(`${list.length} ${s}${s === "done" ? "" : ` (${list.map((r) => r.id).join(", ")})`}`);
  }
  return `setup finished in ${(ms / 1000).toFixed(1)} s: ${parts.join(", ")}\n`;
}
