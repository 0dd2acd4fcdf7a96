// Where a server goes silent: runs the MCP server's IndexService in process (as `ra3 mcp` makes it: the
// schema in steps, the snapshot store, the stored index served first, the file watcher on) for a cold
// build in a fresh home and then a warm start in the same home, and records every gap of the event loop
// (a 1 ms interval timer: a gap between two of its ticks is time in which no request could have been
// answered) with what ran in it: each slice's steps are timed through the slicer's pause, each step is
// labelled by the file it parsed, or by the stepped job it belongs to and, for a long step, the stack
// where it ended. Prints the longest gaps of each run with their labels.
//
// Usage: bun scripts/bench-silence.ts [--project DIR] [--schema DIR] [--runs 1] [--top 10] [--gc] [--sort wall|cpu]
// Default project: the generated Corona-scale mod (/tmp/ra3-perf-corona, see bench-targets.ts).
// For garbage collections, run with BUN_JSC_logGC=1 2>gc.log: the collector's pauses ("p=… ms") are logged.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { IndexCore } from "../src/index/core.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { IndexService } from "../src/workspace/service.ts";
import { Slicer } from "../src/workspace/slices.ts";
import { schemaKeyOf, StoreSnapshotPort } from "../src/workspace/snapshots.ts";
import type { Workspace } from "../src/workspace/workspace.ts";

const { values } = parseArgs({
  options: {
    project: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
    schema: { type: "string" },
    runs: { type: "string", default: "1" },
    top: { type: "string", default: "10" },
    gc: { type: "boolean", default: false },
    sort: { type: "string", default: "wall" },
    "gc-log": { type: "string" },
  },
});
const project = values.project!;
if (!existsSync(project)) {
  console.error(`bench-silence: ${project} is missing (bun scripts/gen-corpus.ts --out ${project})`);
  process.exit(2);
}
const top = Number(values.top);
const gcLog = values["gc-log"];
if (values.gc && !gcLog) {
  // Again in a child whose collector logs its pauses to a file (read back per gap at the end of each run).
  const log = join(mkdtempSync(join(tmpdir(), "ra3-bench-silence-gc-")), "gc.log");
  const fd = openSync(log, "w");
  const args = process.argv.slice(1).filter((a) => a !== "--gc");
  const r = spawnSync(process.execPath, [...args, "--gc-log", log], {
    stdio: ["ignore", "inherit", fd],
    env: { ...process.env, BUN_JSC_logGC: "1" },
  });
  closeSync(fd);
  process.exit(r.status ?? 1);
}

/** One step between two pauses: how long it ran and what it was. */
interface Step {
  readonly end: number;
  readonly ms: number;
  /** CPU time of the process in the step (all threads): far below `ms` means the process was not running. */
  readonly cpuMs: number;
  readonly label: string;
}

let steps: Step[] = [];
/** What the current step is doing: set when a file is parsed or a stepped job starts. */
let label = "outside a slice";
let lastPause = performance.now();
let lastCpu = cpuNow();
/** What the harness is waiting for (labels gaps where no step ended). */
let phase = "start";

function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
/** Steps at least this long get the stack where they ended in their label. */
const STACK_MS = 20;

const pause = Slicer.prototype.pause;
Slicer.prototype.pause = function (this: Slicer): Promise<void> {
  const now = performance.now();
  const ms = now - lastPause;
  const cpu = cpuNow();
  const cpuMs = cpu - lastCpu;
  let l = label || "a step of no labelled job";
  if (ms >= STACK_MS) l += ` @ ${where(new Error().stack ?? "")}`;
  steps.push({ end: now, ms, cpuMs, label: l });
  label = "";
  const p = pause.call(this);
  // The next step starts when this pause returns control (at once, or after the yield).
  return p.then(() => {
    lastPause = performance.now();
    lastCpu = cpuNow();
  });
};
const drive = Slicer.prototype.drive;
Slicer.prototype.drive = function <T>(this: Slicer, s: Generator<void, T, void>): Promise<T> {
  const job = `steps of ${where(new Error().stack ?? "")}`;
  mark(job);
  let n = 0;
  const counted = (function* () {
    for (;;) {
      mark(`${job} #${n++}`);
      const r = s.next();
      if (r.done) {
        mark(`the end of the last step (#${n - 1}) of ${job}`);
        return r.value;
      }
      yield;
    }
  })();
  return drive.call(this, counted) as Promise<T>;
};
const apply = IndexCore.prototype.applyChanges;
IndexCore.prototype.applyChanges = function (this: IndexCore, changes) {
  const c = changes[0];
  const what = changes.length === 1 && c && "bytes" in c
    ? `parse ${basename(c.path)} (${Math.round(c.bytes.length / 1024)} KB)`
    : `apply ${changes.length} changes`;
  const t = performance.now();
  const n = apply.call(this, changes);
  const ms = performance.now() - t;
  if (ms >= 1) mark(`${what} in ${ms.toFixed(1)} ms`);
  return n;
};

/** Adds `what` to the current step's label (a step may parse files, end one job and start another). */
function mark(what: string): void {
  label = label ? `${label} → ${what}` : what;
  if (label.length > 400) label = `…${label.slice(-400)}`;
}

/** The first few frames of `stack` that are this project's, not the slicer's or this script's. */
function where(stack: string): string {
  return stack.split("\n").slice(1)
    .map((l) => l.trim().replace(/^at /, ""))
    .filter((l) => !/slices\.ts|bench-silence|steps\.ts|processTicksAndRejections|native/.test(l))
    .slice(0, 3)
    .map((l) => l.replace(/\(?\/[^ ]*\/src\//, "").replace(/\)$/, "").replace(/:\d+$/, ""))
    .join(" < ");
}

interface Gap {
  readonly ms: number;
  readonly cpuMs: number;
  /** Before the index was ready and complete (what bench-targets.ts polls for), or after (the snapshot's save). */
  readonly phase: string;
  /** Its place in the run (the collector's log is split at each tick). */
  readonly index: number;
  readonly at: number;
  /** The longest step that ended in the gap, and the sum of all of them. */
  readonly longest: Step | null;
  readonly stepsMs: number;
}

async function run(home: string, kind: string): Promise<void> {
  const cfg = resolveConfig({ project, sdk: "", schema: values.schema ?? null, home, env: {} });
  if ("envError" in cfg) throw new Error(cfg.envError);
  steps = [];
  const gaps: Gap[] = [];
  if (gcLog) writeSync(2, `@@run ${kind}\n`);
  const t0 = performance.now();
  let lastTick = t0;
  let lastTickCpu = cpuNow();
  let seen = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const ms = now - lastTick;
    let longest: Step | null = null;
    let sum = 0;
    for (; seen < steps.length && steps[seen].end <= now; seen++) {
      const s = steps[seen];
      sum += s.ms;
      if (!longest || s.ms > longest.ms) longest = s;
    }
    const cpu = cpuNow();
    gaps.push({ ms, cpuMs: cpu - lastTickCpu, phase, index: gaps.length, at: lastTick - t0, longest, stepsMs: sum });
    lastTickCpu = cpu;
    if (gcLog) writeSync(2, "@@tick\n");
    lastTick = now;
  }, 1);
  const service = new IndexService(cfg, {
    watch: true,
    serveStoredIndex: true,
    snapshots: (ws: Workspace) => new StoreSnapshotPort(cfg.home, cfg.projectDir, schemaKeyOf(ws.schema), () => {}),
  });
  phase = "before ready";
  void service.start();
  let readyMs = NaN;
  for (;;) {
    const v = service.view();
    if (v.lifecycle.state === "ready" && v.lifecycle.complete) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  readyMs = performance.now() - t0;
  // The first complete build saves its snapshot promptly (in steps): its gaps are shown as "after ready".
  phase = "after ready";
  await service.start();
  await service.dispose();
  const total = performance.now() - t0;
  clearInterval(timer);
  const gc = gcLog ? collectorPauses(kind) : null;
  // On a loaded machine wall time includes waiting for a core: --sort cpu ranks by the process's CPU time.
  gaps.sort(values.sort === "cpu" ? (a, b) => b.cpuMs - a.cpuMs : (a, b) => b.ms - a.ms);
  console.log(
    `\n${kind}: ready at ${Math.round(readyMs)} ms, done at ${Math.round(total)} ms, ${gaps.length} ticks, load ${
      loadavg()[0].toFixed(2)
    }`,
  );
  console.log(
    `| gap ms | CPU ms | at ms | phase | longest step ms (CPU) | steps in gap ms |${
      gc ? " GC pauses ms (full) |" : ""
    } longest step |`,
  );
  console.log(`|---|---|---|---|---|---|${gc ? "---|" : ""}---|`);
  for (const g of gaps.slice(0, top)) {
    const c = gc?.[g.index];
    const gcCell = gc ? ` ${c ? `${c.ms.toFixed(1)}${c.full ? " (full)" : ""}` : "0"} |` : "";
    console.log(
      `| ${g.ms.toFixed(1)} | ${g.cpuMs.toFixed(1)} | ${Math.round(g.at)} | ${g.phase} | ${
        g.longest ? `${g.longest.ms.toFixed(1)} (${g.longest.cpuMs.toFixed(1)})` : ""
      } | ${g.stepsMs.toFixed(1)} |${gcCell} ${g.longest?.label ?? "(no step ended: outside the slicer)"} |`,
    );
  }
  if (gc) {
    const all = gc.filter(Boolean);
    const longest = Math.max(0, ...all.map((c) => c.max));
    console.log(
      `collector: ${all.reduce((n, c) => n + c.count, 0)} pauses, ${
        all.reduce((n, c) => n + c.ms, 0).toFixed(0)
      } ms in all, the longest ${longest.toFixed(1)} ms`,
    );
  }
}

/** The collector's pauses logged during each gap of the run `kind` (by gap index), from the log. */
function collectorPauses(kind: string): { ms: number; max: number; count: number; full: boolean }[] {
  const lines = readFileSync(gcLog!, "utf8").split("\n");
  const start = lines.lastIndexOf(`@@run ${kind}`);
  const out: { ms: number; max: number; count: number; full: boolean }[] = [];
  let gap = 0;
  for (const line of lines.slice(start + 1)) {
    if (line === "@@tick") {
      gap++;
      continue;
    }
    const c = (out[gap] ??= { ms: 0, max: 0, count: 0, full: false });
    if (line.includes("FullCollection")) c.full = true;
    for (const m of line.matchAll(/ p=([\d.]+)ms/g)) {
      const ms = Number(m[1]);
      c.ms += ms;
      c.max = Math.max(c.max, ms);
      c.count++;
    }
  }
  return out;
}

console.log(
  `bench-silence: ${project}${values.schema ? ` with ${values.schema}` : ""}, load ${loadavg()[0].toFixed(2)}`,
);
for (let i = 0; i < Number(values.runs); i++) {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-silence-"));
  try {
    await run(home, "cold build (fresh home)");
    await run(home, "warm start (nothing changed)");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
