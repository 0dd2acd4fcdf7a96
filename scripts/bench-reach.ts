// Reachable-first cold builds (issue 16 item 4): how soon a server's cold build publishes its first index
// and its complete one, parsing what the include graph reaches first or, as before, every XML file first.
// Each run is a fresh process (a server's cold start: cold JIT, a fresh home, so the schema is parsed
// too) that builds a Workspace as the server does (two phases) and notes when each index is published:
// the first one (reachable-only when the build publishes one), the one holding every XML file, and the
// final one with the art. The two modes are interleaved run by run; the table gives medians (ms from the
// start of the build; the schema load before it is its own column) and the load average before and after.
//
// Usage: bun scripts/bench-reach.ts [--runs 3] [--only upheaval,upheaval-schema,tw-sdk,corona]
//                                   [--corona /tmp/ra3-perf-corona]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CORPORA } from "./corpora.ts";
import { resolveConfig } from "../src/workspace/config.ts";
import { Workspace } from "../src/workspace/workspace.ts";

const root = join(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    corona: { type: "string", default: join(tmpdir(), "ra3-perf-corona") },
    child: { type: "string" },
    mode: { type: "string" },
  },
});

interface Target {
  readonly name: string;
  readonly project: string;
  readonly sdk: string;
  readonly schema: string | null;
}

const TARGETS: Record<string, Target> = {
  upheaval: { name: "Upheaval, project-only", project: join(CORPORA, "upheaval"), sdk: "", schema: null },
  "upheaval-schema": {
    name: "Upheaval, RA3 schema",
    project: join(CORPORA, "upheaval"),
    sdk: "",
    schema: join(CORPORA, "ra3-xsd"),
  },
  "tw-sdk": {
    name: "TW SDK + Commander (SDK mode)",
    project: join(CORPORA, "tw-sdk", "Mods", "Commander"),
    sdk: join(CORPORA, "tw-sdk"),
    schema: null,
  },
  corona: { name: "Corona scale (generated, scale 1)", project: values.corona!, sdk: "", schema: null },
};

/** What one run measured (ms; `firstMs` is the first published index, reachable-only or not; files: records). */
interface Run {
  readonly schemaMs: number;
  readonly firstMs: number;
  readonly firstFiles: number;
  readonly firstReachedOnly: boolean;
  readonly xmlMs: number;
  readonly xmlFiles: number;
  readonly doneMs: number;
  readonly reachedFiles: number | null;
}

/** One run in this process: a fresh home, a two-phase build, the publish times. */
async function child(target: Target, reachableFirst: boolean): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), "ra3-bench-reach-"));
  try {
    const cfg = resolveConfig({ project: target.project, sdk: target.sdk, schema: target.schema, home, env: {} });
    if ("envError" in cfg) throw new Error(cfg.envError);
    const t0 = performance.now();
    const ws = new Workspace(cfg);
    const schemaMs = performance.now() - t0;
    const published: { ms: number; files: number; reachedOnly: boolean }[] = [];
    // Every publish of a build ends in a lifecycle event: xml_done (reachable-only, then every XML file), build_done.
    const event = ws.event.bind(ws);
    let start = 0;
    ws.event = (e) => {
      event(e);
      if ((e === "xml_done" || e === "build_done") && ws.linked) {
        published.push({ ms: performance.now() - start, files: ws.core.size, reachedOnly: ws.reachedOnly });
      }
    };
    start = performance.now();
    const report = await ws.build(undefined, undefined, { reachableFirst });
    const first = published[0];
    const xml = published.find((p) => !p.reachedOnly)!;
    return {
      schemaMs,
      firstMs: first.ms,
      firstFiles: first.files,
      firstReachedOnly: first.reachedOnly,
      xmlMs: xml.ms,
      xmlFiles: xml.files,
      doneMs: published[published.length - 1].ms,
      reachedFiles: report.reachedFiles,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (values.child) {
  const run = await child(TARGETS[values.child], values.mode === "reach");
  console.log(JSON.stringify(run));
  process.exit(0);
}

const runs = Number(values.runs);
const only = values.only ? new Set(values.only.split(",")) : null;
const names = Object.keys(TARGETS).filter((n) => !only || only.has(n));
const corona = TARGETS.corona.project;
if (names.includes("corona") && !existsSync(join(corona, "Data", "Mod.xml"))) {
  console.error(`bench-reach: generating the Corona-scale mod into ${corona}`);
  const g = spawnSync(process.execPath, [join(root, "scripts", "gen-corpus.ts"), "--out", corona], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (g.status !== 0) throw new Error("corpus generation failed");
}

function spawnRun(name: string, mode: "reach" | "full"): Run {
  const r = spawnSync(process.execPath, [import.meta.filename, "--child", name, "--mode", mode, "--corona", corona], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(`run ${name} ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as Run;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");

console.log(`load average before: ${load()}`);
const rows: string[] = [];
for (const name of names) {
  const t = TARGETS[name];
  const got: Record<"full" | "reach", Run[]> = { full: [], reach: [] };
  for (let i = 0; i < runs; i++) {
    // Interleaved, the order alternating, so a change of load hits both modes alike.
    const order: ("full" | "reach")[] = i % 2 === 0 ? ["full", "reach"] : ["reach", "full"];
    for (const mode of order) got[mode].push(spawnRun(name, mode));
  }
  for (const mode of ["full", "reach"] as const) {
    const rs = got[mode];
    const r0 = rs[0];
    const first = r0.firstReachedOnly
      ? `${r0.firstFiles} files (reachable only)`
      : `${r0.firstFiles} files (every XML file)`;
    rows.push(
      `| ${t.name} | ${mode === "full" ? "every XML file first (before)" : "reachable first (after)"} | ${
        fmt(median(rs.map((r) => r.schemaMs)))
      } | ${fmt(median(rs.map((r) => r.firstMs)))} | ${first} | ${fmt(median(rs.map((r) => r.xmlMs)))} | ${
        fmt(median(rs.map((r) => r.doneMs)))
      } |`,
    );
  }
}
console.log(`load average after: ${load()}`);
console.log(`\n${runs} runs per mode, interleaved; medians, ms from the start of the build (schema load before it)\n`);
console.log("| mod | build | schema load | first index | first index holds | every XML file | complete (art) |");
console.log("|---|---|---:|---:|---|---:|---:|");
for (const r of rows) console.log(r);
